"""Knuth's empirical tests on digits and uniforms: gap, poker, coupon collector, permutation, maximum-of-t.

D. E. Knuth, *The Art of Computer Programming*, vol. 2, 3rd ed., section 3.3.2,
parts C to H (runs up, part G, is in :mod:`.runs`); TestU01's ``sknuth``
module implements the same tests (P. L'Ecuyer, R. Simard, ACM TOMS 33(4), 2007).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from rnglab.core.compiled import njit
from rnglab.empirical.stattests.base import (
    EmpiricalResult,
    ResolutionError,
    Tally,
    check_interval,
    check_min_expected,
    check_sample,
    chi_square,
    gateway_params,
    register,
    require,
)
from rnglab.empirical.stattests.frequency import (
    CHUNK,
    check_cells,
    check_digits,
    digit_reader,
    equally_likely_result,
    group_counts,
    uniform_levels,
    uniform_reader,
)
from rnglab.empirical.stattests.hamming import merge_sparse_tails
from rnglab.generators.base import Source
from rnglab.streams.gateway import selection_of, uniforms
from rnglab.streams.tape import Tape

#: Under the null hypothesis, reading this many times the expected number of values
#: without completing n gaps or segments has probability below 1e-20 (see :class:`SegmentCounts`).
READ_LIMIT = 4


def stirling2(n: int, k: int) -> int:
    """Stirling number of the second kind: the ways to partition ``n`` objects into ``k`` non-empty blocks.

    Exact, from ``S(n, k) = k S(n-1, k) + S(n-1, k-1)`` (Knuth, TAOCP vol. 1, 1.2.6).
    """
    row = [1] + [0] * k
    for _ in range(n):
        row = [0] + [j * row[j] + row[j - 1] for j in range(1, k + 1)]
    return row[k]


class SegmentCounts:
    """The lengths of the segments (gaps, coupon-collector segments) counted so far along a stream.

    :meth:`extend` reads values until ``n`` segments are complete; it goes on
    where the last call stopped. ``scan(values, opened)`` returns the lengths
    of the segments completed in ``values`` -- the first one including the
    ``opened`` values of the segment left open by earlier reads -- and the
    length of the segment now left open. Only that length is carried from one
    read to the next, so every value is scanned once, however long the
    segments (carrying the open segment's values instead made a source that
    never completes one cost quadratic time: over three minutes for the
    ``small`` battery's gap test). Each read asks for the expected number of
    values still needed (``mean_length`` per segment) plus 5 %, at most
    :data:`CHUNK` at a time; the values after the ``n``-th segment's end are
    given back (``give_back(used)``, with ``used`` the values of the last read
    that were counted), so that reading stops exactly there, wherever the
    reads were cut. Reading stops after ``READ_LIMIT (n + 100)`` mean lengths:
    for a sound source the n lengths would then exceed their mean by
    ``3n + 400`` mean lengths, over 60 standard deviations (a gap's or a
    segment's standard deviation is at most its mean), which has probability
    far below 1e-20 for these geometric-tailed lengths; a source that gets
    there has *stalled*, and costs at most ``READ_LIMIT`` times a normal run.

    Parameters
    ----------
    cap : int
        Lengths ``>= cap`` are counted together.
    closing : int
        Values a segment holds beyond its length: 1 for a gap, whose length
        counts the values before the one that ends it; 0 for a segment of
        the coupon collector test.
    longest : int, optional
        When set, ``scan`` cuts a segment still open after ``longest``
        values and returns it as length ``longest + 1`` (the coupon
        collector test as TestU01 runs it): it holds ``longest`` values.

    Attributes
    ----------
    counts : numpy.ndarray
        ``counts[r]``: segments of length ``r < cap``; ``counts[cap]``: of length ``>= cap``.
    found : int
        Segments complete.
    values_read : int
        Values counted: up to the last segment's end, or to the read limit.
    opened : int
        Length of the segment left open.
    """

    def __init__(self, cap: int, closing: int, longest: int | None = None) -> None:
        self.counts, self.closing, self.longest = np.zeros(cap + 1, dtype=np.int64), closing, longest
        self.found = self.values_read = self.opened = 0

    def values_held(self, lengths: np.ndarray) -> int:
        """The values that segments of these lengths hold."""
        held = lengths if self.longest is None else np.minimum(lengths, self.longest)
        return int(held.sum()) + self.closing * lengths.size

    def extend(self, read: Callable[[int], np.ndarray], n: int, mean_length: float,
               scan: Callable[[np.ndarray, int], tuple[np.ndarray, int]],
               give_back: Callable[[int], None] = lambda used: None) -> bool:
        """Read until ``n`` segments are complete (or the read limit of ``n``); return whether the source stalled."""
        limit, cap = math.ceil(READ_LIMIT * (n + 100) * mean_length), self.counts.size - 1
        while self.found < n and self.values_read < limit:
            size = min(math.ceil((n - self.found) * mean_length * 1.05) + 256, CHUNK, limit - self.values_read)
            opened = self.opened
            lengths, self.opened = scan(read(size), opened)
            if lengths.size >= n - self.found:  # the n-th segment ends in this read: stop there
                lengths = lengths[: n - self.found]
                used = self.values_held(lengths) - opened
                if used < size:
                    give_back(used)
                    size, self.opened = used, 0
            self.values_read += size
            self.counts += np.bincount(np.minimum(lengths, cap), minlength=cap + 1)
            self.found += lengths.size
        return self.found < n


def read_segments(source: Source, segments: SegmentCounts, values: Callable[[Source, int], np.ndarray], n: int,
                  mean_length: float, scan: Callable[[np.ndarray, int], tuple[np.ndarray, int]]) -> bool:
    """:meth:`SegmentCounts.extend` on ``values(source, size)``, leaving ``source`` right after the last value counted.

    Each read goes through a :class:`~.tape.Tape`: the values after the
    ``n``-th segment's end are read again from the tape up to that end, and the
    outputs left over go back to the source.
    """
    tape = Tape(source)

    def read(size: int) -> np.ndarray:
        tape.mark()
        return values(tape, size)

    try:
        return segments.extend(read, n, mean_length, scan, lambda used: tape.rewind(lambda again: values(again, used)))
    finally:
        tape.close()


def stalled_result(name: str, what: str, params: dict, found: int, values_read: int) -> EmpiricalResult:
    """The result of a source that stopped completing segments (``what``: "gaps", ...): p-value 0 (< 1e-20 in truth)."""
    explanation = (f"only {found} of the {params['n']} {what} were complete after {values_read} values, "
                   f"{READ_LIMIT} (n + 100) times their mean length: the source never, or far too rarely, "
                   f"completes one")
    return EmpiricalResult(name, math.inf, 0.0, params, {"stalled": True, "segments_found": found,
                                                         "values_read": values_read, "explanation": explanation})


def check_classes(n: int, probabilities, what: str, minimum: float = 5.0) -> None:
    """Check, before reading, that ``n`` samples fill two or more classes with expected counts ``>= minimum``.

    Sparse end classes are merged first, as :func:`counted_result` will.
    """
    expected = n * np.asarray([float(p) for p in probabilities])
    _, merged, _ = merge_sparse_tails(np.zeros_like(expected), expected, minimum)
    require(merged.size >= 2 and merged.min() >= minimum,
            f"{what} needs two or more classes with expected count n p >= {minimum:g} after merging sparse ones; "
            f"n = {n} is too small")


def counted_result(name: str, observed: np.ndarray, probabilities, params: dict, details: dict,
                   minimum: float = 5.0) -> EmpiricalResult:
    """Chi-square of ``observed`` counts against ``n p_i``, after merging sparse classes to ``>= minimum`` each
    (:func:`~.hamming.merge_sparse_tails`, TestU01's ``gofs_MergeClasses``)."""
    expected = int(observed.sum()) * np.asarray([float(p) for p in probabilities])
    observed, expected, classes = merge_sparse_tails(observed, expected, minimum)
    statistic, pvalue, df = chi_square(observed, expected)
    return EmpiricalResult(name, statistic, pvalue, params, {"observed": observed, "expected": expected, "df": df,
                                                             "merged_classes": classes, **details})


def gap_probabilities(p: float, t: int) -> list[float]:
    """Knuth 3.3.2 eq. (4): ``p_r = p (1-p)^r`` for ``0 <= r < t`` and ``p_t = (1-p)^t`` (gaps ``>= t``)."""
    return [p * (1 - p) ** r for r in range(t)] + [(1 - p) ** t]


def gap_lengths(hits: np.ndarray, opened: int) -> tuple[np.ndarray, int]:
    """Lengths of the gaps completed in a boolean array (True = a hit), and of the gap left open after the last hit.

    The first gap also counts the ``opened`` values of a gap begun before the array.
    """
    where = np.flatnonzero(hits)
    if not where.size:
        return where, opened + hits.size
    lengths = np.diff(where, prepend=-1) - 1
    lengths[0] += opened
    return lengths, hits.size - 1 - int(where[-1])


class GapTally(Tally):
    """The counts of the gap test's lengths, carried on (:func:`gap`): the stream stops right after the last gap."""

    def __init__(self, source: Source, *, alpha: float = 0.0, beta: float = 0.5, t: int = 8) -> None:
        super().__init__()
        self.t = check_sample("t", t, 1)
        check_interval(alpha, beta)
        self.alpha, self.beta, self.selection = alpha, beta, selection_of(source)
        self.probabilities = gap_probabilities(beta - alpha, self.t)
        self.segments = SegmentCounts(self.t, 1)

    def check(self, n: int) -> None:
        check_classes(n, self.probabilities, "the gap test")

    def _hits(self, source: Source, size: int) -> np.ndarray:
        u = uniforms(source, size)
        return (u >= self.alpha) & (u < self.beta)

    def _read(self, source: Source, count: int) -> None:
        read_segments(source, self.segments, self._hits, self.samples + count, 1 / (self.beta - self.alpha),
                      gap_lengths)

    def result(self) -> EmpiricalResult:
        n, segments = self.samples, self.segments
        params = gateway_params(n, self.selection, alpha=self.alpha, beta=self.beta, t=self.t)
        if segments.found < n:
            return stalled_result("gap", "gaps", params, segments.found, segments.values_read)
        return counted_result("gap", segments.counts.copy(), self.probabilities, params,
                              {"values_read": segments.values_read})


@register("gap", GapTally)
def gap(source: Source, n: int, *, alpha: float = 0.0, beta: float = 0.5, t: int = 8) -> EmpiricalResult:
    """Gap test: lengths of the gaps between successive uniforms that fall in ``[alpha, beta)``.

    A *gap* of length ``r`` is ``r`` values outside ``[alpha, beta)`` followed
    by one inside (Knuth 3.3.2 C, Algorithm G's counting). With
    ``p = beta - alpha``, a gap has length ``r`` with probability
    ``p (1-p)^r``; lengths ``>= t`` are lumped, with probability ``(1-p)^t``.
    The counts of ``n`` gaps give Pearson's ``X^2``, asymptotically
    chi-square with ``t`` degrees of freedom. Valid when every expected
    count is ``>= 5`` (enforced; sparse end classes are merged first, which
    costs degrees of freedom). ``n`` is the number of gaps: the source is
    read until ``n`` are complete (about ``n / p`` values) and left right
    after the last one.

    Parameters
    ----------
    source : Source
    n : int
        Number of gaps counted.
    alpha, beta : float
        The interval, ``0 <= alpha < beta <= 1``.
    t : int
        Gap lengths ``0 .. t-1`` are counted apart, ``>= t`` together (``t >= 1``).

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.3.2 C, Algorithm G and eq. (4).
    TestU01 (sknuth_Gap).
    """
    return GapTally(source, alpha=alpha, beta=beta, t=t).extend(source, n).result()


@functools.lru_cache(maxsize=64)
def poker_probabilities(d: int, k: int) -> tuple[Fraction, ...]:
    """Knuth 3.3.2 eq. (5): ``P(r distinct values among k) = d (d-1)..(d-r+1) S(k, r) / d^k``, ``r = 1..min(k, d)``."""
    return tuple(Fraction(math.perm(d, r) * stirling2(k, r), d**k) for r in range(1, min(k, d) + 1))


def distinct_per_row(groups: np.ndarray, d: int) -> np.ndarray:
    """Number of distinct values in each row of an ``(m, k)`` array of digits in ``[0, d)``.

    For ``d <= 64`` a row's digits are set as bits of one word, whose popcount
    is the answer: ``k`` vectorised passes. Otherwise a digit counts if no
    earlier column of its row equals it: ``k (k - 1) / 2`` passes (496
    rather than 32 for the ``small`` battery's hands of ``k = 32``).
    """
    if d <= 64:
        bits = np.left_shift(1, groups)
        masks = bits[:, 0].copy()
        for column in bits.T[1:]:
            masks |= column
        return np.bitwise_count(masks.view(np.uint64))
    distinct = np.ones(groups.shape[0], dtype=np.intp)
    for j in range(1, groups.shape[1]):
        new = np.ones(groups.shape[0], dtype=bool)
        for i in range(j):
            new &= groups[:, j] != groups[:, i]
        distinct += new
    return distinct


class PokerTally(Tally):
    """The poker test's hands by their number of distinct digits, carried on (:func:`poker`)."""

    def __init__(self, source: Source, *, d: int | None = None, k: int = 5, min_expected: float = 5.0) -> None:
        super().__init__()
        self.d, self.k, self.selection = check_digits(source, d, 8), check_sample("k", k, 2), selection_of(source)
        self.min_expected = check_min_expected(min_expected)
        self.probabilities = poker_probabilities(self.d, self.k)
        self.counts = np.zeros(min(self.k, self.d) + 1, dtype=np.int64)

    def check(self, n: int) -> None:
        check_classes(n, self.probabilities, "the poker test", self.min_expected)

    def _read(self, source: Source, count: int) -> None:
        self.counts += group_counts(digit_reader(source, self.d), count, self.k,
                                    lambda groups: distinct_per_row(groups, self.d), self.counts.size)

    def result(self) -> EmpiricalResult:
        n = self.samples
        params = gateway_params(n, self.selection, d=self.d, k=self.k, min_expected=self.min_expected)
        return counted_result("poker", self.counts[1:], self.probabilities, params,
                              {"values_read": n * self.k, "classes": "r = 1 .. min(k, d) distinct values"},
                              self.min_expected)


@register("poker", PokerTally)
def poker(source: Source, n: int, *, d: int | None = None, k: int = 5, min_expected: float = 5.0) -> EmpiricalResult:
    """Poker (partition) test: the number of distinct digits in ``n`` groups of ``k``.

    Digits are ``y = floor(d u)``; group ``j`` is ``y_{kj}, ..., y_{kj+k-1}``
    and ``r`` the number of distinct values in it. Under the null hypothesis

        ``P(r) = d (d-1) ... (d-r+1) S(k, r) / d^k``,  ``1 <= r <= min(k, d)``,

    with ``S`` the Stirling numbers of the second kind (Knuth 3.3.2 D,
    eq. (5)). Sparse classes are merged until every expected count is
    ``>= min_expected`` (Knuth lumps the low ``r`` the same way; TestU01's
    ``gofs_MergeClasses``, whose threshold ``gofs_MinExpected`` is 10);
    Pearson's ``X^2`` on the merged classes is asymptotically chi-square with
    one fewer degree of freedom than classes. Enforced: at least two classes
    remain, each with expected count ``>= min_expected``.

    Parameters
    ----------
    source : Source
    n : int
        Number of groups (``n k`` outputs are read).
    d : int, optional
        Digits per output, ``2 <= d <= 2^w``; default ``min(8, 2^w)``.
    k : int
        Group size, ``k >= 2``.
    min_expected : float
        The least expected count of a class after merging (5, Knuth's rule; SmallCrush's 10).

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.3.2 D and eq. (5).
    TestU01 (sknuth_SimpPoker).
    """
    return PokerTally(source, d=d, k=k, min_expected=min_expected).extend(source, n).result()


@functools.lru_cache(maxsize=64)
def coupon_probabilities(d: int, t: int) -> tuple[Fraction, ...]:
    """Knuth 3.3.2 E: probabilities of the segment lengths ``r = d .. t-1`` and ``>= t``.

    ``q_r = d! S(r-1, d-1) / d^r`` for ``d <= r < t`` and ``q_t = 1 - d! S(t-1, d) / d^(t-1)``.
    """
    factorial = math.factorial(d)
    exact = [Fraction(factorial * stirling2(r - 1, d - 1), d**r) for r in range(d, t)]
    return (*exact, 1 - Fraction(factorial * stirling2(t - 1, d), d ** (t - 1)))


def default_coupon_tail(d: int, n: int) -> int:
    """The ``t`` (``d < t <= 8d``) just past the last length ``r`` with ``n q_r >= 5``.

    Beyond the mode ``q_r`` decreases by about ``1 - 1/d`` per step, so the
    lumped class ``>= t`` is then larger than ``q_(t-1)`` and also valid.
    """
    lengths = coupon_probabilities(d, 8 * d)[:-1]
    valid = [r for r, q in enumerate(lengths, start=d) if n * q >= 5]
    return min(max(valid, default=d) + 1, 8 * d)


#: ``longest`` of :func:`coupon_segments` for segments that are never cut.
UNCUT = np.iinfo(np.int64).max


@njit(cache=True, nogil=True)
def coupon_segments(values, seen, opened, longest):  # pragma: no cover - compiled
    """Lengths of the successive segments of ``values`` that each contain all of ``0 .. d-1``, and of the open one.

    ``seen`` (``d`` booleans, updated in place) marks the digits of the
    segment left open by earlier values, which has ``opened`` values; the
    first length returned includes them. A segment still incomplete after
    ``longest >= d`` values ends there, returned as length ``longest + 1``
    (:data:`UNCUT`: never). A compiled loop, because the scan is a chain:
    each segment starts where the previous one ended, so its starts cannot
    be found independently.
    """
    d = seen.size
    lengths = np.empty(values.size // d + 1, dtype=np.int64)
    count, length, missing = 0, opened, d - np.count_nonzero(seen)
    for i in range(values.size):  # no branch on whether a digit is new (unpredictable), one per segment
        length += 1
        missing -= not seen[values[i]]
        seen[values[i]] = True
        if missing == 0 or length == longest:
            lengths[count] = length if missing == 0 else longest + 1
            count += 1
            length, missing = 0, d
            seen[:] = False
    return lengths[:count], length


class CouponTally(Tally):
    """The coupon collector test's segment lengths, carried on (:func:`coupon`): the stream stops right after the
    last segment, and the lengths are counted up to ``8 d`` (or ``t``) so that the default ``t`` of any ``n``
    can lump them."""

    def __init__(self, source: Source, *, d: int | None = None, t: int | None = None, cut: bool = False,
                 min_expected: float = 5.0) -> None:
        super().__init__()
        self.d, self.selection = check_digits(source, d, 8), selection_of(source)
        self.t = None if t is None else check_sample("t", t, self.d + 1)
        require(not cut or self.t is not None, "cut needs t: the segments are cut after t - 1 values")
        self.cut, self.min_expected = bool(cut), check_min_expected(min_expected)
        self.mean_length = self.d * sum(1 / i for i in range(1, self.d + 1))
        longest = self.t - 1 if self.cut else None
        self.segments = SegmentCounts(max(self.t or 0, 8 * self.d), 0, longest)
        self.longest = UNCUT if longest is None else longest
        self.seen = np.zeros(self.d, dtype=np.bool_)

    def tail(self, n: int) -> int:
        """The ``t`` of ``n`` segments: lengths ``>= t`` are lumped."""
        return default_coupon_tail(self.d, n) if self.t is None else self.t

    def check(self, n: int) -> None:
        check_classes(n, coupon_probabilities(self.d, self.tail(n)), "the coupon collector test", self.min_expected)

    def _digits(self, source: Source, size: int) -> np.ndarray:
        return digit_reader(source, self.d)(size)

    def _read(self, source: Source, count: int) -> None:
        read_segments(source, self.segments, self._digits, self.samples + count, self.mean_length,
                      lambda values, opened: coupon_segments(values, self.seen, opened, self.longest))
        if self.segments.found == self.samples + count:  # stopped at a segment's end: none is open
            self.seen[:] = False

    def result(self) -> EmpiricalResult:
        n, d, segments = self.samples, self.d, self.segments
        t = self.tail(n)
        params = gateway_params(n, self.selection, d=d, t=t, cut=self.cut, min_expected=self.min_expected)
        if segments.found < n:
            return stalled_result("coupon", "segments", params, segments.found, segments.values_read)
        counts = np.append(segments.counts[d:t], segments.counts[t:].sum())
        return counted_result("coupon", counts, coupon_probabilities(d, t), params,
                              {"values_read": segments.values_read, "classes": f"lengths {d} .. {t - 1}, then >= {t}"},
                              self.min_expected)


@register("coupon", CouponTally)
def coupon(source: Source, n: int, *, d: int | None = None, t: int | None = None, cut: bool = False,
           min_expected: float = 5.0) -> EmpiricalResult:
    """Coupon collector test: lengths of the segments needed to see all ``d`` digits.

    The digits ``y = floor(d u)`` are cut into successive segments, each
    ending as soon as it contains every value ``0 .. d-1``. A segment has
    length ``r >= d`` with probability ``q_r = d! S(r-1, d-1) / d^r``
    (Stirling numbers of the second kind); lengths ``>= t`` are lumped, with
    probability ``1 - d! S(t-1, d) / d^(t-1)`` (Knuth 3.3.2 E): the
    probability that ``t - 1`` values do not hold every digit. With ``cut``
    a segment stops there, after ``t - 1`` values, whether complete or not
    (TestU01's sknuth_CouponCollector, whose ``t`` is 62): the same law, and
    no segment reads more than ``t - 1`` values. Pearson's ``X^2`` on the
    counts of ``n`` segments, after merging sparse classes until each
    expected count is ``>= min_expected``, is asymptotically chi-square with
    one fewer degree of freedom than classes.

    The scan is sequential (each segment starts where the previous one
    ended, so the starts form a data-dependent chain); numpy could only
    follow that chain by pointer doubling, ``O(n log n)`` work, so it is a
    compiled numba loop (``O(n)``, a few ns per value).

    Parameters
    ----------
    source : Source
        Read until ``n`` segments are complete (about ``n d H_d`` values), and left right after the last.
    n : int
        Number of segments.
    d : int, optional
        Digits per output, ``2 <= d <= 2^w``; default ``min(8, 2^w)``.
    t : int, optional
        Lengths ``>= t`` are lumped, ``t > d``; default: just past the last
        length whose expected count is ``>= 5`` (at most ``8 d``).
    cut : bool
        Cut the segments after ``t - 1`` values (needs ``t``).
    min_expected : float
        The least expected count of a class after merging (5, Knuth's rule; SmallCrush's 10).

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.3.2 E, Algorithm C and the probabilities q_r.
    TestU01 (sknuth_CouponCollector).
    """
    return CouponTally(source, d=d, t=t, cut=cut, min_expected=min_expected).extend(source, n).result()


def permutation_indices(columns: np.ndarray) -> np.ndarray:
    """Index in ``[0, t!)`` of the relative order of each row of an ``(m, t)`` array (its Lehmer code); ``t!`` for
    a row with two equal values.

    ``f = sum_i c_i (t-1-i)!`` with ``c_i = #{j > i : u_j < u_i}``, the
    factorial number system of Knuth's Algorithm P (3.3.2 F): ``t (t-1) / 2``
    comparisons a row, in one compiled pass (:func:`_lehmer_codes`; numpy's
    ``t (t-1) / 2`` passes over the columns, with their temporaries, cost
    three times as much).
    """
    t = columns.shape[1]
    weights = np.array([math.factorial(t - 1 - i) for i in range(t)], dtype=np.intp)
    return _lehmer_codes(np.ascontiguousarray(columns), weights, math.factorial(t))


@njit(cache=True, nogil=True)
def _lehmer_codes(columns, weights, tied_index):  # pragma: no cover - compiled
    """``sum_i #{j > i : u_j < u_i} weights[i]`` of each row, or ``tied_index`` when two of its values are equal."""
    rows, t = columns.shape
    index = np.empty(rows, dtype=np.intp)
    for row in range(rows):
        code, tied = 0, False
        for i in range(t - 1):
            smaller_later = 0
            for j in range(i + 1, t):
                smaller_later += columns[row, j] < columns[row, i]
                tied |= columns[row, j] == columns[row, i]
            code += smaller_later * weights[i]
        index[row] = tied_index if tied else code
    return index


class PermutationTally(Tally):
    """The permutation test's counts of orderings (and of tuples with a tie, last), carried on (:func:`permutation`)."""

    def __init__(self, source: Source, *, t: int = 3) -> None:
        super().__init__()
        self.t, self.selection = check_sample("t", t, 2), selection_of(source)
        self.counts = np.zeros(math.factorial(self.t) + 1, dtype=np.int64)

    def check(self, n: int) -> None:
        check_cells(n, math.factorial(self.t), "the permutation test")

    def _read(self, source: Source, count: int) -> None:
        self.counts += group_counts(uniform_reader(source), count, self.t, permutation_indices,
                                    self.counts.size)

    def result(self) -> EmpiricalResult:
        n = self.samples
        result = equally_likely_result("permutation", self.counts[:-1].copy(), gateway_params(n, self.selection,
                                                                                             t=self.t), n * self.t)
        return dataclasses.replace(result, details={**result.details, "ties": int(self.counts[-1])})


@register("permutation", PermutationTally)
def permutation(source: Source, n: int, *, t: int = 3) -> EmpiricalResult:
    """Permutation test: the relative order of ``n`` non-overlapping t-tuples, ``t!`` equally likely.

    Each tuple ``(u_{tj}, ..., u_{tj+t-1})`` is mapped to the index of its
    ordering (:func:`permutation_indices`). A tuple with two equal values has
    no ordering and is left out: for i.i.d. values of *any* distribution,
    discrete ones included, the ``t!`` orderings are equally likely given that
    the values are distinct (exchangeability), so the ``m`` tuples without a
    tie give Pearson's ``X^2`` against ``m / t!``, asymptotically chi-square
    with ``t! - 1`` degrees of freedom, at any resolution. (Counting a tie as
    ascending instead biases a coarse source: ``C(t, 2) / L`` of the tuples
    for ``L`` levels.) Valid when ``n / t! >= 5`` (enforced, and again for ``m``).

    Parameters
    ----------
    source : Source
    n : int
        Number of tuples (``n t`` uniforms are read).
    t : int
        Tuple length, ``t >= 2``.

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.3.2 F, Algorithm P.
    TestU01 (sknuth_Permutation).
    """
    return PermutationTally(source, t=t).extend(source, n).result()


def row_maxima(groups: np.ndarray) -> np.ndarray:
    """The largest value of each row of an ``(m, t)`` array."""
    largest = groups[:, 0].copy()
    for column in range(1, groups.shape[1]):
        np.maximum(largest, groups[:, column], out=largest)
    return largest


def power_cells(largest: np.ndarray, t: int, d: int) -> np.ndarray:
    """Cells ``floor(d x^t)`` (at most ``d - 1``) of uniforms ``x``, in the floating point the test uses."""
    power = largest.copy()
    for _ in range(1, t):
        power *= largest
    return np.minimum((power * d).astype(np.intp), d - 1)


@functools.lru_cache(maxsize=16)
def maximum_cell_probabilities(levels: int, t: int, d: int) -> np.ndarray:
    """Exact probabilities of the ``d`` cells of ``floor(d M^t)`` when ``M`` is the maximum of ``t``
    independent uniforms on the ``L = levels`` values ``k / L``.

    ``P(M <= k / L) = ((k + 1) / L)^t``, and the cells are monotone in ``k``:
    cell ``c`` holds the levels ``k_c <= k < k_(c+1)``, with ``k_c`` the
    first level whose cell (computed by :func:`power_cells`, the very
    floating point the test applies to its sample) is ``>= c``, found by a
    vectorised bisection over ``[0, L]``. So
    ``p_c = (k_(c+1) / L)^t - (k_c / L)^t``. For ``L`` much larger than
    ``t d`` these are ``1/d`` up to ``O(t d / L)``; for a coarse source
    (``L = 2^15``, ``d = 10^5``) most cells hold no level at all, which the
    textbook equal cells ignore.
    """
    targets = np.arange(d + 1)
    low, high = np.zeros(d + 1, dtype=np.int64), np.full(d + 1, levels, dtype=np.int64)
    while np.any(low < high):
        middle = (low + high) // 2
        below = power_cells(middle.astype(np.float64) / float(levels), t, d) < targets
        low, high = np.where(below, middle + 1, low), np.where(below, high, middle)
    low[0], low[-1] = 0, levels
    cumulative = (low.astype(np.float64) / float(levels)) ** t
    probabilities = np.diff(cumulative)
    probabilities.flags.writeable = False
    return probabilities


def adjacent_groups(expected: np.ndarray, minimum: float = 5.0) -> np.ndarray:
    """Starts of the groups of adjacent cells, each with total expected count ``>= minimum``.

    Greedy from the left: a group closes as soon as its total reaches
    ``minimum``; a short remainder joins the last group. Cells whose expected
    counts alternate (one level of a discrete source, then two) are merged
    where the end merging of :func:`merge_sparse_tails` would leave them.
    A compiled loop (:func:`_group_starts`): in Python it cost 25 ms for
    the ``small`` battery's 100,000 cells, whatever the sample size.
    """
    starts, count = _group_starts(np.ascontiguousarray(expected, dtype=np.float64), float(minimum))
    return starts[:count]


@njit(cache=True, nogil=True)
def _group_starts(expected, minimum):  # pragma: no cover - compiled
    """The starts of :func:`adjacent_groups` (the first ``count`` of the array returned) and ``count``."""
    starts = np.empty(expected.size + 1, dtype=np.int64)
    starts[0], count, total = 0, 1, 0.0
    for index in range(expected.size):
        if total >= minimum:
            starts[count] = index
            count += 1
            total = 0.0
        total += expected[index]
    if total < minimum and count > 1:
        count -= 1
    return starts, count


class MaximumTally(Tally):
    """The maximum-of-t test's cell counts, carried on (:func:`max_of_t`), and with ``anderson_darling`` the
    values ``V`` (8 bytes each)."""

    def __init__(self, source: Source, *, t: int = 5, d: int = 64, equal_cells: bool = False,
                 anderson_darling: bool = False) -> None:
        super().__init__()
        self.t, self.d, self.selection = check_sample("t", t, 2), check_sample("d", d, 2), selection_of(source)
        self.equal_cells, self.anderson_darling = bool(equal_cells), bool(anderson_darling)
        self.levels = uniform_levels(source)
        self.probabilities = (np.full(self.d, 1 / self.d) if self.equal_cells
                              else maximum_cell_probabilities(self.levels, self.t, self.d))
        self.reached = self.probabilities > 0
        self.counts = np.zeros(self.d, dtype=np.int64)
        self.values: list[np.ndarray] = []

    def classes(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The expected counts of the reached cells for ``n`` tuples, and the starts of their merged classes."""
        expected = n * self.probabilities[self.reached]
        starts = adjacent_groups(expected)
        if starts.size < 2:
            raise ResolutionError(f"the maximum-of-t test needs two or more classes with expected count n p >= 5 at "
                                  f"this resolution ({self.levels} levels); n = {n} is too small")
        return expected, starts

    def check(self, n: int) -> None:
        check_cells(n, self.d, "the maximum-of-t test")
        self.classes(n)

    def _cells(self, groups: np.ndarray) -> np.ndarray:
        largest = row_maxima(groups)
        if self.anderson_darling:
            self.values.append(largest**self.t)
        return power_cells(largest, self.t, self.d)

    def _read(self, source: Source, count: int) -> None:
        self.counts += group_counts(uniform_reader(source), count, self.t, self._cells, self.d)

    def result(self) -> EmpiricalResult:
        n = self.samples
        expected, starts = self.classes(n)
        observed, expected = np.add.reduceat(self.counts[self.reached], starts), np.add.reduceat(expected, starts)
        statistic, pvalue, df = chi_square(observed, expected)
        details = {"observed": observed, "expected": expected, "df": df, "values_read": n * self.t,
                   "levels": self.levels, "cells_reached": int(self.reached.sum())}
        if self.anderson_darling:
            from rnglab.empirical.secondlevel import anderson_darling_uniform  # it imports this package: at run time

            a2, a2_pvalue = anderson_darling_uniform(np.concatenate(self.values))
            details["anderson_darling"] = {"statistic": a2, "pvalue": a2_pvalue}
        params = gateway_params(n, self.selection, t=self.t, d=self.d, equal_cells=self.equal_cells,
                                anderson_darling=self.anderson_darling)
        return EmpiricalResult("max-of-t", statistic, pvalue, params, details)


@register("max-of-t", MaximumTally)
def max_of_t(source: Source, n: int, *, t: int = 5, d: int = 64, equal_cells: bool = False,
             anderson_darling: bool = False) -> EmpiricalResult:
    """Maximum-of-t test: ``V = max(u_1..u_t)^t`` is uniform, checked by chi-square on ``d`` cells.

    For independent continuous uniforms, ``P(max <= x) = x^t``, so
    ``V_j = max(u_{tj}, ..., u_{tj+t-1})^t`` is uniform on ``[0, 1)`` (Knuth
    3.3.2 H), and the counts of ``floor(d V_j)`` over ``n`` tuples are
    compared with Pearson's ``X^2`` (the chi-square variant, as TestU01's
    sknuth_MaxOft). A real source has ``L`` levels (``2^15`` for MSVC
    ``rand()``): its maximum is discrete and the cells are *not* equally
    likely (at ``L = 2^15``, ``d = 10^5``, ``t = 6`` two cells in three hold
    no level), so the expected counts are the exact ones of the discrete
    maximum (:func:`maximum_cell_probabilities`); cells that no level
    reaches are left out and adjacent cells merged until every expected
    count is ``>= 5`` (:func:`adjacent_groups`). ``X^2`` is asymptotically chi-square with one fewer
    degree of freedom than cells. For ``L >> t d`` this is the textbook
    test (equal cells ``n / d``, ``d - 1`` degrees of freedom) up to
    ``O(t d / L)`` in each expected count; ``equal_cells`` takes the
    textbook cells at any ``L``, as TestU01's sknuth_MaxOft does (at
    ``L = 2^32``, ``t = 6``, ``d = 10^5`` the exact expected counts differ
    from ``n / d`` by up to 1.4e-4 of it, which moves ``X^2`` by about 4).
    With ``anderson_darling`` the ``n`` values ``V`` are also compared with
    U(0, 1) by Anderson-Darling (SmallCrush's second statistic of the
    test), its ``A^2`` and right-tail p-value in ``details``
    (:func:`~rnglab.empirical.secondlevel.anderson_darling_uniform`).
    Enforced: ``n / d >= 5``.

    Parameters
    ----------
    source : Source
    n : int
        Number of tuples (``n t`` uniforms are read).
    t : int
        Tuple length, ``t >= 2``.
    d : int
        Number of cells, ``d >= 2``.
    equal_cells : bool
        Expect ``n / d`` in every cell (the law of continuous uniforms).
    anderson_darling : bool
        Also test the values ``V`` by Anderson-Darling (keeps them: 8 bytes each).

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.3.2 H.
    TestU01 (sknuth_MaxOft).
    """
    return MaximumTally(source, t=t, d=d, equal_cells=equal_cells, anderson_darling=anderson_darling).extend(source, n).result()
