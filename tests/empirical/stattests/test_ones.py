"""Count-the-1s on bytes: letters by hand, the word law, low-byte folds of power-of-two LCGs, false alarms."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from rnglab.empirical.stattests import TESTS
from rnglab.empirical.stattests.ones import LETTER_OF_BYTE, word_probabilities
from rnglab.generators import CallableSource, make_source
from rnglab.streams.gateway import BitSelection, select


def test_letters_by_hand():
    # 0x00 (0 ones) A, 0x07 (3) B, 0x0F (4) C, 0x1F (5) D, 0xFF (8) E, 0x03 (2) A, 0x3F (6) E
    assert LETTER_OF_BYTE[[0x00, 0x07, 0x0F, 0x1F, 0xFF, 0x03, 0x3F]].tolist() == [0, 1, 2, 3, 4, 0, 4]
    assert np.bincount(LETTER_OF_BYTE).tolist() == [37, 56, 70, 56, 37]


def test_word_law_is_the_product_of_letter_laws():
    law = word_probabilities(3)
    assert law.sum() == pytest.approx(1.0, abs=1e-15)
    for index, (a, b, c) in enumerate(itertools.product(range(5), repeat=3)):
        assert law[index] == pytest.approx(np.bincount(LETTER_OF_BYTE)[[a, b, c]].prod() / 256**3)


def test_counts_words_of_successive_bytes():
    """Bytes 0x00, 0xFF repeated: every word of 2 letters is AE, cell 0*5 + 4."""
    cycle = itertools.cycle([0x00FF])
    source = CallableSource(lambda size: [next(cycle) for _ in range(size)], 0, 2**16 - 1, name="fixed",
                            vectorized=True)
    counts = TESTS["count-ones"](source, 5000, t=2).details["observed"]
    assert counts[4] == 5000 and counts.sum() == 5000


def test_pcg64_passes_and_the_low_bytes_of_power_of_two_lcgs_fail():
    assert TESTS["count-ones"](make_source("pcg64", 12345), 100_000).pvalue > 0.001
    assert TESTS["count-ones"](make_source("randu", 12345), 100_000).pvalue < 1e-20
    for name in ("drand48", "mmix"):
        assert TESTS["count-ones"](select(make_source(name, 12345), BitSelection(low=8)), 100_000).pvalue < 1e-100


def test_false_alarm_rate_of_an_ideal_source():
    """200 PCG64 streams: alarms at level 0.05 binomially plausible on both sides."""
    pvalues = np.array([TESTS["count-ones"](make_source("pcg64", seed), 30_000, t=4).pvalue for seed in range(200)])
    alarms = int((pvalues <= 0.05).sum())
    assert stats.binom.sf(alarms - 1, 200, 0.05) > 0.001 and stats.binom.cdf(alarms, 200, 0.05) > 0.001, alarms


def test_too_few_words_are_refused():
    with pytest.raises(ValueError, match=r"n \(37/256\)\^5 >= 5"):
        TESTS["count-ones"](make_source("pcg64", 1), 10_000)


@pytest.mark.parametrize("name, selection", [("pcg64", BitSelection()), ("minstd", BitSelection(low=7)),
                                             ("mt19937", BitSelection(low=11))])
def test_words_are_the_bit_streams_successive_bytes_across_chunks(name, selection):
    """Past the 65,535 bytes of a chunk, words go on with the next byte of the bit stream (a read used to drop the
    rest of its last output, unless the chunk's bits filled whole outputs): the counts of the words of the stream's
    bytes, cut all at once."""
    from rnglab.streams.gateway import bit_fields

    n, t = 100_000, 5  # 500,000 bytes: chunks of 65,535
    letters = LETTER_OF_BYTE[bit_fields(select(make_source(name, 9), selection), n * t, 8)].reshape(n, t)
    expected = np.bincount(letters @ 5 ** np.arange(t - 1, -1, -1), minlength=5**t)
    observed = TESTS["count-ones"](select(make_source(name, 9), selection), n, t=t).details["observed"]
    assert observed.tolist() == expected.tolist()
