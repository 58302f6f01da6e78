"""The floating-point frequency test: cells by hand, the exact law, every word of 8 bits, good and bad sources."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from rnglab.empirical.stattests import TESTS
from rnglab.empirical.stattests.float_frequency import float_cells, float_law
from rnglab.generators import make_source
from rnglab.streams.gateway import BitSelection, select


def test_cells_by_hand():
    # 8-bit words, k = 2 mantissa bits, E = 3 exponents: 0b1011_0000 -> e 0, m 0b01; 0b0011_1000 -> e 2, m 0b11;
    # 0b0001_0000 -> e >= 3: tail cell 12
    words = np.array([0b10110000, 0b00111000, 0b00010000, 0], dtype=np.uint64)
    assert float_cells(words, 8, 2, 3).tolist() == [0 * 4 + 1, 2 * 4 + 3, 12, 12]


def test_law_equals_the_frequencies_of_every_8_bit_word():
    counts = np.bincount(float_cells(np.arange(256, dtype=np.uint64), 8, 2, 4), minlength=17)
    assert np.array_equal(counts / 256, float_law(2, 4))
    assert float_law(4, 12).sum() == 1.0


def test_pcg64_passes_randu_fails_and_the_low_bytes_of_lcgs_are_too_even():
    assert TESTS["float-frequency"](make_source("pcg64", 12345), 400_000).pvalue > 0.001
    assert TESTS["float-frequency"](make_source("randu", 12345), 400_000).pvalue < 1e-100
    # period-256 low bytes fill every cell exactly: X^2 = 0, p = 1, a FAIL by the two-sided verdict
    low = TESTS["float-frequency"](select(make_source("drand48", 1), BitSelection(low=8)), 400_000, word_bits=8,
                                   exponents=3)
    assert low.statistic < 1 and low.pvalue > 1 - 1e-10


def test_false_alarm_rate_of_an_ideal_source():
    pvalues = np.array([TESTS["float-frequency"](make_source("pcg64", seed), 20_000, mantissa_bits=2, exponents=8).pvalue
                        for seed in range(200)])
    alarms = int((pvalues <= 0.05).sum())
    assert stats.binom.sf(alarms - 1, 200, 0.05) > 0.001 and stats.binom.cdf(alarms, 200, 0.05) > 0.001, alarms


def test_parameters_that_leave_no_mantissa_are_refused():
    with pytest.raises(ValueError, match="exponents \\+ 1 \\+ mantissa_bits <= word_bits"):
        TESTS["float-frequency"](make_source("pcg64", 1), 10**6, word_bits=8, mantissa_bits=4, exponents=4)


@pytest.mark.parametrize("name, selection", [("minstd", BitSelection()), ("mt19937", BitSelection(low=11))])
def test_words_are_the_bit_streams_successive_words_across_chunks(name, selection):
    """Past the 65,536 words of a chunk, the next word starts with the next bit of the bit stream (a read used to
    drop the rest of its last output when the chunk's bits did not fill whole outputs): the counts of the words
    cut all at once."""
    from rnglab.streams.gateway import bit_fields

    n = 400_000  # chunks of 65,536 words
    words = bit_fields(select(make_source(name, 9), selection), n, 32)
    expected = np.bincount(float_cells(words, 32, 4, 12), minlength=12 * 16 + 1)
    observed = TESTS["float-frequency"](select(make_source(name, 9), selection), n).details["observed"]
    assert observed.tolist() == expected.tolist()


@settings(max_examples=200, deadline=None)
@given(st.data(), st.integers(8, 64), st.integers(0, 16), st.integers(1, 47))
def test_cells_equal_the_leading_zeros_and_next_bits_of_each_word(data, word_bits, mantissa_bits, exponents):
    """Any width: e = b - bit_length(x), m = the k bits after the leading 1, the tail for e >= E."""
    if exponents + 1 + mantissa_bits > word_bits:
        return
    single_ones = st.integers(0, word_bits - 1).map(lambda j: 1 << j)  # a long run of zeros below the leading 1
    words = data.draw(st.lists(st.integers(0, 2**word_bits - 1) | st.integers(0, 2**(word_bits // 2)) | single_ones,
                               max_size=30))
    expected = []
    for x in words:
        e = word_bits - x.bit_length()
        m = (x >> (x.bit_length() - 1 - mantissa_bits)) & (2**mantissa_bits - 1) if e < exponents else 0
        expected.append((e << mantissa_bits) + m if e < exponents else exponents << mantissa_bits)
    assert float_cells(np.array(words, dtype=np.uint64), word_bits, mantissa_bits, exponents).tolist() == expected
