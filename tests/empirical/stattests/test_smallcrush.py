"""SmallCrush's weight distribution, Hamming independence and random walk: TestU01's statistics to 9 digits,
their laws checked by enumeration, an ideal source that passes and measured false-alarm rates.

The reference statistics (tests/data/testu01_smallcrush/reference.txt) were printed by TestU01 1.2.3 running
tests/data/testu01_smallcrush/make_reference.c, which documents how to rebuild them.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from rnglab.empirical.stattests import TESTS
from rnglab.empirical.stattests.hamming import merge_sparse_tails
from rnglab.empirical.stattests.random_walk import walk_laws, walk_statistics
from rnglab.empirical.stattests.weights import interval_probability
from rnglab.generators import CallableSource, make_source
from rnglab.streams.gateway import BitSelection, select

REFERENCE = Path(__file__).parents[2] / "data" / "testu01_smallcrush" / "reference.txt"
#: The generators of make_reference.c, by the names it prints.
GENERATORS = {"mmix32": "lcg:a=6364136223846793005,c=1442695040888963407,m=2^64,output=bits(32,32)",
              "delphi": "delphi"}


def reference() -> dict[tuple[str, str], tuple[float, float]]:
    table = {}
    for line in REFERENCE.read_text().splitlines():
        generator, test, _, statistic, _, pvalue = line.split()
        table[generator, test] = float(statistic), float(pvalue)
    return table


def smallcrush_runs(generator: str) -> dict[str, float]:
    """The three tests with SmallCrush's parameters, each on a fresh stream seeded 12345 as in make_reference.c."""
    source = lambda: make_source(GENERATORS[generator], 12345)
    weights = TESTS["weight-distribution"](select(source(), BitSelection(drop=27)), 200_000, k=256, alpha=0.0,
                                           beta=0.125)
    pairs = TESTS["hamming-independence"](select(source(), BitSelection(drop=20, keep=10)), 500_000, block_bits=300)
    walk = TESTS["random-walk"](select(source(), BitSelection(keep=30)), 10**6, length=150)
    found = {"weight-distribution": weights.statistic, "hamming-independence": pairs.statistic}
    found.update({f"random-walk-{name}": part["statistic"] for name, part in walk.details["statistics"].items()})
    return found


@pytest.mark.parametrize("generator", sorted(GENERATORS))
def test_statistics_equal_testu01s(generator):
    expected = reference()
    for test, statistic in smallcrush_runs(generator).items():
        assert statistic == pytest.approx(expected[generator, test][0], rel=1e-9), test


def test_walk_laws_equal_the_statistics_of_every_walk():
    """For l = 2..10 all 2^l walks, counted by the compiled kernel, have exactly the laws of walk_laws."""
    for length in range(2, 11, 2):
        walks = np.array(list(itertools.product((0, 1), repeat=length)), dtype=np.uint8).ravel()
        counts = np.zeros((5, length + 1), dtype=np.int64)
        walk_statistics(walks, length, counts)
        assert np.array_equal(counts / 2**length, walk_laws(length)), length


def test_walk_laws_sum_to_one():
    assert walk_laws(150).sum(axis=1) == pytest.approx(np.ones(5), abs=1e-14)


def test_merging_follows_testu01_where_it_differs_from_pooling_tails():
    """[12, 9.5, 6, 3, 1, 0.5] at 10: 9.5 starts a group with 6; the short last group (4.5) joins it."""
    _, expected, labels = merge_sparse_tails(np.zeros(6), np.array([12, 9.5, 6, 3, 1, 0.5]), 10)
    assert labels == [(0, 0), (1, 5)] and expected.tolist() == [12, 20]


def test_interval_probability_is_exact_at_the_resolution_read():
    minstd = make_source("minstd", 1)  # uniforms v / (2^31 - 2)
    levels = 2**31 - 2
    assert interval_probability(minstd, 0.0, 0.125) == (-(-levels // 8)) / levels
    assert interval_probability(select(minstd, BitSelection(drop=27)), 0.0, 0.125) == 0.125


@pytest.mark.parametrize("test, n, options", [
    ("weight-distribution", 4000, {"k": 64, "beta": 0.25}),
    ("hamming-independence", 2000, {"block_bits": 32}),
    ("random-walk", 2000, {"length": 20}),
])
def test_false_alarm_rate_of_an_ideal_source(test, n, options):
    """150 PCG64 streams: the alarms at level 0.05 are binomially plausible (random-walk's Bonferroni p is
    conservative, so only its upper side is checked)."""
    pvalues = np.array([TESTS[test](make_source("pcg64", seed), n, **options).pvalue for seed in range(150)])
    alarms = int((pvalues <= 0.05).sum())
    assert stats.binom.sf(alarms - 1, 150, 0.05) > 0.001, alarms
    if test != "random-walk":
        assert stats.binom.cdf(alarms, 150, 0.05) > 0.001, alarms


def test_an_ideal_source_of_twelve_values_passes():
    """Uniforms v/12: P(u < 1/8) = 2/12, not 1/8; the law uses the exact probability, so an ideal source passes."""
    rng = np.random.default_rng(3)
    source = CallableSource(lambda size: rng.integers(0, 12, size), 0, 11, name="ideal-12", vectorized=True)
    assert interval_probability(source, 0.0, 0.125) == 2 / 12
    assert TESTS["weight-distribution"](source, 20_000, k=64, beta=0.125).pvalue > 0.001
