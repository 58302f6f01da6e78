"""Compiled kernels (numba) of state recovery over GF(2) (:mod:`rnglab.recovery.linear`).

A linear form over ``k`` unknown bits is a row of ``ceil(k / 64)`` uint64
words, unknown ``i`` at bit ``i mod 64`` of word ``i // 64``. All constants
are ``np.uint64`` (numba turns mixed uint64 and int64 arithmetic into float64).
"""

from __future__ import annotations

import numpy as np

from rnglab.algebra.gf2_kernels import trailing_zeros
from rnglab.core.compiled import njit

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True, nogil=True, inline="always")
def lowest_bit(word):  # pragma: no cover - compiled
    """Index of the lowest set bit of a non-zero word (an int64, for index arithmetic)."""
    return np.int64(trailing_zeros(word))


@njit(cache=True, nogil=True, inline="always")
def parity(word):  # pragma: no cover - compiled
    """XOR of the bits of ``word``."""
    word ^= word >> np.uint64(32)
    word ^= word >> np.uint64(16)
    word ^= word >> np.uint64(8)
    word ^= word >> np.uint64(4)
    word ^= word >> np.uint64(2)
    word ^= word >> _ONE
    return word & _ONE


@njit(cache=True, nogil=True)
def transpose_outputs(outputs, first, width, forms):  # pragma: no cover - compiled
    """``forms[t, b]`` gets bit ``first + j`` when bit ``b`` of ``outputs[j, t]`` is set (outputs from unit states).

    ``outputs`` is ``(units, count)``: row ``j`` the outputs from the unit state
    ``e_(first + j)``; ``forms`` is ``(count, width, words)``, cleared by the caller.
    """
    for j in range(outputs.shape[0]):
        word, bit = (first + j) // 64, _ONE << np.uint64((first + j) % 64)
        for t in range(outputs.shape[1]):
            value = outputs[j, t]
            while value:
                b = lowest_bit(value)
                if b < width:
                    forms[t, b, word] |= bit
                value &= value - _ONE


@njit(cache=True, nogil=True, inline="always")
def reduce_locally(value, right, w, pivot_rows, pivot_rhs, pivot_mask):  # pragma: no cover - compiled
    """``(value, right)`` (word ``w`` of a row, its right-hand side) with the word's local pivots removed."""
    hits = value & pivot_mask[w]
    while hits:
        p = lowest_bit(hits)
        value ^= pivot_rows[w, p]
        right ^= pivot_rhs[w, p]
        hits &= hits - _ONE
    return value, right


@njit(cache=True, nogil=True)
def local_elimination(rows, rhs, words, pivot_rows, pivot_rhs, pivot_mask):  # pragma: no cover - compiled
    """Reduce equations confined to one word of unknowns (``words[i]``: the word of row ``i``) word by word.

    Each word keeps its pivots reduced (a pivot's bit appears in no other pivot
    row of the word): ``pivot_rows[w, p]`` the row of pivot bit ``p`` (within
    word ``w``), ``pivot_rhs[w, p]`` its right-hand side, ``pivot_mask[w]`` the
    pivot bits. Returns the number of contradictions (an equation ``0 = 1``).
    """
    contradictions = 0
    for i in range(rows.size):
        w = words[i]
        value, right = reduce_locally(rows[i], rhs[i], w, pivot_rows, pivot_rhs, pivot_mask)
        if value == _ZERO:
            contradictions += right
            continue
        p = lowest_bit(value)
        others = pivot_mask[w]
        while others:
            q = lowest_bit(others)
            if (pivot_rows[w, q] >> np.uint64(p)) & _ONE:
                pivot_rows[w, q] ^= value
                pivot_rhs[w, q] ^= right
            others &= others - _ONE
        pivot_rows[w, p], pivot_rhs[w, p] = value, right
        pivot_mask[w] |= _ONE << np.uint64(p)
    return contradictions


@njit(cache=True, nogil=True)
def compact_rows(rows, rhs, pivot_rows, pivot_rhs, pivot_mask, free_index, out, out_rhs):  # pragma: no cover - compiled
    """Rows reduced by the local pivots, then written over the free unknowns only.

    ``free_index[j]``: the compact index of free unknown ``j`` (-1 for a local
    pivot). Row ``i`` of ``out`` (cleared by the caller) and ``out_rhs[i]`` get
    the reduced equation.
    """
    for i in range(rows.shape[0]):
        right = rhs[i]
        for w in range(rows.shape[1]):
            value, right = reduce_locally(rows[i, w], right, w, pivot_rows, pivot_rhs, pivot_mask)
            while value:
                c = free_index[64 * w + lowest_bit(value)]
                out[i, c // 64] |= _ONE << np.uint64(c % 64)
                value &= value - _ONE
        out_rhs[i] = right


@njit(cache=True, nogil=True, inline="always")
def insert_row(row, right, pivots, pivot_rhs, has_pivot):  # pragma: no cover - compiled
    """Reduce the equation ``(row, right)`` (``row`` changed in place) by the pivots of its unknowns, lowest
    first, up to the first unknown without one, which gets the reduced row as its pivot. Returns ``(pivot,
    right)``: that unknown (-1 when the row reduced to nothing: ``right`` 1 is then a contradiction ``0 = 1``)
    and the reduced right-hand side."""
    width = row.shape[0]
    for w in range(width):
        while row[w]:
            c = 64 * w + lowest_bit(row[w])
            if not has_pivot[c]:
                for v in range(width):
                    pivots[c, v] = row[v]
                pivot_rhs[c] = right
                has_pivot[c] = True
                return c, right
            for v in range(w, width):
                row[v] ^= pivots[c, v]
            right ^= pivot_rhs[c]
    return -1, right


@njit(cache=True, nogil=True)
def echelon(rows, rhs, columns, pivots, pivot_rhs, has_pivot):  # pragma: no cover - compiled
    """Insert each equation into an echelon form (pivot: the row's lowest unknown; pivot rows only above it).

    ``pivots[c]`` is the row whose lowest unknown is ``c`` (when
    ``has_pivot[c]``). Stops once every unknown has a pivot. Returns
    ``(rank, contradictions, rows used)``.
    """
    rank, contradictions = 0, 0
    for c in range(columns):
        rank += has_pivot[c]
    row = np.empty(rows.shape[1], dtype=np.uint64)
    used = 0
    for i in range(rows.shape[0]):
        if rank == columns:
            break
        used += 1
        row[:] = rows[i]
        pivot, right = insert_row(row, rhs[i], pivots, pivot_rhs, has_pivot)
        if pivot < 0:
            contradictions += right
            continue
        rank += 1
    return rank, contradictions, used


@njit(cache=True, nogil=True)
def no_state_fits(rows, rhs, columns, forms, engine, low, high, most_free, out):  # pragma: no cover - compiled
    """``out[s]``: whether no state ``x`` of ``columns`` unknowns gives system ``s``: the equations
    ``rows[s, i] . x = rhs[i]`` (``rows``: ``(systems, equations, words)``) and, for each ``d``, an output
    ``engine[s, d]`` in ``[low[d], high[d]]`` (bit ``b`` of output ``t``: ``forms[t, b] . x``).

    Every equation is reduced, also past full rank (:func:`echelon` stops there): a combination ``0 = 1`` refutes
    the system. Otherwise, with at most ``most_free`` unknowns free, every solution of the equations is tried
    against the intervals, in order (a wrong state leaves one within a few); with more, the system is not
    decided here (``out[s]`` False)."""
    words, width = rows.shape[2], forms.shape[1]
    pivots = np.empty((columns, words), dtype=np.uint64)
    pivot_rhs = np.empty(columns, dtype=np.uint64)
    has_pivot = np.empty(columns, dtype=np.bool_)
    row = np.empty(words, dtype=np.uint64)
    x = np.empty(words, dtype=np.uint64)
    free_values = np.empty(columns, dtype=np.bool_)
    free = np.empty(columns, dtype=np.int64)
    for s in range(rows.shape[0]):
        has_pivot[:] = False
        out[s], rank = False, 0
        for i in range(rows.shape[1]):
            for v in range(words):
                row[v] = rows[s, i, v]
            pivot, right = insert_row(row, rhs[i], pivots, pivot_rhs, has_pivot)
            rank += pivot >= 0
            if pivot < 0 and right:
                out[s] = True
                break
        if out[s] or columns - rank > most_free:
            continue
        nullity = 0
        for c in range(columns):
            if not has_pivot[c]:
                free[nullity] = c
                nullity += 1
        fits = False
        for choice in range(1 << nullity):
            free_values[:] = False
            for k in range(nullity):
                free_values[free[k]] = (choice >> k) & 1
            x[:] = _ZERO
            back_substitute(pivots, pivot_rhs, has_pivot, columns, free_values, _ONE, x)
            fits = True
            for d in range(engine.shape[1]):
                output = _ZERO
                for b in range(width):
                    bit = _ZERO
                    for w in range(words):
                        bit ^= forms[engine[s, d], b, w] & x[w]
                    output |= parity(bit) << np.uint64(b)
                if output < low[d] or output > high[d]:
                    fits = False
                    break
            if fits:
                break
        out[s] = not fits


@njit(cache=True, nogil=True)
def back_substitute(pivots, pivot_rhs, has_pivot, columns, free_values, use_rhs, x):  # pragma: no cover - compiled
    """The solution ``x`` (packed, cleared by the caller) with the free unknowns set from ``free_values``.

    Pivot unknowns from the highest down: ``x_c = rhs_c + sum`` of the pivot
    row's other unknowns (``use_rhs`` 0: the homogeneous system, for the null space).
    """
    for c in range(columns - 1, -1, -1):
        if not has_pivot[c]:
            if free_values[c]:
                x[c // 64] |= _ONE << np.uint64(c % 64)
            continue
        total = pivot_rhs[c] & use_rhs
        for w in range(c // 64, x.size):
            total ^= parity(pivots[c, w] & x[w])
        if total:
            x[c // 64] |= _ONE << np.uint64(c % 64)


@njit(cache=True, nogil=True)
def expand(compact, free_columns, pivot_rows, pivot_rhs, pivot_mask, use_rhs, x):  # pragma: no cover - compiled
    """The full solution from the free unknowns' values ``compact``: local pivots solved word by word.

    ``free_columns[c]`` is the unknown of compact index ``c``; ``x`` (cleared by the caller) gets every unknown.
    """
    for c in range(free_columns.size):
        if (compact[c // 64] >> np.uint64(c % 64)) & _ONE:
            j = free_columns[c]
            x[j // 64] |= _ONE << np.uint64(j % 64)
    for w in range(x.size):
        mask = pivot_mask[w]
        free = x[w]
        while mask:
            p = lowest_bit(mask)
            bit = (pivot_rhs[w, p] & use_rhs) ^ parity(pivot_rows[w, p] & free & ~(_ONE << np.uint64(p)))
            x[w] |= bit << np.uint64(p)
            mask &= mask - _ONE


@njit(cache=True, nogil=True)
def row_spans(rows, first, last):  # pragma: no cover - compiled
    """``first[i]``, ``last[i]``: the first and last non-zero word of row ``i`` (-1, -1 for a zero row)."""
    for i in range(rows.shape[0]):
        first[i], last[i] = -1, -1
        for w in range(rows.shape[1]):
            if rows[i, w]:
                if first[i] < 0:
                    first[i] = w
                last[i] = w
