"""Marsaglia and Tsang's gcd test: counts by hand, the law, a good source, RANDU, the false-alarm rate."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from rnglab.empirical.stattests import TESTS
from rnglab.empirical.stattests.gcd import gcd_counts, gcd_law
from rnglab.generators import make_source


def test_counts_by_hand():
    words = np.array([12, 18, 7, 5, 0, 9, 2**32 - 1, 3 * 5 * 17 * 257, 1000, 500], dtype=np.uint64)
    counts, skipped = gcd_counts(words, 100)
    # gcd(12, 18) = 6, gcd(7, 5) = 1, (0, 9) skipped, gcd(2^32-1, 65535) = 65535 pooled at 100, gcd(1000, 500) = 500
    assert skipped == 1
    assert counts[6] == 1 and counts[1] == 1 and counts[100] == 2 and counts.sum() == 4


def test_law_is_dirichlets_and_sums_to_one():
    law = gcd_law(100)
    assert law.size == 100 and law.sum() == pytest.approx(1.0, abs=1e-15)
    assert law[0] == pytest.approx(6 / math.pi**2)
    assert law[-1] == pytest.approx(6 / math.pi**2 * (sum(1 / j**2 for j in range(100, 10**6)) + 1 / (10**6 - 0.5)), rel=1e-9)


def test_law_matches_exact_counting_on_a_small_range():
    """Over all pairs in [1, 2^12), the frequency of gcd j is within the law's stated error for small j."""
    values = np.arange(1, 2**12)
    g = np.gcd.outer(values, values)
    law = gcd_law(10, word_bits=24)
    for j in range(1, 10):
        assert np.mean(g == j) == pytest.approx(law[j - 1], rel=0.02)


def test_pcg64_passes_and_randu_fails():
    assert TESTS["gcd"](make_source("pcg64", 12345), 10**6).pvalue > 0.001
    randu = TESTS["gcd"](make_source("randu", 12345), 10**6)
    assert randu.pvalue < 1e-10


def test_false_alarm_rate_of_an_ideal_source():
    """200 PCG64 streams at n = 10^5 pairs: alarms at level 0.05 are binomially plausible."""
    pvalues = np.array([TESTS["gcd"](make_source("pcg64", seed), 10**5).pvalue for seed in range(200)])
    alarms = int((pvalues <= 0.05).sum())
    assert stats.binom.sf(alarms - 1, 200, 0.05) > 0.001 and stats.binom.cdf(alarms, 200, 0.05) > 0.001, alarms


def test_small_samples_are_refused_by_the_chi_square_rule():
    with pytest.raises(ValueError, match="expected count must be >= 5"):
        TESTS["gcd"](make_source("pcg64", 1), 10_000)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)), min_size=1, max_size=30),
       st.integers(0, 40))
def test_counts_equal_pythons_gcd(pairs, shift):
    """Stein's algorithm in the kernel against math.gcd, on pairs sharing a factor 2^shift too."""
    pairs = [((u << shift) % 2**64, (v << shift) % 2**64) for u, v in pairs]
    counts, skipped = gcd_counts(np.array([w for pair in pairs for w in pair], dtype=np.uint64), 10_000)
    gcds = [min(math.gcd(u, v), 10_000) for u, v in pairs if u and v]
    assert skipped == len(pairs) - len(gcds)
    assert counts.tolist() == np.bincount(np.array(gcds, dtype=np.int64), minlength=10_001).tolist()
