"""Independence of the Hamming weights of successive blocks (L'Ecuyer and Simard's HammingIndep)."""

from __future__ import annotations

import numpy as np

from rnglab.algebra.gf2_kernels import popcount
from rnglab.core.compiled import njit
from rnglab.core.laws import binom_pmf
from rnglab.empirical.stattests.base import EmpiricalResult, Tally, chi_square, gateway_params, register, require
from rnglab.generators.base import Source
from rnglab.streams.gateway import BitReader, selection_of

#: Fields read per chunk (whole pairs of blocks): 4 MiB of them.
CHUNK_FIELDS = 2**19


def pair_classes(expected: np.ndarray, minimum: float) -> tuple[np.ndarray, np.ndarray]:
    """TestU01's classes for a table of pairs: each cell expecting ``>= minimum`` alone, the rest pooled.

    The pooled cells form one more class when together they expect
    ``>= minimum``, and otherwise join the last full cell (in row-major
    order); if no cell is full, the table is split into two halves by its
    second coordinate (``j <= L/2`` and ``j > L/2``), as ``sstring_HammingIndep``
    does.

    Returns
    -------
    labels : numpy.ndarray of int
        The class of each cell, same shape as ``expected``.
    class_expected : numpy.ndarray
        The expected count of each class.
    """
    full = (expected >= minimum).ravel()
    labels = np.cumsum(full) - 1
    classes = int(full.sum())
    pooled = float(expected.ravel()[~full].sum())
    if classes == 0:
        columns = np.indices(expected.shape)[1].ravel()
        labels = (columns > (expected.shape[1] - 1) // 2).astype(np.int64)
    else:
        labels[~full] = classes if pooled >= minimum else classes - 1
    labels = labels.reshape(expected.shape)
    return labels, np.bincount(labels.ravel(), weights=expected.ravel())


@njit(cache=True, nogil=True)
def add_pair_weights(fields, per, table):  # pragma: no cover - compiled
    """``table[X, Y] += 1`` for the weights ``X, Y`` of each pair of successive blocks of ``fields``, ``per`` fields
    a block (``fields`` holds whole pairs)."""
    for start in range(0, fields.size, 2 * per):
        first, second = 0, 0
        for j in range(per):
            first += popcount(fields[start + j])
            second += popcount(fields[start + per + j])
        table[first, second] += 1


class HammingIndependenceTally(Tally):
    """The table of the pairs of weights of the blocks, carried on (:func:`hamming_independence`).

    The blocks are read as fields of ``f`` bits, the largest divisor of
    ``L`` up to 64 (60 for ``L = 300``), whose population counts add up to a
    block's weight; a field that straddles two reads waits in a
    :class:`~rnglab.streams.gateway.BitReader`. The whole ``(L+1) x (L+1)`` table
    is kept, since the classes depend on ``n`` (:func:`pair_classes`).
    """

    def __init__(self, source: Source, *, block_bits: int = 300) -> None:
        super().__init__()
        require(1 <= block_bits <= 4096, f"block_bits must be in [1, 4096]; got {block_bits}")
        self.block_bits, self.selection = block_bits, selection_of(source)
        field_bits = max(f for f in range(1, 65) if block_bits % f == 0)
        self.field_bits, self.per, self.reader = field_bits, block_bits // field_bits, BitReader()
        self.table = np.zeros((block_bits + 1, block_bits + 1), dtype=np.int64)
        pmf = binom_pmf(np.arange(block_bits + 1), block_bits, 0.5)
        self.law, self.last = np.outer(pmf, pmf), (0, None, None)

    def classes(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The class of each cell of the table and the expected count of each class, for ``n`` pairs (kept for
        the last ``n``: :meth:`check` then :meth:`result` ask for the same)."""
        if self.last[0] != n:
            self.last = (n, *pair_classes(n * self.law, 10.0))
        return self.last[1:]

    def check(self, n: int) -> None:
        require(n >= 20, f"hamming-independence needs n >= 20 pairs; got {n}")
        require(self.classes(n)[1].size >= 2, f"hamming-independence needs two classes; got n = {n}")

    def _read(self, source: Source, count: int) -> None:
        pair = 2 * self.per
        for fields in self.reader.chunks(source, count * pair, self.field_bits, chunk_fields=CHUNK_FIELDS,
                                         multiple=pair):
            add_pair_weights(fields, self.per, self.table)

    def result(self) -> EmpiricalResult:
        labels, expected = self.classes(self.samples)
        observed = np.zeros(expected.size, dtype=np.int64)
        np.add.at(observed, labels.ravel(), self.table.ravel())
        statistic, pvalue, df = chi_square(observed, expected)
        return EmpiricalResult("hamming-independence", statistic, pvalue,
                               gateway_params(self.samples, self.selection, block_bits=self.block_bits),
                               {"df": df, "observed": observed, "expected": expected})


@register("hamming-independence", HammingIndependenceTally)
def hamming_independence(source: Source, n: int, *, block_bits: int = 300) -> EmpiricalResult:
    """Chi-square of the pairs of Hamming weights of ``n`` non-overlapping pairs of successive blocks.

    The bit stream is cut into ``2n`` blocks of ``L = block_bits`` bits with
    weights ``X_1, ..., X_2n``; under the null hypothesis the pairs
    ``(X_(2j-1), X_(2j))`` are independent with Binomial(L, 1/2) coordinates, so
    the ``(L+1)^2`` cells of the table of pairs expect ``n b_i b_j``. Cells
    expecting 10 or more are classes of their own and the others are pooled
    (:func:`pair_classes`, TestU01's rule); Pearson's ``X^2`` over the classes
    is asymptotically chi-square with (classes - 1) degrees of freedom.

    SmallCrush runs it with ``n = 500,000``, ``L = 300``, on bits 21 to 30 of
    each 32-bit output (``r = 20``, ``s = 10``: ``BitSelection(drop=20,
    keep=10)``), where the statistic equals TestU01's: when the ``s`` bits per
    output do not divide ``L``, TestU01 drops the unused bits of a block's last
    output and rnglab does not.

    Parameters
    ----------
    source : Source
    n : int
        Number of pairs of blocks (``2 n L`` bits are read); at least 20.
    block_bits : int
        ``L``, the bits per block.

    References
    ----------
    P. L'Ecuyer, R. Simard, "Beware of linear congruential generators with
    multipliers of the form a = +-2^q +-2^r", ACM TOMS 25(3), 1999 (the test);
    TestU01 user guide, sstring_HammingIndep (the parameter ``d = 0`` case)
    and bbattery_SmallCrush.
    """
    return HammingIndependenceTally(source, block_bits=block_bits).extend(source, n).result()
