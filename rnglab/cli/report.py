"""``rnglab report``: write the Markdown and HTML report on the built-in catalog."""

from __future__ import annotations

import click

from rnglab.cli.common import INT, emit_json, force_option, json_option, lazy
from rnglab.cli.outputs import OutputFolder
from rnglab.cli.progress import with_progress

build_report = lazy("report", "build_report")


@click.command("report")
@click.option("--out", "out_dir", type=OutputFolder(), default="rnglab-report", show_default=True,
              help="Folder for report.md, report.html, report.json and figures/ (absent or empty, or replaced whole "
                   "with --force).")
@click.option("--seed", type=INT, default=20261122, show_default=True, help="Seed for every randomised section.")
@click.option("--quick", is_flag=True, help="Smaller samples: a preview, a fraction of the full report's work.")
@force_option
@json_option
def report_command(out_dir: str, seed: int, quick: bool, force: bool, as_json: bool) -> None:
    """Write the rnglab report (report.md, a self-contained report.html, report.json, figures/) on built-in defaults.

    The report is built in a temporary folder and moved to --out at the end; --out must be
    absent or empty, or is replaced whole with --force. Its battery is spread over the cores;
    --quick runs smaller samples.
    """
    result = with_progress("report", lambda callback: build_report(
        out_dir, seed=seed, quick=quick, force=force, on_section=_naming_section(callback)))
    if as_json:
        emit_json(result)
        return
    click.echo(f"wrote {result.markdown_path}, {result.html_path} and {result.json_path} "
               f"({len(result.sections)} sections, {len(result.figures)} figures, {result.seconds:.1f} s)")


def _naming_section(callback):
    """An ``on_section(name, done, total)`` that feeds the bar and names the section running."""
    def on_section(name: str, done: int, total: int) -> None:
        callback(done, total, name)

    return on_section
