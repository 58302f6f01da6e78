"""Known answers from TestU01 1.2.3 (tests/data/testu01/known_answers.toml), reproduced to the printed digits.

TestU01's ulcg generators return U = x * (1/m) for the state x: MINSTD, whose
state is in [1, m - 1], is wrapped here as a source on [0, m - 1] (range m), so
that rnglab's uniforms and digits are TestU01's. RANDU (m = 2^31) is the
catalog's own. Also: what SmallCrush fails on each catalog generator
(smallcrush.toml, from smallcrush.c) the ``small`` battery fails too.
"""

from pathlib import Path

import numpy as np
import pytest
import tomllib

from rnglab.empirical.battery import get_battery, result_labels, run_battery
from rnglab.empirical.stattests import get_test
from rnglab.generators import CallableSource, make_source

DATA = Path(__file__).parents[1] / "data" / "testu01"
KNOWN = tomllib.loads((DATA / "known_answers.toml").read_text())
SEED = 12345


def ulcg_source(generator: str):
    """The generator as TestU01's ulcg_CreateLCG(m, a, 0, 12345): uniforms x / m."""
    if generator == "randu":
        return make_source("randu", SEED)
    minstd = make_source("minstd", SEED)
    return CallableSource(minstd.random_raw, 0, 2**31 - 2, name="minstd x/m", vectorized=True)


@pytest.mark.parametrize("case", KNOWN["statistic"],
                         ids=[f"{c['generator']}-{c['test']}-{c['n']}" for c in KNOWN["statistic"]])
def test_sknuth_statistic_to_the_printed_digits(case):
    result = get_test(case["test"])(ulcg_source(case["generator"]), case["n"], **case["options"])
    statistic = result.details.get("collisions", result.statistic)
    assert printed(statistic) == printed(case["statistic"])


def printed(value: float) -> str:
    """A statistic as TestU01's reports print it: 2 decimals, or 3 significant digits from 10^5 on ("1.79e+6").

    TestU01's sknuth_Serial (through smultin_Multinomial) also applies a small correction to X^2
    (``(X^2 - Mu) / Sigma``, Mu = 0.016 for d = 32, t = 3), which these printed digits do not see.
    """
    return f"{value:.2f}" if abs(value) < 1e5 else f"{value:.2e}"


def test_mean_of_ex3():
    # examples/ex3.res: U = x * (1/m), summed in order (numpy's cumsum adds one value at a time, as the C loop).
    case = KNOWN["mean"]
    x = make_source(case["generator"], SEED).random_raw(case["count"]).astype(np.float64)
    mean = np.cumsum(x * (1.0 / (2**31 - 1)))[-1] / case["count"]
    assert f"{mean:.15f}" == f"{case['mean']:.15f}"


#: rnglab's ``small`` entry for each SmallCrush test it has (same test, same bits of a 32-bit output).
SAME_TEST = {"BirthdaySpacings": ["birthday-spacings d=2^30 t=2"], "Collision": ["collision"], "Gap": ["gap low=10"],
             "SimpPoker": ["poker low=8"], "CouponCollector": ["coupon low=6"], "MaxOft": ["max-of-t"],
             "MatrixRank": ["matrix-rank", "matrix-rank low=10"]}
SMALLCRUSH = tomllib.loads((DATA / "smallcrush.toml").read_text())


def distance(pvalue: float) -> float:
    return min(pvalue, 1 - pvalue)


#: SmallCrush's tests that read every bit of its 32-bit words (r = 0).
EVERY_BIT = {"BirthdaySpacings", "Collision", "MaxOft"}


@pytest.mark.slow
@pytest.mark.parametrize("generator", list(SMALLCRUSH))
def test_small_battery_fails_where_smallcrush_fails(generator):
    # smallcrush.toml: SmallCrush on `rnglab stream GEN --seed 12345`. Where SmallCrush FAILs a generator (p within
    # 1e-10 of 0 or 1), the small battery FAILs it too, and is at least "unusual" on each failed test it also has.
    # Exception: the stream packs outputs that are not 32 bits wide (glibc_type0's 31, drand48's 48) across words,
    # so SmallCrush's r = 0 tests also read their weak low bits; small sees those through its low-bit entries.
    result = run_battery(lambda seed: make_source(generator, seed), get_battery("small"), SEED)
    mine = {label: r.pvalue for label, r in zip(result_labels(result.results), result.results)}
    failed = [test for test, p in SMALLCRUSH[generator].items() if distance(p) < 1e-10]
    low_bits_fail = any(distance(p) < 1e-10 for label, p in mine.items() if "low=" in label)
    word_aligned = make_source(generator, SEED).output_bits in (32, 64)
    if failed:
        assert min(distance(p) for p in mine.values()) < 1e-10, mine
    for test in failed:
        if test in SAME_TEST and (word_aligned or test not in EVERY_BIT or not low_bits_fail):
            assert min(distance(mine[label]) for label in SAME_TEST[test]) < 1e-3, (test, mine)
    if not any(distance(p) < 1e-3 for p in SMALLCRUSH[generator].values()):
        # SmallCrush has no test of linear structure: small's linear complexity of the low bit FAILs the F2-linear
        # MT19937 (python's generator), as LinearComp in Crush and BigCrush does (L'Ecuyer and Simard 2007, table 1)
        structural = {label for label in mine if label.startswith("linear-complexity")}
        assert min(distance(p) for label, p in mine.items() if label not in structural) > 1e-10, mine


@pytest.mark.slow
def test_small_battery_fails_minstd_as_bat1():
    # examples/bat1.res: SmallCrush fails MINSTD (x / m) on birthday spacings, collision and max-of-t only.
    case = KNOWN["smallcrush"]
    result = run_battery(lambda seed: ulcg_source(case["generator"]), get_battery("small"), SEED)
    mine = {label: r.pvalue for label, r in zip(result_labels(result.results), result.results)}
    assert all(distance(mine[case["entries"][test]]) < 1e-10 for test in case["failed"]), mine
    assert all(distance(mine[case["entries"][test]]) > 1e-3 for test in case["passed"]), mine
