"""Marsaglia's binary matrix rank test: ranks over GF(2) of many random bit matrices at once."""

from __future__ import annotations

import numba
import numpy as np

from ...generators.base import Source
from ...stream import BitSelection, field_chunks
from .base import EmpiricalResult, chi_square, gateway_params, register, require
from .hamming import merge_sparse_tails


def rank_probabilities(rows: int, columns: int) -> np.ndarray:
    """Probabilities ``P(rank = r)``, ``r = 0 .. min(rows, columns)``, of a uniform random GF(2) matrix.

    ``P(r) = 2^(r(m + n - r) - mn) prod_{i<r} (1 - 2^(i-m)) (1 - 2^(i-n)) / (1 - 2^(i-r))``
    (G. Marsaglia, L. H. Tsay, Linear Algebra Appl. 67, 1985). For 32 x 32:
    0.2888 (rank 32), 0.5776 (31), 0.1284 (30).
    """
    ranks = np.arange(min(rows, columns) + 1)
    logs = np.empty(len(ranks))
    for r in ranks:
        i = np.arange(r)
        terms = np.log2(1 - 2.0 ** (i - rows)) + np.log2(1 - 2.0 ** (i - columns)) - np.log2(1 - 2.0 ** (i - r))
        logs[r] = r * (rows + columns - r) - rows * columns + terms.sum()
    return 2.0**logs


@numba.njit(cache=True, nogil=True)
def gf2_ranks(matrices, columns):  # pragma: no cover - compiled
    """Ranks over GF(2) of a stack of matrices whose rows are uint64 bit masks, shape ``(count, rows)``.

    Gaussian elimination, one matrix at a time on a copy of its rows: for each
    column, from the most significant, the first row at or below the current
    rank that holds the column's bit becomes the pivot and is swapped up; it
    is XORed into every row below it that holds the bit (branch-free, and
    on a view starting at zero, which lets the compiler vectorise the loop).
    The rank is the number of pivots found. About ``rows * columns / 2``
    word operations per matrix, about ten times faster than numpy's
    column-at-a-time elimination over all matrices at once (which touches
    every row of every matrix for every column). Only the low ``columns``
    bits of each row count.
    """
    count, rows = matrices.shape
    ranks = np.empty(count, dtype=np.int64)
    work = np.empty(rows, dtype=np.uint64)
    one = np.uint64(1)
    for m in range(count):
        work[:] = matrices[m]
        rank = 0
        for column in range(columns - 1, -1, -1):
            shift = np.uint64(column)
            pivot = rank
            while pivot < rows and not (work[pivot] >> shift) & one:
                pivot += 1
            if pivot == rows:
                continue
            row = work[pivot]
            work[pivot] = work[rank]
            work[rank] = row
            below = work[rank + 1:]
            for i in range(below.size):
                below[i] ^= row & (np.uint64(0) - ((below[i] >> shift) & one))
            rank += 1
            if rank == rows:
                break
        ranks[m] = rank
    return ranks


@register("matrix-rank")
def matrix_rank(source: Source, n: int, *, rows: int = 32, columns: int = 32,
                selection: BitSelection = BitSelection()) -> EmpiricalResult:
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
    require(1 <= columns <= 64, f"columns must be in [1, 64] (one uint64 per row); got {columns}")
    require(rows >= 1, f"rows must be >= 1; got {rows}")
    require(n >= 1, f"n must be >= 1; got {n}")
    observed = np.zeros(min(rows, columns) + 1, dtype=np.int64)
    for fields in field_chunks(source, n * rows, columns, selection, multiple=rows):  # memory bounded in n
        observed += np.bincount(gf2_ranks(fields.reshape(-1, rows), columns), minlength=observed.size)
    expected = n * rank_probabilities(rows, columns)
    merged_observed, merged_expected, labels = merge_sparse_tails(observed, expected)
    require(len(labels) >= 2, f"matrix-rank needs n large enough for two rank classes with >= 5 expected; got n = {n}")
    statistic, pvalue, df = chi_square(merged_observed, merged_expected)
    return EmpiricalResult("matrix-rank", statistic, pvalue,
                           gateway_params(n, selection, rows=rows, columns=columns),
                           {"df": df, "rank_classes": labels, "observed": merged_observed, "expected": merged_expected})
