"""Marsaglia's binary matrix rank test: ranks over GF(2) of many random bit matrices at once."""

from __future__ import annotations

import functools

import numpy as np

from rnglab.core.compiled import njit
from rnglab.empirical.stattests.base import EmpiricalResult, register, require
from rnglab.empirical.stattests.hamming import MergedTally
from rnglab.generators.base import Source
from rnglab.streams.gateway import BitReader, selection_of


@functools.lru_cache(maxsize=64)
def rank_probabilities(rows: int, columns: int) -> np.ndarray:
    """Probabilities ``P(rank = r)``, ``r = 0 .. min(rows, columns)``, of a uniform random GF(2) matrix.

    ``P(r) = 2^(r(m + n - r) - mn) prod_{i<r} (1 - 2^(i-m)) (1 - 2^(i-n)) / (1 - 2^(i-r))``
    (G. Marsaglia, L. H. Tsay, Linear Algebra Appl. 67, 1985). For 32 x 32:
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


class MatrixRankTally(MergedTally):
    """The counts of the ranks of the matrix-rank test's matrices, carried on (:func:`matrix_rank`); a row
    that straddles two reads waits in a :class:`~rnglab.streams.gateway.BitReader`."""

    name, classes = "matrix-rank", "rank_classes"

    def __init__(self, source: Source, *, rows: int = 32, columns: int = 32) -> None:
        super().__init__()
        require(1 <= columns <= 64, f"columns must be in [1, 64] (one uint64 per row); got {columns}")
        require(rows >= 1, f"rows must be >= 1; got {rows}")
        self.rows, self.columns, self.selection = rows, columns, selection_of(source)
        self.reader, self.observed = BitReader(), np.zeros(min(rows, columns) + 1, dtype=np.int64)
        self.law = rank_probabilities(rows, columns)

    def options(self) -> dict:
        return {"rows": self.rows, "columns": self.columns}

    def _read(self, source: Source, count: int) -> None:
        rows, columns = self.rows, self.columns
        for fields in self.reader.chunks(source, count * rows, columns, chunk_fields=CHUNK_ROWS, multiple=rows):
            self.observed += np.bincount(gf2_ranks(fields.reshape(-1, rows), columns), minlength=self.observed.size)


@register("matrix-rank", MatrixRankTally)
def matrix_rank(source: Source, n: int, *, rows: int = 32, columns: int = 32) -> EmpiricalResult:
    """Binary matrix rank test: ranks of ``n`` random ``rows x columns`` matrices over GF(2).

    Successive ``rows * columns`` bits of the bit stream fill a matrix row by
    row. The counts of each rank are compared with :func:`rank_probabilities`
    by Pearson's ``X^2``, low ranks pooled until every expected count is
    ``>= 5`` (for 32 x 32 and modest ``n``: ranks 32, 31, ``<= 30``, as in
    Diehard). ``X^2`` is asymptotically chi-square with (classes - 1)
    degrees of freedom; the p-value is its right tail. Needs
    ``1 <= columns <= 64`` and ``n`` large enough for two classes.

    References
    ----------
    G. Marsaglia, Diehard (1995), binary rank tests; G. Marsaglia, L. H. Tsay,
    Matrices and the structure of random number sequences, Linear Algebra Appl.
    67, 1985. TestU01 smarsa_MatrixRank; NIST SP 800-22 rev. 1a, 2.5.
    """
    return MatrixRankTally(source, rows=rows, columns=columns).extend(source, n).result()
