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
    """reStructuredText for every public name of ``module``, defined where it lives."""
    lines = []
    for name in module.__all__:
        value = getattr(module, name)
        home = getattr(value, "__module__", None) if autodoc_directive(name, value) != "autodata" else None
        home = home or module._EXPORTS[name]
        lines += [f".. {autodoc_directive(name, value)}:: {home}.{name}", ""]
        if autodoc_directive(name, value) == "autoclass":
            lines += ["   :members:", ""]
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
