"""Raw output: a battery on the generator's stream, and chi-square tests on scaled outcomes.

The battery is :func:`rnglab.empirical.battery.run_battery` (``small`` by
default); the scaled outcomes are the reducer's draws at the deck size
(:func:`rnglab.reduction.bias.empirical_bias`) and, for a named shuffle, the
position table of real shuffles dealt one after another from one stream
(:func:`rnglab.shuffles.fairness.empirical_fairness`). Each p-value is graded
by its distance ``min(p, 1 - p)`` from either end.
"""

from __future__ import annotations

from ..empirical.battery import result_labels, run_battery
from ..empirical.verdicts import format_pvalue, grade, tail_distance
from ..plot.pvalues import battery_figure
from ..reduction.bias import empirical_bias
from ..shuffles.fairness import empirical_fairness
from .figures import png
from .grades import Finding, finding
from ..pages.numbers import power
from .target import Target

#: The seed of every stream the audit reads (a fixed seed: the audit is reproducible).
AUDIT_SEED = 20261124
#: Draws of the scaled chi-square, and shuffles of the position test.
SCALED_DRAWS, SHUFFLES = 2**20, 20_000


def raw_output(target: Target, battery: str = "small") -> Finding:
    """The battery's p-values and the scaled tests' p-values, graded by the one closest to 0 or 1."""
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
