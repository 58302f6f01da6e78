"""Independence of the Hamming weights of successive blocks (L'Ecuyer and Simard's HammingIndep)."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ...generators.base import Source
from ...stream import BitSelection, bits, genuine_bits
from .base import EmpiricalResult, chi_square, gateway_params, register, require

#: Bits unpacked per read: the blocks of one read and their temporaries stay within a few MiB.
CHUNK_BITS = 2**22


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


def block_weights(source: Source, blocks: int, block_bits: int, selection: BitSelection):
    """Yield the Hamming weights of ``blocks`` successive blocks of ``block_bits`` bits, a chunk at a time.

    Each read takes a whole number of outputs and of pairs of blocks (a
    multiple of ``lcm(L, w) / L`` and of 2 blocks, for ``w`` selected bits per
    output), so the blocks are exactly the consecutive ``L``-bit pieces of the
    bit stream and no pair straddles two reads.
    """
    width = selection.width(genuine_bits(source))
    step = math.lcm(math.lcm(block_bits, width) // block_bits, 2)
    per_read = max(step, CHUNK_BITS // block_bits // step * step)
    for start in range(0, blocks, per_read):
        count = min(per_read, blocks - start)
        yield bits(source, count * block_bits, selection).reshape(count, block_bits).sum(axis=1, dtype=np.int64)


@register("hamming-independence")
def hamming_independence(source: Source, n: int, *, block_bits: int = 300,
                         selection: BitSelection = BitSelection()) -> EmpiricalResult:
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
    selection : BitSelection

    References
    ----------
    P. L'Ecuyer, R. Simard, "Beware of linear congruential generators with
    multipliers of the form a = +-2^q +-2^r", ACM TOMS 25(3), 1999 (the test);
    TestU01 user guide, sstring_HammingIndep (the parameter ``d = 0`` case)
    and bbattery_SmallCrush.
    """
    require(n >= 20, f"hamming-independence needs n >= 20 pairs; got {n}")
    require(1 <= block_bits <= 4096, f"block_bits must be in [1, 4096]; got {block_bits}")
    pmf = stats.binom.pmf(np.arange(block_bits + 1), block_bits, 0.5)
    labels, expected = pair_classes(n * np.outer(pmf, pmf), 10.0)
    require(expected.size >= 2, f"hamming-independence needs two classes; got n = {n}")
    observed = np.zeros(expected.size, dtype=np.int64)
    for weights in block_weights(source, 2 * n, block_bits, selection):
        observed += np.bincount(labels[weights[0::2], weights[1::2]], minlength=expected.size)
    statistic, pvalue, df = chi_square(observed, expected)
    return EmpiricalResult("hamming-independence", statistic, pvalue,
                           gateway_params(n, selection, block_bits=block_bits),
                           {"df": df, "observed": observed, "expected": expected})
