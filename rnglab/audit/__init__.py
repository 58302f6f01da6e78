"""``rnglab audit``: one game's whole RNG pipeline examined end to end, graded, in a report people read.

The input is one pipeline, resolved once (:mod:`~rnglab.audit.target`: a named
pipeline or a short TOML file). :func:`~rnglab.audit.run.audit` answers six
questions with the library's own analyses -- reachability, scaling, the shuffle's
law, unpredictability, non-repeatability, raw output -- and grades each pass,
warn or fail by one number against the rules of :data:`~rnglab.audit.grades.RULES`.
:mod:`~rnglab.audit.render` writes the result as Markdown, JSON and one
self-contained HTML page (Jinja2 templates in ``templates/``).
"""

from rnglab.audit.grades import RULES, Finding
from rnglab.audit.run import Audit, audit
from rnglab.audit.target import Target, from_pipeline, from_table, from_toml, resolve, with_deployment

__all__ = ["RULES", "Audit", "Finding", "Target", "audit", "from_pipeline", "from_table", "from_toml", "resolve",
           "with_deployment"]
