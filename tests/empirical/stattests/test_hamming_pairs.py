"""Independence of the Hamming weights of successive blocks (TestU01's sstring_HammingIndep): TestU01's pooling of
sparse cells by hand, the table of pairs against popcounts, a hand-computed statistic, and the refusals.

The statistic against TestU01's own (SmallCrush's parameters) and the false-alarm rate are in test_smallcrush.py.
"""

import numpy as np
import pytest
from empirical.stattests.test_marsaglia import fixed_source
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.empirical.stattests.hamming_pairs import add_pair_weights, hamming_independence, pair_classes
from rnglab.generators import make_source


def test_pair_classes_by_hand():
    labels, expected = pair_classes(np.array([[20.0, 4.0], [3.0, 12.0]]), 10.0)
    # two full cells; the pooled 7 < 10 joins the last full cell
    assert labels.tolist() == [[0, 1], [1, 1]] and expected.tolist() == [20, 19]
    labels, expected = pair_classes(np.array([[4.0, 4.0], [3.0, 3.0]]), 10.0)
    assert labels.tolist() == [[0, 1], [0, 1]] and expected.tolist() == [7, 7]


@settings(deadline=None)
@given(st.integers(1, 3), st.lists(st.integers(0, 2**64 - 1), min_size=0, max_size=12))
def test_pair_weights_count_the_popcounts_of_each_pair_of_blocks(per, words):
    fields = np.array(words[:len(words) // (2 * per) * 2 * per], dtype=np.uint64)
    table = np.zeros((64 * per + 1, 64 * per + 1), dtype=np.int64)
    add_pair_weights(fields, per, table)
    expected = np.zeros_like(table)
    weights = [sum(int(word).bit_count() for word in fields[j:j + per]) for j in range(0, fields.size, per)]
    for first, second in zip(weights[::2], weights[1::2]):
        expected[first, second] += 1
    assert np.array_equal(table, expected)


def test_hamming_independence_of_an_alternating_source_by_hand():
    # blocks of 8 bits 0xFF, 0x0F repeated: every pair has weights (8, 4). L = 8, n = 1000: the cells expecting
    # >= 10 are n b_i b_j >= 10, b = C(8, i) / 256; the pair (8, 4) falls in the pooled cells, so every one of the
    # 1000 pairs lands in the last class.
    result = hamming_independence(fixed_source([0xFF, 0x0F], 8), 1000, block_bits=8)
    observed, expected = result.details["observed"], result.details["expected"]
    assert observed.sum() == 1000 and observed[-1] == 1000 and expected.sum() == pytest.approx(1000)
    assert result.statistic == pytest.approx(((observed - expected) ** 2 / expected).sum()) and result.pvalue < 1e-100


def test_hamming_independence_refusals():
    with pytest.raises(ValueError, match=r"block_bits must be in \[1, 4096\]; got 4097"):
        hamming_independence(make_source("pcg64", 1), 100, block_bits=4097)
    with pytest.raises(ValueError, match="needs n >= 20 pairs; got 19"):
        hamming_independence(make_source("pcg64", 1), 19)
