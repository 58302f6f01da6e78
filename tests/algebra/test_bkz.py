"""BKZ preprocessing: the lattice is kept and the basis shortened, the unimodular insertion of a block's vector, the
Gram-Schmidt data against exact fractions, and the cases where the LLL basis is kept."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from algebra.test_mrg_spectral import MRG32K3A
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rnglab.algebra.bkz import _gram_schmidt, _insert, bkz_reduction
from rnglab.algebra.lattice import IntegralLLL
from rnglab.algebra.mrg_spectral import dual_basis, equivalent_recurrence, output_coefficients


def test_bkz_keeps_the_lattice_and_shortens_the_basis():
    recurrence, _ = equivalent_recurrence(MRG32K3A)
    coefficients = list(itertools.islice(output_coefficients(recurrence), 36))
    reduction = IntegralLLL(dual_basis(coefficients, recurrence.m))
    reduction.run()
    improved = bkz_reduction(reduction)
    assert improved is not reduction and improved.d[-1] == reduction.d[-1]  # same determinant^2
    assert all(sum(h * c[r] for h, c in zip(row, coefficients)) % recurrence.m == 0
               for row in improved.basis for r in range(3))
    assert sum(b * b for b in improved.basis[0]) <= sum(b * b for b in reduction.basis[0])


def inverse(rows):
    """The exact inverse of a square integer matrix (Gauss-Jordan over fractions), ``None`` when it is singular."""
    n = len(rows)
    work = [[Fraction(v) for v in row] + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(rows)]
    for column in range(n):
        pivot = next((r for r in range(column, n) if work[r][column]), None)
        if pivot is None:
            return None
        work[column], work[pivot] = work[pivot], work[column]
        lead = work[column][column]
        work[column] = [v / lead for v in work[column]]
        for r in range(n):
            if r != column and work[r][column]:
                factor = work[r][column]
                work[r] = [a - factor * b for a, b in zip(work[r], work[column])]
    return [row[n:] for row in work]


def determinant(rows):
    """The exact determinant of a square integer matrix (elimination over fractions)."""
    work, sign, result = [[Fraction(v) for v in row] for row in rows], 1, Fraction(1)
    for column in range(len(work)):
        pivot = next((r for r in range(column, len(work)) if work[r][column]), None)
        if pivot is None:
            return 0
        if pivot != column:
            work[column], work[pivot], sign = work[pivot], work[column], -sign
        result *= work[column][column]
        for r in range(column + 1, len(work)):
            factor = work[r][column] / work[column][column]
            work[r] = [a - factor * b for a, b in zip(work[r], work[column])]
    return sign * result


square_bases = st.integers(2, 5).flatmap(lambda n: st.lists(st.lists(st.integers(-9, 9), min_size=n, max_size=n),
                                                             min_size=n, max_size=n))


@settings(max_examples=30, deadline=None)
@given(square_bases, st.data())
def test_insert_puts_the_block_vector_first_by_unimodular_steps(rows, data):
    n = len(rows)
    assume(determinant(rows) != 0)
    j = data.draw(st.integers(0, n - 2))
    x = data.draw(st.lists(st.integers(-6, 6), min_size=n - j, max_size=n - j))
    assume(math.gcd(*x) == 1)
    basis = np.array(rows, dtype=np.int64)
    vector = sum(c * basis[j + i] for i, c in enumerate(x))
    _insert(basis, j, np.array(x, dtype=np.int64))
    assert basis[j].tolist() in (vector.tolist(), (-vector).tolist())
    assert abs(determinant(basis.tolist())) == abs(determinant(rows))  # the same lattice
    assert basis[:j].tolist() == rows[:j]
    # every new row is an integer combination of the old ones (and conversely: the determinants are equal)
    old_inverse = inverse(rows)
    assert all(sum(b * old_inverse[k][c] for k, b in enumerate(row)).denominator == 1
               for row in basis.tolist() for c in range(n))


@settings(max_examples=40, deadline=None)
@given(square_bases)
def test_gram_schmidt_data_equal_the_exact_ones(rows):
    assume(determinant(rows) != 0)
    mu, B = _gram_schmidt(np.array(rows, dtype=np.int64))
    starred, exact_mu = [], {}
    for i, row in enumerate(rows):
        vector = [Fraction(v) for v in row]
        for j, previous in enumerate(starred):
            exact_mu[i, j] = sum(a * b for a, b in zip(row, previous)) / sum(b * b for b in previous)
            vector = [v - exact_mu[i, j] * b for v, b in zip(vector, previous)]
        starred.append(vector)
    for i, vector in enumerate(starred):
        assert B[i] == pytest.approx(float(sum(v * v for v in vector)), rel=1e-9, abs=1e-9)
    for (i, j), value in exact_mu.items():
        assert mu[i, j] == pytest.approx(float(value), rel=1e-9, abs=1e-9)


def test_a_basis_no_longer_than_a_block_or_with_large_entries_is_kept():
    small = IntegralLLL([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    assert bkz_reduction(small) is small  # 3 rows <= the block of 10
    rows = [[2**20 if i == j == 0 else int(i == j) for j in range(12)] for i in range(12)]
    large = IntegralLLL(rows)
    assert bkz_reduction(large) is large  # an entry of 2^20: the Gram matrix would not be exact in doubles
