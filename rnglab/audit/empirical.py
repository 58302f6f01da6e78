"""Raw output: a battery on the generator's stream, run-until-fail, and chi-square tests on scaled outcomes.

The battery is :func:`rnglab.empirical.battery.run_battery` (``small`` by
default); run-until-fail (:func:`rnglab.empirical.until_fail.stages`) runs the
same battery on a fresh stream at doubling sizes within a time budget, and
reports the data read when it first FAILs (PractRand's way of measuring a
generator); the scaled outcomes are the reducer's draws at the deck size
(:func:`rnglab.reduction.bias.empirical_bias`) and, for a named shuffle, the
position table of real shuffles dealt one after another from one stream
(:func:`rnglab.shuffles.fairness.empirical_fairness`). Each p-value is graded
by its distance ``min(p, 1 - p)`` from either end.
"""

from __future__ import annotations

from ..empirical.battery import get_battery, result_labels, run_battery
from ..empirical.until_fail import stages, summarise
from ..empirical.verdicts import format_pvalue, grade, tail_distance
from ..pages.numbers import power
from ..plot.pvalues import battery_figure
from ..reduction.bias import empirical_bias
from ..shuffles.fairness import empirical_fairness
from .figures import png
from .grades import Finding, finding
from .target import Target

#: The seed of every stream the audit reads (a fixed seed: the audit is reproducible).
AUDIT_SEED = 20261124
#: Draws of the scaled chi-square, and shuffles of the position test.
SCALED_DRAWS, SHUFFLES = 2**20, 20_000
#: Seconds run-until-fail may take (no stage is started that would pass it).
UNTIL_FAIL_SECONDS = 8.0


def until_fail(target: Target, battery: str, seconds: float):
    """Run-until-fail of ``battery`` on the generator's raw stream (seed :data:`AUDIT_SEED`) within ``seconds``:
    the stages run, and the data read at the first FAIL (``None`` when none failed within the budget)."""
    chosen = get_battery(battery)
    source = target.generator.make(AUDIT_SEED)
    done = list(stages(source, chosen, max_seconds=seconds))
    return summarise(source, chosen, done)


def _until_fail_row(result, seconds: float) -> tuple[list, float | None]:
    """The table row of a run-until-fail and the p-value it contributes (its most extreme, last stage)."""
    if not result.stages:
        return [f"run until fail ({seconds:g} s)", "no stage fitted the budget", "-"], None
    last = result.stages[-1]
    closest = min((r.pvalue for r in last.results), key=tail_distance)
    what = (f"FAIL after {power(result.bytes_to_fail)} bytes" if result.bytes_to_fail is not None else
            f"no FAIL up to {power(last.bytes)} bytes")
    return [f"run until fail, {result.battery} at doubling sizes ({seconds:g} s budget): {what}",
            format_pvalue(closest), grade(closest)], closest


def raw_output(target: Target, battery: str = "small", until_fail_seconds: float = UNTIL_FAIL_SECONDS) -> Finding:
    """The battery's, run-until-fail's (its last stage) and the scaled tests' p-values, graded by the one closest
    to 0 or 1."""
    result = run_battery(target.generator.make, battery, AUDIT_SEED)
    labels = result_labels(result.results)
    rows = [[label, format_pvalue(r.pvalue), grade(r.pvalue)] for label, r in zip(labels, result.results)]
    scaled = empirical_bias(target.generator.make(AUDIT_SEED), target.n, SCALED_DRAWS, target.reducer.name)
    rows.append([f"{target.reducer.name} draws below {target.n} ({power(SCALED_DRAWS)} draws)",
                 format_pvalue(scaled.pvalue), grade(scaled.pvalue)])
    pvalues = [r.pvalue for r in result.results] + [scaled.pvalue]
    if target.shuffle is not None and target.shuffle.swap_program(target.n) is not None:
        positions = empirical_fairness(target.generator.make(AUDIT_SEED), target.n, target.shuffle, SHUFFLES,
                                       target.reducer.name, label=target.generator.name)
        rows.append([f"position table of {SHUFFLES:,} real shuffles", format_pvalue(positions.pvalue),
                     grade(positions.pvalue)])
        pvalues.append(positions.pvalue)
    if until_fail_seconds > 0:
        row, pvalue = _until_fail_row(until_fail(target, battery, until_fail_seconds), until_fail_seconds)
        rows.append(row)
        pvalues += [pvalue] if pvalue is not None else []
    closest = min(pvalues, key=tail_distance)
    failed = sum(grade(p) == "FAIL" for p in pvalues)
    facts = [["battery", f"{result.battery} ({len(result.results)} tests, seed {AUDIT_SEED}, "
                         f"{result.seconds:.1f} s)"], ["tests failed (FAIL)", f"{failed} of {len(pvalues)}"],
             ["p-value closest to 0 or 1", format_pvalue(closest)]]
    notes = [f"skipped {test}: {why}" for test, why in result.skipped]
    return finding("raw", tail_distance(closest), f"{failed} of {len(pvalues)} tests FAIL", facts, notes,
                   table=(["test", "p-value", "grade"], rows), figure=png(battery_figure, result, labels),
                   caption=f"p-values of the {result.battery} battery on {target.generator.name}'s raw stream; "
                           "the white band is the [0.001, 0.999] window, crosses mark p-values outside it")
