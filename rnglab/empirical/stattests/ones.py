"""Marsaglia's count-the-1s test: words of letters given by the Hamming weights of bytes."""

from __future__ import annotations

import numpy as np

from rnglab.core.compiled import njit
from rnglab.empirical.stattests.base import (
    EmpiricalResult,
    Tally,
    check_sample,
    chi_square,
    gateway_params,
    register,
    require,
)
from rnglab.empirical.stattests.frequency import CHUNK
from rnglab.generators.base import Source
from rnglab.streams.gateway import BitReader, selection_of

#: The letter of a byte of Hamming weight 0..8: A for 0-2 ones, B for 3, C for 4, D for 5, E for 6-8.
LETTER_OF_WEIGHT = np.array([0, 0, 0, 1, 2, 3, 4, 4, 4])
#: The letter of each byte value.
LETTER_OF_BYTE = LETTER_OF_WEIGHT[[(byte).bit_count() for byte in range(256)]]
#: P(A..E) for a uniform byte: (1 + 8 + 28, 56, 70, 56, 37) / 256.
LETTER_PROBABILITIES = np.array([37, 56, 70, 56, 37]) / 256


def word_probabilities(t: int) -> np.ndarray:
    """Probabilities of the ``5^t`` words of ``t`` independent letters, in base-5 order (first letter highest)."""
    probabilities = np.ones(1)
    for _ in range(t):
        probabilities = np.outer(probabilities, LETTER_PROBABILITIES).ravel()
    return probabilities


@njit(cache=True, nogil=True)
def add_word_counts(octets, t, letter_of_byte, counts):  # pragma: no cover - compiled
    """``counts[w] += 1`` for each word ``w`` (its letters in base 5, the first highest) of ``t`` successive bytes
    of ``octets`` (a whole number of words), in one pass."""
    for start in range(0, octets.size, t):
        cell = 0
        for j in range(start, start + t):
            cell = 5 * cell + letter_of_byte[octets[j]]
        counts[cell] += 1


class CountOnesTally(Tally):
    """The counts of the count-the-1s test's words, carried on (:func:`count_ones`); a byte that straddles two
    reads waits in a :class:`~rnglab.streams.gateway.BitReader`."""

    def __init__(self, source: Source, *, t: int = 5) -> None:
        super().__init__()
        self.t, self.selection = check_sample("t", t, 1), selection_of(source)
        require(self.t <= 8, f"t must be <= 8 (5^t cells); got {t}")
        self.reader, self.counts = BitReader(), np.zeros(5**self.t, dtype=np.int64)

    def check(self, n: int) -> None:
        require(n * (37 / 256) ** self.t >= 5,
                f"count-ones needs n (37/256)^{self.t} >= 5 (the rarest word's expected count); got n = {n}")

    def _read(self, source: Source, count: int) -> None:
        per_read = max(1, CHUNK // self.t)
        for start in range(0, count, per_read):
            octets = self.reader.fields(source, min(per_read, count - start) * self.t, 8)
            add_word_counts(octets, self.t, LETTER_OF_BYTE, self.counts)

    def result(self) -> EmpiricalResult:
        n = self.samples
        statistic, pvalue, df = chi_square(self.counts, n * word_probabilities(self.t))
        return EmpiricalResult("count-ones", statistic, pvalue, gateway_params(n, self.selection, t=self.t),
                               {"df": df, "observed": self.counts.copy()})


@register("count-ones", CountOnesTally)
def count_ones(source: Source, n: int, *, t: int = 5) -> EmpiricalResult:
    """Count-the-1s on a stream of bytes: chi-square of ``n`` words of ``t`` letters given by bytes' weights.

    The bit stream is cut into bytes; each byte becomes a letter by its
    number of ones (A: 0-2, B: 3, C: 4, D: 5, E: 6-8; probabilities
    37, 56, 70, 56, 37 in 256), and ``n`` successive non-overlapping words of
    ``t`` letters are counted in their ``5^t`` cells against ``n`` times the
    product of their letters' probabilities. Pearson's ``X^2`` is
    asymptotically chi-square with ``5^t - 1`` degrees of freedom (the words
    are independent). Valid when the rarest word expects 5 or more,
    ``n (37/256)^t >= 5`` (enforced).

    Marsaglia's DIEHARD version counts overlapping words and takes Good's
    difference ``Q_5 - Q_4`` as chi-square with 2,500 degrees of freedom; with
    letters of unequal probabilities that law does not hold (over 300 PCG64
    streams of 256,000 bytes the difference had mean 2,495 but variance 4,003,
    not 5,000), so rnglab counts disjoint words, whose law is exact.

    It sees short-range dependence between the numbers of ones in successive
    bytes, the correlations PractRand's DC6 test looks for; on the low byte of
    each output (``BitSelection(low=8)``, PractRand's ``[Low8/32]`` fold) it
    catches the short periods of the low bits of power-of-two LCGs at once.

    Parameters
    ----------
    source : Source
    n : int
        Number of words (``n t`` bytes are read).
    t : int
        Letters per word, ``1 <= t <= 8``.

    References
    ----------
    G. Marsaglia, DIEHARD (1995): "the count-the-1's test on a stream of
    bytes" (dieharder ``-d 10``). C. Doty-Humphrey, PractRand 0.95,
    Tests_engines.txt (DC6).
    """
    return CountOnesTally(source, t=t).extend(source, n).result()
