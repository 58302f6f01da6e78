"""Compiled kernels (numba) of the GF(2) algebra: bit-packed words, least significant bit first.

A polynomial over GF(2) or a row of a matrix is a uint64 array: coefficient
(or column) ``i`` is bit ``i mod 64`` of word ``i // 64``. All constants are
``np.uint64`` (numba turns mixed uint64 and int64 arithmetic into float64).
"""

from __future__ import annotations

import numpy as np

from rnglab.core.compiled import njit

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


#: Masks of the SWAR population count (bit pairs, nibbles, bytes) and the byte-summing multiplier.
PAIRS, NIBBLES, BYTES, BYTE_SUM = (np.uint64(0x5555555555555555), np.uint64(0x3333333333333333),
                                   np.uint64(0x0F0F0F0F0F0F0F0F), np.uint64(0x0101010101010101))


@njit(cache=True, nogil=True)
def popcount(word):  # pragma: no cover - compiled
    """The number of ones of a uint64: the classical SWAR population count (sums of bit pairs, nibbles, then
    bytes), which LLVM compiles to the processor's ``popcnt``."""
    one, two, four, top = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)
    word -= (word >> one) & PAIRS
    word = (word & NIBBLES) + ((word >> two) & NIBBLES)
    word = (word + (word >> four)) & BYTES
    return (word * BYTE_SUM) >> top


@njit(cache=True, nogil=True, inline="always")
def trailing_zeros(word):  # pragma: no cover - compiled
    """The number of trailing zero bits (a uint64) of a non-zero uint64, the index of its lowest set bit: the
    ones of ``(word & -word) - 1``."""
    return popcount((word & (_ZERO - word)) - _ONE)


@njit(cache=True, nogil=True, inline="always")
def word_bit_length(word):  # pragma: no cover - compiled
    """Bits of ``word`` up to its highest set bit (0 for 0): every bit below the highest set (by six shifted
    ORs), then counted."""
    for shift in (1, 2, 4, 8, 16, 32):
        word |= word >> np.uint64(shift)
    return np.int64(popcount(word))


@njit(cache=True, nogil=True)
def top_bit(words, start):  # pragma: no cover - compiled
    """The highest set bit of ``words`` at or below word ``start`` (-1 when none)."""
    for index in range(start, -1, -1):
        if words[index]:
            return 64 * index + word_bit_length(words[index]) - 1
    return -1


@njit(cache=True, nogil=True, inline="always")
def read_bits(words, position, count):  # pragma: no cover - compiled
    """``count`` <= 64 bits of ``words`` from bit ``position`` (beyond the array: zeros)."""
    index, shift = position // 64, position % 64
    value = words[index] >> np.uint64(shift)
    if shift and index + 1 < words.size:
        value |= words[index + 1] << np.uint64(64 - shift)
    if count < 64:
        value &= (_ONE << np.uint64(count)) - _ONE
    return value


@njit(cache=True, nogil=True, inline="always")
def xor_bits(words, position, value):  # pragma: no cover - compiled
    """XOR the 64-bit ``value`` into ``words`` at bit ``position`` (bits past the array dropped)."""
    index, shift = position // 64, position % 64
    words[index] ^= value << np.uint64(shift)
    if shift and index + 1 < words.size:
        words[index + 1] ^= value >> np.uint64(64 - shift)


@njit(cache=True, nogil=True)
def reduce_by_terms(words, degree, exponents, chunk):  # pragma: no cover - compiled
    """Reduce ``words`` (a polynomial) modulo ``x^degree + sum x^e`` (``exponents``: every e < degree), in place.

    Bits from ``degree`` up are folded ``chunk`` at a time from the top:
    ``x^(degree + j) = sum x^(e + j)``; ``chunk <= degree - max(exponents)``
    (and <= 64), so a fold never lands in the chunk it empties. The cost is
    one pass of the high bits per term: fast for sparse moduli (MT19937's has 135 terms).
    """
    top = top_bit(words, words.size - 1)
    while top >= degree:
        position = max(degree, top - chunk + 1)
        value = read_bits(words, position, top - position + 1)
        xor_bits(words, position, value)
        for exponent in exponents:
            xor_bits(words, position - degree + exponent, value)
        top = top_bit(words, position // 64)


@njit(cache=True, nogil=True)
def square_into(words, out):  # pragma: no cover - compiled
    """``out = words^2`` over GF(2): bit i moves to bit 2i (``out`` twice as long, cleared here)."""
    out[:] = _ZERO
    for index in range(words.size):
        word = words[index]
        low, high = _ZERO, _ZERO
        for bit in range(32):
            low |= ((word >> np.uint64(bit)) & _ONE) << np.uint64(2 * bit)
            high |= ((word >> np.uint64(bit + 32)) & _ONE) << np.uint64(2 * bit)
        out[2 * index] = low
        out[2 * index + 1] = high


@njit(cache=True, nogil=True)
def frobenius(words, degree, exponents, chunk, times):  # pragma: no cover - compiled
    """Square the residue ``words`` modulo ``x^degree + sum x^e`` ``times`` times: ``a^(2^times)``, in place."""
    wide = np.zeros(2 * words.size, dtype=np.uint64)
    for _ in range(times):
        square_into(words, wide)
        reduce_by_terms(wide, degree, exponents, chunk)
        words[:] = wide[:words.size]


@njit(cache=True, nogil=True)
def rank_of_rows(rows, columns):  # pragma: no cover - compiled
    """The rank of a GF(2) matrix, rows packed in uint64 words; Gaussian elimination in place."""
    rank = 0
    for column in range(columns):
        index, bit = column // 64, np.uint64(column % 64)
        pivot = -1
        for row in range(rank, rows.shape[0]):
            if (rows[row, index] >> bit) & _ONE:
                pivot = row
                break
        if pivot < 0:
            continue
        if pivot != rank:
            for w in range(rows.shape[1]):
                rows[pivot, w], rows[rank, w] = rows[rank, w], rows[pivot, w]
        for row in range(rank + 1, rows.shape[0]):
            if (rows[row, index] >> bit) & _ONE:
                for w in range(index, rows.shape[1]):
                    rows[row, w] ^= rows[rank, w]
        rank += 1
        if rank == rows.shape[0]:
            break
    return rank


@njit(cache=True, nogil=True)
def add_shifted_row(rows, target, source, shift, source_top):  # pragma: no cover - compiled
    """``rows[target] ^= rows[source] << shift`` (bits of the source up to ``source_top``)."""
    word_shift, bit_shift = shift // 64, shift % 64
    for index in range(source_top // 64 + 1):
        word = rows[source, index]
        if word:
            rows[target, index + word_shift] ^= word << np.uint64(bit_shift)
            if bit_shift:
                rows[target, index + word_shift + 1] ^= word >> np.uint64(64 - bit_shift)


@njit(cache=True, nogil=True)
def weak_popov(rows, tops, dimension):  # pragma: no cover - compiled
    """Bring a basis of a lattice in GF(2)[z]^dimension to weak Popov form (Mulders and Storjohann), in place.

    Each row is its vector ``(c_0, ..., c_{d-1})`` interleaved: coefficient
    ``z^i`` of ``c_j`` is bit ``i d + j``, so the row's degree is
    ``top // d`` and its pivot (the last component of that degree)
    ``top % d``. While two rows share a pivot, the one of higher top bit
    loses it: ``r += z^(deg r - deg s) s`` is one shifted XOR. Rows are
    nonzero (a basis); ``tops`` holds their top bits and is kept.
    """
    owner = np.full(dimension, -1, dtype=np.int64)
    for start in range(rows.shape[0]):
        active = start
        while True:
            pivot = tops[active] % dimension
            other = owner[pivot]
            if other < 0:
                owner[pivot] = active
                break
            if tops[other] > tops[active]:
                owner[pivot] = active
                active, other = other, active
            add_shifted_row(rows, active, other, tops[active] - tops[other], tops[other])
            tops[active] = top_bit(rows[active], tops[active] // 64)


@njit(cache=True, nogil=True)
def interleave(row, top, dimension, out):  # pragma: no cover - compiled
    """Rewrite an interleaved row of ``dimension`` components for ``dimension + 1`` (the new component zero)."""
    out[:] = _ZERO
    for position in range(top + 1):
        if (row[position // 64] >> np.uint64(position % 64)) & _ONE:
            moved = (position // dimension) * (dimension + 1) + position % dimension
            out[moved // 64] |= _ONE << np.uint64(moved % 64)
