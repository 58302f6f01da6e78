"""Pages people read: Markdown and one self-contained HTML page, from Jinja2 templates.

``rnglab report`` and ``rnglab audit`` render their result objects through the
one environment built here and the templates in ``templates/`` (package data):
``base.html.j2`` holds the page's head, stylesheet, summary and table of
contents, ``macros.html.j2`` the pieces both pages use (a table in a horizontal
scroll container, a figure with its caption, a grade). A page carries its
figures inline (base64 PNG) and its style in the head: it loads nothing from
anywhere. Grades are shown by a symbol and a word besides their colour, so that
they read in print and for colour-blind readers.

Cells are formatted here, once: integers of a million and more as powers of
two (:func:`~rnglab.pages.numbers.power`) except identifiers, seeds and states,
marked :class:`~rnglab.pages.numbers.Exact` (all their digits), numbers right-aligned (the test
``numeric``), text left-aligned, and in running text `` `code` `` and
``**bold**`` become ``<code>`` and ``<strong>`` after the text is escaped.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from importlib.resources import files

from rnglab.pages.numbers import WRITTEN_OUT, Exact, power

#: A cell that holds a number: 1,234 / 0.5 / 1.2e-05 / 2^64.00 / 2^31 - 1 / 3.71 s / 1 + 1.2e-08 / eps, 1 - 1.8e-06.
NUMBER = re.compile(r"^(1 [-+] )?([-+]?(\d[\d,]*(\.\d+)?([eE][-+]?\d+)?|2\^[\d.]+( [-+] [\d,]+)?|eps))"
                    r"( [a-z/]+)?$")
#: Inline markup of running text, after escaping: `code`, **bold**, *emphasis*.
INLINE = ((re.compile(r"`([^`]+)`"), r"<code>\1</code>"), (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
          (re.compile(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])"), r"<em>\1</em>"))
#: The three grades, worst last, with the symbol that carries them without colour.
GRADES = {"pass": "✔", "warn": "▲", "fail": "✖"}


@dataclass(frozen=True)
class Mark:
    """A graded cell: ``grade`` (pass, warn or fail) sets its symbol and style, ``text`` is what it says."""

    grade: str
    text: str

    @property
    def symbol(self) -> str:
        """The grade's symbol (readable without colour)."""
        return GRADES[self.grade]

    def __str__(self) -> str:
        return f"{self.symbol} {self.text}"


def cell_text(value) -> str:
    """A cell as text: ``None`` empty, an :class:`~rnglab.pages.numbers.Exact` integer with all its digits, any
    other integer as :func:`~rnglab.pages.numbers.power` writes it, else ``str``."""
    if value is None:
        return ""
    if isinstance(value, Exact):
        return str(int(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return power(value)
    return str(value)


def is_numeric(value) -> bool:
    """Whether a cell holds a number (it is then right-aligned)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    return not isinstance(value, Mark) and bool(NUMBER.match(cell_text(value).replace("`", "")))


#: Integers up to this many bits also carry their exact digits (a tooltip, ``title``) where written as a power.
EXACT_BITS = 256


def exact_digits(value) -> str:
    """The digits of a big integer written as a power of two, for its tooltip ('' when small or huge)."""
    if isinstance(value, int) and not isinstance(value, (bool, Exact)) and value >= WRITTEN_OUT \
            and value.bit_length() <= EXACT_BITS:
        return str(value)
    return ""


def _superscripts(text):
    """``2^225.58`` as 2<sup>225.58</sup>, after escaping."""
    from markupsafe import Markup, escape

    return Markup(re.sub(r"2\^(-?[\d.]+)", r"2<sup>\1</sup>", str(escape(cell_text(text)))))


def _inline(text):
    """Running text with its inline markup as HTML, after escaping (and powers of two as superscripts)."""
    from markupsafe import Markup

    html = str(_superscripts(text))
    for pattern, replacement in INLINE:
        html = pattern.sub(replacement, html)
    return Markup(html)


def _markdown_cell(value) -> str:
    return cell_text(value).replace("|", "\\|").replace("\n", " ")


def environment(autoescape: bool):
    """The Jinja2 environment of every page: HTML (``autoescape``) or Markdown."""
    import jinja2

    templates = files("rnglab.pages") / "templates"
    env = jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: (templates / name).read_text()),
                             autoescape=autoescape, trim_blocks=not autoescape, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    env.filters.update(cell=_markdown_cell, exact=exact_digits, powers=_superscripts, inline=_inline,
                       base64=lambda data: base64.b64encode(data).decode())
    env.tests.update(numeric=is_numeric, mark=lambda value: isinstance(value, Mark))
    return env


def render(template: str, **context) -> str:
    """Render ``template`` (``*.html.j2`` escaped for HTML, ``*.md.j2`` as Markdown) with ``context``."""
    return environment(template.endswith(".html.j2")).get_template(template).render(context)
