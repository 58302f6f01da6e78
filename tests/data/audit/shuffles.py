"""The shuffles of tests/userfunc/articles.py, beside the audit TOML files (``function =`` names a .py file in the
TOML's own folder; what that file then imports is its own affair)."""

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("articles", Path(__file__).parents[2] / "userfunc" / "articles.py")
_articles = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_articles)

fisher_yates, naive_exchange, python2_shuffle = _articles.fisher_yates, _articles.naive_exchange, _articles.python2_shuffle
