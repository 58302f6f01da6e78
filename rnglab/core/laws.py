"""The tails and masses of the laws the tests' p-values read, from ``scipy.special`` without ``scipy.stats``.

Importing ``scipy.stats`` costs about 0.75 CPU s and 47 MiB of memory over
``scipy.special`` (measured with numpy and numba loaded: 1.5 s and 157 MiB
against 0.7 s and 109 MiB), for a run of the battery that needs only a few
tail functions. Each function here is the special function that
``scipy.stats``' distribution calls, with the same handling of the edges of
the support (``scipy.stats._distn_infrastructure``, scipy 1.17), so that it
returns the same double, bit for bit, as the ``scipy.stats`` call named in
its docstring (tests/core/test_laws.py compares them over grids of
arguments). ``scipy.special`` itself (about 0.2 CPU s over numpy) is imported
by the first tail asked for, so that the commands that import this module's
users but compute no p-value (a seed search, a deal) do not pay for it:

* chi-square: :math:`Q(x; \\nu) = \\Gamma(\\nu/2, x/2) / \\Gamma(\\nu/2)`, ``chdtrc``;
* normal: :math:`\\Phi(x)`, ``ndtr``, and :math:`1 - \\Phi(x) = \\Phi(-x)`;
* Poisson: :math:`e^{-\\mu}\\mu^k/k!` as ``exp(xlogy(k, mu) - gammaln(k + 1) - mu)``, ``pdtr``, ``pdtrc``;
* binomial: Boost's ``binomial_distribution`` pdf, cdf and complement, the
  ufuncs ``scipy.stats.binom`` calls (private names of ``scipy.special``).

References
----------
M. Abramowitz, I. A. Stegun, Handbook of Mathematical Functions, 1964:
26.4 (chi-square), 26.2 (normal), 26.1.22 (binomial), 26.4.21 (Poisson as a
chi-square tail).
"""

from __future__ import annotations

import functools

import numpy as np


def _special():
    """``scipy.special``, imported on the first tail asked for (see the module's notes)."""
    from scipy import special

    return special


@functools.cache
def _binomial_ufuncs() -> dict:
    """The ufuncs ``scipy.stats.binom`` calls, by part (``pmf``, ``cdf``, ``sf``): kept in ``scipy.special`` by
    recent scipy, in ``scipy.stats`` (whose import this module otherwise avoids) by an older one."""
    try:
        from scipy.special._ufuncs import _binom_cdf, _binom_pmf, _binom_sf
    except ImportError:
        from scipy.stats._boost import _binom_cdf, _binom_sf
        from scipy.stats._boost import _binom_pdf as _binom_pmf
    return {"pmf": _binom_pmf, "cdf": _binom_cdf, "sf": _binom_sf}


def chi2_sf(x, df):
    """``scipy.stats.chi2.sf(x, df)``: :math:`P(X > x)` for :math:`X \\sim \\chi^2_\\nu`, ``nu = df > 0``.

    1 at ``x <= 0``, 0 at ``x = inf``, NaN at NaN (``x`` may be an array).
    """
    x = np.asarray(x, dtype=np.float64)
    tail = np.where(np.isfinite(x), _special().chdtrc(df, x), np.where(np.isnan(x), np.nan, 0.0))
    return _scalar(np.where(x <= 0, 1.0, tail))


def norm_cdf(x):
    """``scipy.stats.norm.cdf(x)``: :math:`\\Phi(x)`, the standard normal law's distribution function."""
    return _scalar(_special().ndtr(np.asarray(x, dtype=np.float64)))


def norm_sf(x):
    """``scipy.stats.norm.sf(x)``: :math:`1 - \\Phi(x)`, computed as :math:`\\Phi(-x)` (no cancellation)."""
    return _scalar(_special().ndtr(-np.asarray(x, dtype=np.float64)))


def poisson_pmf(k, mu):
    """``scipy.stats.poisson.pmf(k, mu)``: :math:`e^{-\\mu}\\mu^k/k!` at an integer ``k >= 0``, else 0."""
    k = np.asarray(k)
    special = _special()
    with np.errstate(invalid="ignore"):  # inf - inf below k = 0 at mu = 0, a mass replaced by 0
        mass = np.clip(np.exp(special.xlogy(k, mu) - special.gammaln(k + 1) - mu), 0, 1)
    return _scalar(np.where((k >= 0) & (k == np.floor(k)), mass, 0.0))


def poisson_cdf(k, mu):
    """``scipy.stats.poisson.cdf(k, mu)``: :math:`P(Y \\le k)`, ``pdtr(floor(k), mu)``; 0 below ``k = 0``."""
    k = np.floor(np.asarray(k, dtype=np.float64))
    return _scalar(np.where(k >= 0, np.clip(_special().pdtr(k, mu), 0, 1), 0.0))


def poisson_sf(k, mu):
    """``scipy.stats.poisson.sf(k, mu)``: :math:`P(Y > k)`, ``pdtrc(floor(k), mu)``; 1 below ``k = 0``."""
    k = np.floor(np.asarray(k, dtype=np.float64))
    return _scalar(np.where(k >= 0, np.clip(_special().pdtrc(k, mu), 0, 1), 1.0))


def binom_pmf(k, n, p):
    """``scipy.stats.binom.pmf(k, n, p)``: :math:`\\binom{n}{k} p^k (1-p)^{n-k}` at an integer ``0 <= k <= n``."""
    k = np.asarray(k)
    inside = (k >= 0) & (k <= n) & (k == np.floor(k))
    return _scalar(np.where(inside, np.clip(_binomial_ufuncs()["pmf"](k, n, p), 0, 1), 0.0))


def binom_cdf(k, n, p):
    """``scipy.stats.binom.cdf(k, n, p)``: :math:`P(B \\le k)`; 0 below ``k = 0``, 1 from ``k = n`` on."""
    k = np.floor(np.asarray(k, dtype=np.float64))
    inside = np.clip(_binomial_ufuncs()["cdf"](k, n, p), 0, 1)
    return _scalar(np.where(k >= n, 1.0, np.where(k >= 0, inside, 0.0)))


def binom_sf(k, n, p):
    """``scipy.stats.binom.sf(k, n, p)``: :math:`P(B > k)`; 1 below ``k = 0``, 0 from ``k = n`` on."""
    k = np.floor(np.asarray(k, dtype=np.float64))
    inside = np.clip(_binomial_ufuncs()["sf"](k, n, p), 0, 1)
    return _scalar(np.where(k >= n, 0.0, np.where(k >= 0, inside, 1.0)))


def _scalar(values: np.ndarray):
    """A 0-d result as a numpy scalar (as ``scipy.stats`` returns it), an array as it is."""
    return values[()] if values.ndim == 0 else values
