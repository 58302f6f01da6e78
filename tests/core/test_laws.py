"""rnglab.core.laws returns scipy.stats' doubles bit for bit, at the arguments the tests use and at the edges."""

import numpy as np
import pytest
from scipy import stats

from rnglab.core import laws


def same_bits(ours, theirs) -> bool:
    """Equal as doubles, NaN for NaN, the sign of zero included; and the same kind (numpy scalar or array)."""
    ours, theirs = np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64)
    return ours.shape == theirs.shape and ours.tobytes() == theirs.tobytes()


STATISTICS = np.concatenate([[-1.0, 0.0, 5e-324, 1e-300, 0.5, 1.0, 2.0, 7.25, 31.999, 1e3, 1e5, np.inf, np.nan],
                             np.random.default_rng(30).gamma(3.0, 40.0, 400)])
DEGREES = [1, 2, 3, 6, 15, 127, 255, 1023, 65535]


@pytest.mark.parametrize("df", DEGREES)
def test_chi2_sf_array_and_scalars(df):
    assert same_bits(laws.chi2_sf(STATISTICS, df), stats.chi2.sf(STATISTICS, df))
    for x in STATISTICS[:20]:
        assert same_bits(laws.chi2_sf(float(x), df), stats.chi2.sf(float(x), df))
        assert type(laws.chi2_sf(float(x), df)) is type(stats.chi2.sf(float(x), df))


def test_chi2_sf_list_with_nan():
    """bcfn passes a list of statistics, NaN where a level has none."""
    values = [3.5, np.nan, 120.0]
    assert same_bits(laws.chi2_sf(values, 16), stats.chi2.sf(values, 16))


def test_normal_tails():
    z = np.concatenate([[-np.inf, -40.0, -8.5, -1.0, -0.0, 0.0, 1e-12, 1.96, 8.5, 40.0, np.inf, np.nan],
                        np.random.default_rng(31).normal(0, 3, 400)])
    assert same_bits(laws.norm_cdf(z), stats.norm.cdf(z))
    assert same_bits(laws.norm_sf(z), stats.norm.sf(z))
    for x in z[:12]:
        assert same_bits(laws.norm_cdf(float(x)), stats.norm.cdf(float(x)))
        assert same_bits(laws.norm_sf(float(x)), stats.norm.sf(float(x)))


@pytest.mark.parametrize("mu", [0.0, 1e-3, 0.5, 27.0, 26.999999999999996, 125.0, 4096.0, 1e6])
def test_poisson(mu):
    """Counts as Python ints (as the collision and birthday tests pass them), -1 included (``sf(y - 1)`` at 0)."""
    for k in [-2, -1, 0, 1, 2, 3, 10, 27, 50, 124, 4000, 4096, 5000, 10**6, 10**6 + 3000]:
        assert same_bits(laws.poisson_pmf(k, mu), stats.poisson.pmf(k, mu)), (k, mu)
        assert same_bits(laws.poisson_cdf(k, mu), stats.poisson.cdf(k, mu)), (k, mu)
        assert same_bits(laws.poisson_sf(k, mu), stats.poisson.sf(k, mu)), (k, mu)
    assert same_bits(laws.poisson_pmf(2.5, mu), stats.poisson.pmf(2.5, mu))


@pytest.mark.parametrize(("n", "p"), [(8, 0.5), (32, 0.5), (64, 0.5), (128, 0.5), (2**20, 0.5),
                                      (16, 0.125), (10, 0.00390625), (1000, 0.75)])
def test_binomial(n, p):
    """The whole law as an array (the Hamming-weight tests' expected counts) and tails at Python ints (BCFN's ties)."""
    support = np.arange(n + 1) if n <= 1024 else np.arange(0, n + 1, 997)
    assert same_bits(laws.binom_pmf(support, n, p), stats.binom.pmf(support, n, p))
    for k in [-1, 0, 1, n // 2 - 1, n // 2, n // 2 + 1, n - 1, n, n + 1]:
        assert same_bits(laws.binom_pmf(k, n, p), stats.binom.pmf(k, n, p)), k
        assert same_bits(laws.binom_cdf(k, n, p), stats.binom.cdf(k, n, p)), k
        assert same_bits(laws.binom_sf(k, n, p), stats.binom.sf(k, n, p)), k
    assert same_bits(laws.binom_pmf(1.5, n, p), stats.binom.pmf(1.5, n, p))


def test_binomial_tails_of_bcfn_ties():
    """BCFN's tie counts: ``cdf(ties, blocks, tied)`` and ``sf(ties - 1, blocks, tied)`` with a float ``tied``."""
    tied = float(stats.binom.pmf(8, 16, 0.5))
    for blocks in [100, 4096, 2**20]:
        for ties in [0, 1, int(blocks * tied), blocks - 1, blocks]:
            assert same_bits(laws.binom_cdf(ties, blocks, tied), stats.binom.cdf(ties, blocks, tied))
            assert same_bits(laws.binom_sf(ties - 1, blocks, tied), stats.binom.sf(ties - 1, blocks, tied))


def test_scalar_results_are_numpy_floats():
    """As scipy.stats returns them: ``float(...)`` of either is the same, and so is arithmetic on them."""
    assert isinstance(laws.poisson_sf(3, 2.0), np.float64)
    assert isinstance(laws.binom_pmf(np.arange(3), 2, 0.5), np.ndarray)
