"""Knuth's spectral test (rnglab.algebra.spectral): RANDU's 15 planes, and nu_t^2 of a small LCG against a search of
every dual vector in a box.

Known answers: RANDU (a = 65539 = 2^16 + 3, m = 2^31) satisfies ``x_{n+2} - 6 x_{n+1} + 9 x_n = 0 (mod 2^31)``, so
its triples lie on 15 planes and ``nu_3^2 = 9^2 + 6^2 + 1 = 118`` (Knuth, TAOCP vol. 2, 3.3.4); Hermite's constants
gamma_2 = 2 / sqrt(3), gamma_3 = 2^(1/3), gamma_8 = 2 (Conway and Sloane, SPLAG, table 1.2).
"""

import itertools
import math

import pytest

from rnglab.algebra.spectral import dual_basis, hermite_constant, spectral_test


def test_randu_lies_on_fifteen_planes():
    result = spectral_test(65539, 2**31, dims=[2, 3])
    three = result.dims[1]
    assert (three.t, three.nu2, three.witness, three.planes) == (3, 118, (9, -6, 1), 15)
    assert result.lattice_m == 2**30  # c = 0, m = 2^31: odd seeds keep the states odd


def shortest_dual_vector(a: int, m: int, t: int, radius: int) -> int:
    """min |s|^2 over non-zero s in [-radius, radius]^t with s_1 + a s_2 + ... + a^(t-1) s_t = 0 (mod m)."""
    powers = [pow(a, i, m) for i in range(t)]
    return min(sum(v * v for v in s) for s in itertools.product(range(-radius, radius + 1), repeat=t)
               if any(s) and sum(p * v for p, v in zip(powers, s)) % m == 0)


@pytest.mark.parametrize("a, m, c", [(137, 256, 187), (3, 31, 0), (41, 1009, 0)])
def test_nu2_is_the_shortest_dual_vector(a, m, c):
    result = spectral_test(a, m, c, dims=[2, 3, 4])
    for figures in result.dims:
        radius = math.isqrt(figures.nu2) + 1  # every vector no longer than the answer lies in the box
        assert figures.nu2 == shortest_dual_vector(a, result.lattice_m, figures.t, radius), figures.t
        assert sum(v * v for v in figures.witness) == figures.nu2


def test_the_dual_basis_spans_the_dual_lattice():
    basis = dual_basis(65539, 2**31, 3)
    assert all((row[0] + 65539 * row[1] + 65539**2 * row[2]) % 2**31 == 0 for row in basis)
    assert abs(_determinant(basis)) == 2**31  # the dual lattice has index m in Z^3


def _determinant(rows):
    (a, b, c), (d, e, f), (g, h, i) = rows
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


def test_hermite_constants():
    assert hermite_constant(2) == pytest.approx(2 / math.sqrt(3), rel=1e-15)
    assert hermite_constant(3) == pytest.approx(2 ** (1 / 3), rel=1e-15)
    assert hermite_constant(8) == 2.0
