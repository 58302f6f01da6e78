"""Marsaglia's binary matrix rank test: ranks over GF(2) of many random bit matrices at once."""

from __future__ import annotations

import functools

import numpy as np

from rnglab.core.compiled import njit
from rnglab.empirical.stattests.base import EmpiricalResult, register, require
from rnglab.empirical.stattests.hamming import MergedTally
from rnglab.generators.base import Source
from rnglab.streams.gateway import BitReader, genuine_bits, selection_of


@functools.lru_cache(maxsize=64)
def rank_probabilities(rows: int, columns: int) -> np.ndarray:
    """Probabilities ``P(rank = r)``, ``r = 0 .. min(rows, columns)``, of a uniform random GF(2) matrix.

    ``P(r) = 2^(r(m + n - r) - mn) prod_{i<r} (1 - 2^(i-m)) (1 - 2^(i-n)) / (1 - 2^(i-r))``
    for ``m`` rows and ``n`` columns, any sizes (G. Marsaglia, L. H. Tsay,
    Linear Algebra Appl. 67, 1985): the number of ``m x n`` matrices of rank
    ``r`` over GF(2), ``prod_{i<r} (2^m - 2^i) (2^n - 2^i) / (2^r - 2^i)``
    (G. Landsberg, J. reine angew. Math. 111, 1893), over ``2^(mn)``. For 32 x 32:
    0.2888 (rank 32), 0.5776 (31), 0.1284 (30). Cached (read-only): a run until failure asks at every stage.
    """
    ranks = np.arange(min(rows, columns) + 1)
    logs = np.empty(len(ranks))
    for r in ranks:
        i = np.arange(r)
        terms = np.log2(1 - 2.0 ** (i - rows)) + np.log2(1 - 2.0 ** (i - columns)) - np.log2(1 - 2.0 ** (i - r))
        logs[r] = r * (rows + columns - r) - rows * columns + terms.sum()
    probabilities = 2.0**logs
    probabilities.flags.writeable = False
    return probabilities


#: Rows per chunk of the stream: the rows (8 bytes each) stay in the processor's cache. At 2^16 (1 MiB of rows from
#: 2 MiB of words) glibc gave the freed memory back to the system after each read and the next read faulted it in
#: again: 147,000 minor page faults, 0.3 CPU s of the 0.9 the 64 x 64 entry took alone on 256 MiB; at 2^15, 60.
CHUNK_ROWS = 2**15

#: The most rows or columns of a matrix: one matrix then holds up to 2^28 bits (32 MiB), and its law
#: (:func:`rank_probabilities`) takes a fraction of a second.
MAX_SIDE = 2**14

#: Bits a row of one uint64 holds: wider rows take :func:`wide_gf2_ranks`.
WORD_BITS = 64


#: Rows eliminated together (:func:`eliminate_group`, :func:`clear_below`): four pivots held in registers, which
#: :func:`clear_below` names one by one (another size needs its pivots named again). Of 2, 4 and 8, four is the
#: fastest: 0.26 microseconds a 64 x 64 matrix against 0.61 and 0.30 (eight rows' elimination inside the group,
#: a scalar chain of 28 steps, cost more than the passes over the rows below that it saved).
GROUP = 4


@njit(cache=True, nogil=True, inline="always")
def cleared(row, pivot_row, pivot_bit):  # pragma: no cover - compiled
    """``row`` XOR ``pivot_row`` when ``row`` holds ``pivot_bit`` (the pivot row's lowest set bit), else ``row``:
    the bit cleared without a branch (a zero pivot row clears nothing)."""
    zero = np.uint64(0)
    return row ^ (pivot_row & (zero - np.uint64((row & pivot_bit) != zero)))


@njit(cache=True, nogil=True, inline="always")
def lowest_bit(word):  # pragma: no cover - compiled
    """The lowest set bit of a uint64, ``w & -w`` (0 for 0)."""
    return word & (np.uint64(0) - word)


@njit(cache=True, nogil=True, inline="always")
def eliminate_group(group):  # pragma: no cover - compiled
    """Gaussian elimination inside :data:`GROUP` rows (in place); return the number of pivots, their non-zero rows.

    Each row in turn is a pivot or zero; its lowest set bit is cleared from
    the rows after it in the group (:func:`cleared`), so that no later row
    holds an earlier pivot's bit: the pivots are independent. The bounds are
    constants: the compiler unrolls both loops, without a branch.
    """
    pivots = 0
    for i in range(GROUP):
        row = group[i]
        pivots += row != np.uint64(0)
        bit = lowest_bit(row)
        for j in range(i + 1, GROUP):
            group[j] = cleared(group[j], row, bit)
    return pivots


@njit(cache=True, nogil=True, inline="always")
def clear_below(group, below):  # pragma: no cover - compiled
    """Clear the pivot bits of the :data:`GROUP` rows of ``group``, eliminated (:func:`eliminate_group`), from every
    row of ``below`` (in place).

    The pivots in the group's order: pivot ``k`` holds no bit of the pivots
    before it, so that clearing its bit leaves theirs cleared, and the row
    ends with none of the group's. Each row is loaded and stored once for the
    group's pivots, which stay in registers, rather than once a pivot; a loop
    over the pivots instead (reading them from the array the rows are
    stored into) was thirty times slower.
    """
    p0, p1, p2, p3 = group[0], group[1], group[2], group[3]
    b0, b1, b2, b3 = lowest_bit(p0), lowest_bit(p1), lowest_bit(p2), lowest_bit(p3)
    for j in range(below.size):
        below[j] = cleared(cleared(cleared(cleared(below[j], p0, b0), p1, b1), p2, b2), p3, b3)


@njit(cache=True, nogil=True)
def gf2_ranks(matrices, columns):  # pragma: no cover - compiled
    """Ranks over GF(2) of a stack of matrices whose rows are uint64 bit masks, shape ``(count, rows)``.

    Gaussian elimination without pivot search or swaps, one matrix at a time
    on a copy of its rows (their low ``columns`` bits: only those count),
    padded with zero rows to whole groups of :data:`GROUP`: each row, in
    turn, is either zero (a combination of the rows before it) or a pivot,
    whose lowest set bit is then cleared from every row below it (XORing the
    pivot into those that hold the bit), so that the pivots are independent
    and the rank is their number. The rows are eliminated a group at a time:
    inside the group (:func:`eliminate_group`, unrolled in registers), then
    the group's pivots cleared from the rows below at once
    (:func:`clear_below`, a loop over the rows in vector registers, each row
    read and written once per group rather than once per pivot). On this
    project's machine (numba 0.68, an AVX-512 Xeon, 256-bit vectors) 0.26
    microseconds a 64 x 64 matrix and 0.10 to 0.12 a 32 x 32, where clearing
    each pivot from the rows below in turn took 0.41 and 0.18 to 0.21 (best
    of 7, alternating). Two matrices eliminated side by side (groups of
    eight), for the processor to overlap their chains of dependent steps,
    were no faster.
    """
    count, rows = matrices.shape
    ranks = np.empty(count, dtype=np.int64)
    work = np.zeros(-(-rows // GROUP) * GROUP, dtype=np.uint64)  # the padding rows stay zero: never pivots
    kept = ~np.uint64(0) >> np.uint64(64 - columns)
    for m in range(count):
        for i in range(rows):
            work[i] = matrices[m, i] & kept
        rank = 0
        for start in range(0, work.size, GROUP):
            group = work[start:start + GROUP]
            rank += eliminate_group(group)
            clear_below(group, work[start + GROUP:])
        ranks[m] = rank
    return ranks


@njit(cache=True, nogil=True, inline="always")
def bits_at(packed, position):  # pragma: no cover - compiled
    """The 64 bits of the bit string ``packed`` (uint64 words, the first bit the first word's most significant)
    from bit ``position`` on, the first most significant; bits past the string's end read as 0."""
    index, shift = position >> 6, np.uint64(position & 63)
    word = packed[index] << shift
    if shift and index + 1 < packed.size:
        word |= packed[index + 1] >> (np.uint64(64) - shift)
    return word


@njit(cache=True, nogil=True)
def cut_rows(packed, count, rows, columns):  # pragma: no cover - compiled
    """The ``count`` matrices of ``rows x columns`` bits that fill the bit string ``packed`` row by row
    (:meth:`~rnglab.streams.gateway.BitReader.packed`), shape ``(count, rows, ceil(columns / 64))``.

    Column ``c`` of a row is bit ``63 - c mod 64`` of its word ``c // 64``
    (the row's bits in the string's order); the last word's bits past the
    last column are zero.
    """
    words = -(-columns // WORD_BITS)
    matrices = np.empty((count, rows, words), dtype=np.uint64)
    last = ~np.uint64(0) << np.uint64(WORD_BITS * words - columns)
    for m in range(count):
        for i in range(rows):
            start = (m * rows + i) * columns
            for w in range(words):
                matrices[m, i, w] = bits_at(packed, start + WORD_BITS * w)
            matrices[m, i, words - 1] &= last
    return matrices


@njit(cache=True, nogil=True, inline="always")
def pivot_masks(pivot_words, bit, masks):  # pragma: no cover - compiled
    """``masks[j]``: all ones where ``pivot_words[j]`` holds ``bit``, else 0 (which rows the pivot clears)."""
    zero = np.uint64(0)
    for j in range(pivot_words.size):
        masks[j] = zero - np.uint64((pivot_words[j] & bit) != zero)


@njit(cache=True, nogil=True, inline="always")
def xor_masked(targets, word, masks):  # pragma: no cover - compiled
    """``targets[j] ^= word & masks[j]`` for every ``j``: one word of the pivot row XORed into the rows it clears.

    The loop starts at 0 (the callers pass slices): with a start that might
    be negative numba wraps each index, and the loop was five times slower
    (not vectorised).
    """
    for j in range(targets.size):
        targets[j] ^= word & masks[j]


@njit(cache=True, nogil=True)
def eliminate_wide(work, masks):  # pragma: no cover - compiled
    """The rank of the matrix whose row ``i`` is ``work[:, i]`` (``work[w]`` holds word ``w`` of every row);
    Gaussian elimination in place (``masks``: room for one word a row).

    As :func:`gf2_ranks`, without pivot search or swaps: each row in turn is
    zero or a pivot, whose lowest set bit (in its first non-zero word ``k``)
    is cleared from every row below it by XORing the pivot's words ``k`` and
    after (those before ``k`` are zero) into the rows that hold the bit. The
    words of one index lie together, so that each pass over the rows below
    (:func:`pivot_masks`, then :func:`xor_masked` per word) is a loop in
    vector registers.
    """
    words, rows = work.shape
    rank = 0
    for i in range(rows):
        k = 0
        while k < words and work[k, i] == np.uint64(0):
            k += 1
        if k == words:
            continue
        rank += 1
        below = masks[i + 1:]
        pivot_masks(work[k, i + 1:], lowest_bit(work[k, i]), below)
        for w in range(k, words):
            xor_masked(work[w, i + 1:], work[w, i], below)
    return rank


@njit(cache=True, nogil=True)
def wide_gf2_ranks(matrices):  # pragma: no cover - compiled
    """Ranks over GF(2) of a stack of matrices whose rows are several uint64 words, shape
    ``(count, rows, words)`` (:func:`cut_rows`); not modified.

    Each matrix is copied word-major (:func:`eliminate_wide`). On this
    project's machine (numba 0.68, shared) about 8 microseconds a 128 x 128
    matrix, 100 a 384 x 384 and 250 a 512 x 512 (best of 5): about
    ``m^2 / 2 (w / 3 + 1)`` word operations for ``m`` rows of ``w`` words,
    at 0.25 to 0.3 ns each. One loop over the words of each row below (rows
    stored row-major) was six times slower, the rows' words being too few to
    fill a vector.
    """
    count, rows, words = matrices.shape
    ranks = np.empty(count, dtype=np.int64)
    work, masks = np.empty((words, rows), dtype=np.uint64), np.empty(rows, dtype=np.uint64)
    for m in range(count):
        for i in range(rows):
            for w in range(words):
                work[w, i] = matrices[m, i, w]
        ranks[m] = eliminate_wide(work, masks)
    return ranks


class MatrixRankTally(MergedTally):
    """The counts of the ranks of the matrix-rank test's matrices, carried on (:func:`matrix_rank`); a row
    that straddles two reads waits in a :class:`~rnglab.streams.gateway.BitReader`."""

    name, classes = "matrix-rank", "rank_classes"

    def __init__(self, source: Source, *, rows: int = 32, columns: int = 32) -> None:
        super().__init__()
        require(1 <= columns <= MAX_SIDE, f"columns must be in [1, {MAX_SIDE}]; got {columns}")
        require(1 <= rows <= MAX_SIDE, f"rows must be in [1, {MAX_SIDE}]; got {rows}")
        self.rows, self.columns, self.selection = rows, columns, selection_of(source)
        self.reader, self.observed = BitReader(), np.zeros(min(rows, columns) + 1, dtype=np.int64)
        self.law = rank_probabilities(rows, columns)

    def options(self) -> dict:
        return {"rows": self.rows, "columns": self.columns}

    def _read(self, source: Source, count: int) -> None:
        rows, columns = self.rows, self.columns
        if columns > WORD_BITS:
            self._read_wide(source, count)
            return
        for fields in self.reader.chunks(source, count * rows, columns, chunk_fields=CHUNK_ROWS, multiple=rows):
            self.observed += np.bincount(gf2_ranks(fields.reshape(-1, rows), columns), minlength=self.observed.size)

    def _read_wide(self, source: Source, count: int) -> None:
        """Matrices of rows wider than a word: the bits of as many whole matrices as about :data:`CHUNK_ROWS`
        outputs hold (at least one), packed (read that many outputs at a time), cut into rows
        (:func:`cut_rows`) and ranked."""
        rows, columns = self.rows, self.columns
        piece = max(WORD_BITS, CHUNK_ROWS * genuine_bits(source) // WORD_BITS * WORD_BITS)
        per_chunk = max(1, piece // (rows * columns))
        for first in range(0, count, per_chunk):
            size = min(per_chunk, count - first)
            matrices = cut_rows(self._packed(source, size * rows * columns, piece), size, rows, columns)
            self.observed += np.bincount(wide_gf2_ranks(matrices), minlength=self.observed.size)

    def _packed(self, source: Source, count: int, piece: int) -> np.ndarray:
        """The next ``count`` bits packed (:meth:`~rnglab.streams.gateway.BitReader.packed`), read ``piece`` bits
        (a multiple of 64) at a time."""
        packed = np.empty(-(-count // WORD_BITS), dtype=np.uint64)
        for start in range(0, count, piece):
            words = self.reader.packed(source, min(piece, count - start))
            packed[start // WORD_BITS:start // WORD_BITS + words.size] = words
        return packed


@register("matrix-rank", MatrixRankTally)
def matrix_rank(source: Source, n: int, *, rows: int = 32, columns: int = 32) -> EmpiricalResult:
    """Binary matrix rank test: ranks of ``n`` random ``rows x columns`` matrices over GF(2).

    Successive ``rows * columns`` bits of the bit stream fill a matrix row by
    row. The counts of each rank are compared with :func:`rank_probabilities`
    by Pearson's ``X^2``, low ranks pooled until every expected count is
    ``>= 5`` (for 32 x 32 and modest ``n``: ranks 32, 31, ``<= 30``, as in
    Diehard). ``X^2`` is asymptotically chi-square with (classes - 1)
    degrees of freedom; the p-value is its right tail. Rows of up to 64
    columns are one uint64 each (:func:`gf2_ranks`); wider ones, several
    (:func:`wide_gf2_ranks`), as in PractRand's BRank, whose matrices have
    hundreds of columns: when ``c`` of a matrix's columns hold bits that are
    linear functions of a ``k``-bit state (the low bit of xoroshiro128+,
    ``k = 128``, every other bit of its outputs piped as 32-bit words), those
    columns span at most ``k`` dimensions and the rank is at most
    ``columns - c + k``, below full rank once ``c > k``. Needs
    ``1 <= rows, columns <=`` :data:`MAX_SIDE` and ``n`` large enough for
    two classes.

    References
    ----------
    G. Marsaglia, Diehard (1995), binary rank tests; G. Marsaglia, L. H. Tsay,
    Matrices and the structure of random number sequences, Linear Algebra Appl.
    67, 1985. TestU01 smarsa_MatrixRank; NIST SP 800-22 rev. 1a, 2.5;
    C. Doty-Humphrey, PractRand 0.95, test BRank.
    """
    return MatrixRankTally(source, rows=rows, columns=columns).extend(source, n).result()
