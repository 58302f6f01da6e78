"""Tests hold for a discrete uniform source of the resolution they read, and refuse what they cannot do.

Issue 13, defects 3 and 4. An ideal source of resolution R (numpy's unbiased
integers in [0, R), :func:`rnglab.generators.ideal_source`) is the null
hypothesis of every test at that resolution: it must pass. The generator that
really fails a test must still fail it.
"""


import pytest

from rnglab.empirical.stattests import get_test
from rnglab.empirical.stattests.frequency import uniform_levels
from rnglab.generators import ideal_source, make_source
from rnglab.streams.gateway import BitSelection, select

#: Every resolution rnglab serves: MSVC's 15 bits, 16 bits, MINSTD's prime modulus, RANDU's 2^31, 32-bit words,
#: doubles, 64-bit words, and a range that is not a power of two.
RESOLUTIONS = [2**15, 2**16, 2**31 - 1, 2**31, 2**32, 2**53, 2**64, 3 * 2**30]

#: The small battery's max-of-t (SmallCrush's sknuth_MaxOft: n = 2e6, d = 1e5, t = 6).
MAX_OF_T = {"t": 6, "d": 100_000}


def test_ideal_source_has_its_range_and_resolution():
    for range_size in RESOLUTIONS:
        source = ideal_source(range_size, 1)
        values = source.random_raw(1000)
        assert (source.low, source.high) == (0, range_size - 1) and int(values.max()) < range_size
    assert uniform_levels(ideal_source(2**15, 1)) == 2**15
    assert uniform_levels(ideal_source(2**64, 1)) == 2**53
    assert uniform_levels(ideal_source(3 * 2**30, 1)) == 3 * 2**30
    assert uniform_levels(select(ideal_source(2**32, 1), BitSelection(low=12))) == 2**12


@pytest.mark.parametrize("range_size", [2**15, 2**16, 2**31 - 1, 3 * 2**30, 2**64])
def test_max_of_t_passes_an_ideal_source_of_any_resolution(range_size):
    # Before the fix, the textbook equal cells gave X^2 about 1.8e7 on 99 999 degrees of freedom at 2^15 and 2^16.
    result = get_test("max-of-t")(ideal_source(range_size, 7), 2_000_000, **MAX_OF_T)
    assert 1e-3 < result.pvalue < 1 - 1e-3, result.statistic


def test_max_of_t_reads_the_low_bits_at_their_own_resolution():
    result = get_test("max-of-t")(select(ideal_source(2**32, 3), BitSelection(low=10)), 200_000, t=6, d=10_000)
    assert result.details["levels"] == 2**10 and 1e-3 < result.pvalue < 1 - 1e-3


def test_max_of_t_still_fails_minstd_and_not_msvc():
    # TestU01's SmallCrush fails MINSTD on MaxOft (examples/bat1.res); MSVC's 15 bits pass it (tests/data/testu01).
    assert get_test("max-of-t")(make_source("minstd", 12345), 2_000_000, **MAX_OF_T).pvalue < 1e-10
    assert get_test("max-of-t")(make_source("msvc", 12345), 2_000_000, **MAX_OF_T).pvalue > 1e-3


@pytest.mark.parametrize("low", [4, 8])
def test_permutation_leaves_ties_out_and_passes_a_coarse_source(low):
    # At 16 levels one 4-tuple in three has a tie; counted as ascending they gave X^2 in the thousands.
    result = get_test("permutation")(select(ideal_source(2**32, 11), BitSelection(low=low)), 200_000, t=4)
    assert result.details["ties"] > 0 and 1e-3 < result.pvalue < 1 - 1e-3


