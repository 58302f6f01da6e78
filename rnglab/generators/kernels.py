"""Compiled kernels (numba) for the hot loop of :meth:`rnglab.generators.LCG.random_raw`.

The loop fills an output array row by row: every lane of ``row`` holds a
state, each row advances all lanes by one exact affine map ``(A, C)``, and the
output function ``(x >> shift) & mask`` is applied as the values are written.
numpy needs one pass over memory per operation; the compiled loop does all of
them in one pass, which is 2-3x faster here (see ``bench/RESULTS.md``). One
kernel per arithmetic: a power-of-two modulus (wrap-around), m <= 2^32 (exact
uint64 products) and any other m <= 2^63 (Shoup's multiplication).

All constants are ``np.uint64``: numba turns mixed uint64/int64 arithmetic
into float64, which would silently lose bits.
"""

from __future__ import annotations

import numpy as np

from rnglab.core.compiled import njit


@njit(cache=True, nogil=True)
def fill_rows_pow2(row, jump_a, jump_c, shift, mask, out):  # pragma: no cover - compiled
    """Fill ``out`` for a modulus 2^e <= 2^64: states wrap modulo 2^64."""
    lanes = row.size
    for start in range(0, out.size, lanes):
        for j in range(min(lanes, out.size - start)):
            x = row[j] * jump_a + jump_c
            row[j] = x
            out[start + j] = (x >> shift) & mask


@njit(cache=True, nogil=True)
def fill_rows_small(row, jump_a, jump_c, modulus, shift, mask, out):  # pragma: no cover - compiled
    """Fill ``out`` for a modulus m <= 2^32: uint64 products are exact."""
    lanes = row.size
    for start in range(0, out.size, lanes):
        for j in range(min(lanes, out.size - start)):
            x = (row[j] * jump_a + jump_c) % modulus
            row[j] = x
            out[start + j] = (x >> shift) & mask


#: Largest modulus served by :func:`fill_rows_wide` (its remainders before correction lie in [0, 2m)).
WIDE_LIMIT = 2**63

_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)


@njit(cache=True, nogil=True, inline="always")
def multiply_high(x, y):  # pragma: no cover - compiled
    """The high 64 bits of the 128-bit product ``x y``, from four 32 x 32 -> 64-bit products."""
    x_low, x_high = x & _LOW32, x >> _SHIFT32
    y_low, y_high = y & _LOW32, y >> _SHIFT32
    low_low, high_low = x_low * y_low, x_high * y_low
    cross = (low_low >> _SHIFT32) + (high_low & _LOW32) + x_low * y_high   # < 2^64: no carry lost
    return x_high * y_high + (high_low >> _SHIFT32) + (cross >> _SHIFT32)


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
            r = x * jump_a - multiply_high(x, jump_a_quotient) * modulus
            if r >= modulus:
                r -= modulus
            r += jump_c
            if r >= modulus:
                r -= modulus
            row[j] = r
            out[start + j] = (r >> shift) & mask
