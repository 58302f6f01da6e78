"""Compiled kernels (numba) for the hot loop of :meth:`rnglab.generators.LCG.random_raw`.

The loop fills an output array row by row: every lane of ``row`` holds a
state, each row advances all lanes by one exact affine map ``(A, C)``, and the
output function ``(x >> shift) & mask`` is applied as the values are written.
numpy needs one pass over memory per operation; the compiled loop does all of
them in one pass, which is 2-3x faster here (see ``bench/RESULTS.md``).

All constants are ``np.uint64``: numba turns mixed uint64/int64 arithmetic
into float64, which would silently lose bits.
"""

from __future__ import annotations

from ..compiled import njit


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
