"""``rnglab audit``: one game's whole RNG pipeline examined end to end, graded, written as a report."""

from __future__ import annotations

from contextlib import contextmanager, suppress
from pathlib import Path

import click

from .common import force_option, json_option, lazy
from .outputs import OutputFolder
from .progress import with_progress

audit = lazy("audit.run", "audit")
resolve, with_deployment = lazy("audit.target", "resolve", "with_deployment")
report_json, check_reports, write_reports = lazy("audit.render", "as_json", "check_reports", "write_reports")
POSITIVE = click.IntRange(min=1)


@click.command("audit")
@click.argument("pipeline", metavar="PIPELINE|FILE.toml")
@click.option("--out", "out_dir", type=OutputFolder(), default="rnglab-audit", show_default=True,
              help="Folder for report.md, report.html and report.json (created; files replaced only with --force).")
@click.option("--window", default="1d", show_default=True, help="Start times the seed policy is taken over.")
@click.option("--games-per-day", type=POSITIVE, help="Games dealt a day (default 100,000).")
@click.option("--cards-seen", type=POSITIVE, help="Cards an opponent sees per game (default 7).")
@click.option("--tables", type=POSITIVE, help="Tables started in the same window (default 1,000).")
@force_option
@json_option
def audit_command(pipeline, out_dir, window, games_per_day, cards_seen, tables, force, as_json) -> None:
    """Audit a card game's RNG pipeline end to end: six questions graded pass, warn or fail, in a report.

    The six: reachability, scaling, shuffle law, unpredictability, non-repeatability and raw
    output, each graded with the one number that decides it.

    PIPELINE is a named pipeline (rnglab list) or a TOML file naming generator, seeding, window,
    reducer, shuffle (or function = "file.py:function", a Python file in the TOML's folder: the
    audit runs that code), deck, games_per_day, cards_seen and tables.
    Writes report.md, a self-contained report.html and report.json into --out, and prints the
    verdict card. Under a minute for a named pipeline. Not a certification.
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
        return
    click.echo(verdict_card(result))
    click.echo(f"wrote {', '.join(str(p) for p in paths)}")


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
