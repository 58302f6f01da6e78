"""The compiled kernels of state recovery over GF(2) against Python integers: bits, parities, the transpose of
outputs into linear forms, the echelon form and its solutions, which systems contradict themselves, and the
rows' spans."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra.gf2 import from_words, to_words
from rnglab.recovery import linear_kernels as kernels

compiled = settings(max_examples=100, deadline=None)  # the first example compiles the kernel


@compiled
@given(st.integers(1, 2**64 - 1))
def test_lowest_bit_and_parity(word):
    assert kernels.lowest_bit(np.uint64(word)) == (word & -word).bit_length() - 1
    assert int(kernels.parity(np.uint64(word))) == word.bit_count() % 2


@compiled
@given(st.integers(1, 5), st.integers(1, 4), st.integers(0, 70), st.data())
def test_transpose_outputs_makes_the_form_of_each_output_bit(units, count, first, data):
    width = 8
    outputs = np.array(data.draw(st.lists(st.lists(st.integers(0, 2**10 - 1), min_size=count, max_size=count),
                                          min_size=units, max_size=units)), dtype=np.uint64)
    forms = np.zeros((count, width, 2), dtype=np.uint64)
    kernels.transpose_outputs(outputs, first, width, forms)
    for t in range(count):
        for b in range(width):
            expected = sum(1 << (first + j) for j in range(units) if int(outputs[j, t]) >> b & 1)
            assert from_words(forms[t, b]) == expected  # bits 8 and 9 of the outputs are past the width: dropped


@compiled
@given(st.integers(1, 130).flatmap(lambda k: st.tuples(
    st.just(k), st.integers(0, 2**k - 1), st.lists(st.integers(0, 2**k - 1), min_size=1, max_size=2 * k))))
def test_echelon_and_back_substitution_solve_a_consistent_system(case):
    # equations <row, x> = <row, secret>: rank the rows' span, no contradiction, and a solution satisfying them all
    k, secret, equations = case
    words = -(-k // 64)
    rows = np.array([to_words(row, 64 * words) for row in equations], dtype=np.uint64)
    rhs = np.array([(row & secret).bit_count() % 2 for row in equations], dtype=np.uint64)
    pivots, pivot_rhs = np.zeros((k, words), dtype=np.uint64), np.zeros(k, dtype=np.uint64)
    has_pivot = np.zeros(k, dtype=np.bool_)
    rank, contradictions, _ = kernels.echelon(rows, rhs, k, pivots, pivot_rhs, has_pivot)
    basis = {}
    for row in equations:
        while row and (row & -row) in basis:
            row ^= basis[row & -row]
        if row:
            basis[row & -row] = row
    assert (rank, contradictions) == (len(basis), 0)
    x = np.zeros(words, dtype=np.uint64)
    kernels.back_substitute(pivots, pivot_rhs, has_pivot, k, np.zeros(k, dtype=np.bool_), np.uint64(1), x)
    solution = from_words(x)
    assert all((row & solution).bit_count() % 2 == int(right) for row, right in zip(equations, rhs))


@compiled
@given(st.integers(1, 70).flatmap(lambda k: st.tuples(st.just(k), st.lists(st.lists(st.tuples(
    st.integers(0, 2**k - 1), st.integers(0, 1)), min_size=1, max_size=k + 3, unique_by=lambda e: e[0]),
    min_size=1, max_size=4))))
def test_contradicted_says_which_systems_have_no_solution(case):
    # each system: equations <row, x> = right over k unknowns, the right sides drawn at random; a system has no
    # solution exactly when some XOR of its equations reads 0 = 1 (found here by Python elimination on integers)
    k, systems = case
    words = -(-k // 64)
    count = max(len(equations) for equations in systems)
    padded = [equations + [(0, 0)] * (count - len(equations)) for equations in systems]  # 0 = 0: no information
    rows = np.array([[to_words(row, 64 * words) for row, _ in equations] for equations in padded], dtype=np.uint64)
    out = np.ones(len(systems), dtype=np.bool_)
    for s in range(len(systems)):  # the right sides are one array shared by the systems: one system at a time
        kernels.contradicted(rows[s:s + 1], np.array([r for _, r in padded[s]], dtype=np.uint64), k, out[s:s + 1])
    expected = []
    for equations in systems:
        basis, contradiction = {}, False
        for row, right in equations:
            while row and (row & -row) in basis:
                low = row & -row
                row, right = row ^ basis[low][0], right ^ basis[low][1]
            if row:
                basis[row & -row] = (row, right)
            contradiction |= not row and right == 1
        expected.append(contradiction)
    assert out.tolist() == expected


def test_contradicted_checks_every_equation_past_full_rank():
    # x_0 = 1, then x_0 = 0: rank 1 of 1 after the first equation; the second still refutes the system
    rows = np.array([[[1], [1]], [[1], [1]]], dtype=np.uint64)
    out = np.zeros(2, dtype=np.bool_)
    kernels.contradicted(rows, np.array([1, 0], dtype=np.uint64), 1, out)
    assert out.tolist() == [True, True]
    kernels.contradicted(rows, np.array([1, 1], dtype=np.uint64), 1, out)
    assert out.tolist() == [False, False]


def test_a_contradiction_is_counted():
    # x_0 = 1 and x_0 = 0
    rows, rhs = np.array([[1], [1]], dtype=np.uint64), np.array([1, 0], dtype=np.uint64)
    pivots, pivot_rhs, has_pivot = np.zeros((3, 1), np.uint64), np.zeros(3, np.uint64), np.zeros(3, np.bool_)
    assert kernels.echelon(rows, rhs, 3, pivots, pivot_rhs, has_pivot)[:2] == (1, 1)


def test_row_spans_by_hand():
    rows = np.array([[0, 5, 0, 1], [0, 0, 0, 0], [7, 0, 0, 0]], dtype=np.uint64)
    first, last = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
    kernels.row_spans(rows, first, last)
    assert first.tolist() == [1, -1, 0] and last.tolist() == [3, -1, 0]
