"""``rnglab report``: the catalog's report as Markdown, JSON and one self-contained HTML page.

The report is a list of sections (``SECTIONS``), one module per capability,
each a function ``section(context) -> Section`` that returns objects
(:mod:`rnglab.report.document`: text, tables of values, figures, sub-headings)
and draws each figure once through the context. The templates ``report.html.j2``
and ``report.md.j2`` of :mod:`rnglab.pages` (the machinery the audit shares)
render them: a summary and a table of contents at the top, the figures inline,
so that report.html is one file that can be mailed or archived.

The sections are independent: they run in worker processes, one per core this
process may use (:func:`rnglab.parallel.chunks.run_chunks`), each returning its
objects (figures as PNG bytes, already written to ``figures/``); the document
keeps the order of ``SECTIONS``.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from rnglab.core.compiled import load_compiler
from rnglab.core.fileio import atomic_write, check_folder_writable, folder_permissions
from rnglab.core.params import describe_int
from rnglab.core.results import Result, json_text
from rnglab.parallel.chunks import run_chunks, usable_cores
from rnglab.report import battery, catalog, crack, deals, gf2, lattice, reduce, seeding, shuffle, spectral
from rnglab.report.document import Figure, Section, plain_blocks

SECTIONS = [
    catalog.section,
    spectral.section,
    gf2.section,
    battery.section,
    reduce.section,
    seeding.section,
    shuffle.section,
    deals.section,
    crack.section,
    lattice.section,
]


@dataclass
class ReportContext:
    """What a section needs: where to put figures, the seed for anything random, the size of the run.

    Attributes
    ----------
    out_dir : Path
    seed : int
        Seed for every randomised computation in the report (reported in it).
    quick : bool
        Smaller samples, for tests and previews.
    figures : list of str
        Relative paths of the figures written so far.
    """

    out_dir: Path
    seed: int = 20261122
    quick: bool = False
    force: bool = False
    figures: list = field(default_factory=list)

    def add_figure(self, name: str, figure, caption: str) -> Figure:
        """Draw a matplotlib figure once, save it as ``figures/<name>.png``, and return it as a block."""
        from rnglab.plot import figure_bytes

        relative, png = f"figures/{name}.png", figure_bytes(figure)
        atomic_write(self.out_dir / relative, png, force=True)
        self.figures.append(relative)
        return Figure(name, relative, png, caption)


@dataclass(frozen=True)
class ReportResult(Result):
    """Where the report was written, what it holds, and the seconds each section took (by title) and in all."""

    markdown_path: str
    html_path: str
    json_path: str
    sections: list
    figures: list
    seed: int
    section_seconds: dict
    seconds: float


#: Seeds accepted for the report: every randomised section can use them.
MAX_SEED = 2**32


def build_report(out_dir: str | Path = "rnglab-report", *, seed: int = 20261122, quick: bool = False,
                 force: bool = False, sections=None, on_section=None, processes: int | None = None) -> ReportResult:
    """Run every section and write ``report.md``, ``report.html``, ``report.json`` and ``figures/`` as ``out_dir``.

    The report is written into a temporary folder beside ``out_dir`` and moved into
    place at the end, so ``out_dir`` holds either nothing new or a complete report;
    every option is checked before the first section runs.

    Parameters
    ----------
    out_dir : path
        The report's folder: absent or empty, or (with ``force``) replaced whole.
    seed : int
        Seed for randomised sections, in [0, 2^32).
    quick : bool
        Smaller samples everywhere.
    force : bool
        Replace an existing, non-empty ``out_dir`` (all of it).
    sections : list of callables, optional
        Defaults to ``SECTIONS``.
    on_section : callable, optional
        ``on_section(name, done, total)`` as each section starts (``done`` sections finished
        of ``total``), and ``on_section("", total, total)`` at the end: for a progress display.
    processes : int, optional
        Worker processes the sections run in. Default: one per core this process may use
        for ``SECTIONS``; 1 (here, in order) for ``sections`` given, which need not be
        picklable (closures, say).

    Raises
    ------
    ValueError
        If ``seed`` is out of range, or ``out_dir`` cannot be written or holds files and ``force`` is false.
    """
    out_dir = Path(out_dir)
    check_report_options(out_dir, seed, force)
    started = time.perf_counter()
    staging = Path(tempfile.mkdtemp(dir=out_dir.parent, prefix=f".{out_dir.name}.", suffix=".tmp"))
    try:
        os.chmod(staging, folder_permissions())     # mkdtemp's 0700 would be kept by the move into place
        if processes is None:
            processes = 1 if sections else usable_cores()
        built = _run_sections(sections or SECTIONS, ReportContext(staging, seed, quick, force), processes, on_section)
        parts = [part for part, _ in built]
        _write_pages(staging, parts, seed, quick)
        _move_into_place(staging, out_dir, force)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return ReportResult(*(str(out_dir / f"report.{suffix}") for suffix in ("md", "html", "json")),
                        [p.title for p in parts], [f.path for p in parts for f in p.figures], seed,
                        {part.title: seconds for part, seconds in built}, time.perf_counter() - started)


def run_sections(builds, context: ReportContext, first: int, stop: int) -> list:
    """``(Section, seconds)`` of each of ``builds[first:stop]`` (a task of :func:`~rnglab.parallel.chunks.run_chunks`)."""
    built = []
    for build in builds[first:stop]:
        start = time.perf_counter()
        built.append((build(context), round(time.perf_counter() - start, 3)))
    return built


def _run_sections(builds, context: ReportContext, processes: int, on_section) -> list:
    """Every section, one chunk each, in ``processes`` worker processes (1: here, in order), with its seconds.

    ``on_section`` hears of each section as it is handed out, with the count finished so far. Ctrl-C
    (which stops :func:`~rnglab.parallel.chunks.run_chunks` between chunks) is raised again: a report
    is complete or not written.
    """
    finished = [0]
    if processes > 1:
        load_compiler()

    def starting(first: int, stop: int) -> tuple:
        if on_section:
            on_section(builds[first].__module__.rsplit(".", 1)[-1], finished[0], len(builds))
        return ()

    def done(count: int) -> None:
        finished[0] += count

    outcome = run_chunks(functools.partial(run_sections, builds, context), [(0, len(builds))], 1,
                         arguments=starting, on_progress=done, processes=min(processes, len(builds)))
    if not outcome.complete:
        raise KeyboardInterrupt
    if on_section:
        on_section("", len(builds), len(builds))
    return [pair for part in outcome.results() for pair in part]


def check_report_options(out_dir: Path, seed: int, force: bool) -> None:
    """Refuse, before any section runs, a seed out of range or a folder the report may not take."""
    if not 0 <= seed < MAX_SEED:
        raise ValueError(f"seed must be in [0, 2^32); got {describe_int(seed)}")
    if out_dir.exists() and not out_dir.is_dir():
        raise ValueError(f"{out_dir} is a file, not a folder")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not force:
        raise ValueError(f"{out_dir} already exists and is not empty; choose another folder or pass --force "
                         "to replace it whole")
    check_folder_writable(out_dir.parent)


def _move_into_place(staging: Path, out_dir: Path, force: bool) -> None:
    """Rename the finished report to ``out_dir``; with ``force`` the old folder is set aside, then removed."""
    set_aside = None
    if force and out_dir.is_dir() and any(out_dir.iterdir()):
        set_aside = staging.with_name(f"{staging.name}.replaced")
        os.rename(out_dir, set_aside)
    try:
        os.rename(staging, out_dir)        # fails unless out_dir is absent or an empty folder
    except OSError as error:
        if set_aside is not None:
            os.rename(set_aside, out_dir)
        raise ValueError(f"cannot put the report in {out_dir}: {error.strerror}") from None
    if set_aside is not None:
        shutil.rmtree(set_aside)


def _write_pages(folder: Path, parts: list[Section], seed: int, quick: bool) -> None:
    """report.md, report.html and report.json of the sections, from the templates of :mod:`rnglab.pages`."""
    for name, text in render_pages(parts, seed, quick).items():
        atomic_write(folder / name, text)


def render_pages(parts: list[Section], seed: int, quick: bool) -> dict[str, str]:
    """The texts of ``report.md``, ``report.html`` and ``report.json`` for ``parts``, by file name."""
    from rnglab.pages import render

    context = {"title": "rnglab report", "sections": parts, "seed": seed, "quick": quick,
               "generated": time.strftime("%Y-%m-%d %H:%M:%S")}
    plain = {key: context[key] for key in ("title", "seed", "quick", "generated")}
    return {"report.md": render("report.md.j2", **context), "report.html": render("report.html.j2", **context),
            "report.json": json_text({**plain, "sections": [plain_blocks(p) for p in parts]}, indent=2) + "\n"}
