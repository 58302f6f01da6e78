"""Sphinx configuration of the rnglab documentation.

Build: ``python -m sphinx -W -b html docs docs/_build/html`` (warnings are errors). Everything the
build reads is in the checkout or installed by ``pip install -e ".[docs]"``: no intersphinx, no
download at build time.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))          # document the checkout, not another installed copy

project = "rnglab"
author = "rnglab developers"
copyright = "2026, rnglab developers"
release = version = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",        # the API reference, read from the docstrings
    "sphinx.ext.mathjax",        # the maths of the numpydoc docstrings
    "numpydoc",                  # numpydoc's docstring sections (Parameters, Returns, References)
    "sphinx_click",              # the CLI reference, generated from the click commands themselves
    "myst_parser",               # the guides, written in Markdown
    "rnglab_api",                # one API entry per public name of rnglab/__init__.py (docs/_ext)
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# docs/incoming holds other contributors' notes waiting to be folded into the guides.
exclude_patterns = ["_build", "incoming", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3            # [text](page.md#a-heading) links are checked at build time
suppress_warnings = []

autodoc_member_order = "bysource"
autodoc_typehints = "none"          # numpydoc states the types in the Parameters section
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

nitpicky = False
smartquotes = False                 # "--fail-on" stays two hyphens in the CLI reference and the guides
html_theme = "pydata_sphinx_theme"
html_title = "rnglab"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_static_path = []
html_show_sourcelink = False
