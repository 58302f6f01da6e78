"""``rnglab test``: run a battery of empirical tests on a generator and grade the p-values."""

from __future__ import annotations

import click

from ..battery import get_battery, result_labels, run_battery, select_entries
from ..stream import genuine_bits
from ..verdicts import DEFAULT_WINDOW, format_pvalue, grade, is_suspect
from .common import COUNT, IntExpr, bit_selection, emit_json, force_option, format_table, generator_options, json_option, \
    plot_option, progress


@click.command("test")
@generator_options()
@click.option("--battery", "battery_name", default="smoke", show_default=True, metavar="NAME",
              help="Battery (data/batteries.toml): smoke (a second), small (SmallCrush's scale, seconds), "
                   "standard (minutes, second-level), validation.")
@click.option("--tests", "test_names", metavar="NAMES", help="Comma-separated test names: run only these.")
@click.option("--n", "sample_size", type=IntExpr(minimum=1), help="Sample size for every test instead of the battery's.")
@click.option("--repeat", type=IntExpr(minimum=1), help="Repeat each test N times and test its p-values (second level).")
@click.option("--drop-bits", type=COUNT, default=0, help="Drop the top r bits of every output.")
@click.option("--low-bits", type=IntExpr(minimum=1), default=None, help="Keep only the low k bits of every output.")
@json_option
@plot_option
@force_option
def test_command(generator, battery_name, test_names, sample_size, repeat, drop_bits, low_bits, as_json,
                 plot_path, force) -> None:
    """Run a battery of statistical tests on generator GEN: statistic, p-value and verdict per test.

    Verdicts grade min(p, 1 - p): normal, unusual (< 1e-3, outside TestU01's
    window [0.001, 0.999]), suspicious (< 1e-5), very suspicious (< 1e-7),
    FAIL (< 1e-10). The summary lists only the suspect results.
    """
    tests = [name.strip() for name in test_names.split(",") if name.strip()] if test_names else None
    entries = select_entries(get_battery(battery_name), tests, sample_size, repeat)
    selection = bit_selection(drop_bits, low_bits)
    selection.width(genuine_bits(generator.make()))
    with progress(len(entries), f"{battery_name} battery") as bar:
        result = run_battery(generator.make, battery_name, generator.seed, tests=tests, n=sample_size,
                             repeat=repeat, selection=selection, on_progress=lambda done, total, name: bar.update(1))
    labels = result_labels(result.results)
    if plot_path:
        from ..plot import save_figure
        from ..plot.pvalues import battery_figure

        save_figure(battery_figure(result, labels), plot_path, force)
    if as_json:
        emit_json(_as_json(generator.name, result))
        return
    click.echo(_report(generator.name, result, labels))


def _as_json(label: str, result) -> dict:
    rows = []
    for r in result.results:
        row = {"test": r.test, "statistic": r.statistic, "pvalue": r.pvalue, "verdict": grade(r.pvalue),
               "params": r.params}
        if getattr(r, "pvalues", ()):
            row["pvalues"] = list(r.pvalues)
        rows.append(row)
    return {"generator": label, "battery": result.battery, "seed": result.seed, "selection": result.selection,
            "seconds": result.seconds, "results": rows}


def _report(label: str, result, labels: list[str]) -> str:
    rows = [[name, r.params.get("n"), r.params.get("replications", 1), r.statistic, format_pvalue(r.pvalue),
             grade(r.pvalue)] for name, r in zip(labels, result.results)]
    header = (f"generator {label}, battery {result.battery}, seed {result.seed}, "
              f"{_bits(result.selection)}, {result.seconds:.1f} s\n\n")
    table = format_table(["test", "n", "N", "statistic", "p-value", "verdict"], rows)
    return header + table + "\n\n" + _summary(result, labels)


def _bits(selection: dict) -> str:
    if selection["low"] is not None:
        return f"low {selection['low']} bits"
    return f"top {selection['drop']} bits dropped" if selection["drop"] else "all bits"


def _summary(result, labels: list[str]) -> str:
    """TestU01's summary: only the results outside the window, or that all passed."""
    low, high = DEFAULT_WINDOW
    suspects = [(name, r) for name, r in zip(labels, result.results) if is_suspect(r.pvalue)]
    if not suspects:
        return f"All {len(labels)} tests passed: every p-value lies in [{low}, {high}]."
    lines = [f"{len(suspects)} of {len(labels)} tests gave p-values outside [{low}, {high}]:"]
    width = max(len(name) for name, _ in suspects)
    lines += [f"  {name.ljust(width)}  {format_pvalue(r.pvalue):>12}  {grade(r.pvalue)}" for name, r in suspects]
    return "\n".join(lines)
