"""The compiled kernels of state recovery over GF(2) against Python integers: bits, parities, the transpose of
outputs into linear forms, the echelon form and its solutions, which systems no state gives (equations and
intervals), and the rows' spans."""

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


@st.composite
def screened_systems(draw):
    """Systems over k <= 8 unknowns sharing right-hand sides, 4 outputs of 5 bits, draws read at each system's
    outputs, their intervals, and the most free unknowns enumerated."""
    k = draw(st.integers(1, 8))
    systems, count, draws = draw(st.integers(1, 3)), draw(st.integers(1, k + 3)), draw(st.integers(1, 3))
    rows = draw(st.lists(st.lists(st.integers(0, 2**k - 1), min_size=count, max_size=count), min_size=systems,
                         max_size=systems))
    rhs = draw(st.lists(st.integers(0, 1), min_size=count, max_size=count))
    forms = draw(st.lists(st.lists(st.integers(0, 2**k - 1), min_size=5, max_size=5), min_size=4, max_size=4))
    engine = draw(st.lists(st.lists(st.integers(0, 3), min_size=draws, max_size=draws), min_size=systems,
                           max_size=systems))
    bounds = [sorted(draw(st.lists(st.integers(0, 31), min_size=2, max_size=2))) for _ in range(draws)]
    return k, rows, rhs, forms, engine, bounds, draw(st.integers(0, k))


@compiled
@given(screened_systems())
def test_no_state_fits_against_every_state(case):
    # brute force over the 2^k states: a system is refuted when no state gives its equations (then always said),
    # or, with at most most_free unknowns free, when none of those that do puts every output in its interval
    k, rows, rhs, forms, engine, bounds, most_free = case
    out = np.ones(len(rows), dtype=np.bool_)
    packed = np.array([[[row] for row in system] for system in rows], dtype=np.uint64)
    kernels.no_state_fits(packed, np.array(rhs, dtype=np.uint64), k, np.array(forms, dtype=np.uint64)[:, :, None],
                          np.array(engine, dtype=np.int64), np.array([lo for lo, _ in bounds], dtype=np.uint64),
                          np.array([hi for _, hi in bounds], dtype=np.uint64), most_free, out)

    def output(t, x):
        return sum(((form & x).bit_count() % 2) << b for b, form in enumerate(forms[t]))
    for system, reads, refuted in zip(rows, engine, out.tolist()):
        solutions = [x for x in range(2**k) if all((row & x).bit_count() % 2 == r for row, r in zip(system, rhs))]
        fits = any(all(lo <= output(t, x) <= hi for t, (lo, hi) in zip(reads, bounds)) for x in solutions)
        rank = k - (len(solutions).bit_length() - 1) if solutions else None
        expected = not solutions or (k - rank <= most_free and not fits)
        assert refuted == expected


def test_no_state_fits_checks_every_equation_past_full_rank():
    # x_0 = 1, then x_0 = 0: rank 1 of 1 after the first equation; the second still refutes the system
    rows = np.array([[[1], [1]], [[1], [1]]], dtype=np.uint64)
    forms, engine = np.array([[[1]]], dtype=np.uint64), np.zeros((2, 1), dtype=np.int64)
    wide, out = (np.array([0], dtype=np.uint64), np.array([1], dtype=np.uint64)), np.zeros(2, dtype=np.bool_)
    kernels.no_state_fits(rows, np.array([1, 0], dtype=np.uint64), 1, forms, engine, *wide, 0, out)
    assert out.tolist() == [True, True]
    kernels.no_state_fits(rows, np.array([1, 1], dtype=np.uint64), 1, forms, engine, *wide, 0, out)
    assert out.tolist() == [False, False]
    # x_0 = 1 gives output 1: an interval [0, 0] leaves no state
    kernels.no_state_fits(rows, np.array([1, 1], dtype=np.uint64), 1, forms, engine, *wide[:1], wide[0], 0, out)
    assert out.tolist() == [True, True]


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
