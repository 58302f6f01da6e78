"""The floating-point frequency test: words read as binary floating point, their exponents and leading bits counted."""

from __future__ import annotations

import numpy as np

from rnglab.algebra.gf2_kernels import popcount
from rnglab.core.compiled import njit
from rnglab.empirical.stattests.base import EmpiricalResult, Tally, chi_square, gateway_params, register, require
from rnglab.empirical.stattests.frequency import add_counts
from rnglab.generators.base import Source
from rnglab.streams.gateway import BitReader, selection_of

#: Words read per chunk.
CHUNK_WORDS = 2**16


@njit(cache=True, nogil=True)
def float_cells(words, word_bits, mantissa_bits, exponents):  # pragma: no cover - compiled
    """The cell of each ``word_bits``-bit word read as a float: ``e 2^k + m``, or the tail cell ``E 2^k``.

    ``e`` is the number of leading zero bits and ``m`` the ``k`` bits after the
    leading 1 (``k = mantissa_bits``); words with ``e >= E`` (``E =
    exponents``) share the tail cell. Needs ``E + 1 + k <= word_bits``. One
    compiled pass without a branch on the bits: ``e`` is the word's width less
    its bit length, the population count of the word with its highest 1
    smeared over every bit below.
    """
    cells = np.empty(words.size, dtype=np.int64)
    one, k = np.uint64(1), np.int64(mantissa_bits)
    mask = (one << np.uint64(k)) - one
    for i in range(words.size):
        word = smeared = np.uint64(words[i])
        for shift in (1, 2, 4, 8, 16, 32):
            smeared |= smeared >> np.uint64(shift)
        length = np.int64(popcount(smeared))
        exponent = word_bits - length
        if exponent >= exponents:
            cells[i] = exponents << mantissa_bits
        else:
            cells[i] = (exponent << k) + np.int64((word >> np.uint64(length - 1 - k)) & mask)
    return cells


def float_law(mantissa_bits: int, exponents: int) -> np.ndarray:
    """``P(e, m) = 2^-(e+1) 2^-k`` for ``e < E``, and ``P(tail) = 2^-E``, in cell order (exact dyadic numbers)."""
    heads = np.repeat(0.5 ** (np.arange(exponents) + 1 + mantissa_bits), 2**mantissa_bits)
    return np.r_[heads, 0.5**exponents]


class FloatFrequencyTally(Tally):
    """The counts of the cells of the words read as floats, carried on (:func:`float_frequency`); a word that
    straddles two reads waits in a :class:`~rnglab.streams.gateway.BitReader`."""

    def __init__(self, source: Source, *, word_bits: int = 32, mantissa_bits: int = 4, exponents: int = 12) -> None:
        super().__init__()
        require(8 <= word_bits <= 64, f"word_bits must be in [8, 64]; got {word_bits}")
        require(0 <= mantissa_bits <= 16, f"mantissa_bits must be in [0, 16]; got {mantissa_bits}")
        require(1 <= exponents and exponents + 1 + mantissa_bits <= word_bits,
                f"need 1 <= exponents and exponents + 1 + mantissa_bits <= word_bits; got exponents = {exponents}")
        self.word_bits, self.mantissa_bits, self.exponents = word_bits, mantissa_bits, exponents
        self.selection, self.law, self.reader = selection_of(source), float_law(mantissa_bits, exponents), BitReader()
        self.counts = np.zeros(self.law.size, dtype=np.int64)

    def check(self, n: int) -> None:
        require(n * self.law.min() >= 5, f"float-frequency needs n 2^-{self.exponents + self.mantissa_bits} >= 5 "
                                         f"(the rarest cell); got n = {n}")

    def _read(self, source: Source, count: int) -> None:
        for start in range(0, count, CHUNK_WORDS):
            words = self.reader.fields(source, min(CHUNK_WORDS, count - start), self.word_bits)
            add_counts(float_cells(words, self.word_bits, self.mantissa_bits, self.exponents), self.counts)

    def result(self) -> EmpiricalResult:
        n = self.samples
        statistic, pvalue, df = chi_square(self.counts, n * self.law)
        return EmpiricalResult("float-frequency", statistic, pvalue,
                               gateway_params(n, self.selection, word_bits=self.word_bits,
                                              mantissa_bits=self.mantissa_bits, exponents=self.exponents),
                               {"df": df, "observed": self.counts.copy()})


@register("float-frequency", FloatFrequencyTally)
def float_frequency(source: Source, n: int, *, word_bits: int = 32, mantissa_bits: int = 4,
                    exponents: int = 12) -> EmpiricalResult:
    """Chi-square of ``n`` words of the bit stream read as binary floating-point numbers.

    A ``b``-bit word ``x`` is read as ``1.m * 2^-(e+1)`` scaled to ``[0, 1)``: ``e``,
    its number of leading zeros, is the exponent, and ``m``, the ``k`` bits after
    the leading 1, the start of the mantissa. For uniform words
    ``P(e, m) = 2^-(e+1+k)`` (each exponent half as likely as the one before,
    its mantissas equally likely), with the words of ``e >= E`` pooled
    (``2^-E``). Pearson's ``X^2`` over the ``E 2^k + 1`` cells is
    asymptotically chi-square with ``E 2^k`` degrees of freedom. Valid when the
    rarest cell expects 5 or more (enforced through the chi-square rule).

    The small exponents weigh the words' leading bits, the large ones the
    rare words with long runs of zeros followed by their next bits: the
    correlations involving many 0 bits that PractRand's FPF test is designed
    for (its "floating point frequency", in integer arithmetic, as here).

    Parameters
    ----------
    source : Source
    n : int
        Number of words (``n b`` bits are read).
    word_bits : int
        ``b``, 8 to 64.
    mantissa_bits : int
        ``k``, 0 to 16.
    exponents : int
        ``E``, at least 1, with ``E + 1 + k <= b``.

    References
    ----------
    C. Doty-Humphrey, PractRand 0.95, Tests_engines.txt (FPF, "floating point
    frequency").
    """
    return FloatFrequencyTally(source, word_bits=word_bits, mantissa_bits=mantissa_bits,
                               exponents=exponents).extend(source, n).result()
