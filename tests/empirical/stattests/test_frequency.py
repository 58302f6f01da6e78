"""The equidistribution (frequency), serial and overlapping serial tests (Knuth 3.3.2 A and B, Good 1953) and the
readers that Knuth's tests share: hand-computed cases, the chunked counts against the definitions, the refusals.

The good-generator, bad-generator and validity tables of every Knuth test are in test_knuth.py.
"""

import math

import numpy as np
import pytest
from empirical.stattests.test_knuth import chunked_examples, cycling, reader, tiny_chunks  # noqa: F401 - a fixture
from hypothesis import given
from hypothesis import strategies as st

from rnglab.empirical.stattests import frequency as frequency_module
from rnglab.empirical.stattests.frequency import (
    SPLIT_CELLS,
    Overlap,
    add_top_bit_counts,
    frequency,
    group_counts,
    serial,
    serial_overlapping,
    tuple_cells,
    tuple_counts,
)
from rnglab.generators import make_source
from rnglab.streams.gateway import BitSelection, select, words


def test_frequency_by_hand():
    # 20 values cycling 0,0,1,2,3 on [0, 3] (d = 4): counts 8,4,4,4 against 5: X^2 = (9+1+1+1)/5 = 2.4, 3 df.
    result = frequency(cycling([0, 0, 1, 2, 3], 3), 20)
    assert result.details["observed"].tolist() == [8, 4, 4, 4]
    assert (result.statistic, result.details["df"]) == (pytest.approx(2.4), 3)


def test_serial_by_hand():
    # pairs (0,0),(0,0),(0,1),(1,1),(1,0) repeated: 20 pairs give cells 00:8, 01:4, 10:4, 11:4; X^2 = 2.4, 3 df.
    result = serial(cycling([0, 0, 0, 0, 0, 1, 1, 1, 1, 0], 1), 20, d=2, t=2)
    assert result.details["observed"].tolist() == [8, 4, 4, 4]
    assert result.statistic == pytest.approx(2.4)


def test_serial_overlapping_by_hand():
    # The circle of 20 bits 0000110010 0000110010 has pairs 00:10, 01:4, 10:4, 11:2 (X^2_2 = 36/5 = 7.2) and
    # bits 0:14, 1:6 (X^2_1 = 32/10 = 3.2): D = 4.0 with 4 - 2 = 2 df, p = exp(-2).
    result = serial_overlapping(cycling([0, 0, 0, 0, 1, 1, 0, 0, 1, 0], 1), 20, d=2, t=2)
    assert result.details["observed"].tolist() == [10, 4, 4, 2]
    assert (result.statistic, result.details["df"]) == (pytest.approx(4.0), 2)
    assert result.pvalue == pytest.approx(math.exp(-2))


@pytest.mark.usefixtures("tiny_chunks")
@chunked_examples
@given(st.lists(st.integers(min_value=0, max_value=2), min_size=3, max_size=60), st.integers(min_value=1, max_value=3))
def test_overlapping_counts_across_chunks_equal_the_circle(values, t):
    n, circle = len(values), values * 2
    cells = [sum(circle[j + i] * 3 ** (t - 1 - i) for i in range(t)) for j in range(n)]
    expected = np.bincount(cells, minlength=3**t)
    overlap = Overlap(t - 1)
    counts = tuple_counts(overlap.windows(reader(np.array(values)), n), 3, t, np.zeros(3**t, dtype=np.int64))
    if t > 1:
        tuple_counts([overlap.wrap()], 3, t, counts)
    assert counts.tolist() == expected.tolist()


def test_exactly_periodic_low_bits_are_too_good_for_the_frequency_test_but_fail_the_overlapping_one():
    # glibc TYPE_0's low 2 bits run 0,1,2,3,0,1,...: perfectly equidistributed (p = 1), perfectly serial.
    source = make_source("glibc_type0", 1)
    assert frequency(select(source, BitSelection(low=2)), 1000).pvalue > 0.999999
    assert serial_overlapping(select(source, BitSelection(low=2)), 1000, d=4, t=2).pvalue < 1e-6


def test_digits_cannot_exceed_the_selected_bits():
    with pytest.raises(ValueError, match=r"d must be <= 2\^3"):
        frequency(select(make_source("pcg64", 1), BitSelection(keep=3)), 1000, d=16)


def test_naive_overlapping_chi_square_is_not_chi_square_but_the_difference_is():
    # 400 circles of 320 base-4 digits, t = 2 (16 cells): X^2_2 alone has variance far above 2 * 15 = 30;
    # D = X^2_2 - X^2_1 has mean 12 and variance 24 (chi-square with 12 df).
    results = [serial_overlapping(make_source("pcg64", seed), 320, d=4, t=2) for seed in range(400)]
    naive = np.array([r.details["chi_square_t"] for r in results])
    difference = np.array([r.statistic for r in results])
    assert naive.var() > 45
    assert difference.mean() == pytest.approx(12, rel=0.1) and difference.var() == pytest.approx(24, rel=0.3)


@given(st.lists(st.integers(0, 9), max_size=200))
def test_add_counts_is_a_bincount(indices):
    """Counting in place equals numpy's bincount, added to what the counts held."""
    counts = np.arange(10, dtype=np.int64)
    frequency_module.add_counts(np.array(indices, dtype=np.intp), counts)
    assert counts.tolist() == (np.arange(10) + np.bincount(np.array(indices, dtype=np.intp), minlength=10)).tolist()


SPLIT_BITS = SPLIT_CELLS.bit_length() - 1


@given(st.lists(st.integers(0, 2**64 - 1), max_size=41), st.sampled_from([1, 4, 8, SPLIT_BITS, SPLIT_BITS + 1]),
       st.integers(0, 63), st.booleans())
def test_top_bit_counts_are_a_bincount_of_the_bits_cut(values, cell_bits, shift, repeat):
    """Counting in place equals numpy's bincount of ``(v >> shift) & mask``, added to what the counts held: any
    length (the four counts' remainder), up to SPLIT_CELLS cells and above (the plain loop), the bits cut from
    anywhere in the word, and a stream that repeats one value (every increment on the same cell)."""
    values = np.array(values[:1] * 40 if repeat else values, dtype=np.uint64)
    shift, cells = min(shift, 64 - cell_bits), 2**cell_bits
    counts = np.arange(cells, dtype=np.int64)
    add_top_bit_counts(values, np.uint64(shift), np.uint64(cells - 1), counts)
    cut = (values >> np.uint64(shift)) & np.uint64(cells - 1)
    assert counts.tolist() == (np.arange(cells) + np.bincount(cut.astype(np.intp), minlength=cells)).tolist()


@pytest.mark.usefixtures("tiny_chunks")
@pytest.mark.parametrize("name, selection, d, shift", [("pcg64", BitSelection(), 256, 56),
                                                        ("pcg64", BitSelection(low=8), 16, 4),
                                                        ("pcg64", BitSelection(drop=5, keep=3), 8, 0),
                                                        ("minstd", BitSelection(low=8), 256, 0)])
def test_frequency_counts_the_top_bits_of_the_words_across_chunks(name, selection, d, shift):
    # the digits are the selected words' top log2(d) bits, counted 7 values a read (tiny_chunks) from the words
    # under the selection, as numpy counts them on the selected words read at once (MINSTD's 30 genuine bits: the
    # outputs at or above 2^30 skipped, in the reads of the tally as in the one read)
    n = 5 * d + 3
    top = words(select(make_source(name, 5), selection), n)[0] >> np.uint64(shift)
    result = frequency(select(make_source(name, 5), selection), n, d=d)
    assert result.details["observed"].tolist() == np.bincount(top.astype(np.intp), minlength=d).tolist()


@given(st.integers(2, 5).flatmap(lambda d: st.tuples(st.just(d), st.lists(
    st.lists(st.integers(0, d - 1), min_size=3, max_size=3), min_size=1, max_size=20))))
def test_tuple_cells_are_the_digits_read_in_base_d(case):
    d, rows = case
    expected = [int("".join(map(str, row)), d) for row in rows]
    assert tuple_cells(np.array(rows, dtype=np.int64), d).tolist() == expected


@pytest.mark.usefixtures("tiny_chunks")
@chunked_examples
@given(st.lists(st.integers(0, 3), min_size=2, max_size=60), st.integers(1, 3))
def test_group_counts_across_chunks_count_the_non_overlapping_groups(values, t):
    # groups (y_0 .. y_(t-1)), (y_t ..), ... read CHUNK = 7 values at a time; the cell of a group is its first digit
    n = len(values) // t
    expected = np.bincount([values[t * j] for j in range(n)], minlength=4)
    assert group_counts(reader(np.array(values)), n, t, lambda groups: groups[:, 0], 4).tolist() == expected.tolist()


def test_frequency_takes_at_most_64_cells_and_five_values_a_cell():
    # d defaults to min(64, 2^w): 2^3 for 3 selected bits; n = 5 d is the least sample accepted
    assert frequency(select(make_source("pcg64", 1), BitSelection(keep=3)), 40).details["observed"].size == 8
    assert frequency(make_source("pcg64", 1), 320).details["observed"].size == 64
    with pytest.raises(ValueError, match=r"the frequency test needs n / 64 >= 5 .* got n = 319"):
        frequency(make_source("pcg64", 1), 319)


def test_serial_reads_t_values_a_tuple_and_overlapping_serial_one():
    source = make_source("pcg64", 3)
    assert serial(source, 320, d=4, t=2).details["values_read"] == 640
    assert serial_overlapping(source, 320, d=4, t=2).details["values_read"] == 320


def test_overlap_wraps_the_last_values_onto_the_first():
    overlap = Overlap(2)
    windows = [window.tolist() for window in overlap.windows(reader(np.arange(5)), 5)]
    assert windows == [[0, 1, 2, 3, 4]] and overlap.wrap().tolist() == [3, 4, 0, 1]
