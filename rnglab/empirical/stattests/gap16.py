"""Gap-16: the gaps between recurrences of each 16-bit value of the bit stream, against the geometric law."""

from __future__ import annotations

import math

import numpy as np

from rnglab.core.compiled import njit
from rnglab.core.laws import chi2_sf
from rnglab.empirical.stattests.base import EmpiricalResult, Tally, gateway_params, register, require
from rnglab.empirical.stattests.hamming import merge_sparse_tails
from rnglab.generators.base import Source
from rnglab.streams.gateway import BitReader, selection_of

#: Values of 16 bits: a recurrence has probability ``p = 2^-16`` at each step.
SYMBOLS = 2**16

#: The total number of gaps is tested while its variance is at least this (its normal law then holds; beyond
#: ``n = 2^20`` or so nearly every value has occurred and the total hardly varies).
MIN_VARIANCE = 10.0


#: Values per chunk of the stream: their words and gaps (4 bytes a gap) stay in the processor's cache. 2^15, where
#: 2^17 was: the same CPU time on whole 32-bit words, and a third of the reading on the low bits (the low 8: 0.3 CPU
#: s for 256 MiB of standard input, all told, where 2^17 took 0.6; the low bit 0.2 where it took 0.45; the larger
#: reads of the input cost several times more a word, in fresh memory from the allocator).
CHUNK_VALUES = 2**15

#: The largest position held: positions are held in uint32, relative to an offset that moves on
#: (:meth:`Gap16Tally._rebase`) before a chunk would pass this.
POSITION_LIMIT = 2**32 - 1


@njit(cache=True, nogil=True)
def _count_gaps(words, per, count, first, last, edges, coarse, shift, gaps, counts):  # pragma: no cover - compiled
    """Add the gap of each of ``count`` values (positions ``first``, ``first + 1``, ...) since its last occurrence
    to ``counts``.

    The values are the 16-bit fields of ``words``, ``per`` to a word, the
    first in the most significant bits (:func:`~rnglab.streams.gateway.field_words`).
    ``last[v]`` (uint32) is the position of the last occurrence of ``v``, 0
    when there is none yet; positions are at least ``edges[-2] + 2``, so that
    ``r - last[v] - 1`` for a value never seen is at least ``edges[-2]``, the
    last bin's start. The gap, the number of values strictly between, is
    counted in the bin ``b`` with ``edges[b] <= gap < edges[b + 1]``. Two
    passes: the gaps first (:func:`_record_gaps`, into ``gaps``, uint32, at
    least ``count`` long), a value never seen giving a gap of the last bin;
    then their bins, each gap capped at ``edges[-2]`` (which bins it the
    same), ``coarse[gap >> shift]`` (the bin of the first gap of its run of
    ``2^shift``), or the next when ``edges[b + 1] <= gap``
    (:func:`coarse_bins`), without a branch; last, the first occurrences,
    which close no gap, are taken off the last bin. The table of a few
    hundred bins stays in the first-level cache where a table of every gap
    would not, and the second pass's loop, free of the first's scattered
    reads and writes of ``last``, runs faster than one loop doing both. All
    in 32 bits (``edges`` and ``coarse`` uint32, the sentinel edge capped):
    the table of the last positions is 256 KiB, the gaps half the bytes of
    64-bit ones, and the second pass on uint32 runs a third faster than on
    int64 (2.7 ns a value for both passes where int64 took 4; PCG64's values,
    two a word, the machine shared).
    """
    if per == 1:
        fresh = _record_gaps(words, 1, count, first, last, gaps)
    elif per == 2:
        fresh = _record_gaps(words, 2, count, first, last, gaps)
    elif per == 4:
        fresh = _record_gaps(words, 4, count, first, last, gaps)
    else:
        fresh = _record_gaps(words, per, count, first, last, gaps)
    tail = edges[edges.size - 2]
    for i in range(count):
        gap = min(gaps[i], tail)
        bin_ = coarse[gap >> shift]
        counts[bin_ + (gap >= edges[bin_ + 1])] += 1
    counts[counts.size - 1] -= fresh


@njit(cache=True, nogil=True, inline="always")
def _record_gaps(words, per, count, first, last, gaps):  # pragma: no cover - compiled
    """The first pass of :func:`_count_gaps`: each value's gap into ``gaps``, ``last`` updated; return the number
    of first occurrences. The words whose ``per`` values all count, in a loop that the compiler unrolls when
    ``per`` is a constant (one, two or four values a word: fields of a bit selection, 32- and 64-bit outputs),
    then the first values of the next word."""
    whole, fresh = count // per, 0
    for w in range(whole):
        word, position = words[w], np.uint32(first + w * per)
        for field in range(per):
            fresh += _record_gap(word, per - 1 - field, position + np.uint32(field), last, gaps, w * per + field)
    for i in range(whole * per, count):
        fresh += _record_gap(words[whole], per - 1 - (i - whole * per), np.uint32(first + i), last, gaps, i)
    return fresh


@njit(cache=True, nogil=True, inline="always")
def _record_gap(word, field, position, last, gaps, i):  # pragma: no cover - compiled
    """``gaps[i]``: the gap closed at ``position`` by the 16-bit value ``field`` (0: the lowest) of ``word``, from
    its last position (0: none, a gap past the last bin's start); return whether it is the value's first."""
    value = np.uint32(word >> np.uint64(16 * field)) & np.uint32(SYMBOLS - 1)
    prior = last[value]
    last[value] = position
    gaps[i] = position - prior - np.uint32(1)
    return prior == 0


def coarse_bins(edges: np.ndarray) -> tuple[np.ndarray, int]:
    """``(coarse, shift)``: the bin of each gap ``j 2^shift`` up to the last bin's start, ``edges[-2]``.

    ``2^shift`` is at most the narrowest bin, so a gap's bin is its run's bin
    or the next. The narrowest of :func:`gap_edges` is 16 gaps wide (the first
    bin of 4096); edges that leave a bin empty are refused.
    """
    widths = np.diff(edges[:-1])
    require(bool(widths.size == 0 or widths.min() > 0), "gap-16's bins must not be empty")
    shift = int(widths.min()).bit_length() - 1 if widths.size else 0
    starts = np.arange(0, int(edges[-2]) + 1, 2**shift)
    return (np.searchsorted(edges, starts, side="right") - 1).astype(np.uint32), shift


def kernel_edges(edges: np.ndarray) -> np.ndarray:
    """The edges as :func:`_count_gaps` takes them, in uint32: the sentinel above any gap capped at
    :data:`POSITION_LIMIT` (the kernel caps every gap at ``edges[-2]`` first)."""
    return np.minimum(edges, POSITION_LIMIT).astype(np.uint32)


def distinct_variance(n: int) -> float:
    """Variance of the number ``D`` of distinct values among ``n`` independent uniform 16-bit values.

    With ``N = 2^16`` and the indicators of each value's presence,
    ``Var D = N (N - 1)(1 - 2/N)^n + N (1 - 1/N)^n - N^2 (1 - 1/N)^(2n)``
    (the occupancy problem; Johnson and Kotz, *Urn Models*, 1977, 3.2). The
    number of gaps is ``n - D``.
    """
    big = float(SYMBOLS)
    log_one, log_two = math.log1p(-1 / big), math.log1p(-2 / big)
    # N^2 ((1 - 2/N)^n - (1 - 1/N)^2n) + N ((1 - 1/N)^n - (1 - 2/N)^n), each difference without cancellation
    pairs = math.exp(2 * n * log_one) * math.expm1(n * (log_two - 2 * log_one))
    singles = -math.exp(n * log_one) * math.expm1(n * (log_two - log_one))
    return big * big * pairs + big * singles


def gap_edges(bins: int) -> np.ndarray:
    """``bins + 1`` edges ``e_k = ceil(ln(1 - k / bins) / ln(1 - p))`` of bins equally likely under the geometric law
    (the last edge is a sentinel above any gap)."""
    q = 1.0 - 1.0 / SYMBOLS
    inner = [math.ceil(math.log1p(-k / bins) / math.log(q)) for k in range(1, bins)]
    return np.array([0, *inner, 2**62], dtype=np.int64)


def expected_gaps(n: int, edges: np.ndarray) -> np.ndarray:
    """Expected number of gaps in each bin ``[a, b)`` among ``n`` independent uniform 16-bit values.

    The value at position ``j`` closes a gap of ``g`` (its previous occurrence
    at ``j - g - 1``, none in between) with probability ``p q^g``
    (``q = 1 - p``), for ``g + 1 <= j <= n - 1``; summing over positions,
    ``E_g = (n - g - 1) p q^g``, exact for ``g <= n - 2`` whatever the
    dependence between gaps. Over a bin, with
    ``sum_(g >= a) p q^g = q^a`` and ``sum_(g >= a) g p q^g = q^a (a + q / p)``,
    ``E_[a, b) = (n - 1)(q^a - q^b) - q^a (a + q/p) + q^b (b + q/p)``, ``b`` capped at
    ``n - 1``.
    """
    p = 1.0 / SYMBOLS
    q, ratio = 1.0 - p, (1.0 - p) / p
    a = np.minimum(edges[:-1], n - 1).astype(np.float64)
    b = np.minimum(edges[1:], n - 1).astype(np.float64)
    qa, qb = np.exp(a * math.log(q)), np.exp(b * math.log(q))
    return (n - 1) * (qa - qb) - qa * (a + ratio) + qb * (b + ratio)


class Gap16Tally(Tally):
    """The gap counts of :func:`gap16`, carried on: the last position of each value and the bits of a partly read
    output go on to the next call. Positions are held in uint32 (0: never seen), the position of value ``i`` of
    the stream being ``i + offset``; the offset moves down when they would pass :data:`POSITION_LIMIT`
    (:meth:`_rebase`)."""

    def __init__(self, source: Source, *, bins: int = 64) -> None:
        super().__init__()
        require(2 <= bins <= 4096, f"bins must be in [2, 4096]; got {bins}")
        self.bins, self.selection, self.reader = bins, selection_of(source), BitReader()
        self.edges = gap_edges(bins)
        self.coarse, self.shift = coarse_bins(self.edges)
        self.bounds = kernel_edges(self.edges)
        self.last, self.counts = np.zeros(SYMBOLS, dtype=np.uint32), np.zeros(bins, dtype=np.int64)
        self.gaps, self.offset = np.empty(0, dtype=np.uint32), self.least_position

    def check(self, n: int) -> None:
        require(n >= 2, f"gap-16 needs n >= 2 values; got {n}")
        expected = expected_gaps(n, self.edges).sum()
        require(expected >= 30, f"gap-16 needs n large enough to expect 30 recurrences; got n = {n} "
                                f"({expected:.3g} expected; n >= 2100 suffices)")

    @property
    def least_position(self) -> int:
        """The position held for the first value (and the first after a rebase): every later position ``r`` then
        gives a gap ``r - 1 - 1`` of at least ``edges[-2]``, the last bin's start, from a position clamped to 1 at a
        rebase, and more from a value never seen (0)."""
        return int(self.edges[-2]) + 2

    def _read(self, source: Source, count: int) -> None:
        start = self.samples
        for words, per, size in self.reader.word_chunks(source, count, 16, chunk_fields=CHUNK_VALUES):
            if start + self.offset + size - 1 > POSITION_LIMIT:
                self._rebase(start)
            self.gaps = self.gaps if self.gaps.size >= size else np.empty(size, dtype=np.uint32)
            _count_gaps(words, per, size, start + self.offset, self.last, self.bounds, self.coarse, self.shift,
                        self.gaps, self.counts)
            start += size

    def _rebase(self, start: int) -> None:
        """Hold the value at ``start`` at :attr:`least_position`: every position held moves down by as much, those
        that would fall below 1 to 1 (their gaps from ``start`` on are past the last bin's start either way;
        values never seen keep 0)."""
        shift = start + self.offset - self.least_position
        moved = np.maximum(self.last.astype(np.int64) - shift, 1).astype(np.uint32)
        self.last, self.offset = np.where(self.last == 0, self.last, moved), self.offset - shift

    def result(self) -> EmpiricalResult:
        n, counts = self.samples, self.counts.copy()
        expected = expected_gaps(n, self.edges)
        observed, merged, _ = merge_sparse_tails(counts[::-1], expected[::-1], 10.0)
        shape = float(((observed - merged * (observed.sum() / merged.sum())) ** 2 / merged).sum())
        variance = distinct_variance(n)
        total = float((observed.sum() - merged.sum()) ** 2 / variance) if variance >= MIN_VARIANCE else 0.0
        statistic, df = shape + total, observed.size - (variance < MIN_VARIANCE)
        pvalue = float(chi2_sf(statistic, df))
        return EmpiricalResult("gap-16", statistic, pvalue, gateway_params(n, self.selection, bins=self.bins),
                               {"df": df, "observed": counts, "expected": expected, "recurrences": int(counts.sum())})


@register("gap-16", Gap16Tally)
def gap16(source: Source, n: int, *, bins: int = 64) -> EmpiricalResult:
    """Pearson's chi-square of the gaps between recurrences of ``n`` successive 16-bit values.

    The bit stream (the selected bits of each output, concatenated) is cut
    into ``n`` values of 16 bits. Each value that occurred before closes a gap,
    the number of values since its previous occurrence; for independent
    uniform values a gap of ``g`` has probability ``p q^g`` (``p = 2^-16``,
    ``q = 1 - p``) and the expected count of gaps ``g`` in the whole sample
    is exactly ``(n - g - 1) p q^g`` (:func:`expected_gaps`, the first
    occurrences closing none). The gaps are counted in ``bins`` bins equally
    likely under the geometric law (:func:`gap_edges`), the sparse ones
    merged until each expects 10 or more
    (:func:`~rnglab.empirical.stattests.hamming.merge_sparse_tails`). Pearson's
    ``X^2`` splits exactly into the shape, ``sum (O - c E)^2 / E`` with
    ``c = O_total / E_total`` (``k - 1`` degrees of freedom for ``k`` merged
    bins), and the total, ``(O_total - E_total)^2 / E_total``; the total is
    ``n - D``, ``D`` the number of distinct values, whose variance
    (:func:`distinct_variance`) is far below the Poisson value ``E_total``
    once ``n`` passes ``2^16``. The statistic is the shape plus
    ``(O_total - E_total)^2 / Var D``, referred to chi-square with ``k``
    degrees of freedom. The counts are not exactly multinomial given their
    total (the gaps of different values interlock), so the law is an
    approximation, checked by calibration on ideal sources
    (``tests/empirical/stattests/test_gap16.py``: uniform p-values from ``n = 2^12``
    to ``2^20``).

    A sequence whose values recur too regularly (the short periods of the
    low bits of a power-of-two LCG: every gap one less than the period) or
    too rarely fails at once; PractRand's Gap-16 finds most of the
    power-of-two LCG failures this way on its low-bit folds.

    Parameters
    ----------
    source : Source
    n : int
        Number of 16-bit values (``16 n`` bits of the stream are read).
    bins : int
        Bins before merging, 2 to 4096.

    References
    ----------
    C. Doty-Humphrey, PractRand 0.94, doc/Tests_engines.txt (Gap16, a variant
    of the classical gap test), whose source was read for the statistic's
    design (16-bit values, every value's gaps); the binning, the exact
    expected counts and the split of the statistic are rnglab's own. Knuth, TAOCP vol. 2, 3.3.2 D (the
    gap test).
    """
    return Gap16Tally(source, bins=bins).extend(source, n).result()
