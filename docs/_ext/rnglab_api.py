"""The ``rnglab-api`` directive: one autodoc entry for each public name of ``rnglab/__init__.py``.

The list is read from ``rnglab.__all__`` when the site is built, so a name added to (or removed
from) the package's table of contents appears in (or leaves) the API reference without an edit here.
"""

from __future__ import annotations

import inspect

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective


def autodoc_directive(name: str, value) -> str:
    """The autodoc directive that documents ``value``, public as ``rnglab.<name>``."""
    if inspect.isclass(value):
        return "autoclass"
    if callable(value):
        return "autofunction"
    return "autodata"


def api_lines(module) -> list[str]:
    """reStructuredText for every public name of ``module``, documented where it is defined."""
    options = {"autoclass": ["   :members:"],
               "autodata": ["   :no-value:"]}       # a registry's repr is pages long; its #: comment says what it is
    lines = []
    for name in module.__all__:
        value = getattr(module, name)
        directive = autodoc_directive(name, value)
        home = getattr(value, "__module__", None) if directive != "autodata" else None
        lines += [f".. {directive}:: {home or module._EXPORTS[name]}.{name}", *options.get(directive, []), ""]
    return lines


class RnglabApi(SphinxDirective):
    """Expand to the autodoc entries of every name in ``rnglab.__all__``."""

    def run(self):
        import rnglab

        content = StringList(api_lines(rnglab), source="rnglab.__all__")
        container = nodes.section()
        container.document = self.state.document
        self.state.nested_parse(content, self.content_offset, container)
        return container.children


def setup(app):
    app.add_directive("rnglab-api", RnglabApi)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
