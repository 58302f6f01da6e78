"""The collision test's parts (rnglab.empirical.stattests.collision): expected collisions by enumerating every
throw, digits of MSVC's first outputs by hand, cells in TestU01's order, Poisson p-values by their sums.

MSVC's ``rand()`` from ``srand(1)`` gives 41, 18467, 6334, 26500, 19169, 15724 (15 bits): ``floor(4 x / 2^15)`` are
0, 2, 0, 3, 2, 1 and the 4^2 cells of pairs ``4 y_0 + y_1`` are 2, 3, 9.
"""

import io
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.empirical.stattests.collision import (
    CollisionTally,
    _join_digits,
    cell_indices,
    collision,
    digits,
    expected_collisions,
    poisson_discrete_pvalue,
    poisson_mid_pvalue,
    repeats_in_sorted,
)
from rnglab.generators import make_source
from rnglab.generators.external import ByteStreamSource


@pytest.mark.parametrize("n, k", [(3, 2), (4, 3), (5, 5), (2, 7)])
def test_expected_collisions_by_enumeration(n, k):
    throws = list(itertools.product(range(k), repeat=n))
    mean = sum(n - len(set(throw)) for throw in throws) / len(throws)
    assert expected_collisions(n, k) == pytest.approx(mean, rel=1e-12)


def test_msvc_digits_and_cells():
    assert digits(make_source("msvc"), 6, 4).tolist() == [0, 2, 0, 3, 2, 1]
    assert cell_indices(make_source("msvc"), 3, 4, 2).tolist() == [2, 3, 9]
    assert digits(make_source("msvc"), 3, 10).tolist() == [41 * 10 // 32768, 18467 * 10 // 32768, 6334 * 10 // 32768]


@settings(deadline=None)  # the first example compiles the kernels
@given(st.integers(1, 5), st.integers(0, 12), st.data())
def test_joined_digits_are_horner_sums_for_every_t(t, shift, data):
    """The unrolled loops (t = 2, 3) and the general one give ``sum_i y_{tj+i} d^(t-1-i)`` of the digits
    ``y = w >> shift``, into uint32 and uint64 cells alike (the largest digits included: d^t = 2^32 fills a uint32
    cell)."""
    d = 2 ** (32 // t)
    cells = data.draw(st.integers(0, 9))
    digits_drawn = data.draw(st.lists(st.sampled_from([0, 1, d - 1]) | st.integers(0, d - 1),
                                      min_size=t * cells, max_size=t * cells))
    low_bits = data.draw(st.integers(0, 2**shift - 1))  # below the shift: dropped
    values = (np.array(digits_drawn, dtype=np.uint64) << np.uint64(shift)) + np.uint64(low_bits)
    expected = [sum(digits_drawn[t * j + i] * d ** (t - 1 - i) for i in range(t)) for j in range(cells)]
    for dtype in (np.uint32, np.uint64):
        out = np.empty(cells, dtype=dtype)
        assert _join_digits(values, np.uint64(shift), np.uint64(d), t, out).tolist() == expected


@settings(deadline=None)  # the first example compiles the kernel
@given(st.lists(st.integers(0, 2**32 - 1) | st.sampled_from([0, 1, 2**32 - 1]), max_size=100))
def test_repeats_in_sorted_values_are_the_values_less_the_distinct_ones(values):
    for dtype in (np.uint32, np.uint64):
        assert repeats_in_sorted(np.sort(np.array(values, dtype=dtype))) == len(values) - len(set(values))


def test_poisson_p_values_by_their_sums():
    mean = 2.5
    pmf = [math.exp(-mean) * mean**j / math.factorial(j) for j in range(60)]
    assert poisson_mid_pvalue(3, mean) == pytest.approx(sum(pmf[4:]) + pmf[3] / 2, rel=1e-12)
    assert poisson_discrete_pvalue(6, mean) == pytest.approx(sum(pmf[6:]), rel=1e-12)  # the right tail is smaller
    assert poisson_discrete_pvalue(0, mean) == pytest.approx(1 - pmf[0], rel=1e-12)  # P(Y > 0)
    assert poisson_discrete_pvalue(2, mean) == 0.5  # both tails exceed 1/2


def words(values):
    """A 32-bit source giving ``values`` in order: with ``d = 2^32``, ``t = 1`` each value is an urn."""
    return ByteStreamSource(io.BytesIO(np.array(values, dtype="<u4").tobytes()), "u32", "hand")


URNS = [5, 5, 5, 1, 5, 6, 7, 8, 6, 6]


def test_collisions_in_blocks_by_hand():
    # blocks of 4, each its own urns: 5 5 5 1 (2 collisions), 5 6 7 8 (none: the 5 of the first block is not
    # there), what is left 6 6 (1); the whole sample at once: 10 balls in 5 urns, 5 collisions
    result = collision(words(URNS), 10, d=2**32, t=1, block=4)
    assert result.statistic == 3 and result.params["block"] == 4
    assert result.details["expected"] == 2 * expected_collisions(4, 2**32) + expected_collisions(2, 2**32)
    assert collision(words(URNS), 10, d=2**32, t=1).statistic == 5
    source = words(URNS)
    tally = CollisionTally(source, d=2**32, t=1, block=4)
    for n, collisions in ((3, 2), (4, 2), (7, 2), (10, 3)):
        assert tally.extend(source, n).result().statistic == collisions


def test_a_block_past_the_sparse_case_is_refused():
    with pytest.raises(ValueError, match="n <= k/32 = 128 \\(sparse case, in a block\\); got n = 256"):
        collision(words([0] * 8), 1024, d=2**6, t=2, block=256)


def test_summed_collisions_follow_the_poisson_law_of_the_summed_means():
    """False alarms measured: 300 PCG64 streams, 20 blocks of 2^10 points in 2^16 urns and 500 more (mean 168):
    the counts' mean and variance are the Poisson's (the sparse case's variance is a little lower), and the mid-p
    values below 0.05 are 5 % (4 standard deviations of a binomial count each way)."""
    counts, pvalues = [], []
    for seed in range(300):
        result = collision(make_source("pcg64", seed=seed), 20 * 2**10 + 500, d=2**8, t=2, block=2**10)
        counts.append(result.statistic)
        pvalues.append(result.pvalue)
    mean = result.details["expected"]
    assert abs(np.mean(counts) - mean) < 4 * math.sqrt(mean / 300)
    assert 0.7 < np.var(counts) / mean < 1.3
    assert abs(sum(p < 0.05 for p in pvalues) - 15) < 4 * math.sqrt(300 * 0.05 * 0.95)


def test_minstd_fails_in_blocks():
    """MINSTD's pairs in 2^16 x 2^16 urns, 8 blocks of 2^16 points: 11 collisions where 4.0 are expected."""
    result = collision(make_source("minstd", seed=1), 8 * 2**16, d=2**16, t=2, block=2**16)
    assert result.statistic == 11 and result.pvalue < 0.002
