"""The floating-point frequency test: words read as binary floating point, their exponents and leading bits counted."""

from __future__ import annotations

import numpy as np

from ...generators.base import Source
from ...stream import BitSelection, bit_fields
from .base import EmpiricalResult, chi_square, gateway_params, register, require
from .frequency import check_sample


def float_cells(words: np.ndarray, word_bits: int, mantissa_bits: int, exponents: int) -> np.ndarray:
    """The cell of each ``word_bits``-bit word read as a float: ``e 2^k + m``, or the tail cell ``E 2^k``.

    ``e`` is the number of leading zero bits and ``m`` the ``k`` bits after the
    leading 1 (``k = mantissa_bits``); words with ``e >= E`` (``E =
    exponents``) share the tail cell. Needs ``E + 1 + k <= word_bits``.
    """
    values = words.astype(np.uint64)
    cells = np.full(values.size, exponents << mantissa_bits, dtype=np.int64)
    remaining = np.ones(values.size, dtype=bool)
    for exponent in range(exponents):
        top = np.uint64(word_bits - 1 - exponent)
        leading = remaining & ((values >> top) & np.uint64(1)).astype(bool)
        mantissa = (values[leading] >> (top - np.uint64(mantissa_bits))) & np.uint64((1 << mantissa_bits) - 1)
        cells[leading] = (exponent << mantissa_bits) + mantissa.astype(np.int64)
        remaining &= ~leading
    return cells


def float_law(mantissa_bits: int, exponents: int) -> np.ndarray:
    """``P(e, m) = 2^-(e+1) 2^-k`` for ``e < E``, and ``P(tail) = 2^-E``, in cell order (exact dyadic numbers)."""
    heads = np.repeat(0.5 ** (np.arange(exponents) + 1 + mantissa_bits), 2**mantissa_bits)
    return np.r_[heads, 0.5**exponents]


@register("float-frequency")
def float_frequency(source: Source, n: int, *, word_bits: int = 32, mantissa_bits: int = 4, exponents: int = 12,
                    selection: BitSelection = BitSelection()) -> EmpiricalResult:
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
    selection : BitSelection

    References
    ----------
    C. Doty-Humphrey, PractRand 0.95, Tests_engines.txt (FPF, "floating point
    frequency").
    """
    check_sample("n", n, 1)
    require(8 <= word_bits <= 64, f"word_bits must be in [8, 64]; got {word_bits}")
    require(0 <= mantissa_bits <= 16, f"mantissa_bits must be in [0, 16]; got {mantissa_bits}")
    require(1 <= exponents and exponents + 1 + mantissa_bits <= word_bits,
            f"need 1 <= exponents and exponents + 1 + mantissa_bits <= word_bits; got exponents = {exponents}")
    law = float_law(mantissa_bits, exponents)
    require(n * law.min() >= 5, f"float-frequency needs n 2^-{exponents + mantissa_bits} >= 5 (the rarest cell); "
                                f"got n = {n}")
    counts = np.zeros(law.size, dtype=np.int64)
    chunk = 2**16
    for start in range(0, n, chunk):
        words = bit_fields(source, min(chunk, n - start), word_bits, selection)
        counts += np.bincount(float_cells(words, word_bits, mantissa_bits, exponents), minlength=law.size)
    statistic, pvalue, df = chi_square(counts, n * law)
    return EmpiricalResult("float-frequency", statistic, pvalue,
                           gateway_params(n, selection, word_bits=word_bits, mantissa_bits=mantissa_bits,
                                          exponents=exponents),
                           {"df": df, "observed": counts})
