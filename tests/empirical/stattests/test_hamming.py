"""Merging sparse chi-square tails as TestU01 does (rnglab.empirical.stattests.hamming), worked by hand, and the
Hamming weights of 8-bit blocks against the binomial law C(8, w) / 256.

Expected counts 1, 2, 3, 10, 20, 4, 1 (minimum 5): the first group runs 1 + 2 + 3 = 6, then 10 and 20 stand alone,
and the last group 4 + 1 = 5 reaches the minimum: classes (0, 2), (3, 3), (4, 4), (5, 6).
"""

import math

import numpy as np

from rnglab.empirical.stattests.hamming import merge_sparse_tails


def test_testu01_s_merging_by_hand():
    expected = np.array([1, 2, 3, 10, 20, 4, 1], dtype=float)
    observed = np.array([0, 1, 5, 9, 22, 3, 1], dtype=float)
    merged_observed, merged_expected, labels = merge_sparse_tails(observed, expected)
    assert labels == [(0, 2), (3, 3), (4, 4), (5, 6)]
    assert merged_expected.tolist() == [6, 10, 20, 5] and merged_observed.tolist() == [6, 9, 22, 4]


def test_a_last_group_below_the_minimum_joins_the_one_before():
    _, expected, labels = merge_sparse_tails(np.zeros(5), np.array([8.0, 7.0, 9.0, 2.0, 1.0]))
    assert labels == [(0, 0), (1, 1), (2, 4)] and expected.tolist() == [8, 7, 12]


def test_the_binomial_weights_of_a_byte_merge_their_tails():
    expected = np.array([math.comb(8, w) for w in range(9)], dtype=float) * (1000 / 256)
    _, merged, labels = merge_sparse_tails(np.zeros(9), expected)
    # 1000/256 = 3.9 < 5 for weights 0 and 8: each joins its neighbour (35.2 for 0..1, 35.2 for 7..8)
    assert labels == [(0, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 8)]
    assert merged.sum() == 1000 and merged[0] == merged[-1] == 9 * 1000 / 256
