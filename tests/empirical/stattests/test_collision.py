"""The collision test's parts (rnglab.empirical.stattests.collision): expected collisions by enumerating every
throw, digits of MSVC's first outputs by hand, cells in TestU01's order, Poisson p-values by their sums.

MSVC's ``rand()`` from ``srand(1)`` gives 41, 18467, 6334, 26500, 19169, 15724 (15 bits): ``floor(4 x / 2^15)`` are
0, 2, 0, 3, 2, 1 and the 4^2 cells of pairs ``4 y_0 + y_1`` are 2, 3, 9.
"""

import itertools
import math

import pytest

from rnglab.empirical.stattests.collision import (
    cell_indices,
    digits,
    expected_collisions,
    poisson_discrete_pvalue,
    poisson_mid_pvalue,
)
from rnglab.generators import make_source


@pytest.mark.parametrize("n, k", [(3, 2), (4, 3), (5, 5), (2, 7)])
def test_expected_collisions_by_enumeration(n, k):
    throws = list(itertools.product(range(k), repeat=n))
    mean = sum(n - len(set(throw)) for throw in throws) / len(throws)
    assert expected_collisions(n, k) == pytest.approx(mean, rel=1e-12)


def test_msvc_digits_and_cells():
    assert digits(make_source("msvc"), 6, 4).tolist() == [0, 2, 0, 3, 2, 1]
    assert cell_indices(make_source("msvc"), 3, 4, 2).tolist() == [2, 3, 9]
    assert digits(make_source("msvc"), 3, 10).tolist() == [41 * 10 // 32768, 18467 * 10 // 32768, 6334 * 10 // 32768]


def test_poisson_p_values_by_their_sums():
    mean = 2.5
    pmf = [math.exp(-mean) * mean**j / math.factorial(j) for j in range(60)]
    assert poisson_mid_pvalue(3, mean) == pytest.approx(sum(pmf[4:]) + pmf[3] / 2, rel=1e-12)
    assert poisson_discrete_pvalue(6, mean) == pytest.approx(sum(pmf[6:]), rel=1e-12)  # the right tail is smaller
    assert poisson_discrete_pvalue(0, mean) == pytest.approx(1 - pmf[0], rel=1e-12)  # P(Y > 0)
    assert poisson_discrete_pvalue(2, mean) == 0.5  # both tails exceed 1/2
