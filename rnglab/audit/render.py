"""The audit as people read it: Markdown, JSON and one self-contained HTML page.

The templates ``audit.html.j2`` and ``audit.md.j2`` of :mod:`rnglab.pages`
(the page machinery ``rnglab report`` shares) render the
:class:`~rnglab.audit.run.Audit` object directly.
"""

from __future__ import annotations

from pathlib import Path

from rnglab.audit.run import MEASURED_FIELDS, Audit
from rnglab.core.fileio import atomic_write, check_writable
from rnglab.core.results import json_text, to_plain
from rnglab.pages import GRADES, render

#: The files an audit writes into its folder.
REPORT_FILES = ("report.md", "report.html", "report.json")


def _context(audit: Audit) -> dict:
    pipeline = audit.pipeline
    line = (f"{pipeline['generator']} seeded by {pipeline['seeding']} over {pipeline['window']}, "
            f"{pipeline['reducer']} scaling, {pipeline['shuffle']} on a {pipeline['n']}-card deck")
    timings = ", ".join(f"{question} {seconds:.1f} s" for question, seconds in audit.seconds.items())
    rows = [[key.replace("_", " "), value] for key, value in pipeline.items()]
    return {"audit": audit, "symbols": GRADES, "generator_line": line, "timings": timings, "pipeline_rows": rows,
            "title": f"rnglab audit: {pipeline['name']}"}


def markdown(audit: Audit) -> str:
    """The report as Markdown."""
    return render("audit.md.j2", **_context(audit))


def html(audit: Audit) -> str:
    """The report as one self-contained HTML page."""
    return render("audit.html.j2", **_context(audit))


def as_json(audit: Audit) -> str:
    """The report as JSON: every finding with its grade, symbol, deciding number and evidence (figures are
    in report.html only), and ``measured_fields``: the fields that are measurements, which alone differ between
    two audits of the same pipeline (:data:`~rnglab.audit.run.MEASURED_FIELDS`)."""
    data = to_plain(audit)
    for finding, plain in zip(audit.findings, data["findings"]):
        plain["symbol"] = finding.symbol
        del plain["figure"]
    return json_text({**data, "measured_fields": list(MEASURED_FIELDS)}, indent=2)


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
