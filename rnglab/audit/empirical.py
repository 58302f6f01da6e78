"""Raw output: a battery on the generator's stream, run-until-fail, and chi-square tests on scaled outcomes.

The battery is :func:`rnglab.empirical.battery.run_battery` (``small`` by
default); run-until-fail (:func:`rnglab.empirical.until_fail.stages`) runs the
same battery on a fresh stream at doubling sizes up to a budget of data
(:data:`UNTIL_FAIL_BYTES`: bytes, not seconds, so that the same audit finds the
same on any machine), and reports the data read when it first FAILs
(PractRand's way of measuring a generator); the scaled outcomes are the
reducer's draws at the deck size (:func:`rnglab.draws.bias.empirical_bias`)
and, for a named shuffle, the position table of real shuffles dealt one after
another from one stream (:func:`rnglab.shuffles.fairness.empirical_fairness`).
Each p-value is graded by its distance ``min(p, 1 - p)`` from either end.

A test is counted once: run-until-fail reruns the battery's tests, so a FAIL it
raises on a test the battery failed is the same finding; it adds a failure only
on a test the battery passed. When a test of linearity over GF(2) fails (linear
complexity, matrix rank), the finding says in plain words what that means for a
card game (:func:`linearity_note`; in its headline too for a generator linear
over GF(2), whose state a few hundred outputs give).
"""

from __future__ import annotations

import math

from rnglab.audit.figures import png
from rnglab.audit.grades import Finding, finding
from rnglab.audit.structure import state_bits
from rnglab.audit.target import AUDIT_SEED, Target
from rnglab.draws.bias import empirical_bias
from rnglab.empirical.battery import Battery, result_labels, run_battery
from rnglab.empirical.until_fail import stages, summarise
from rnglab.empirical.verdicts import format_pvalue, grade, tail_distance
from rnglab.pages.numbers import power
from rnglab.plot.pvalues import battery_figure
from rnglab.shuffles.fairness import empirical_fairness

#: Draws of the scaled chi-square, and shuffles of the position test.
SCALED_DRAWS, SHUFFLES = 2**20, 20_000
#: Bytes run-until-fail may read: no stage is started that would pass it. It replaces a budget of 8 seconds,
#: whose last stage changed with the machine's load; on the 2-core machine those 8 s reached a last stage of
#: 2^25.16 bytes for PCG64 (stages of 2^24.16 and 2^25.16 bytes done at 4.9 s and 6.0 s, the next at 8.4 s),
#: and so does this budget (the stage after it would read 2^26.17 bytes).
UNTIL_FAIL_BYTES = 2**26
#: The battery the audit runs on the raw output.
AUDIT_BATTERY = "small"
#: Tests of linearity over GF(2), by the name of their battery entry.
LINEARITY_TESTS = ("linear-complexity", "matrix-rank")


def until_fail(target: Target, battery: Battery, max_bytes: int):
    """Run-until-fail of ``battery`` on the generator's raw stream (seed :data:`AUDIT_SEED`) up to ``max_bytes``:
    the stages run, and the data read at the first FAIL (``None`` when none failed within the budget)."""
    source = target.generator.make(AUDIT_SEED)
    done = list(stages(source, battery, max_bytes=max_bytes))
    return summarise(source, battery, done)


def _until_fail_row(result, max_bytes: int) -> list:
    """The table row of a run-until-fail: its most extreme p-value (of its last stage) and what it found."""
    budget = f"{result.battery} at doubling sizes up to {power(max_bytes)} bytes"
    if not result.stages:
        return [f"run until fail, {budget}", "no stage fitted the budget", "-"]
    last = result.stages[-1]
    closest = min((r.pvalue for r in last.results), key=tail_distance)
    what = (f"FAIL after {power(result.bytes_to_fail)} bytes on {', '.join(last.worst_tests)}"
            if result.bytes_to_fail is not None else f"no FAIL up to {power(last.bytes)} bytes")
    return [f"run until fail, {budget}: {what}", format_pvalue(closest), grade(closest)]


def _until_fail_failures(result) -> set[str]:
    """The tests (battery labels) run-until-fail FAILed, at its last stage."""
    return set(result.stages[-1].worst_tests) if result.bytes_to_fail is not None else set()


def linearity_note(target: Target, failed: set[str]) -> list[str]:
    """What a failed test of linearity over GF(2) means for a card game (nothing when none failed).

    Linear complexity (Berlekamp-Massey) and binary matrix rank fail on a
    generator whose outputs are linear over GF(2) in its state (:attr:`~rnglab.generators.spec.GeneratorSpec.is_gf2_linear`):
    each output bit is a XOR of state bits, so ``ceil(state bits / output bits)``
    consecutive outputs give as many linear equations as the state has bits, and
    solving them (Gaussian elimination over GF(2)) gives the state and every later
    output. On another generator (an LCG's low bits) the failure says that the
    bit tested follows a short linear recurrence, not that the state is linear.
    """
    linear = _linear_failures(failed)
    if not linear:
        return []
    tests = f"{' and '.join(linear)} {'fail' if len(linear) > 1 else 'fails'}"
    if not target.generator.is_gf2_linear:
        return [(f"{tests}: the bits tested follow a linear recurrence over GF(2) far shorter than a random "
                "sequence's, so each is predictable from about twice that many outputs (Berlekamp-Massey); "
                f"{target.generator.name} as a whole is not linear over GF(2)")]
    bits, width = state_bits(target), target.generator.make(AUDIT_SEED).output_bits
    return [(f"{tests}: {target.generator.name}'s outputs "
             f"are linear over GF(2) in its state, so {_outputs_to_state(target)} consecutive outputs ({bits:g} "
             f"state bits, {width} bits an output) determine the whole state by solving linear equations, and with "
             "it every later card. Whatever the seeding, an opponent who sees that many outputs (or enough cards to "
             "pin their bits) can predict the rest: such a generator is predictable, not merely imperfect")]


def _linear_failures(failed: set[str]) -> list[str]:
    """The failed tests of linearity over GF(2), by label."""
    return sorted(label for label in failed if label.split()[0] in LINEARITY_TESTS)


def _outputs_to_state(target: Target) -> str:
    """``about 624``: the outputs whose bits are as many as the state's (``a few hundred`` when unknown)."""
    bits = state_bits(target)
    width = target.generator.make(AUDIT_SEED).output_bits
    return f"about {math.ceil(bits / width):,}" if math.isfinite(bits) else "a few hundred"


def _headline(target: Target, failed: set[str], counted: int) -> str:
    """``9 of 28 tests FAIL``, and for a failed test of linearity over GF(2) what it means, once, in words."""
    headline = f"{len(failed)} of {counted} tests FAIL"
    linear = _linear_failures(failed)
    if linear and target.generator.is_gf2_linear:
        headline += (f"; {' and '.join(linear)}: outputs linear over GF(2), {_outputs_to_state(target)} of them "
                     "give the whole state (predictable)")
    return headline


def raw_output(target: Target, battery: Battery, until_fail_bytes: int = UNTIL_FAIL_BYTES) -> Finding:
    """The battery's, run-until-fail's (its last stage) and the scaled tests' p-values, graded by the one closest
    to 0 or 1; each test counted once (run-until-fail reruns the battery's: ``until_fail_bytes`` 0, not run)."""
    result = run_battery(target.generator.make, battery, AUDIT_SEED)
    labels = result_labels(result.results)
    tests = {label: r.pvalue for label, r in zip(labels, result.results)}
    scaled = empirical_bias(target.generator.make(AUDIT_SEED), target.n, SCALED_DRAWS, target.reducer)
    tests[f"{target.reducer.name} draws below {target.n} ({power(SCALED_DRAWS)} draws)"] = scaled.pvalue
    if target.shuffle is not None and target.shuffle.swap_program(target.n) is not None:
        positions = empirical_fairness(target.generator.make(AUDIT_SEED), target.n, target.shuffle, SHUFFLES,
                                       target.reducer, label=target.generator.name)
        tests[f"position table of {SHUFFLES:,} real shuffles"] = positions.pvalue
    rows = [[label, format_pvalue(p), grade(p)] for label, p in tests.items()]
    pvalues, failed = list(tests.values()), {label for label, p in tests.items() if grade(p) == "FAIL"}
    if until_fail_bytes > 0:
        run = until_fail(target, battery, until_fail_bytes)
        rows.append(_until_fail_row(run, until_fail_bytes))
        pvalues += [min((r.pvalue for r in run.stages[-1].results), key=tail_distance)] if run.stages else []
        failed |= _until_fail_failures(run)
    closest = min(pvalues, key=tail_distance)
    counted = (f"the {result.battery} battery's {len(result.results)}, the scaled chi-square"
               + (" and the position table" if len(tests) > len(result.results) + 1 else "")
               + ("; run-until-fail reruns the battery's tests, and a test it FAILs counts once"
                  if until_fail_bytes > 0 else ""))
    facts = [["battery", f"{result.battery} ({len(result.results)} tests, seed {AUDIT_SEED})"],
             ["tests counted", f"{len(tests)}: {counted}"], ["tests failed (FAIL)", f"{len(failed)} of {len(tests)}"],
             ["p-value closest to 0 or 1", format_pvalue(closest)]]
    notes = [f"skipped {test}: {why}" for test, why in result.skipped] + linearity_note(target, failed)
    return finding("raw", tail_distance(closest), _headline(target, failed, len(tests)), facts, notes,
                   measured=[["battery time", f"{result.seconds:.1f} s"]],
                   table=(["test", "p-value", "grade"], rows), figure=png(battery_figure, result, labels),
                   caption=f"p-values of the {result.battery} battery on {target.generator.name}'s raw stream; "
                           "the white band is the [0.001, 0.999] window, crosses mark p-values outside it")
