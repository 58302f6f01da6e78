"""Birthday spacings (rnglab.empirical.stattests.birthday): equal circular spacings counted by hand.

Birthdays 0, 2, 4, 7 in a year of 10 days: spacings 2, 2, 3 and around the circle 10 - 7 + 0 = 3; sorted 2, 2, 3, 3:
two repeats. In a year of 8 days the circular spacing is 1: 1, 2, 2, 3, one repeat (TestU01's smarsa_BirthdaySpacings
statistic, the circular spacing included).
"""

import io
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.empirical.stattests.birthday import (
    MOST_SHARED_WORDS,
    BirthdaySpacingsTally,
    birthday_spacings,
    equal_spacings,
    repeated_values,
)
from rnglab.generators import make_source
from rnglab.generators.external import ByteStreamSource


def test_circular_spacings_by_hand():
    assert equal_spacings(np.array([7, 0, 4, 2], dtype=np.uint64), 10) == 2
    assert equal_spacings(np.array([7, 0, 4, 2], dtype=np.uint64), 8) == 1


def test_all_equal_spacings_and_shared_birthdays():
    assert equal_spacings(np.array([0, 25, 50, 75], dtype=np.uint64), 100) == 3
    assert equal_spacings(np.array([5, 5, 5, 9], dtype=np.uint64), 12) == 1  # spacings 0, 0, 4, 8


def test_the_birthdays_become_their_spacings_in_place():
    birthdays = np.array([9, 1, 6], dtype=np.uint64)  # sorted 1, 6, 9: spacings 5, 3 and around 12 - 9 + 1 = 4
    low = np.full(5, 7, dtype=np.uint32)
    assert equal_spacings(birthdays, 12, low) == 0
    assert birthdays.tolist() == [5, 3, 4]  # no second array of n spacings: the birthdays' own, and their low words
    assert low.tolist() == [3, 4, 5, 7, 7]  # sorted there, the rest of a longer array untouched


def sorted_repeats(values):
    """The statistic as it was counted: the values sorted, each equal to the one before counted."""
    ordered = np.sort(np.array(values, dtype=np.uint64))
    return int(np.count_nonzero(ordered[1:] == ordered[:-1]))


def low_words(values):
    return (np.array(values, dtype=np.uint64) & np.uint64(0xFFFFFFFF)).astype(np.uint32)


# values that share low words without being equal (2^32 apart), equal ones, the extremes of uint64 and of a word
VALUES = st.sampled_from([0, 1, 2**32 - 1, 2**32, 2**32 + 1, 2**33 + 1, 2**63, 2**64 - 1, 2**64 - 2**32])
SPREAD = st.integers(0, 2**64 - 1) | st.integers(0, 40).map(lambda low: low + 2**32 * (low % 3))


@settings(deadline=None)  # the first example compiles the kernels
@given(st.lists(VALUES | SPREAD, max_size=200))
def test_repeated_values_are_those_of_the_sorted_values(values):
    assert repeated_values(np.array(values, dtype=np.uint64), low_words(values)) == sorted_repeats(values)


def test_repeated_values_whatever_the_low_words_share():
    """Every low word shared (all values equal, or 2^32 apart): every value is gathered and sorted, or past
    MOST_SHARED_WORDS shared words all sorted at once, the count the same; none shared: nothing is."""
    rng = np.random.default_rng(5)
    many = 3 * MOST_SHARED_WORDS
    cases = [[5] * 1000, [2**32 * j for j in range(1000)], [2**32 * (j % 7) + 9 for j in range(1000)],
             [5] * many, [2**32 * (j % 50) + j % 3 for j in range(many)],
             [2**32 * (j % 2) + j // 2 for j in range(2 * MOST_SHARED_WORDS + 2)],  # one shared word past the most
             rng.integers(0, 2**64, 5000, dtype=np.uint64, endpoint=False).tolist(), list(range(1000)), [3], []]
    for values in cases:
        assert repeated_values(np.array(values, dtype=np.uint64), low_words(values)) == sorted_repeats(values)


@settings(deadline=None)  # the first example compiles the kernels
@given(st.lists(st.integers(0, 2**40), min_size=1, max_size=300), st.integers(0, 2**40))
def test_equal_spacings_are_those_of_the_sorted_spacings(birthdays, extra_days):
    """Against the statistic computed as TestU01 does: spacings (the circular one included) sorted, repeats
    counted; birthdays shared, spacings 0 and the year's whole length (all birthdays on one day) included."""
    k = max(birthdays) + 1 + extra_days
    ordered = sorted(birthdays)
    spacings = [b - a for a, b in itertools.pairwise(ordered)] + [k - ordered[-1] + ordered[0]]
    assert equal_spacings(np.array(birthdays, dtype=np.uint64), k) == sorted_repeats(spacings)


def words(values):
    """A 32-bit source giving ``values`` in order: with ``d = 2^32``, ``t = 1`` each value is a birthday."""
    return ByteStreamSource(io.BytesIO(np.array(values, dtype="<u4").tobytes()), "u32", "hand")


BIRTHDAYS = [7, 0, 4, 2, 0, 4, 8, 12, 1, 3]


def test_blocks_are_years_of_their_own_by_hand():
    # blocks of 4 in a year of 2^32 days: 0 2 4 7 (spacings 2 2 3, around 2^32 - 7): 1 repeat; 0 4 8 12 (4 4 4,
    # around 2^32 - 12): 2 repeats; what is left, 1 3 (2, around 2^32 - 2): none
    result = birthday_spacings(words(BIRTHDAYS), 10, d=2**32, t=1, block=4)
    assert result.statistic == 3
    assert result.details["expected"] == (2 * 4**3 + 2**3) / (4 * 2**32)  # the blocks' Poisson means summed
    assert result.params["block"] == 4
    # one year of all ten, 0 0 1 2 3 4 4 7 8 12: spacings 0 1 1 1 1 0 3 1 4 and around 2^32 - 12, five repeats
    whole = birthday_spacings(words(BIRTHDAYS), 10, d=2**32, t=1)
    assert whole.statistic == 5 and "block" not in whole.params


def test_a_tally_read_in_pieces_counts_the_same_blocks():
    source = words(BIRTHDAYS)
    tally = BirthdaySpacingsTally(source, d=2**32, t=1, block=4)
    for n, repeats in ((2, 0), (5, 1), (6, 1), (10, 3)):
        assert tally.extend(source, n).result().statistic == repeats
        assert birthday_spacings(words(BIRTHDAYS), n, d=2**32, t=1, block=4).statistic == repeats
    assert BirthdaySpacingsTally.bounded({"block": 4})
    assert not BirthdaySpacingsTally.bounded({})  # without blocks it holds every birthday: not carried on


def test_a_block_too_large_for_the_poisson_law_is_refused():
    with pytest.raises(ValueError, match="16 n\\^2 <= k .* got n = 2048 in a block"):
        birthday_spacings(words([0] * 8), 4096, d=2**10, t=2, block=2048)


def test_summed_blocks_follow_the_poisson_law_of_the_summed_means():
    """False alarms measured: 300 PCG64 streams, 24 blocks of 2^11 birthdays in 2^30 days and 1,000 more
    (mean 48.1): the counts' mean and variance are the Poisson's, and the mid-p values below 0.05 are 5 %
    (4 standard deviations of a binomial count each way)."""
    counts, pvalues = [], []
    n = 24 * 2**11 + 1000
    for seed in range(300):
        result = birthday_spacings(make_source("pcg64", seed=seed), n, d=2**10, t=3, block=2**11)
        counts.append(result.statistic)
        pvalues.append(result.pvalue)
    mean = result.details["expected"]
    assert mean == pytest.approx((24 * 2**33 + 1000**3) / 2**32)
    assert abs(np.mean(counts) - mean) < 4 * math.sqrt(mean / 300)
    assert 0.7 < np.var(counts) / mean < 1.3
    low = sum(p < 0.05 for p in pvalues)
    assert abs(low - 15) < 4 * math.sqrt(300 * 0.05 * 0.95)


def test_minstd_fails_in_blocks():
    """MINSTD's pairs on a lattice repeat spacings in every block: 74 equal spacings where 4.8e-7 are expected."""
    result = birthday_spacings(make_source("minstd", seed=1), 4 * 8192, d=2**30, t=2, block=8192)
    assert result.statistic == 74 and result.pvalue < 1e-100
    assert birthday_spacings(make_source("pcg64", seed=1), 4 * 8192, d=2**30, t=2, block=8192).statistic == 0


def test_birthdays_cut_from_the_bit_stream_straddle_the_pieces():
    """MSVC's 15-bit outputs: a 40-bit birthday of d = 2^20, t = 2 spans parts of three or four outputs; read in
    pieces of 3, 10,000 and 55,533 birthdays, the bits of an output that a piece left wait for the next (the same
    birthdays as at once)."""
    source = make_source("msvc", seed=3)
    tally = BirthdaySpacingsTally(source, d=2**20, t=2, block=2**14)
    for n in (3, 10003, 4 * 2**14):
        tally.extend(source, n)
    at_once = birthday_spacings(make_source("msvc", seed=3), 4 * 2**14, d=2**20, t=2, block=2**14)
    assert tally.result() == at_once and at_once.statistic > 0
