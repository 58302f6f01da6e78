"""Marsaglia and Tsang's greatest-common-divisor test on pairs of 32-bit words."""

from __future__ import annotations

import math

import numba
import numpy as np

from ...generators.base import Source
from ...stream import BitSelection, bit_fields
from .base import EmpiricalResult, chi_square, gateway_params, register, require


@numba.njit(cache=True, nogil=True)
def gcd_counts(words, largest):  # pragma: no cover - compiled
    """Counts of ``gcd(u, v)`` over successive pairs of ``words``, values above ``largest`` pooled at ``largest``.

    Pairs with a zero word are skipped (``gcd`` with 0 is not defined by the
    test); their number is returned too.

    Returns
    -------
    counts : numpy.ndarray of int64, length ``largest + 1`` (index 0 unused)
    skipped : int
    """
    counts = np.zeros(largest + 1, dtype=np.int64)
    skipped = 0
    for k in range(words.size // 2):
        u, v = words[2 * k], words[2 * k + 1]
        if u == 0 or v == 0:
            skipped += 1
            continue
        while v:
            u, v = v, u % v
        counts[min(u, np.uint64(largest))] += 1
    return counts, skipped


def gcd_law(largest: int, word_bits: int = 32) -> np.ndarray:
    """``P(gcd(u, v) = j)`` for ``j = 1 .. largest - 1`` and ``P(gcd >= largest)`` last.

    For independent uniform ``u, v`` in ``[1, N)`` the law tends to
    ``6 / (pi^2 j^2)`` (Dirichlet); at ``N = 2^32`` the relative error is of
    order ``j log N / N``, below ``2^-20`` for ``j < 100`` (negligible against
    the sampling error of any feasible sample). The pooled tail is
    ``1 - sum_(j < largest) 6 / (pi^2 j^2)``.
    """
    require(word_bits >= 24, "the gcd law's limit form needs words of >= 24 bits")
    head = 6.0 / (math.pi**2 * np.arange(1, largest, dtype=np.float64) ** 2)
    return np.r_[head, 1.0 - head.sum()]


@register("gcd")
def gcd_test(source: Source, n: int, *, largest: int = 100,
             selection: BitSelection = BitSelection()) -> EmpiricalResult:
    """Chi-square of the greatest common divisors of ``n`` pairs of 32-bit words.

    Successive 32-bit words of the bit stream are paired; for each pair of
    non-zero words Euclid's algorithm gives ``g = gcd(u, v)``. Under the null
    hypothesis ``P(g = j) = 6 / (pi^2 j^2)`` (:func:`gcd_law`); the values
    ``j >= largest`` are pooled, and Pearson's ``X^2`` over the ``largest``
    categories is asymptotically chi-square with ``largest - 1`` degrees of
    freedom. Pairs containing a zero word (probability ``2^-31``) are skipped
    and counted in the details. Marsaglia and Tsang pair this with the law of
    the number of Euclid steps, which has no closed form (their table is
    simulated); that half of the test is not implemented here.

    Parameters
    ----------
    source : Source
    n : int
        Number of pairs (``2n`` words of 32 bits are read). With the default
        ``largest = 100`` the smallest expected count is ``n 6/(pi^2 99^2)``,
        so ``n >= 81,000`` (enforced through the chi-square rule).
    largest : int
        First pooled value of ``g``.
    selection : BitSelection

    References
    ----------
    G. Marsaglia, W. W. Tsang, "Some difficult-to-pass tests of randomness",
    J. Stat. Software 7(3), 2002 (the gcd test; dieharder ``-d 17``).
    G. H. Hardy, E. M. Wright, *An Introduction to the Theory of Numbers*,
    Thm. 332 (the probability 6/pi^2 of coprimality).
    """
    require(n >= 1, f"n must be >= 1; got {n}")
    require(2 <= largest <= 10_000, f"largest must be in [2, 10000]; got {largest}")
    counts, skipped = gcd_counts(bit_fields(source, 2 * n, 32, selection), largest)
    observed = counts[1:]
    expected = (n - skipped) * gcd_law(largest)
    statistic, pvalue, df = chi_square(observed, expected)
    return EmpiricalResult("gcd", statistic, pvalue, gateway_params(n, selection, largest=largest),
                           {"df": df, "skipped": int(skipped), "observed": observed, "expected": expected})
