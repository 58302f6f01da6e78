"""The collision test: n balls thrown into k = d^t urns, counting the balls that land in an occupied urn.

Also home of the readers the other tests share: :func:`digits` (``floor(d u)``
of successive outputs), :func:`cell_indices` (points of the ``d^t`` grid, for
birthday spacings), the mid-p Poisson p-value, and :class:`PoissonBlocksTally`,
the frame of the tests that count in whole samples of cells over blocks.
"""

from __future__ import annotations

import math
from abc import abstractmethod

import numpy as np

from rnglab.core.compiled import njit
from rnglab.core.laws import poisson_cdf, poisson_pmf, poisson_sf
from rnglab.empirical.stattests.base import EmpiricalResult, Tally, check_sample, gateway_params, register, require
from rnglab.generators.base import Source
from rnglab.streams.gateway import BitReader, bit_fields, genuine_bits, selection_of, uniform_digits, words

#: Largest grid the cell indices address (they are uint64).
MAX_CELLS = 2**63
#: Cells built per read of the source: 2^16, so that the outputs a read holds (``t`` per cell, 8 bytes each) and the
#: digits made of them stay near a MiB. A run until it fails reads every entry's chunks at once, in as many threads:
#: at 2^18 the two birthday-spacings entries and collision held 14 MiB of reads and 17 MiB of digits between them.
CHUNK_CELLS = 2**16


def digits(source: Source, count: int, d: int) -> np.ndarray:
    """Return ``count`` digits in ``[0, d)``: ``floor(d u)`` of successive outputs.

    ``u = (x - low) / R`` at the source's full resolution
    (:func:`rnglab.streams.gateway.uniforms`), TestU01's ``floor(d U)``; for a
    power of two ``R = 2^b`` and ``d`` that is the offset's top ``log2 d``
    bits, taken exactly (a selection of ``b`` bits of each output,
    :class:`~rnglab.streams.gateway.SelectedBits`, is such a source). When
    ``d`` is a power of two wider than one output (``d = 2^30`` on MSVC's 15-bit
    ``rand()``), the digits are cut from the bit stream instead
    (:func:`rnglab.streams.gateway.bit_fields`), as a program would combine calls.
    """
    require(d >= 2, f"d must be >= 2; got {d}")
    width = genuine_bits(source)
    if d > 1 << width:
        require(d & (d - 1) == 0, f"d must be <= 2^{width} (the selected bits per output) or a power of two; got {d}")
        return bit_fields(source, count, d.bit_length() - 1)
    shift = top_bits_shift(source, d)
    if shift is None:
        return uniform_digits(source, count, d)
    return words(source, count)[0] >> np.uint64(shift)


def top_bits_shift(source: Source, d: int) -> int | None:
    """The shift ``s`` that makes ``floor(d u)`` the word's top bits, ``w >> s``, when ``d <= 2^b`` is a power of two
    and the source's range is ``R = 2^b`` (``b`` genuine bits per output); ``None`` otherwise."""
    width = genuine_bits(source)
    if d & (d - 1) or d > 1 << width or source.range_size != 1 << width:
        return None
    return width - (d.bit_length() - 1)


def cell_indices(source: Source, n: int, d: int, t: int, dtype=np.uint64,
                 reader: BitReader | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """Return ``n`` cells of the ``d^t`` grid, each built from ``t`` successive digits (non-overlapping).

    Cell ``j`` is ``sum_i y_{tj+i} d^(t-1-i)`` with ``y = floor(d u)`` (TestU01's smultin and smarsa order). When
    the digits are cut from the bit stream (``d`` a power of two wider than one output), ``t`` successive digits are
    one field of ``t log2(d)`` bits: the cells are read as such (the same values from the same outputs, without
    joining digits), by ``reader`` when given (a tally reading the stream in pieces: the bits of an output that the
    last piece left wait there). Otherwise the cells are joined a chunk at a time in one compiled pass
    (:func:`_join_digits`), from the words themselves when the digits are their top bits (:func:`top_bits_shift`),
    into ``out`` when given (``n`` long: a tally's block, filled where it stands) or a new array of ``dtype``:
    ``numpy.uint32`` when every cell fits (``d^t <= 2^32``; the collision test's ``2^16 x 2^16`` grid then holds 4
    bytes a cell, not 8).
    """
    require(t >= 1, f"t must be >= 1; got {t}")
    require(d**t <= MAX_CELLS, f"k = d^t must be <= 2^63; got {d}^{t}")
    require(d**t <= np.iinfo(dtype).max + 1, f"cells of k = {d}^{t} do not fit {np.dtype(dtype).name}")
    cells = np.empty(n, dtype=dtype) if out is None else out
    if d & (d - 1) == 0 and d > 1 << genuine_bits(source):
        cells[:] = (reader or BitReader()).fields(source, n, (d**t).bit_length() - 1)
        return cells
    shift = top_bits_shift(source, d)
    for start in range(0, n, CHUNK_CELLS):  # the digits are read a chunk at a time
        size = min(CHUNK_CELLS, n - start)
        if shift is None:
            values, value_shift = digits(source, size * t, d), 0
        else:
            values, value_shift = words(source, size * t)[0], shift
        _join_digits(values, np.uint64(value_shift), np.uint64(d), t, cells[start:start + size])
    return cells


@njit(cache=True, nogil=True)
def _join_digits(values, shift, d, t, out):  # pragma: no cover - compiled
    """``out[j] = sum_i y_{tj+i} d^(t-1-i)`` with the digits ``y_k = values[k] >> shift``, for every ``j`` of ``out``
    (Horner's rule, in uint64: a cell is below ``d^t <= 2^63``).

    Two and three digits a cell (the small battery's collision and birthday-spacings grids) are joined by a loop
    whose ``t`` is a constant, unrolled by the compiler: 0.6 and 1.0 ns a cell where the loop over a ``t`` known only
    at run time took 4.5 and 5.7 (as :func:`~.bcfn._deviations`)."""
    if t == 2:
        return _join_cells(values, shift, d, 2, out)
    if t == 3:
        return _join_cells(values, shift, d, 3, out)
    return _join_cells(values, shift, d, t, out)


@njit(cache=True, nogil=True, inline="always")
def _join_cells(values, shift, d, t, out):  # pragma: no cover - compiled
    """:func:`_join_digits` for one ``t``."""
    for j in range(out.size):
        cell = np.uint64(0)
        for i in range(t):
            cell = cell * d + (values[t * j + i] >> shift)
        out[j] = cell
    return out


@njit(cache=True, nogil=True)
def repeats_in_sorted(ordered):  # pragma: no cover - compiled
    """The values of the sorted ``ordered`` equal to the one before them: its size less its distinct values (the
    collisions of sorted cells, the equal birthday spacings), in one pass without a temporary array."""
    repeats = 0
    for i in range(1, ordered.size):
        repeats += ordered[i] == ordered[i - 1]
    return repeats


def poisson_mid_pvalue(observed: int, mean: float) -> float:
    """Mid-p value ``P(Y > y) + P(Y = y) / 2`` of a Poisson(``mean``) count.

    Near 0 when ``y`` is too large, near 1 when it is too small; for a
    discrete statistic it is closer to uniform than ``P(Y >= y)``
    (H. O. Lancaster, JASA 56, 1961).
    """
    return float(poisson_sf(observed, mean) + 0.5 * poisson_pmf(observed, mean))


def poisson_discrete_pvalue(observed: int, mean: float) -> float:
    """TestU01's p-value of a Poisson(``mean``) count (its ``gofw_pDisc``): the right tail ``P(Y >= y)`` when it
    is the smaller tail, else ``P(Y > y)``, or 1/2 when both tails exceed 1/2.

    Near 0 when ``y`` is too large, near 1 when it is too small, as the mid-p
    value of :func:`poisson_mid_pvalue`, whose value lies between these two.
    """
    left, right = float(poisson_cdf(observed, mean)), float(poisson_sf(observed - 1, mean))
    if right < left:
        return right
    return 0.5 if left > 0.5 else 1.0 - left


def poisson_pvalue(observed: int, mean: float, mid_p: bool) -> float:
    """The p-value of a Poisson(``mean``) count: :func:`poisson_mid_pvalue`, or TestU01's
    :func:`poisson_discrete_pvalue` (SmallCrush's) when ``mid_p`` is false."""
    return (poisson_mid_pvalue if mid_p else poisson_discrete_pvalue)(observed, mean)


def expected_collisions(n: int, k: int) -> float:
    """Exact mean number of collisions of ``n`` balls in ``k`` urns: ``n - k + k (1 - 1/k)^n``.

    Computed as ``n + k expm1(n log1p(-1/k))`` to keep precision when ``k >> n``
    (Knuth, TAOCP vol. 2, 3.3.2 I, exercise 3.3.2-35).
    """
    return n + k * math.expm1(n * math.log1p(-1.0 / k))


class PoissonBlocksTally(Tally):
    r"""A count of coincidences among cells of the ``d^t`` grid, taken over blocks of cells and summed.

    The birthday-spacings and collision tests count coincidences among all
    the cells of their sample at once (they sort it), so they hold it whole.
    Over consecutive blocks of ``block`` cells (the last one holding what is
    left, ``n mod block``), each block a sample of its own, the count ``Y_b``
    of a block of ``m_b`` cells is approximately Poisson with mean
    :math:`\lambda(m_b)`, as a whole sample's is, and the blocks read disjoint
    outputs: under the null hypothesis the counts are independent, and the
    sum :math:`Y = \sum_b Y_b` of independent Poisson counts is Poisson with
    mean :math:`\sum_b \lambda(m_b)`, exactly (TestU01 sums the counts of the
    ``N`` replications of smarsa_BirthdaySpacings and sknuth_Collision the
    same way). The tally holds one block: a run until it fails reads any
    amount in bounded memory, every cell read and sorted once. With ``block``
    ``None`` the whole sample is one block (the test's function runs it so,
    :meth:`on`); the tally then holds every cell read.

    A subclass sets ``name``, ``key`` (the details' name of the count), the
    cells' ``dtype``, :meth:`coincidences` and :meth:`block_mean`, and
    extends :meth:`check`.

    Attributes
    ----------
    block : int or None
        The cells of a block, as asked (``None``: one block; shown in the result's parameters when set).
    size : int or None
        The cells of a block as counted (``block``, or the sample size when the function runs the test).
    closed : int
        The coincidences of the blocks already counted (``samples // size`` of them).
    """

    name: str
    key: str
    dtype: type = np.uint64

    def __init__(self, source: Source, *, d: int, t: int, mid_p: bool, block: int | None) -> None:
        super().__init__()
        self.d, self.t, self.k, self.mid_p = d, t, d**t, mid_p
        self.block = self.size = None if block is None else check_sample("block", block, 2)
        self.selection, self.reader = selection_of(source), BitReader()
        self.cells, self.held, self.closed = np.empty(0, dtype=self.dtype), 0, 0

    @classmethod
    def on(cls, source: Source, n: int, **options) -> EmpiricalResult:
        """The test on the next ``n`` cells of ``source`` (its function): without ``block``, one block of ``n``."""
        tally = cls(source, **options)
        tally.size = tally.size or check_sample("n", n, 1)
        return tally.extend(source, n).result()

    @classmethod
    def bounded(cls, options: dict) -> bool:
        return options.get("block") is not None

    @abstractmethod
    def coincidences(self, cells: np.ndarray) -> int:
        """The count of one block's ``cells`` (which it may sort or overwrite)."""

    @abstractmethod
    def block_mean(self, m: int) -> float:
        r""":math:`\lambda(m)`, the mean count of a block of ``m`` cells under the null hypothesis."""

    def mean(self, n: int) -> float:
        """The mean of the count over ``n`` cells: whole blocks, then what is left."""
        blocks, left = divmod(n, self.size or n)
        return blocks * self.block_mean(self.size or n) + (self.block_mean(left) if left else 0.0)

    def check(self, n: int) -> None:
        require(n >= 2, f"n must be >= 2; got {n}")

    def _read(self, source: Source, count: int) -> None:
        while count:
            size = count if self.size is None else min(count, self.size - self.held, CHUNK_CELLS)
            cell_indices(source, size, self.d, self.t, self.dtype, self.reader, out=self._room(size))
            self.held += size
            count -= size
            if self.held == self.size:
                self.closed += self.coincidences(self.cells)
                self.held = 0

    def _room(self, size: int) -> np.ndarray:
        """The next ``size`` cells of the block held, to be filled (the block grows when it is the whole sample)."""
        if self.size is None:
            self.cells = np.concatenate([self.cells[:self.held], np.empty(size, dtype=self.dtype)])
        elif self.cells.size != self.size:
            self.cells = np.empty(self.size, dtype=self.dtype)
        return self.cells[self.held:self.held + size]

    def result(self) -> EmpiricalResult:
        n = self.samples
        count = self.closed + (self.coincidences(self.cells[:self.held].copy()) if self.held else 0)
        mean = self.mean(n)
        options = {"d": self.d, "t": self.t, "k": self.k, "mid_p": self.mid_p}
        if self.block is not None:
            options["block"] = self.block
        return EmpiricalResult(self.name, float(count), poisson_pvalue(count, mean, self.mid_p),
                               gateway_params(n, self.selection, **options),
                               {self.key: count, "expected": mean, "distribution": "Poisson"})


class CollisionTally(PoissonBlocksTally):
    """The collisions of the collision test, block by block (:func:`collision`)."""

    name, key = "collision", "collisions"

    def __init__(self, source: Source, *, d: int = 2**16, t: int = 2, mid_p: bool = True,
                 block: int | None = None) -> None:
        # in 32 bits when they fit: fewer digits to sort, half the memory to move
        self.dtype = np.uint32 if d**t <= 2**32 else np.uint64
        super().__init__(source, d=d, t=t, mid_p=mid_p, block=block)

    def coincidences(self, cells: np.ndarray) -> int:
        cells.sort()  # in place, without scratch (:func:`~.birthday.equal_spacings`)
        return int(repeats_in_sorted(cells))

    def block_mean(self, m: int) -> float:
        return expected_collisions(m, self.k)

    def check(self, n: int) -> None:
        m, where = min(n, self.size or n), ", in a block" if self.block else ""
        require(2 <= n and m <= self.k // 32,
                f"collision test needs 2 <= n <= k/32 = {self.k // 32} (sparse case{where}); got n = {m}")


@register("collision", CollisionTally)
def collision(source: Source, n: int, *, d: int = 2**16, t: int = 2, mid_p: bool = True,
              block: int | None = None) -> EmpiricalResult:
    """Collision test: ``n`` points of ``t`` successive digits thrown into ``k = d^t`` urns.

    A *collision* is a ball that falls into an urn already occupied; the
    statistic is the number of collisions ``C = n - (number of occupied urns)``.
    Its exact mean is ``mu = n - k + k (1 - 1/k)^n ~ n^2 / (2k)``. In the
    sparse case ``n <= k / 32`` (enforced), ``C`` is approximately Poisson with
    mean ``mu``, the approximation TestU01 uses for sparse collision counts;
    at ``n = k/32`` the exact variance of ``C`` is 4% below the Poisson's, which
    makes p-values slightly conservative, and the gap closes as ``n/k`` falls.
    The p-value is the Poisson mid-p ``P(C > c) + P(C = c) / 2``: small for too
    many collisions, near 1 for too few (points too evenly spread, as on an
    LCG's lattice); with ``mid_p`` false, TestU01's
    (:func:`poisson_discrete_pvalue`).

    Parameters
    ----------
    source : Source
    n : int
        Number of balls (points), ``2 <= n <= k / 32``.
    d : int
        Digits per coordinate: each output gives ``floor(d u)``.
    t : int
        Dimension: outputs per point.
    mid_p : bool
        The mid-p value, or TestU01's p-value (:func:`poisson_pvalue`).
    block : int, optional
        Count the collisions in blocks of ``block`` points, each its own set
        of urns, and sum them (:class:`PoissonBlocksTally`): the sum is Poisson
        with mean the sum of the blocks' ``mu``; ``block <= k / 32`` then
        suffices. Default: the ``n`` points are one block.

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.3.2 I (collision test).
    P. L'Ecuyer, R. Simard, S. Wegenkittl, Sparse serial tests of uniformity
    for random number generators, SIAM J. Sci. Comput. 24(2), 2002.
    P. L'Ecuyer, R. Simard, TestU01, ACM TOMS 33(4), 2007 (sknuth_Collision).
    """
    return CollisionTally.on(source, n, d=d, t=t, mid_p=mid_p, block=block)
