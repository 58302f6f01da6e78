"""The compiled population count (rnglab.empirical.stattests.popcount) against Python's ``int.bit_count``."""

import numpy as np

from rnglab.empirical.stattests.popcount import popcount


def test_edges_by_hand():
    assert [int(popcount(np.uint64(w))) for w in (0, 1, 2**63, 2**64 - 1, 0x5555555555555555, 0xF0F0)] == \
        [0, 1, 1, 64, 32, 8]


def test_words_against_bit_count():
    words = np.random.PCG64(1).random_raw(1000)
    assert [int(popcount(w)) for w in words] == [int(w).bit_count() for w in words]
