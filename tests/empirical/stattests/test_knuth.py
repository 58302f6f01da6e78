"""Knuth's empirical tests (TAOCP vol. 2, 3.3.2): hand-computed cases, PCG64 passes, known-bad generators fail.

Also: the chunked readers against one-value-at-a-time references of Knuth's
algorithms, the exact class probabilities against published values, and
(slow) the uniformity of first-level p-values on PCG64. The tables of good and
bad generators, validity rules and null distributions cover every Knuth test;
the frequency, serial, runs-up and serial correlation tests' own cases are in
test_frequency.py, test_runs.py and test_correlation.py, which share the
helpers here.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

from rnglab.empirical.stattests import TESTS, get_test
from rnglab.empirical.stattests import frequency as frequency_module
from rnglab.empirical.stattests import knuth as knuth_module
from rnglab.empirical.stattests import runs as runs_module
from rnglab.empirical.stattests.knuth import (
    UNCUT,
    SegmentCounts,
    coupon,
    coupon_probabilities,
    coupon_segments,
    distinct_per_row,
    gap,
    gap_lengths,
    max_of_t,
    permutation,
    permutation_indices,
    poker,
    poker_probabilities,
    stirling2,
)
from rnglab.empirical.stattests.runs import MIN_VALUES
from rnglab.generators import CallableSource, make_source
from rnglab.streams.gateway import BitSelection, select

KNUTH_TESTS = ["serial-correlation", "frequency", "serial", "serial-overlapping", "gap", "poker", "coupon",
               "permutation", "runs-up", "max-of-t"]


def cycling(values, high):
    """A source on [0, high] that returns ``values`` over and over."""
    data = np.asarray(values, dtype=np.uint64)
    position = [0]

    def draw(size):
        index = (position[0] + np.arange(size)) % data.size
        position[0] += size
        return data[index]

    return CallableSource(draw, 0, high, vectorized=True)


def reader(values):
    """A ``read(size)`` callable handing out successive parts of ``values``."""
    data, position = np.asarray(values), [0]

    def read(size):
        position[0] += size
        return data[position[0] - size: position[0]]

    return read


@pytest.fixture
def tiny_chunks(monkeypatch):
    """Read 7 values at a time, so that every chunk boundary case is exercised (the same for every example)."""
    monkeypatch.setattr(frequency_module, "CHUNK", 7)
    monkeypatch.setattr(knuth_module, "CHUNK", 7)
    monkeypatch.setattr(runs_module, "CHUNK", 7)


chunked_examples = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# --- (1) hand-computed cases -------------------------------------------------------------------------------


def test_gap_by_hand():
    # [alpha, beta) = [0, 1/2) holds the values 0 and 1 of [0, 3]; the cycle 0,0,1,2,1 gives gaps 0,0,0,1 per
    # cycle: the first 10 gaps are 8 of length 0 and 2 of length >= 1 against 5 and 5: X^2 = 18/5 = 3.6, 1 df.
    result = gap(cycling([0, 0, 1, 2, 1], 3), 10, alpha=0.0, beta=0.5, t=1)
    assert result.details["observed"].tolist() == [8, 2]
    assert (result.statistic, result.details["df"]) == (pytest.approx(3.6), 1)


def test_poker_by_hand():
    # Groups of k = 2 bits (d = 2): P(1 distinct) = P(2 distinct) = 1/2. Groups 00, 01, 11, 00, 10 repeated:
    # 6 with one value and 4 with two among 10, against 5 and 5: X^2 = 0.4.
    result = poker(cycling([0, 0, 0, 1, 1, 1, 0, 0, 1, 0], 1), 10, k=2)
    assert result.details["observed"].tolist() == [6, 4]
    assert result.statistic == pytest.approx(0.4)


def test_coupon_by_hand():
    # d = 2, t = 3: q_2 = 2! S(1,1) / 4 = 1/2 and q_(>=3) = 1/2. Segments 01 | 001 | 1110 repeated: lengths
    # 2,3,4,2,3,4,2,3,4,2 give 4 of length 2 and 6 longer, against 5 and 5: X^2 = 0.4.
    result = coupon(cycling([0, 1, 0, 0, 1, 1, 1, 1, 0], 1), 10, d=2, t=3)
    assert result.details["observed"].tolist() == [4, 6]
    assert result.statistic == pytest.approx(0.4)


def test_permutation_by_hand():
    # Pairs (0,1) up, (2,1) down, (3,3) tie, (1,2) up, (0,2) up, repeated: of 25 pairs 15 up, 5 down and 5 ties,
    # left out (no ordering): X^2 = (5^2 + 5^2) / 10 = 5.
    result = permutation(cycling([0, 1, 2, 1, 3, 3, 1, 2, 0, 2], 3), 25, t=2)
    assert result.details["observed"].tolist() == [15, 5] and result.details["ties"] == 5
    assert result.statistic == pytest.approx(5.0)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=2, max_value=130), st.integers(min_value=2, max_value=40), st.data())
def test_distinct_per_row_counts_the_set_of_each_row(d, k, data):
    # d <= 64 takes the popcount path, d > 64 the pairwise one: both against Python's set.
    rows = data.draw(st.lists(st.lists(st.integers(0, d - 1), min_size=k, max_size=k), min_size=1, max_size=20))
    assert distinct_per_row(np.array(rows, dtype=np.intp), d).tolist() == [len(set(row)) for row in rows]


def test_permutation_indices_follow_the_factorial_number_system():
    # Lehmer code f = c_0 2! + c_1 1!: ascending is 0, descending is c = (2, 1): 2*2 + 1 = 5.
    rows = np.array([[0.1, 0.2, 0.3], [0.3, 0.2, 0.1], [0.2, 0.1, 0.3]])
    assert permutation_indices(rows).tolist() == [0, 5, 2]
    assert permutation_indices(np.array([[0.1, 0.2, 0.1], [0.3, 0.3, 0.3]])).tolist() == [6, 6]  # ties: t!


def test_max_of_t_by_hand():
    # t = 2, d = 2 on the L = 4 levels 0, 1/4, 1/2, 3/4: V = max^2 >= 1/2 only when the maximum is 3/4, so
    # the exact cell probabilities are P(max <= 1/2) = (3/4)^2 = 9/16 and 7/16 (not 1/2 and 1/2). Pairs 03, 12,
    # 22, 00, 01 repeated: maxima 3,2,2,0,1 put 8 of 40 pairs in the upper cell, against 22.5 and 17.5:
    # X^2 = 9.5^2/22.5 + 9.5^2/17.5 = 9.168254.
    result = max_of_t(cycling([0, 3, 1, 2, 2, 2, 0, 0, 0, 1], 3), 40, t=2, d=2)
    assert result.details["observed"].tolist() == [32, 8]
    assert result.details["expected"].tolist() == [22.5, 17.5]
    assert result.statistic == pytest.approx(9.5**2 / 22.5 + 9.5**2 / 17.5, rel=1e-12)


def test_max_of_t_cell_probabilities_are_those_of_the_discrete_maximum():
    # L = 2^15, t = 6, d = 10^5: P(cell c) summed level by level from P(max = k) = ((k+1)^t - k^t) / L^t.
    levels, t, d = 2**15, 6, 10**5
    k = np.arange(levels)
    cells = knuth_module.power_cells(k / levels, t, d)
    by_level = np.bincount(cells, weights=((k + 1.0) ** t - k.astype(np.float64) ** t) / float(levels) ** t, minlength=d)
    exact = knuth_module.maximum_cell_probabilities(levels, t, d)
    assert exact == pytest.approx(by_level, abs=1e-15)
    assert np.count_nonzero(exact) == np.unique(cells).size == 17501  # most of the 10^5 cells hold no level
    fine = knuth_module.maximum_cell_probabilities(2**53, t, d)
    assert fine == pytest.approx(np.full(d, 1 / d), rel=1e-9)


def segment_counts(read, n, mean_length, scan, cap):
    """The gap and coupon tallies' segment counts of ``n`` segments read at once."""
    segments = SegmentCounts(cap, 0)
    stalled = segments.extend(read, n, mean_length, scan)
    return segments.counts, segments.values_read, stalled


# --- exact probabilities --------------------------------------------------------------------------------------


def test_stirling_numbers_of_the_second_kind():
    # Knuth, TAOCP vol. 1, 1.2.6, Table 2: the row n = 5 is 1, 15, 25, 10, 1.
    assert [stirling2(5, k) for k in range(1, 6)] == [1, 15, 25, 10, 1]


def test_poker_probabilities_for_poker_hands():
    # Five decimal digits (Knuth 3.3.2 D): all different .3024, one pair .504, two pairs or three of a kind .18,
    # full house or four of a kind .0135, five of a kind .0001.
    assert [float(p) for p in poker_probabilities(10, 5)] == pytest.approx([0.0001, 0.0135, 0.18, 0.504, 0.3024])


def test_coupon_probabilities_sum_to_one_with_mean_d_harmonic():
    probabilities = coupon_probabilities(5, 200)
    assert sum(probabilities) == 1
    mean = sum(r * p for r, p in zip(range(5, 200), probabilities[:-1]))
    assert float(mean) == pytest.approx(5 * sum(Fraction(1, i) for i in range(1, 6)), rel=1e-9)


# --- chunked readers against one-value-at-a-time references --------------------------------------------------


def gap_reference(hits, n):
    """Knuth's Algorithm G (3.3.2 C) one value at a time: the first n gap lengths."""
    lengths, run = [], 0
    for hit in hits:
        if hit:
            lengths.append(run)
            run = 0
        else:
            run += 1
    return lengths[:n]


def coupon_reference(values, d, n):
    """Knuth's Algorithm C (3.3.2 E) one value at a time: the first n segment lengths."""
    lengths, seen, length = [], set(), 0
    for value in values:
        seen.add(value)
        length += 1
        if len(seen) == d:
            lengths.append(length)
            seen, length = set(), 0
    return lengths[:n]


@chunked_examples
@given(st.lists(st.booleans(), min_size=1, max_size=80), st.integers(min_value=1, max_value=30))
def test_gap_counts_equal_algorithm_g(tiny_chunks, hits, n):
    expected = gap_reference(hits * 100, n)
    counts, _, stalled = segment_counts(reader(hits * 100), n, 1.0, gap_lengths, cap=4)
    assert not stalled or not any(hits)
    assert counts.tolist() == np.bincount(np.minimum(np.array(expected, dtype=int), 4), minlength=5).tolist()


@chunked_examples
@given(st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=80), st.integers(min_value=1, max_value=20))
def test_coupon_counts_equal_algorithm_c(tiny_chunks, values, n):
    expected = coupon_reference(values * 100, 4, n)
    seen = np.zeros(4, dtype=bool)
    counts, _, stalled = segment_counts(reader(np.array(values * 100)), n, 8.0,
                                        lambda v, opened: coupon_segments(v, seen, opened, UNCUT), cap=9)
    assert stalled == (len(expected) < n)
    assert counts.tolist() == np.bincount(np.minimum(np.array(expected, dtype=int), 9), minlength=10).tolist()


def test_coupon_segments_cut_after_the_longest():
    # d = 2, longest 3: 0 0 0 is cut (length 4, ">= t"), 1 1 0 completes at 3, 0 1 at 2, and 1 1 stays open
    seen = np.zeros(2, dtype=bool)
    lengths, opened = coupon_segments(np.array([0, 0, 0, 1, 1, 0, 0, 1, 1, 1]), seen, 0, 3)
    assert lengths.tolist() == [4, 3, 2] and opened == 2


def test_cut_coupon_reads_at_most_t_minus_one_values_a_segment():
    # d = 4, t = 5: segments hold 4 values at most; a constant source cuts every one (all counted as >= 5)
    source = CallableSource(lambda size: np.zeros(size, dtype=np.uint64), 0, 3, name="zeros", vectorized=True)
    result = coupon(source, 100, d=4, t=5, cut=True)
    assert result.details["values_read"] == 400 and result.details["observed"][-1] == 100
    assert result.params["cut"] is True


def test_min_expected_merges_classes_as_testu01():
    # SmallCrush's poker (d = k = 64) at n = 40,000: TestU01 merges to 10 per class and keeps 18 classes (17 df)
    poker_result = poker(select(make_source("pcg64", 1), BitSelection(drop=24)), 40_000, d=64, k=64, min_expected=10)
    assert poker_result.details["df"] == 17 and min(poker_result.details["expected"]) >= 10
    with pytest.raises(ValueError, match="min_expected must be >= 5"):
        poker(make_source("pcg64", 1), 1000, d=8, k=5, min_expected=4)
    with pytest.raises(ValueError, match="cut needs t"):
        coupon(make_source("pcg64", 1), 1000, d=8, cut=True)


# --- (2) a good generator passes, (3) known-bad generators fail ----------------------------------------------

GOOD = [
    ("serial-correlation", 10**6, {}),
    ("frequency", 10**6, {}),
    ("serial", 10**5, {"d": 8, "t": 3}),
    ("serial-overlapping", 10**5, {"d": 8, "t": 3}),
    ("gap", 10**5, {"alpha": 0.25, "beta": 0.5, "t": 12}),
    ("poker", 10**5, {"d": 8, "k": 5}),
    ("coupon", 10**4, {"d": 8}),
    ("permutation", 10**5, {"t": 4}),
    ("runs-up", 10**6, {}),
    ("max-of-t", 10**5, {"t": 5, "d": 64}),
]

# RANDU: triples on 15 planes; glibc TYPE_0's low 2 bits count 0,1,2,3 (c odd, a = 1 mod 4); RANDU's lowest
# bit is always 1; lcg a=5 on a prime modulus has lag-1 correlation about 1/5 (Knuth 3.3.3, eq. (4)).
BAD = [
    ("serial-correlation", "lcg:a=5,m=2^31-1", 10**4, BitSelection(), {}),
    ("frequency", "randu", 1000, BitSelection(low=3), {}),
    ("serial", "randu", 40000, BitSelection(), {"d": 16, "t": 3}),
    ("serial-overlapping", "randu", 40000, BitSelection(), {"d": 16, "t": 3}),
    ("serial-overlapping", "glibc_type0", 1000, BitSelection(low=2), {"d": 4, "t": 2}),
    ("gap", "glibc_type0", 2000, BitSelection(low=2), {}),
    ("poker", "randu", 2000, BitSelection(low=3), {}),
    ("coupon", "glibc_type0", 1000, BitSelection(low=2), {}),
    ("coupon", "randu", 1000, BitSelection(low=3), {}),  # never sees an even digit: stalls
    ("permutation", "lcg:a=5,m=2^31-1", 10**4, BitSelection(), {}),
    ("runs-up", "lcg:a=5,m=2^31-1", 10**5, BitSelection(), {}),
    ("max-of-t", "lcg:a=5,m=2^31-1", 2000, BitSelection(), {}),
]


def test_every_knuth_test_is_registered():
    assert set(KNUTH_TESTS) <= set(TESTS)


@pytest.mark.parametrize("name, n, options", GOOD, ids=[case[0] for case in GOOD])
def test_pcg64_passes(name, n, options):
    result = get_test(name)(make_source("pcg64", 2024), n, **options)
    assert 0.001 <= result.pvalue <= 0.999, result


@pytest.mark.parametrize("name, generator, n, selection, options", BAD, ids=[f"{c[0]}-{c[1]}" for c in BAD])
def test_bad_generator_fails(name, generator, n, selection, options):
    result = get_test(name)(select(make_source(generator, 1), selection), n, **options)
    assert result.pvalue < 1e-6, result


def test_stalled_source_reports_it():
    result = coupon(select(make_source("randu", 1), BitSelection(low=3)), 1000)
    assert result.details["stalled"] and result.details["segments_found"] == 0 and result.statistic == math.inf


def test_gap_on_a_source_stuck_in_a_short_cycle_stops_and_fails():
    # x -> 3x mod 8 from 1 cycles 3, 1, 3, 1 on [1, 7] (c = 0): uniforms 2/7 and 0, never in [1/2, 3/4).
    # Reading stops after 4 (n + 100) mean gap lengths (4 (1000 + 100) * 4 values) with p-value 0.
    result = gap(make_source("lcg:a=3,c=0,m=8", 1), 1000, alpha=0.5, beta=0.75)
    assert (result.pvalue, result.statistic) == (0.0, math.inf)
    assert result.details["stalled"] and result.details["segments_found"] == 0
    assert result.details["values_read"] == 4 * 1100 * 4
    assert result.details["explanation"].startswith("only 0 of the 1000 gaps were complete after 17600 values")


def test_segment_counts_scan_each_value_once():
    # Only the open gap's length is carried between reads: a source that never hits costs linear time.
    scanned = []

    def scan(values, opened):
        scanned.append(values.size)
        return gap_lengths(values, opened)

    counts, values_read, stalled = segment_counts(lambda size: np.zeros(size, dtype=bool), 50, 256.0, scan, cap=4)
    assert stalled and counts.sum() == 0 and sum(scanned) == values_read == 4 * 150 * 256


@pytest.mark.parametrize("name, n, options", GOOD, ids=[case[0] for case in GOOD])
def test_same_seed_same_result(name, n, options):
    first, second = (get_test(name)(make_source("pcg64", 7), n, **options) for _ in range(2))
    assert first.to_dict() == second.to_dict()
    assert first.params["n"] == n and first.test == name


# --- validity rules -------------------------------------------------------------------------------------------

TOO_SMALL = [
    ("serial-correlation", 2, {}, "n must be >= 3"),
    ("serial-correlation", 10, {"lag": 5}, "lag must be < n/2"),
    ("frequency", 100, {"d": 64}, r"n / 64 >= 5"),
    ("serial", 2000, {"d": 8, "t": 3}, r"n / 512 >= 5"),
    ("serial-overlapping", 2000, {"d": 8, "t": 3}, r"n / 512 >= 5"),
    ("gap", 8, {"t": 8}, r"n p >= 5"),
    ("poker", 10, {}, r"n p >= 5 after merging"),
    ("coupon", 9, {"d": 8, "t": 60}, r"n p >= 5 after merging"),
    ("permutation", 100, {"t": 4}, r"n / 24 >= 5"),
    ("runs-up", 4000, {}, r"n >= 100000"),
    ("max-of-t", 100, {"d": 64}, r"n / 64 >= 5"),
]


@pytest.mark.parametrize("name, n, options, rule", TOO_SMALL, ids=[case[0] for case in TOO_SMALL])
def test_validity_rule_is_enforced(name, n, options, rule):
    with pytest.raises(ValueError, match=rule):
        get_test(name)(make_source("pcg64", 1), n, **options)


def test_gap_interval_is_checked():
    with pytest.raises(ValueError, match="alpha < beta"):
        gap(make_source("pcg64", 1), 1000, alpha=0.5, beta=0.5)


# --- the null distributions -----------------------------------------------------------------------------------


VALIDATION = [
    ("serial-correlation", 1000, {}),
    ("frequency", 1000, {"d": 16}),
    ("serial", 1000, {"d": 4, "t": 3}),
    ("serial-overlapping", 1000, {"d": 4, "t": 3}),
    ("gap", 500, {"alpha": 0.0, "beta": 0.5, "t": 5}),
    ("poker", 500, {"d": 8, "k": 5}),
    ("coupon", 500, {"d": 4}),
    ("permutation", 300, {"t": 3}),
    ("runs-up", MIN_VALUES, {}),
    ("max-of-t", 500, {"t": 5, "d": 16}),
]


@pytest.mark.slow
@pytest.mark.parametrize("name, n, options", VALIDATION, ids=[case[0] for case in VALIDATION])
def test_first_level_pvalues_are_uniform_on_pcg64(name, n, options):
    # 1000 seeded replications; the KS test of their p-values against U(0, 1) must not reject at 0.001.
    pvalues = [get_test(name)(make_source("pcg64", seed), n, **options).pvalue for seed in range(1000)]
    assert stats.kstest(pvalues, "uniform").pvalue > 0.001


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0.0, 12.0), max_size=60), st.floats(0.5, 20.0))
def test_adjacent_groups_are_the_greedy_groups(expected, minimum):
    """The compiled grouping equals the greedy rule run in Python (a group closes once its total reaches the
    minimum; a short remainder joins the group before)."""
    starts, total = [0], 0.0
    for index, value in enumerate(expected):
        if total >= minimum:
            starts.append(index)
            total = 0.0
        total += value
    if total < minimum and len(starts) > 1:
        starts.pop()
    assert knuth_module.adjacent_groups(np.array(expected), minimum).tolist() == starts


@given(st.integers(2, 7).flatmap(lambda t: st.lists(st.lists(st.integers(0, 5), min_size=t, max_size=t),
                                                     min_size=1, max_size=30)))
def test_permutation_indices_by_the_definition(rows):
    """Each row's index is ``sum_i #{j > i : u_j < u_i} (t-1-i)!``, or ``t!`` with a tie (small integers: many)."""
    t = len(rows[0])
    expected = [math.factorial(t) if len(set(row)) < t else
                sum(sum(row[j] < row[i] for j in range(i + 1, t)) * math.factorial(t - 1 - i) for i in range(t))
                for row in rows]
    assert permutation_indices(np.array(rows, dtype=np.float64)).tolist() == expected
