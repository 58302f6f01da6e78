"""Marsaglia and Tsang's greatest-common-divisor test on pairs of 32-bit words."""

from __future__ import annotations

import math

import numpy as np

from rnglab.algebra.gf2_kernels import trailing_zeros
from rnglab.core.compiled import njit
from rnglab.empirical.stattests.base import EmpiricalResult, Tally, chi_square, gateway_params, register, require
from rnglab.generators.base import Source
from rnglab.streams.gateway import BitReader, selection_of

#: Pairs of words read per chunk.
CHUNK_PAIRS = 2**16


@njit(cache=True, nogil=True)
def gcd_counts(words, largest):  # pragma: no cover - compiled
    """Counts of ``gcd(u, v)`` over successive pairs of ``words``, values above ``largest`` pooled at ``largest``.

    Pairs with a zero word are skipped (``gcd`` with 0 is not defined by the
    test); their number is returned too. Stein's binary algorithm: the common
    factor ``2^s`` set aside, subtract the smaller odd number from the larger
    and strip the difference's factors of 2 (counted as the population count
    of ``(x & -x) - 1``) until it is 0; twice as fast as Euclid's divisions
    (D. E. Knuth, TAOCP vol. 2, 4.5.2, Algorithm B).

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
        shift = trailing_zeros(u | v)
        u >>= trailing_zeros(u)
        while v:
            v >>= trailing_zeros(v)
            if u > v:
                u, v = v, u
            v -= u
        counts[min(u << shift, np.uint64(largest))] += 1
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


class GcdTally(Tally):
    """The counts of the pairs' greatest common divisors, carried on (:func:`gcd_test`); a word that straddles
    two reads waits in a :class:`~rnglab.streams.gateway.BitReader`."""

    def __init__(self, source: Source, *, largest: int = 100) -> None:
        super().__init__()
        require(2 <= largest <= 10_000, f"largest must be in [2, 10000]; got {largest}")
        self.largest, self.selection, self.law = largest, selection_of(source), gcd_law(largest)
        self.reader, self.counts, self.skipped = BitReader(), np.zeros(largest + 1, dtype=np.int64), 0

    def check(self, n: int) -> None:
        chi_square(np.zeros(self.law.size), n * self.law)  # its rule on the expected counts of n pairs

    def _read(self, source: Source, count: int) -> None:
        for start in range(0, count, CHUNK_PAIRS):
            counts, skipped = gcd_counts(self.reader.fields(source, 2 * min(CHUNK_PAIRS, count - start), 32),
                                         self.largest)
            self.counts += counts
            self.skipped += int(skipped)

    def result(self) -> EmpiricalResult:
        n, observed = self.samples, self.counts[1:].copy()
        expected = (n - self.skipped) * self.law
        statistic, pvalue, df = chi_square(observed, expected)
        return EmpiricalResult("gcd", statistic, pvalue, gateway_params(n, self.selection, largest=self.largest),
                               {"df": df, "skipped": self.skipped, "observed": observed, "expected": expected})


@register("gcd", GcdTally)
def gcd_test(source: Source, n: int, *, largest: int = 100) -> EmpiricalResult:
    """Chi-square of the greatest common divisors of ``n`` pairs of 32-bit words.

    Successive 32-bit words of the bit stream are paired; for each pair of
    non-zero words ``g = gcd(u, v)``. Under the null
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

    References
    ----------
    G. Marsaglia, W. W. Tsang, "Some difficult-to-pass tests of randomness",
    J. Stat. Software 7(3), 2002 (the gcd test; dieharder ``-d 17``).
    G. H. Hardy, E. M. Wright, *An Introduction to the Theory of Numbers*,
    Thm. 332 (the probability 6/pi^2 of coprimality).
    """
    return GcdTally(source, largest=largest).extend(source, n).result()
