"""The collision test: n balls thrown into k = d^t urns, counting the balls that land in an occupied urn.

Also home of :func:`cell_indices`, which turns a source into points of the
``d^t`` grid (shared with the birthday-spacings test), and of the mid-p
Poisson p-value used by both.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ..generators.base import Source
from ..stream import BitSelection, bits, genuine_bits, words
from .base import EmpiricalResult, register, require

#: Largest grid the cell indices address (they are uint64).
MAX_CELLS = 2**63


def digits(source: Source, count: int, d: int, selection: BitSelection = BitSelection()) -> np.ndarray:
    """Return ``count`` digits in ``[0, d)``: ``floor(d u)`` of successive outputs.

    Each digit comes from one output's selected bits ``w`` (width ``b``):
    ``floor(d w / 2^b)``, exact for ``d <= 2^b``, which is TestU01's
    ``floor(d u)``. When ``d`` is a power of two wider than one output
    (``d = 2^30`` on MSVC's 15-bit ``rand()``), the digits are cut from the
    bit stream instead (:func:`bit_fields`), as a program would combine calls.
    """
    require(d >= 2, f"d must be >= 2; got {d}")
    width = selection.width(genuine_bits(source))
    if d > 1 << width:
        require(d & (d - 1) == 0, f"d must be <= 2^{width} (the selected bits per output) or a power of two; got {d}")
        return bit_fields(source, count, d.bit_length() - 1, selection)
    values, width = words(source, count, selection)
    if d & (d - 1) == 0:
        return values >> np.uint64(width - (d.bit_length() - 1))
    scaled = np.floor(values.astype(np.float64) * (d / 2.0**width))
    return np.minimum(scaled, d - 1).astype(np.uint64)


def bit_fields(source: Source, count: int, field_bits: int, selection: BitSelection = BitSelection()) -> np.ndarray:
    """Return the first ``count`` fields of ``field_bits`` (<= 64) bits cut from the source's bit stream.

    The same bits as ``rnglab.stream.bits`` read ``field_bits`` at a time, first
    bit most significant; computed from whole words: field ``j`` starts at bit
    ``j f`` of the stream, in word ``q = j f div b`` at offset ``o = j f mod b``,
    and is read from the ``s`` words it can span joined into one integer
    (words too wide to join are first split into halves, which leaves the
    bit stream unchanged).
    """
    require(1 <= field_bits <= 64, f"field_bits must be in [1, 64]; got {field_bits}")
    width = selection.width(genuine_bits(source))
    piece = width
    while _span(piece, field_bits) * piece > 64 and piece % 2 == 0:
        piece //= 2
    if _span(piece, field_bits) * piece > 64:
        return _packed_fields(bits(source, count * field_bits, selection), count, field_bits)
    values, _ = words(source, -(-count * field_bits // width), selection)
    if piece < width:
        values = _split_words(values, width, piece)
    if math.lcm(piece, field_bits) <= 64:
        return _regrouped_fields(values, piece, count, field_bits)
    return _joined_fields(values, piece, count, field_bits)


def _split_words(values: np.ndarray, width: int, piece: int) -> np.ndarray:
    """Split each ``width``-bit word into ``width / piece`` words of ``piece`` bits, high part first."""
    shifts = np.arange(width - piece, -1, -piece, dtype=np.uint64)
    pieces = (values[:, None] >> shifts).reshape(-1)
    return pieces & np.uint64(2**piece - 1) if piece < 64 else pieces


def _regrouped_fields(values: np.ndarray, width: int, count: int, field_bits: int) -> np.ndarray:
    """Fields when ``lcm(width, field_bits) <= 64``: join words into blocks, split blocks into fields."""
    block = math.lcm(width, field_bits)
    blocks = -(-count * field_bits // block)
    values = np.resize(values, blocks * (block // width)).reshape(blocks, block // width)
    joined = values[:, 0].copy()
    for column in range(1, block // width):
        joined = (joined << np.uint64(width)) | values[:, column]
    return _split_words(joined, block, field_bits)[:count]


def _span(width: int, field_bits: int) -> int:
    """Most words of ``width`` bits that one field of ``field_bits`` bits can touch."""
    return -(-(width - 1 + field_bits) // width)


def _joined_fields(values: np.ndarray, width: int, count: int, field_bits: int) -> np.ndarray:
    span = _span(width, field_bits)
    first, offset = np.divmod(np.arange(count, dtype=np.int64) * field_bits, width)
    values = np.concatenate([values, np.zeros(span, dtype=np.uint64)])
    joined = np.zeros(count, dtype=np.uint64)
    for word in range(span):
        joined = (joined << np.uint64(width)) | values[first + word]
    fields = joined >> (span * width - offset - field_bits).astype(np.uint64)
    return fields & np.uint64(2**field_bits - 1) if field_bits < 64 else fields


def _packed_fields(stream: np.ndarray, count: int, field_bits: int) -> np.ndarray:
    """Fields of a 0/1 array through ``np.packbits`` (for widths that do not fit :func:`bit_fields`'s join)."""
    packed = np.packbits(stream.reshape(count, field_bits), axis=1)
    padded = np.zeros((count, 8), dtype=np.uint8)
    padded[:, : packed.shape[1]] = packed
    return padded.view(">u8").reshape(count).astype(np.uint64) >> np.uint64(64 - field_bits)


def cell_indices(source: Source, n: int, d: int, t: int, selection: BitSelection = BitSelection()) -> np.ndarray:
    """Return ``n`` cells of the ``d^t`` grid, each built from ``t`` successive digits (non-overlapping).

    Cell ``j`` is ``sum_i y_{tj+i} d^(t-1-i)`` with ``y = floor(d u)`` (TestU01's
    smultin and smarsa order).
    """
    require(t >= 1, f"t must be >= 1; got {t}")
    require(d**t <= MAX_CELLS, f"k = d^t must be <= 2^63; got {d}^{t}")
    points = digits(source, n * t, d, selection).reshape(n, t)
    cells = points[:, 0].copy()
    for column in range(1, t):
        cells = cells * np.uint64(d) + points[:, column]
    return cells


def poisson_mid_pvalue(observed: int, mean: float) -> float:
    """Mid-p value ``P(Y > y) + P(Y = y) / 2`` of a Poisson(``mean``) count.

    Near 0 when ``y`` is too large, near 1 when it is too small; for a
    discrete statistic it is closer to uniform than ``P(Y >= y)``
    (H. O. Lancaster, JASA 56, 1961).
    """
    return float(stats.poisson.sf(observed, mean) + 0.5 * stats.poisson.pmf(observed, mean))


def expected_collisions(n: int, k: int) -> float:
    """Exact mean number of collisions of ``n`` balls in ``k`` urns: ``n - k + k (1 - 1/k)^n``.

    Computed as ``n + k expm1(n log1p(-1/k))`` to keep precision when ``k >> n``
    (Knuth, TAOCP vol. 2, 3.3.2 I, exercise 3.3.2-35).
    """
    return n + k * math.expm1(n * math.log1p(-1.0 / k))


@register("collision")
def collision(source: Source, n: int, *, d: int = 2**16, t: int = 2,
              selection: BitSelection = BitSelection()) -> EmpiricalResult:
    """Collision test: ``n`` points of ``t`` successive digits thrown into ``k = d^t`` urns.

    A *collision* is a ball that falls into an urn already occupied; the
    statistic is the number of collisions ``C = n - (number of occupied urns)``.
    Its exact mean is ``mu = n - k + k (1 - 1/k)^n ~ n^2 / (2k)``. In the
    sparse case ``n <= k / 32`` (enforced), ``C`` is approximately Poisson with
    mean ``mu``, the approximation TestU01 uses for sparse collision counts;
    the p-value is the Poisson mid-p ``P(C > c) + P(C = c) / 2``: small for too
    many collisions, near 1 for too few (points too evenly spread, as on an
    LCG's lattice).

    Parameters
    ----------
    source : Source
    n : int
        Number of balls (points), ``2 <= n <= k / 32``.
    d : int
        Digits per coordinate: each output gives ``floor(d u)``.
    t : int
        Dimension: outputs per point.
    selection : BitSelection
        Which bits of each output are read.

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.3.2 I (collision test).
    P. L'Ecuyer, R. Simard, S. Wegenkittl, Sparse serial tests of uniformity
    for random number generators, SIAM J. Sci. Comput. 24(2), 2002.
    P. L'Ecuyer, R. Simard, TestU01, ACM TOMS 33(4), 2007 (sknuth_Collision).
    """
    from .frequency import gateway_params  # frequency imports this module

    k = d**t
    require(2 <= n <= k // 32, f"collision test needs 2 <= n <= k/32 = {k // 32} (sparse case); got n = {n}")
    cells = np.sort(cell_indices(source, n, d, t, selection))
    collisions = int(np.count_nonzero(cells[1:] == cells[:-1]))
    mean = expected_collisions(n, k)
    return EmpiricalResult("collision", float(collisions), poisson_mid_pvalue(collisions, mean),
                           gateway_params(n, selection, d=d, t=t, k=k),
                           {"collisions": collisions, "expected": mean, "distribution": "Poisson"})
