"""``rnglab test GEN --seeds A..B``: the battery once per seed, here or on a dask cluster, with a journal.

The work is :func:`rnglab.empirical.over_seeds.battery_over_seeds`; this module
checks the options, shows progress, and formats one line per test: its
p-values across the seeds and their uniformity (Anderson-Darling).
"""

from __future__ import annotations

import math

import click

from rnglab.cli.cluster import exit_incomplete, held_journal
from rnglab.cli.common import emit_json, format_table, lazy, progress, selected_make
from rnglab.empirical.verdicts import DEFAULT_WINDOW, GRADES, format_pvalue, grade, is_suspect

battery_over_seeds, work_identity = lazy("empirical.over_seeds", "battery_over_seeds", "work_identity")
cluster_client = lazy("parallel.cluster", "cluster_client")


def run_over_seeds(generator, battery, selection, seeds, scale, failing_grade: str | None, as_json: bool) -> int:
    """Run ``battery`` (entries selected) on ``generator`` seeded with each seed of ``seeds``; the exit status."""
    from rnglab.empirical.over_seeds import KIND

    identity = work_identity(generator.name, battery, selection, seeds.ranges)
    with (cluster_client(scale.cluster, scale.workers) as client,
          held_journal(scale.journal, KIND, identity, "run") as journal,
          progress(seeds.size, f"{battery.name} battery over {seeds.label}") as bar):
        if journal:
            bar.update(sum(b - a for a, b in journal.done))
        result = battery_over_seeds(selected_make(generator, selection), generator.name, battery, seeds.ranges,
                                    chunk=scale.chunk or 1, client=client, journal=journal,
                                    on_progress=bar.update)
    if as_json:
        emit_json({**result.to_dict(), "complete": result.complete,
                   "verdicts": [grade(p) for _, p in result.uniformity]})
    else:
        click.echo(_report(result, seeds.label))
    if not result.complete:
        exit_incomplete(result.failures, scale.journal,
                        "--seeds " + ",".join(f"{a}..{b - 1}" for a, b in result.left))
    return _exit_status(result, failing_grade)


def _report(result, label: str) -> str:
    low, high = DEFAULT_WINDOW
    rows = [[name, len(column), format_pvalue(min(column)) if column else "-",
             sum(is_suspect(p) for p in column), _pvalue(p), _grade(p)]
            for name, column, (_, p) in zip(result.labels, result.pvalues, result.uniformity)]
    header = (f"generator {result.generator}, battery {result.battery}, {label}: {result.runs:,} seeds run "
              f"in {result.seconds:.1f} s\n\n")
    table = format_table(["test", "seeds", "smallest p", f"outside [{low}, {high}]", "uniformity p (A^2)",
                          "verdict"], rows)
    return header + table


def _pvalue(pvalue: float) -> str:
    return "-" if math.isnan(pvalue) else format_pvalue(pvalue)


def _grade(pvalue: float) -> str:
    return "-" if math.isnan(pvalue) else grade(pvalue)


def _exit_status(result, failing_grade: str | None) -> int:
    """1 when the uniformity of some test's p-values across the seeds reaches ``failing_grade``, else 0."""
    if failing_grade is None:
        return 0
    failing = [name for name, (_, p) in zip(result.labels, result.uniformity)
               if not math.isnan(p) and GRADES.index(grade(p)) >= GRADES.index(failing_grade)]
    if failing:
        click.echo(f"{len(failing)} of {len(result.labels)} tests' p-values across the seeds reached "
                   f"{failing_grade}: exit status 1", err=True)
    return 1 if failing else 0


def run_until_fail_over_seeds(generator, battery, selection, seeds, scale, max_bytes: int,
                              failing_grade: str | None, as_json: bool) -> int:
    """Run ``battery`` until failure on ``generator`` seeded with each seed of ``seeds``; the exit status."""
    from rnglab.empirical.over_seeds import UNTIL_FAIL_KIND, until_fail_over_seeds

    identity = {**work_identity(generator.name, battery, selection, seeds.ranges), "max_bytes": max_bytes}
    with (cluster_client(scale.cluster, scale.workers) as client,
          held_journal(scale.journal, UNTIL_FAIL_KIND, identity, "run") as journal,
          progress(seeds.size, f"{battery.name} battery until it fails, over {seeds.label}") as bar):
        if journal:
            bar.update(sum(b - a for a, b in journal.done))
        result = until_fail_over_seeds(selected_make(generator, selection), generator.name, battery, seeds.ranges,
                                       max_bytes, chunk=scale.chunk or 1, client=client,
                                       journal=journal, on_progress=bar.update)
    if as_json:
        emit_json({**result.to_dict(), "complete": result.complete})
    else:
        click.echo(_until_fail_report(result, seeds.label))
    if not result.complete:
        exit_incomplete(result.failures, scale.journal,
                        "--seeds " + ",".join(f"{a}..{b - 1}" for a, b in result.left))
    worst = [row[3] for row in result.rows]
    reached = failing_grade is not None and any(GRADES.index(w) >= GRADES.index(failing_grade) for w in worst)
    return int(reached)


def _until_fail_report(result, label: str) -> str:
    from rnglab.core.params import human_bytes

    rows = [[seed, "-" if failed is None else human_bytes(failed), human_bytes(read), worst]
            for seed, failed, read, worst in result.rows]
    failed = sorted(row[1] for row in result.rows if row[1] is not None)
    summary = (f"{len(failed)} of {len(result.rows)} seeds FAILed"
               + (f"; data needed to fail: {human_bytes(failed[0])} to {human_bytes(failed[-1])}, median "
                  f"{human_bytes(failed[len(failed) // 2])}" if failed else "")
               + f"; limit {human_bytes(result.max_bytes)}")
    return (f"generator {result.generator}, battery {result.battery} until it fails, {label}, "
            f"{result.seconds:.1f} s\n\n"
            + format_table(["seed", "data needed to fail", "data read", "worst verdict"], rows) + "\n\n" + summary)
