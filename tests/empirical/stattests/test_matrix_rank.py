"""GF(2) ranks (rnglab.empirical.stattests.matrix_rank): the rank law against every 3 x 3 and 2 x 4 matrix, the
compiled elimination against a plain one, and the published 32 x 32 law.

Known answers: 168 of the 512 binary 3 x 3 matrices are invertible (the order of GL(3, 2)); a random 32 x 32 matrix
has rank 32, 31, 30 with probabilities 0.2888, 0.5776, 0.1284 (Marsaglia and Tsay 1985; NIST SP 800-22, 2.5).
"""

import itertools

import numpy as np
import pytest

from rnglab.empirical.stattests.matrix_rank import gf2_ranks, rank_probabilities


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
