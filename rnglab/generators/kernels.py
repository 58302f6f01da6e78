"""Compiled kernels (numba) for the hot loop of :meth:`rnglab.generators.LCG.random_raw`.

The loop fills an output array row by row: every lane of ``row`` holds a
state, each row advances all lanes by one exact affine map ``(A, C)``, and the
output function ``(x >> shift) & mask`` is applied as the values are written.
numpy needs one pass over memory per operation; the compiled loop does all of
them in one pass, which is 2-3x faster here (see ``bench/RESULTS.md``). One
kernel per arithmetic: a power-of-two modulus (wrap-around), and Shoup's
multiplication for any other modulus: on 32-bit words for m <= 2^32, on 64-bit
words (a 128-bit product's high word) for m <= 2^63.

All constants are ``np.uint64``: numba turns mixed uint64/int64 arithmetic
into float64, which would silently lose bits.
"""

from __future__ import annotations

import numpy as np

from rnglab.core.compiled import njit
from rnglab.reduction.maps import multiply_128


@njit(cache=True, nogil=True)
def fill_rows_pow2(row, jump_a, jump_c, shift, mask, out):  # pragma: no cover - compiled
    """Fill ``out`` for a modulus 2^e <= 2^64: states wrap modulo 2^64."""
    lanes = row.size
    for start in range(0, out.size, lanes):
        for j in range(min(lanes, out.size - start)):
            x = row[j] * jump_a + jump_c
            row[j] = x
            out[start + j] = (x >> shift) & mask


#: Largest modulus served by :func:`fill_rows_wide` (its remainders before correction lie in [0, 2m)).
WIDE_LIMIT = 2**63

_SHIFT32 = np.uint64(32)


@njit(cache=True, nogil=True, inline="always")
def _plus_below(r, c, modulus):  # pragma: no cover - compiled
    """``(r + c) mod m`` for ``r`` in ``[0, 2m)`` and ``c`` in ``[0, m)``: two conditional subtractions."""
    if r >= modulus:
        r -= modulus
    r += c
    if r >= modulus:
        r -= modulus
    return r


@njit(cache=True, nogil=True)
def fill_rows_small(row, jump_a, jump_a_quotient, jump_c, modulus, shift, mask, out):  # pragma: no cover
    """Fill ``out`` for a modulus m <= 2^32 by Shoup's multiplication on 32-bit words, with no division.

    With ``A' = floor(A 2^32 / m) < 2^32`` computed once and a state ``x < m <= 2^32``,
    ``q = floor(x A' / 2^32)`` is ``floor(A x / m)`` or one less, so ``A x - q m`` (exact in
    uint64: ``A x < 2^64``) lies in ``[0, 2m)``: one conditional subtraction, and one more
    after adding ``C < m`` (as :func:`fill_rows_wide`, a word of 32 bits instead of 64).
    A hardware division costs several times the three products (``bench/results/generators.md``).
    """
    lanes = row.size
    for start in range(0, out.size, lanes):
        for j in range(min(lanes, out.size - start)):
            x = row[j]
            r = _plus_below(x * jump_a - ((x * jump_a_quotient) >> _SHIFT32) * modulus, jump_c, modulus)
            row[j] = r
            out[start + j] = (r >> shift) & mask


@njit(cache=True, nogil=True)
def fill_rows_wide(row, jump_a, jump_a_quotient, jump_c, modulus, shift, mask, out):  # pragma: no cover
    """Fill ``out`` for any modulus m <= 2^63: exact ``(A x + C) mod m`` by Shoup's multiplication.

    With ``A' = floor(A 2^64 / m)`` computed once, ``q = floor(x A' / 2^64)``
    is the quotient ``floor(A x / m)`` or one less, so ``A x - q m`` (wrapping
    uint64 arithmetic) is exact and lies in ``[0, 2m)``; one conditional
    subtraction reduces it, and adding ``C < m`` needs one more.

    References
    ----------
    V. Shoup, NTL, ``MulModPrecon``; D. Harvey, "Faster arithmetic for
    number-theoretic transforms", J. Symbolic Comput. 60 (2014), section 2.
    """
    lanes = row.size
    for start in range(0, out.size, lanes):
        for j in range(min(lanes, out.size - start)):
            x = row[j]
            r = _plus_below(x * jump_a - multiply_128(x, jump_a_quotient)[0] * modulus, jump_c, modulus)
            row[j] = r
            out[start + j] = (r >> shift) & mask
