"""Normalisations of the spectral test (rnglab.algebra.normalizers): Hermite's constants and S_t.

Known answers: gamma_t is exact for the densest lattices in t <= 8 and t = 24 (Conway and Sloane, SPLAG,
Table 1.2): gamma_2 = 2/sqrt(3), gamma_3 = 2^(1/3), gamma_4 = sqrt(2), gamma_8 = 2 (E8), gamma_24 = 4 (Leech);
the laminated lattices agree with them there. Conway and Sloane's approximation (47) of Rogers' bound meets
their Table 1.2 to about 2e-5 relative at t = 16..24. RANDU in 3 dimensions (nu_3^2 = 118, lattice modulus 2^30):
S_3 = sqrt(118) / (gamma_3^(1/2) 2^10) = 0.00945...
"""

import math

import pytest

from rnglab.algebra.normalizers import ROGERS, gamma, normalized_merit, rogers_formula


@pytest.mark.parametrize("norm", ["bestlat", "laminated"])
def test_exact_hermite_constants(norm):
    exact = {1: 1.0, 2: 2 / math.sqrt(3), 3: 2 ** (1 / 3), 4: math.sqrt(2), 8: 2.0, 24: 4.0}
    for t, value in exact.items():
        assert gamma(norm, t) == pytest.approx(value, rel=1e-12), t
    assert gamma(norm, 49) is None


def test_rogers_formula_meets_the_table():
    for t in range(16, 25):
        assert rogers_formula(t) == pytest.approx(ROGERS[t - 1], rel=5e-5), t
    assert gamma("rogers", 30) == rogers_formula(30) and gamma("rogers", 24) == ROGERS[23]


def test_randu_s_figure_of_merit_in_three_dimensions():
    merit = normalized_merit(118, 2**30, 1, 3, "bestlat")
    assert merit == pytest.approx(math.sqrt(118) / (2 ** (1 / 6) * 2**10), rel=1e-12)
    assert normalized_merit(2**60, 2**30, 1, 1, "bestlat") == 1.0  # t <= k: the full grid, S = nu / m


def test_an_unknown_normalisation_is_refused():
    with pytest.raises(ValueError, match="normalisation must be one of bestlat, laminated, rogers"):
        gamma("minkowski", 3)
