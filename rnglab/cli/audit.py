"""``rnglab audit``: one game's whole RNG pipeline examined end to end, graded, written as a report."""

from __future__ import annotations

from contextlib import contextmanager, suppress
from pathlib import Path

import click

from rnglab.cli.common import force_option, json_option, lazy
from rnglab.cli.outputs import OutputFolder
from rnglab.cli.progress import with_progress

audit = lazy("audit.run", "audit")
resolve, with_deployment = lazy("audit.target", "resolve", "with_deployment")
report_json, check_reports, write_reports = lazy("audit.render", "as_json", "check_reports", "write_reports")
POSITIVE = click.IntRange(min=1)
#: --fail-on choices -> the grades that make the run exit with status 1.
FAIL_ON = {"fail": ("fail",), "warn": ("warn", "fail"), "never": ()}


@click.command("audit")
@click.argument("pipeline", metavar="PIPELINE|FILE.toml")
@click.option("--out", "out_dir", type=OutputFolder(), default="rnglab-audit", show_default=True,
              help="Folder for report.md, report.html and report.json (created; files replaced only with --force).")
@click.option("--window", default="1d", show_default=True, help="Start times the seed policy is taken over.")
@click.option("--games-per-day", type=POSITIVE, help="Games dealt a day (default 100,000).")
@click.option("--cards-seen", type=POSITIVE, help="Cards an opponent sees per game (default 7).")
@click.option("--tables", type=POSITIVE, help="Tables started in the same window (default 1,000).")
@click.option("--fail-on", type=click.Choice(list(FAIL_ON)), default="fail", show_default=True,
              help="Exit with status 1 when the verdict reaches this grade: fail, warn (warn or fail), never "
                   "(always 0 once the audit ran).")
@force_option
@json_option
def audit_command(pipeline, out_dir, window, games_per_day, cards_seen, tables, fail_on, force, as_json) -> int:
    """Audit a card game's RNG pipeline end to end: six questions graded pass, warn or fail, in a report.

    The six: reachability, scaling, shuffle law, unpredictability, non-repeatability and raw
    output, each graded with the one number that decides it.

    PIPELINE is a named pipeline (rnglab list) or a TOML file naming generator, seeding, window,
    reducer, shuffle (or function = "file.py:function", a Python file in the TOML's folder: the
    audit runs that code), deck, games_per_day, cards_seen and tables.
    Writes report.md, a self-contained report.html and report.json into --out, and prints the
    verdict card and the rnglab crack command that finds the seed of a real deal of the pipeline.
    Every section is fixed work and the brute-force time is the seeds at a fixed cost per
    seed, so two audits of one pipeline find and grade the same; only the timings of the
    sections (and of a GF(2) elimination) are measured anew. Not a certification.

    Exit status, for scripts and CI: 0 when the verdict is below the --fail-on grade
    (default: fail), 1 when it reaches it, 2 on bad input, 130 when interrupted.
    """
    with _removed_if_left_empty(out_dir):
        check_reports(out_dir, force)
        target = with_deployment(resolve(pipeline, window), games_per_day=games_per_day, cards_seen=cards_seen,
                                 tables=tables)
        result = with_progress("audit", lambda callback: audit(
            target, progress=lambda title, done, total: callback(done, total, title)))
        paths = write_reports(result, out_dir, force)
    if as_json:
        click.echo(report_json(result))
    else:
        click.echo(verdict_card(result))
        if result.demonstration:
            shown = result.demonstration
            click.echo(f"the seed search on a real deal (seed {shown['seed']}, cards seen {shown['seen']}; "
                       f"it searches {shown['searched']}):\n  {shown['command']}")
        click.echo(f"wrote {', '.join(str(p) for p in paths)}")
    return _exit_status(result.verdict, fail_on, explain=not as_json)


def _exit_status(verdict: str, fail_on: str, explain: bool) -> int:
    """1 when ``verdict`` is one of the grades ``--fail-on`` names (said on standard error if ``explain``)."""
    if verdict not in FAIL_ON[fail_on]:
        return 0
    if explain:
        click.echo(f"the verdict is {verdict} (--fail-on {fail_on}): exit status 1", err=True)
    return 1


@contextmanager
def _removed_if_left_empty(folder: str):
    """On any failure, remove ``folder`` again when this run created it and it is still empty."""
    created = not Path(folder).exists()
    try:
        yield
    except BaseException:
        if created:
            with suppress(OSError):
                Path(folder).rmdir()
        raise


def verdict_card(result) -> str:
    """The verdict and one line per question: symbol, grade, title, the deciding number."""
    width = max(len(f.title) for f in result.findings)
    lines = [f"{result.pipeline['name']}: {result.verdict.upper()}"]
    lines += [f"  {f.symbol} {f.grade:<4}  {f.title:<{width}}  {f.headline}" for f in result.findings]
    return "\n".join(lines)
