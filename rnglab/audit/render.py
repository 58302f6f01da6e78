"""The audit as people read it: Markdown, JSON and one self-contained HTML page, from Jinja2 templates.

The templates (``rnglab/audit/templates/*.j2``, package data) render the
:class:`~rnglab.audit.run.Audit` object directly. The page carries its figures
inline (base64 PNG) and its style in the head: it loads nothing from anywhere.
Grades are shown by a symbol and a word besides their colour, so that they
read in print and for colour-blind readers.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path

from ..fileio import atomic_write, check_writable
from ..results import to_plain
from .grades import GRADES
from .run import Audit

#: The files an audit writes into its folder.
REPORT_FILES = ("report.md", "report.html", "report.json")
#: A cell that holds a number: 1,234 / 0.5 / 1.2e-05 / 2^64.00 / 3.71 s / p-values eps, 1 - 1.8e-06 (right-aligned).
NUMBER = re.compile(r"^(1 - )?([-+]?(\d[\d,]*(\.\d+)?([eE][-+]?\d+)?|2\^[\d.]+|eps))( [a-z/]+)?$")


def _environment(autoescape: bool):
    import jinja2

    templates = files("rnglab.audit") / "templates"
    environment = jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: (templates / name).read_text()),
                                     autoescape=autoescape, trim_blocks=not autoescape, keep_trailing_newline=True,
                                     undefined=jinja2.StrictUndefined)
    environment.filters["cell"] = lambda text: str(text).replace("|", "\\|").replace("\n", " ")
    environment.filters["powers"] = _superscripts
    environment.tests["numeric"] = lambda text: isinstance(text, (int, float)) or bool(NUMBER.match(str(text)))
    return environment


def _superscripts(text) -> str:
    """``2^225.58`` as 2<sup>225.58</sup> (the text escaped first)."""
    from markupsafe import Markup, escape

    return Markup(re.sub(r"2\^([\d.]+)", r"2<sup>\1</sup>", str(escape(text))))


def _context(audit: Audit) -> dict:
    pipeline = audit.pipeline
    line = (f"{pipeline['generator']} seeded by {pipeline['seeding']} over {pipeline['window']}, "
            f"{pipeline['reducer']} scaling, {pipeline['shuffle']} on a {pipeline['n']}-card deck")
    timings = ", ".join(f"{question} {seconds:.1f} s" for question, seconds in audit.seconds.items())
    return {"audit": audit, "symbols": GRADES, "generator_line": line, "timings": timings}


def markdown(audit: Audit) -> str:
    """The report as Markdown."""
    return _environment(False).get_template("report.md.j2").render(_context(audit))


def html(audit: Audit) -> str:
    """The report as one self-contained HTML page."""
    return _environment(True).get_template("report.html.j2").render(_context(audit))


def as_json(audit: Audit) -> str:
    """The report as JSON: every finding with its grade, symbol, deciding number and evidence (figures are
    in report.html only)."""
    data = to_plain(audit)
    for finding, plain in zip(audit.findings, data["findings"]):
        plain["symbol"] = finding.symbol
        del plain["figure"]
    return json.dumps(data, indent=2)


def check_reports(folder: str | Path, force: bool = False) -> list[Path]:
    """The report paths in ``folder``, checked before any work (the folder is created if absent).

    Raises ``ValueError`` when ``folder`` is not a folder, cannot be created or
    written, or (without ``force``) already holds a report.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot create the folder {folder}: {error.strerror}") from None
    return [check_writable(folder / name, force) for name in REPORT_FILES]


def write_reports(audit: Audit, folder: str | Path, force: bool = False) -> list[Path]:
    """Write report.md, report.html and report.json into ``folder`` (created), each atomically.

    Every path is checked before any is written: without ``force`` an existing
    report is left as it was (``ValueError`` naming it).
    """
    paths = check_reports(folder, force)
    texts = {"report.md": markdown(audit), "report.html": html(audit), "report.json": as_json(audit)}
    return [atomic_write(path, texts[path.name], force) for path in paths]
