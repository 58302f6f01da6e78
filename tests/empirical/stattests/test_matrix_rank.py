"""GF(2) ranks (rnglab.empirical.stattests.matrix_rank): the rank law against every 3 x 3 and 2 x 4 matrix, the
compiled elimination against a plain one (on products of known rank whose dependencies cross its groups of
rows too), and the published 32 x 32 law.

Known answers: 168 of the 512 binary 3 x 3 matrices are invertible (the order of GL(3, 2)); a random 32 x 32 matrix
has rank 32, 31, 30 with probabilities 0.2888, 0.5776, 0.1284 (Marsaglia and Tsay 1985; NIST SP 800-22, 2.5).
"""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.empirical.stattests.matrix_rank import GROUP, gf2_ranks, rank_probabilities


def plain_rank(rows: list[int]) -> int:
    """Rank over GF(2) of rows given as bit masks, by textbook elimination."""
    rank, rows = 0, list(rows)
    while rows:
        pivot = rows.pop()
        if pivot:
            rank += 1
            low = pivot & -pivot
            rows = [row ^ pivot if row & low else row for row in rows]
    return rank


@pytest.mark.parametrize("rows, columns", [(3, 3), (2, 4), (4, 2)])
def test_every_small_matrix(rows, columns):
    matrices = np.array(list(itertools.product(range(2**columns), repeat=rows)), dtype=np.uint64)
    ranks = gf2_ranks(matrices, columns)
    assert ranks.tolist() == [plain_rank(m) for m in matrices.tolist()]
    law = np.bincount(ranks, minlength=min(rows, columns) + 1) / len(matrices)
    assert rank_probabilities(rows, columns) == pytest.approx(law, abs=1e-15)


def test_gl_3_2_has_168_elements():
    assert rank_probabilities(3, 3)[3] * 512 == pytest.approx(168, abs=1e-9)


def test_the_32_by_32_law():
    law = rank_probabilities(32, 32)
    assert law[32] == pytest.approx(0.2888, abs=5e-5) and law[31] == pytest.approx(0.5776, abs=5e-5)
    assert law[30] == pytest.approx(0.1284, abs=5e-5) and law.sum() == pytest.approx(1, abs=1e-12)


def gf2_product(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Rows of ``left @ right`` over GF(2), ``left`` an (m, k) array of 0/1 and ``right`` k row bit masks."""
    return np.array([np.bitwise_xor.reduce(right[row.astype(bool)], initial=np.uint64(0)) for row in left],
                    dtype=np.uint64)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 70), st.integers(1, 64), st.integers(0, 70), st.integers(0, 2**32))
def test_ranks_of_products_of_known_rank(rows, columns, inner, seed):
    """A product of a rows x k and a k x columns matrix has rank at most k: its rows are combinations of the same
    k rows, spread over every group of GROUP rows (the dependencies cross the groups), some of them repeated or
    zero. The compiled ranks equal the plain elimination's, which are at most k and at most the sides."""
    rng = np.random.default_rng(seed)
    matrices = []
    for _ in range(6):
        right = rng.integers(0, 2**columns, size=inner, dtype=np.uint64) if inner else np.zeros(0, dtype=np.uint64)
        matrices.append(gf2_product(rng.integers(0, 2, size=(rows, inner)), right))
    expected = [plain_rank([int(v) for v in m]) for m in matrices]
    assert gf2_ranks(np.array(matrices), columns).tolist() == expected
    assert max(expected) <= min(rows, columns, inner)


@pytest.mark.parametrize("rows", [GROUP - 1, GROUP, GROUP + 1, 2 * GROUP + 3, 64])
def test_rows_repeated_from_an_earlier_group_add_nothing(rows):
    # the rows of the identity in a shuffled order (full rank, the pivots' bits in every order), then each of the
    # same rows again at the last place: the repeat lies in a later group than its first copy, and is cleared
    rng = np.random.default_rng(rows)
    identity = rng.permutation(np.uint64(1) << np.arange(rows - 1, dtype=np.uint64))
    matrices = np.array([np.r_[identity, identity[k]] for k in range(rows - 1)] + [np.r_[identity, 1 << rows - 1]],
                        dtype=np.uint64)
    assert gf2_ranks(matrices, 64).tolist() == [rows - 1] * (rows - 1) + [rows]
