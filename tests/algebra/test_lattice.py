"""Tests of Knuth's spectral test (rnglab.algebra.spectral) and the exact lattice reduction under it (rnglab.algebra.lattice)."""

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra import lattice
from rnglab.algebra.lattice import DELTA, lll_reduce
from rnglab.algebra.spectral import (
    dual_basis,
    hermite_constant,
    lattice_modulus,
    planes_of_direction,
    reduced_bases,
    spectral_test,
)


def nu2_by_dimension(result):
    return {d.t: d.nu2 for d in result.dims}


def in_dual(vector, a, m):
    return sum(s * pow(a, i, m) for i, s in enumerate(vector)) % m == 0


def brute_force_nu2(a, m, t, radius):
    """Smallest squared length of a non-zero dual vector with coordinates in [-radius, radius]."""
    return min(sum(s * s for s in vector)
               for vector in itertools.product(range(-radius, radius + 1), repeat=t)
               if any(vector) and in_dual(vector, a, m))


def brute_force_planes(points, a, m, t, radius):
    """Fewest distinct values of s . x over the points, for dual vectors s in a box."""
    return min(len({sum(s * x for s, x in zip(vector, point)) for point in points})
               for vector in itertools.product(range(-radius, radius + 1), repeat=t)
               if any(vector) and in_dual(vector, a, m))


# --- known answers --------------------------------------------------------------------

def test_randu_three_dimensions():
    # RANDU (a = 65539, m = 2^31): nu_3^2 = 118 with s = (9, -6, 1), i.e.
    # x_{n+2} = 6 x_{n+1} - 9 x_n (mod 2^31), and the 15 planes: Knuth, TAOCP vol. 2,
    # 3rd ed., 3.3.4 (Table 1 and the discussion of RANDU); Marsaglia, PNAS 61 (1968).
    figures = spectral_test(65539, 2**31).dims[1]
    assert (figures.t, figures.nu2, figures.witness, figures.planes) == (3, 118, (9, -6, 1), 15)


def test_randu_higher_dimensions():
    # Knuth, TAOCP vol. 2, 3.3.4, Table 1 (a = 65539): nu_2^2 = 536936458, nu_4..6^2 = 116.
    assert nu2_by_dimension(spectral_test(65539, 2**31, dims=range(2, 7))) == {
        2: 536936458, 3: 118, 4: 116, 5: 116, 6: 116}


def test_knuth_worked_example():
    # Knuth, TAOCP vol. 2, 3.3.4, Table 1, line 1 (a = 3141592621, m = 10^10).
    assert nu2_by_dimension(spectral_test(3141592621, 10**10, c=1, dims=range(2, 7))) == {
        2: 4577114792, 3: 1034718, 4: 62454, 5: 1776, 6: 542}


def test_minstd():
    # Park & Miller's 16807, m = 2^31 - 1: nu_2^2 = 16807^2 + 1 from s = (16807, -1);
    # Knuth, TAOCP vol. 2, 3.3.4, Table 1: nu_3..6^2 = 408197, 21682, 4439, 895.
    result = spectral_test(16807, 2**31 - 1, dims=range(2, 7))
    assert result.dims[0].witness == (16807, -1)
    assert nu2_by_dimension(result) == {2: 16807**2 + 1, 3: 408197, 4: 21682, 5: 4439, 6: 895}


def test_figures_from_nu():
    figures = spectral_test(16807, 2**31 - 1, dims=[2]).dims[0]
    nu = math.sqrt(282475250)
    assert figures.nu == pytest.approx(nu)
    assert figures.log2_nu == pytest.approx(math.log2(nu))
    assert figures.mu == pytest.approx(math.pi * nu**2 / (2**31 - 1))
    assert figures.S == pytest.approx(nu / ((4 / 3) ** 0.25 * (2**31 - 1) ** 0.5))


def test_merit_is_the_minimum():
    result = spectral_test(69069, 2**32, c=1)
    assert result.M == min(d.S for d in result.dims)


def test_hermite_constants():
    assert [hermite_constant(t) ** t for t in range(2, 9)] == pytest.approx(
        [4 / 3, 2, 4, 8, 64 / 3, 64, 256])
    assert hermite_constant(24) == 4.0
    assert hermite_constant(25) is None


# --- conventions ----------------------------------------------------------------------

@pytest.mark.parametrize("a, expected", [(65539, 2**30), (5, 2**29), (13, 2**29), (17, 2**27)])
def test_lattice_modulus_multiplicative_power_of_two(a, expected):
    # m / gcd(a - 1, m): a = 3 (mod 8) gives m/2, a = 5 (mod 8) gives m/4.
    assert lattice_modulus(a, 2**31, 0)[0] == expected


def test_lattice_modulus_other_cases():
    assert lattice_modulus(16807, 2**31 - 1, 0)[0] == 2**31 - 1
    assert lattice_modulus(69069, 2**32, 1)[0] == 2**32


@pytest.mark.parametrize("a", [11, 19, 27, 43, 13, 21, 29, 37])
def test_lattice_modulus_matches_the_points(a):
    # The dual of the actual point set (odd seed, c = 0, m = 2^10), found by brute force,
    # is the dual lattice of modulus m / gcd(a - 1, m): 2^9 for a = 3, 2^8 for a = 5 mod 8.
    m, x, states = 2**10, 3, []
    for _ in range(m // 4):
        states.append(x)
        x = a * x % m
    points = np.array([(states[i], states[(i + 1) % len(states)], states[(i + 2) % len(states)])
                       for i in range(len(states))], dtype=np.int64)
    # every small vector s with s . (p - q) the same mod m for all points p (q: the first), in one product
    vectors = np.array([v for v in itertools.product(range(-9, 10), repeat=3) if any(v)], dtype=np.int64)
    dual = vectors[((vectors @ (points - points[0]).T) % m == 0).all(axis=1)]
    shortest = int((dual * dual).sum(axis=1).min())
    assert spectral_test(a, m, dims=[3]).dims[0].nu2 == shortest


def test_increment_plays_no_role():
    odd = [spectral_test(1103515245, 2**31, c=c).dims for c in (1, 12345, 2**31 - 1)]
    assert odd[0] == odd[1] == odd[2]
    assert spectral_test(16807, 2**31 - 1, c=0).dims == spectral_test(16807, 2**31 - 1, c=7).dims


def test_lattice_m_override():
    result = spectral_test(65539, 2**31, lattice_m=2**29, dims=[3])
    assert (result.lattice_m, result.lattice_rule, result.dims[0].nu2) == (2**29, "given", 118)


# --- exactness ------------------------------------------------------------------------

@pytest.mark.parametrize("m", [97, 256, 331, 500, 1024])
@pytest.mark.parametrize("t", [2, 3, 4])
def test_no_shorter_vector_by_brute_force(m, t):
    for a in range(2, m, max(1, m // 7)):
        nu2 = spectral_test(a, m, dims=[t], lattice_m=m).dims[0].nu2
        assert nu2 == brute_force_nu2(a, m, t, math.isqrt(nu2))


@pytest.mark.parametrize("m", [101, 128, 211, 256])
@pytest.mark.parametrize("t", [2, 3])
def test_planes_are_the_planes_that_hold_points(m, t):
    # All m points of the lattice in [0, 1)^t: the count is the fewest distinct values of
    # s . x over every dual vector s with |s_i| <= count + 1 (any direction that could do
    # as well has |s|_1 <= count + 1).
    for a in range(3, m, m // 5):
        figures = spectral_test(a, m, dims=[t], lattice_m=m).dims[0]
        points = {tuple(k * pow(a, j, m) % m for j in range(t)) for k in range(m)}
        radius = min(figures.planes + 1, 30 if t == 2 else 10)
        assert figures.planes == brute_force_planes(points, a, m, t, radius)
        assert figures.planes == planes_of_direction(figures.planes_vector)


def test_planes_of_direction():
    assert planes_of_direction((9, -6, 1)) == 15
    assert planes_of_direction((3, 2)) == 5
    assert planes_of_direction((0, -4)) == 4


def test_lll_keeps_the_lattice():
    basis = dual_basis(6364136223846793005, 2**64, 6)
    lll_reduce(basis)
    assert all(in_dual(row, 6364136223846793005, 2**64) for row in basis)
    determinant = abs(round(_determinant(basis)))
    assert determinant == 2**64


def _determinant(rows):
    matrix = [[Fraction(v) for v in row] for row in rows]
    product = Fraction(1)
    for i in range(len(matrix)):
        pivot = next(r for r in range(i, len(matrix)) if matrix[r][i] != 0)
        if pivot != i:
            matrix[i], matrix[pivot] = matrix[pivot], matrix[i]
            product = -product
        product *= matrix[i][i]
        for r in range(i + 1, len(matrix)):
            factor = matrix[r][i] / matrix[i][i]
            matrix[r] = [x - factor * y for x, y in zip(matrix[r], matrix[i])]
    return product


def _exact_gram_schmidt(rows):
    """mu (lower triangle) and B as Fractions, by the textbook recurrence."""
    stars, mu, B = [], [], []
    for row in rows:
        coefficients = [Fraction(sum(x * y for x, y in zip(row, star))) / b
                        for star, b in zip(stars, B)]
        star = [x - sum(c * other[i] for c, other in zip(coefficients, stars))
                for i, x in enumerate(row)]
        stars.append(star)
        mu.append(coefficients)
        B.append(sum(v * v for v in star))
    return mu, B


@pytest.mark.parametrize("a, m", [(48271, 2**31 - 1), (0x5DEECE66D, 2**48),
                                  (6364136223846793005, 2**64), (3**90, 2**150 - 3)])
def test_reduced_bases_are_exactly_reduced(a, m):
    # Every basis handed out (all kept until the end: none may change afterwards) spans
    # L*_t, is exactly size-reduced and satisfies Lovasz's condition, and comes with
    # its Gram-Schmidt data correctly rounded.
    for t, basis, mu, B in list(reduced_bases(a, m, 10)):
        assert all(in_dual(row, a, m) for row in basis) and abs(_determinant(basis)) == m
        exact_mu, exact_B = _exact_gram_schmidt(basis)
        assert all(abs(c) <= Fraction(1, 2) for row in exact_mu for c in row)
        assert all(exact_B[k] >= (DELTA - exact_mu[k][k - 1] ** 2) * exact_B[k - 1]
                   for k in range(1, t))
        assert B == [float(b) for b in exact_B]
        assert [row[:k] for k, row in enumerate(mu)] == [list(map(float, row)) for row in exact_mu]


@pytest.mark.parametrize("bits", [10, 31, 48, 64, 96, 128, 200, 499])
def test_guide_changes_no_result(bits, monkeypatch):
    # Without the floating-point guide (it gives up at once) the exact reduction does
    # all the work: every figure must be the same. The sizes cover the guide's paths:
    # int64 products, Python-integer products, giving up, the largest moduli accepted.
    rng = random.Random(bits)
    for _ in range(3):
        m = rng.getrandbits(bits) | 1
        a = rng.randrange(2, m)
        guided = spectral_test(a, m, dims=range(2, 11), planes_up_to=6)
        monkeypatch.setattr(lattice, "GUIDE_MAX_STEPS", 0)
        assert spectral_test(a, m, dims=range(2, 11), planes_up_to=6) == guided
        monkeypatch.undo()


def test_many_shortest_vectors():
    # a = 1, m = 2: L*_t is the checkerboard lattice D_t, whose t(t - 1) pairs of
    # shortest vectors +-e_i +-e_j (nu^2 = 2) all tie; the smallest canonical one wins.
    result = spectral_test(1, 2, dims=[3, 12], planes_up_to=0)
    assert [(d.nu2, d.witness) for d in result.dims] == [
        (2, (0, 1, -1)), (2, (0,) * 10 + (1, -1))]


@pytest.mark.parametrize("a, m", [(48271, 2**31 - 1), (6364136223846793005, 2**64), (5, 101),
                                  (1, 2)])
def test_compiled_enumeration_changes_no_result(a, m, monkeypatch):
    # The shortest vectors found by the Python enumeration (used when the compiled one
    # gives up) are those of the compiled enumeration.
    compiled = spectral_test(a, m, dims=range(2, 13), planes_up_to=0)
    monkeypatch.setattr(lattice, "_shortest_candidates",
                        lambda mu, B, radius, margin: (None, 0, False))
    assert spectral_test(a, m, dims=range(2, 13), planes_up_to=0) == compiled


@settings(max_examples=40, deadline=None)
@given(a=st.integers(2, 2**64), bits=st.integers(8, 128), t=st.integers(2, 8))
def test_witness_and_hermite_bound(a, bits, t):
    m = 2**bits - 59 if bits > 6 else 2**bits
    figures = spectral_test(a, m, dims=[t], lattice_m=m, planes_up_to=0).dims[0]
    assert in_dual(figures.witness, a % m, m)
    assert sum(s * s for s in figures.witness) == figures.nu2
    assert figures.S <= 1 + 1e-9  # Hermite: nu_t^2 <= gamma_t m^(2/t), exact for t <= 8


def test_high_dimensions_at_2_64():
    result = spectral_test(6364136223846793005, 2**64, c=1, dims=range(2, 25))
    assert len(result.dims) == 23
    last = result.dims[-1]
    assert last.t == 24 and in_dual(last.witness, 6364136223846793005, 2**64)
    assert 0 < last.S <= 1
    assert last.planes is None


def test_against_fplll():
    fpylll = pytest.importorskip("fpylll")
    a, m = 0x5DEECE66D, 2**48
    for t in range(2, 13):
        matrix = fpylll.IntegerMatrix.from_matrix(dual_basis(a, m, t))
        fpylll.LLL.reduction(matrix)
        gso = fpylll.GSO.Mat(matrix)
        gso.update_gso()
        bound = sum(v * v for v in matrix[0])
        _, coefficients = fpylll.Enumeration(gso).enumerate(0, t, bound * 1.000001, 0)[0]
        vector = matrix.multiply_left([round(c) for c in coefficients])
        assert spectral_test(a, m, c=11, dims=[t]).dims[0].nu2 == sum(v * v for v in vector)


def test_progress_is_reported():
    calls = []
    spectral_test(16807, 2**31 - 1, dims=[2, 4], progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


# --- validation -----------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, message", [
    ({"a": 3, "m": 1}, "m must be in"),
    ({"a": 3, "m": 2**1001}, "m must be in"),
    ({"a": 3, "m": 101, "dims": [1]}, "dimensions must be in"),
    ({"a": 3, "m": 101, "dims": []}, "at least one dimension"),
    ({"a": 3, "m": 101, "lattice_m": 0}, "lattice_m must be in"),
])
def test_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        spectral_test(**kwargs)


def test_bad_types():
    with pytest.raises(TypeError):
        spectral_test(3.0, 101)


def test_largest_modulus_stays_within_double_range():
    # the squared Gram–Schmidt lengths reach about m^2: 2^998 still fits a double, 2^1200 would not
    assert spectral_test(3, 2**499 + 1, dims=[2, 3]).dims[1].nu2 == 10  # witness (0, 3, -1): 3 a - a^2 = 0
    with pytest.raises(ValueError, match=r"m must be in \[2, 2\^500\)"):
        spectral_test(3, 2**600 + 1)
