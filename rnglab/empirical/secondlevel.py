"""Second-level testing: repeat a test on fresh samples and test its p-values for uniformity.

A generator can pass every single test at the 0.001 level and still give
p-values that pile up at one end; repeating a test ``N`` times on successive
stretches of the same stream and testing the ``N`` p-values for uniformity on
[0, 1] (Kolmogorov-Smirnov and Anderson-Darling, as TestU01 does for
``N > 1``) catches it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rnglab.empirical.stattests import EmpiricalResult
from rnglab.generators.base import Source


@dataclass(frozen=True)
class SecondLevelResult(EmpiricalResult):
    """A test repeated ``N`` times: the Anderson-Darling statistic and p-value of its ``N`` p-values.

    ``statistic`` and ``pvalue`` are the Anderson-Darling ``A^2`` and its
    right-tail p-value; ``details`` holds the Kolmogorov-Smirnov ``D`` and its
    p-value; ``pvalues`` holds the first-level p-values in order.
    """

    pvalues: tuple = ()


def anderson_darling_uniform(pvalues) -> tuple[float, float]:
    """Anderson-Darling ``A^2`` of a sample against U(0, 1), with its right-tail p-value.

    ``A^2 = -N - (1/N) sum_{i=1}^N (2i - 1) [ln u_(i) + ln(1 - u_(N+1-i))]``.
    The p-value uses G. Marsaglia and J. Marsaglia, Evaluating the
    Anderson-Darling distribution, J. Stat. Software 9(2), 2004 (the limiting
    law plus their finite-``N`` correction, accurate to about 1e-6). Beyond
    the limit law's 0.999 point the limit alone is used: there the correction
    polynomial no longer vanishes (it leaves about 6e-4/N). scipy.stats has
    no uniform Anderson-Darling test with a p-value.
    """
    sample = np.sort(np.clip(np.asarray(pvalues, dtype=np.float64), 1e-300, 1 - 1e-16))
    count = len(sample)
    weights = 2 * np.arange(1, count + 1) - 1
    statistic = -count - float(np.sum(weights * (np.log(sample) + np.log1p(-sample[::-1])))) / count
    limit = _anderson_darling_limit_cdf(statistic)
    if limit > 0.999:
        return statistic, 1.0 - limit
    return statistic, float(min(max(1.0 - (limit + _anderson_darling_correction(count, limit)), 0.0), 1.0))


def _anderson_darling_limit_cdf(z: float) -> float:
    """Marsaglia and Marsaglia's approximation of the limiting CDF of ``A^2``."""
    if z <= 0:
        return 0.0
    if z < 2:
        return math.exp(-1.2337141 / z) / math.sqrt(z) * (
            2.00012 + (0.247105 - (0.0649821 - (0.0347962 - (0.011672 - 0.00168691 * z) * z) * z) * z) * z)
    return math.exp(-math.exp(1.0776 - (2.30695 - (0.43424 - (0.082433 - (0.008056 - 0.0003146 * z) * z) * z)
                                        * z) * z))


def _anderson_darling_correction(n: int, x: float) -> float:
    """Marsaglia and Marsaglia's ``errfix(n, x)``: the finite-sample correction to the limiting CDF."""
    if x > 0.8:
        return (-130.2137 + (745.2337 - (1705.091 - (1950.646 - (1116.360 - 255.7844 * x) * x) * x) * x) * x) / n
    c = 0.01265 + 0.1757 / n
    if x < c:
        t = x / c
        t = math.sqrt(t) * (1 - t) * (49 * t - 102)
        return t * (0.0037 / n**2 + 0.00078 / n + 0.00006) / n
    t = (x - c) / (0.8 - c)
    t = -0.00022633 + (6.54034 - (14.6538 - (14.458 - (8.259 - 1.91864 * t) * t) * t) * t) * t
    return t * (0.04213 + 0.01365 / n) / n


def second_level(test: Callable, source: Source, n: int, replications: int, **options) -> SecondLevelResult:
    """Run ``test(source, n, **options)`` ``replications`` times and test the p-values for uniformity.

    Each replication continues the same source (fresh samples, as TestU01's
    ``N``). The first-level p-values are compared with U(0, 1) by
    Anderson-Darling (the result's statistic and p-value) and by
    Kolmogorov-Smirnov (``scipy.stats.kstest``, in ``details``).

    Parameters
    ----------
    test : callable
        A test function (:func:`~rnglab.empirical.stattests.base.get_test` finds a registered one by name).
    source : Source
    n : int
        Sample size of each replication.
    replications : int
        ``N >= 2``.
    **options
        Passed to the test.

    References
    ----------
    P. L'Ecuyer, R. Simard, TestU01, ACM TOMS 33(4), 2007, section 2 (two-level tests).
    """
    if replications < 2:
        raise ValueError(f"a second-level test needs at least 2 replications; got {replications}")
    from scipy import stats  # a second of imports that every battery run would pay, for its repeated entries only

    results = [test(source, n, **options) for _ in range(replications)]
    pvalues = np.array([r.pvalue for r in results])
    ad_statistic, ad_pvalue = anderson_darling_uniform(pvalues)
    ks = stats.kstest(pvalues, "uniform")
    first = results[0]
    return SecondLevelResult(first.test, ad_statistic, ad_pvalue, {**first.params, "replications": replications},
                             {"uniformity": "Anderson-Darling", "ks_statistic": float(ks.statistic),
                              "ks_pvalue": float(ks.pvalue)}, tuple(float(p) for p in pvalues))
