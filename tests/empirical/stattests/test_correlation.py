"""Knuth's serial correlation test at lag k (TAOCP vol. 2, 3.3.2 K): by hand, its sums read in pieces against the
exact coefficient, and its null distribution by simulation.

The good-generator, bad-generator and validity tables of every Knuth test are in test_knuth.py.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from empirical.stattests.test_knuth import cycling
from empirical.test_tally_boundaries import pieces_examples, reader, tiny_chunks  # noqa: F401 - a fixture
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from rnglab.empirical.stattests.correlation import LaggedSums, serial_correlation
from rnglab.generators import make_source


def test_serial_correlation_by_hand():
    # u = 0, 1/4, 1/2, 3/4: sum u = 3/2, sum u^2 = 7/8, circular sum u_j u_(j+1) = 1/2,
    # C = (4 * 1/2 - 9/4) / (4 * 7/8 - 9/4) = -1/5; mu = -1/3, sigma = 4 / (3 sqrt 2): z = sqrt(2) / 10.
    result = serial_correlation(cycling([0, 1, 2, 3], 3), 4)
    assert result.details["coefficient"] == pytest.approx(-0.2)
    assert result.statistic == pytest.approx(math.sqrt(2) / 10)
    assert result.pvalue == pytest.approx(2 * stats.norm.sf(math.sqrt(2) / 10))


@pytest.mark.usefixtures("tiny_chunks")
@pieces_examples
@given(st.lists(st.floats(min_value=0, max_value=1, exclude_max=True), min_size=6, max_size=60),
       st.integers(min_value=1, max_value=2))
def test_serial_correlation_across_chunks_equals_knuths_formula(values, lag):
    u, n = np.array(values), len(values)
    denominator = n * (u @ u) - u.sum() ** 2
    expected = (n * (u @ np.roll(u, -lag)) - u.sum() ** 2) / denominator if denominator > 1e-9 else None
    if expected is not None:
        sums = LaggedSums(lag)
        sums.add(reader(u), n)
        assert sums.coefficient(n) == pytest.approx(expected, abs=1e-9)


def test_serial_correlation_is_standardised():
    # z over 2000 seeded PCG64 samples of 500: mean 0 (s.e. 0.022) and variance 1 (s.e. 0.032); tolerance 4 s.e.
    z = np.array([serial_correlation(make_source("pcg64", seed), 500).statistic for seed in range(2000)])
    assert abs(z.mean()) < 0.09 and abs(z.var() - 1) < 0.13


def test_uncentred_lag_products_have_variance_13_over_144_per_term():
    # Var(sum_j u_j u_(j+1)) / n -> 7/144 + 2 * 3/144 = 13/144 (see the docstring of serial_correlation),
    # not Var(u_1 u_2) = 7/144: 4000 circles of 400 uniforms, standard error of the variance about 2.3 %.
    u = np.random.default_rng(1).random((4000, 400))
    sums = (u * np.roll(u, -1, axis=1)).sum(axis=1)
    assert sums.var() / 400 == pytest.approx(13 / 144, rel=0.1)


def assert_lagged_sums_close_the_circle(values, lag, cuts):
    """``LaggedSums`` read in pieces ending at ``cuts`` gives Knuth's coefficient, computed exactly in fractions."""
    n = len(values)
    sums, read = LaggedSums(lag), reader(np.array(values))
    for start, stop in zip([0, *cuts], [*cuts, n]):
        sums.add(read, stop - start)
    exact = [Fraction(value) for value in values]
    total = sum(exact)
    denominator = n * sum(x * x for x in exact) - total**2
    numerator = n * sum(x * y for x, y in zip(exact, exact[lag:] + exact[:lag])) - total**2
    expected = float(numerator / denominator) if denominator else 1.0
    assert sums.coefficient(n) == pytest.approx(expected, rel=1e-9, abs=1e-12)


#: Values a uniform reader of ``w`` bits hands out, ``k / 2^w``: coarse ones repeat, so that samples are often
#: nearly constant.
uniform_readings = st.sampled_from([2, 8, 53]).flatmap(
    lambda w: st.lists(st.integers(0, 2**w - 1).map(lambda k: k / 2**w), min_size=6, max_size=60))


@pytest.mark.usefixtures("tiny_chunks")
@pieces_examples
@given(uniform_readings, st.integers(1, 2), st.data())
def test_lagged_sums_read_in_pieces_close_the_circle(values, lag, data):
    cuts = sorted(data.draw(st.lists(st.integers(2 * lag + 1, len(values)), max_size=4)))
    assert_lagged_sums_close_the_circle(values, lag, cuts)


@pytest.mark.parametrize("values, lag, cuts", [
    ([0.0] * 5 + [1e-4], 1, []),  # found by the CI run of 2026-11-24: centred on 1/2, 7 digits were lost
    ([0.9] * 40 + [0.9 + 1e-12] * 3, 2, [7, 20]),
    ([0.75] * 7 + [0.75 + 2**-50], 1, [3]),
])
@pytest.mark.usefixtures("tiny_chunks")
def test_lagged_sums_keep_nearly_constant_samples_exact(values, lag, cuts):
    assert_lagged_sums_close_the_circle(values, lag, cuts)


def test_serial_correlation_at_lag_two_by_hand():
    # u = k/6, k = 0..5, on a circle: sum k = 15, sum k^2 = 55, sum k_j k_(j+2) = 0*2 + 1*3 + 2*4 + 3*5 + 4*0 + 5*1
    # = 31: C = (6 * 31 - 15^2) / (6 * 55 - 15^2) = -39/105 = -13/35; mu_6 = -1/5, sigma_6 = 6 / (5 sqrt 4) = 3/5,
    # z = (-13/35 + 7/35) / (3/5) = -2/7.
    result = serial_correlation(cycling(range(6), 5), 6, lag=2)
    assert result.details["coefficient"] == pytest.approx(-13 / 35, rel=1e-12)
    assert (result.details["mean"], result.details["sd"]) == (pytest.approx(-0.2), pytest.approx(0.6))
    assert result.statistic == pytest.approx(-2 / 7, rel=1e-12) and result.params["lag"] == 2


def test_a_constant_sample_has_coefficient_one():
    # zero denominator: C = 1 by convention, so the statistic is large and the p-value small
    result = serial_correlation(cycling([3], 7), 100)
    assert result.details["coefficient"] == 1.0 and result.pvalue < 1e-10


def test_serial_correlation_refuses_a_lag_of_half_the_sample():
    with pytest.raises(ValueError, match="lag must be < n/2; got lag = 3 with n = 6"):
        serial_correlation(make_source("pcg64", 1), 6, lag=3)
    with pytest.raises(ValueError, match="lag must be >= 1"):
        serial_correlation(make_source("pcg64", 1), 100, lag=0)
