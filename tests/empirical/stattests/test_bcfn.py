"""BCFN: patterns and ties by hand, Good's statistic, LCG low bits and a constant bit fail, false alarms."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.empirical.stattests import TESTS
from rnglab.empirical.stattests.bcfn import _deviations, _feed, _scan, _wrap, overlapping_statistic, tie_probability
from rnglab.generators import CallableSource, make_source
from rnglab.generators.adapters import ideal_source
from rnglab.streams.gateway import BitSelection, select


def test_circular_pattern_counts_by_hand():
    """Deviations -3 -1 0 +2 -5 +1 (a tie skipped): signs 1 1 0 1 0, t = 2: circular pairs 11 10 01 10 01,
    singles 1 1 0 1 0."""
    state, counts, shorter = np.zeros(3, dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros(2, dtype=np.int64)
    ties = _feed(np.array([-3, -1, 0, 2], dtype=np.int64), 2, state, counts, shorter)  # the state carries over
    ties += _feed(np.array([-5, 1], dtype=np.int64), 2, state, counts, shorter)
    _wrap(2, state, counts, shorter)
    assert ties == 1 and counts.tolist() == [0, 2, 2, 1] and shorter.tolist() == [2, 3]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.lists(st.integers(-2, 2), max_size=400), st.lists(st.integers(0, 400), max_size=4))
def test_patterns_fed_in_pieces_match_brute_force(t, deviations, cuts):
    """Deviations fed in any pieces count every overlapping t- and (t-1)-pattern of the signs of those that are
    not ties (before the wrap), and the ties, as a direct count over the whole sequence does (pieces of 4t signs
    and more are counted in four runs side by side, each from the signs before it)."""
    state, counts = np.zeros(3, dtype=np.int64), np.zeros(2**t, dtype=np.int64)
    shorter = np.zeros(2 ** (t - 1), dtype=np.int64)
    ties = sum(_feed(np.array(piece, dtype=np.int64), t, state, counts, shorter)
               for piece in np.split(np.array(deviations, dtype=np.int64), sorted(cuts)))
    signs = [int(d < 0) for d in deviations if d]

    def brute(width):
        table = np.zeros(2**width, dtype=np.int64)
        for end in range(width, len(signs) + 1):
            table[int("".join(map(str, signs[end - width:end])), 2)] += 1
        return table.tolist()

    assert ties == deviations.count(0) and state[1] == len(signs)
    assert counts.tolist() == brute(t) and shorter.tolist() == brute(t - 1)


def test_deviations_of_blocks_held_two_to_a_word():
    """Blocks of 32 bits two to a word, the high half first, the last block left out: weight minus 16."""
    words = np.array([0xFFFFFFFF_00000001, 0x0000000F_FFFF0000], dtype=np.uint64)
    assert _deviations(words, 2, 32, 3, np.empty(4, dtype=np.int64)).tolist() == [16, -15, -12]


@pytest.mark.parametrize("per, block_bits", [(1, 64), (1, 32), (2, 32), (3, 20), (4, 16), (8, 8), (32, 2)])
def test_deviations_of_every_packing_match_a_plain_count(per, block_bits):
    """Each packing (the compiled loop for one, two and four blocks a word, and the general one), whole words and a
    last word partly read: the weight of each block, the first in the high bits, less half its bits."""
    words = np.random.default_rng(per).integers(0, 2**64 - 1, 9, dtype=np.uint64, endpoint=True)
    for count in (9 * per, 9 * per - 1, 1):
        expected = [(int(words[i // per]) >> (block_bits * (per - 1 - i % per)) & (2**block_bits - 1)).bit_count()
                    - block_bits // 2 for i in range(count)]
        assert _deviations(words, per, block_bits, count, np.empty(9 * per, dtype=np.int64)).tolist() == expected


def test_levels_sum_pairs_of_blocks():
    """Deviations +1 -1 +2 +2: level 0 signs 0 1 0 0; level 1 sums 0 (a tie) and +4; t = 2."""
    states, counts = np.zeros((2, 3), dtype=np.int64), np.zeros((2, 4), dtype=np.int64)
    shorter, ties = np.zeros((2, 2), dtype=np.int64), np.zeros(2, dtype=np.int64)
    _scan(np.array([1, -1, 2, 2], dtype=np.int64), 2, 2, states, counts, shorter, ties)
    assert ties.tolist() == [0, 1] and states[0, 1] == 4 and states[1, 1] == 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-3, 3), max_size=120), st.lists(st.integers(0, 120), max_size=5))
def test_levels_fed_in_pieces_count_the_sums_of_aligned_blocks(deviations, cuts):
    """Chunks of any sizes, the block of each level left open carried between them: level L counts the sums
    of the blocks 2^L j .. 2^L (j + 1) - 1 that are whole, fed at once (a one-step reference)."""
    top, t = 5, 3
    states, counts = np.zeros((top, 3), dtype=np.int64), np.zeros((top, 2**t), dtype=np.int64)
    shorter, ties, carries = np.zeros((top, 2 ** (t - 1)), np.int64), np.zeros(top, np.int64), np.zeros((top, 2), np.int64)
    for piece in np.split(np.array(deviations, dtype=np.int64), sorted(cuts)):
        _scan(piece.copy(), top, t, states, counts, shorter, ties, carries)
    for level in range(top):
        sums = np.array(deviations[:len(deviations) >> level << level], dtype=np.int64).reshape(-1, 2**level).sum(1)
        state, expected, expected_shorter = np.zeros(3, np.int64), np.zeros(2**t, np.int64), np.zeros(2 ** (t - 1),
                                                                                                     np.int64)
        expected_ties = _feed(sums, t, state, expected, expected_shorter)
        assert ties[level] == expected_ties and states[level].tolist() == state.tolist()
        assert counts[level].tolist() == expected.tolist() and shorter[level].tolist() == expected_shorter.tolist()


def test_good_statistic_by_hand():
    """m = 5 signs: psi2_2 = (0-5/4)^2/(5/4) + 2 (2-5/4)^2/(5/4) + (1-5/4)^2/(5/4) = 2.2, psi2_1 = 0.2."""
    statistic, df = overlapping_statistic(np.array([0, 2, 2, 1]), np.array([2, 3]))
    assert statistic == pytest.approx(2.2 - 0.2) and df == 2


def test_tie_probability_is_the_central_binomial():
    assert tie_probability(32) == pytest.approx(comb(32, 16) / 2**32, rel=1e-12)
    assert tie_probability(2) == pytest.approx(0.5)


def test_an_alternating_bit_makes_every_block_a_tie():
    cycle = itertools.cycle([0, 1])
    source = CallableSource(lambda size: [next(cycle) for _ in range(size)], 0, 1, name="alternating",
                            vectorized=True)
    result = TESTS["bcfn"](source, 2000)
    assert result.details["ties"][0] == 2000 and result.pvalue < 1e-100


def test_pcg64_passes_and_lcg_low_bits_fail():
    assert TESTS["bcfn"](make_source("pcg64", 12345), 2**16).pvalue > 0.001
    for name in ("randu", "drand48", "mmix", "delphi"):
        assert TESTS["bcfn"](select(make_source(name, 12345), BitSelection(low=1)), 4096).pvalue < 1e-20, name
    assert TESTS["bcfn"](select(make_source("java", 12345), BitSelection(low=1)), 2**15).pvalue < 1e-6


@pytest.mark.parametrize("range_size, n", [(2**15, 2**14), (2**64, 4096), (2**31 - 1, 400)])
def test_false_alarm_rate_of_ideal_sources(range_size, n):
    """100 ideal sources per resolution: the Bonferroni p-value is below 0.01 at most 2% of the time (its
    tail distance has a uniform p-value's law at worst); binomially, 7 or more would happen with p < 0.005."""
    pvalues = np.array([TESTS["bcfn"](ideal_source(range_size, seed), n).pvalue for seed in range(100)])
    assert (pvalues < 0.01).sum() <= 6 and pvalues.max() <= 0.5


def test_too_few_blocks_are_refused():
    with pytest.raises(ValueError, match="bcfn needs"):
        TESTS["bcfn"](make_source("pcg64", 1), 300)


@pytest.mark.slow
@pytest.mark.parametrize("resolution", ["2^15", "2^31-1", "2^32", "2^64", "3*2^30"])
def test_calibration_of_bcfn_and_gap16_at_every_resolution(resolution):
    """The calibration machinery (rnglab.empirical.calibration) on BCFN and Gap-16 at three sizes each,
    100 ideal sources per resolution: alarms (tail distance below 1e-3) in line with the nominal 0.2 %."""
    from rnglab.empirical.battery import Battery, Entry
    from rnglab.empirical.calibration import RESOLUTIONS, calibrate, out_of_line

    entries = (Entry("bcfn", 400, {}), Entry("bcfn", 2**14, {}), Entry("bcfn", 2**12, {}, bits=BitSelection(low=1)),
               Entry("gap-16", 2**12, {}), Entry("gap-16", 2**16, {}), Entry("gap-16", 2**14, {},
                                                                             bits=BitSelection(low=1)))
    calibration = calibrate(Battery("new", "", entries), RESOLUTIONS[resolution], 100)
    alarms = calibration.alarms()
    assert not out_of_line(sum(alarms), 100 * len(alarms)) and max(alarms) <= 2, (calibration.labels, alarms)
