"""BCFN: the signs of the bit-count deviations of blocks at doubling sizes, tested as overlapping patterns."""

from __future__ import annotations

import functools

import numpy as np

from rnglab.algebra.gf2_kernels import popcount
from rnglab.core.compiled import njit
from rnglab.core.laws import binom_cdf, binom_pmf, binom_sf, chi2_sf
from rnglab.empirical.stattests.base import EmpiricalResult, Tally, gateway_params, register, require
from rnglab.generators.base import Source
from rnglab.streams.gateway import BitReader, selection_of

#: Levels at most: blocks of up to ``2^(LEVELS - 1)`` base blocks (a tally counts them all, whatever the size it
#: will reach; those its size does not test cost a fraction ``2^-top`` of the work).
LEVELS = 16

#: Expected count per pattern for a level to be tested (20: at 5, the rule of thumb, the smallest levels
#: raised false alarms several times too often in calibration).
MIN_EXPECTED = 20.0


#: Blocks per chunk of the stream: the blocks and their deviations stay in the processor's cache.
CHUNK_BLOCKS = 2**16


@njit(cache=True, nogil=True)
def _deviations(words, per, block_bits, count, out):  # pragma: no cover - compiled
    """``popcount(block) - block_bits / 2`` of ``count`` blocks held ``per`` to a uint64 word (the first in the most
    significant bits, :func:`~rnglab.streams.gateway.field_words`), into ``out`` (returned, ``count`` long).

    One to four blocks a word (32-bit blocks of 32- and 64-bit outputs, 16-bit ones of 64) are read by a loop
    whose ``per`` is a constant, unrolled by the compiler: 0.38 ns a block where a loop over a ``per`` known only
    at run time, stopping at ``count``, took 4.2 (32-bit blocks, one a word)."""
    if per == 1:
        return _word_deviations(words, 1, block_bits, count, out)
    if per == 2:
        return _word_deviations(words, 2, block_bits, count, out)
    if per == 4:
        return _word_deviations(words, 4, block_bits, count, out)
    return _word_deviations(words, per, block_bits, count, out)


@njit(cache=True, nogil=True, inline="always")
def _word_deviations(words, per, block_bits, count, out):  # pragma: no cover - compiled
    """:func:`_deviations`: the words whose ``per`` blocks all count, then the first blocks of the next one."""
    mask, half = ~np.uint64(0) >> np.uint64(64 - block_bits), block_bits // 2
    whole = count // per
    for w in range(whole):
        word = words[w]
        for block in range(per):
            out[w * per + block] = _deviation(word, block_bits * (per - 1 - block), mask, half)
    for i in range(whole * per, count):
        out[i] = _deviation(words[whole], block_bits * (per - 1 - (i - whole * per)), mask, half)
    return out[:count]


@njit(cache=True, nogil=True, inline="always")
def _deviation(word, shift, mask, half):  # pragma: no cover - compiled
    """The ones of the block ``(word >> shift) & mask``, less ``half``."""
    return np.int64(popcount((word >> np.uint64(shift)) & mask)) - half


@njit(cache=True, nogil=True)
def _feed(deviations, pattern_bits, state, counts, shorter):  # pragma: no cover - compiled
    """Count the overlapping patterns of ``pattern_bits`` and ``pattern_bits - 1`` signs, continuing ``state``;
    return the number of ties.

    The sign of a deviation is 1 when it is negative, 0 when positive; a tie
    (zero) has none and is skipped. ``state`` = ``[history, seen, head]``: the
    last signs (bit 0 the newest), the signs seen so far, and the first
    ``pattern_bits - 1`` of them (kept for the circular wrap of :func:`_wrap`).
    Once ``t`` signs are seen, the rest is two branch-free loops (ties are
    unpredictable: one block of 32 bits in seven): the signs of the blocks
    that are not tied, packed together, then their ``t``-patterns, counted
    in local tables; every later ``(t-1)``-pattern is the newest ``t - 1``
    signs of one of them, so the shorter counts are the tables folded in two.
    A pattern is the last shifted by one sign, a chain that would make each
    wait for the one before: the signs are counted in four runs side by side
    (each history starting from the ``t - 1`` signs before its run, each run
    with its own table), 1.3 ns a sign where one run took 2.6.
    """
    t = pattern_bits
    mask, short_mask = (1 << t) - 1, (1 << (t - 1)) - 1
    history, seen, head, ties, start = state[0], state[1], state[2], 0, 0
    while start < deviations.size and seen < t:
        deviation = deviations[start]
        start += 1
        if deviation == 0:
            ties += 1
            continue
        history = ((history << 1) | (deviation < 0)) & mask
        seen += 1
        if seen < t:
            head = (head << 1) | (deviation < 0)
        if seen >= t:
            counts[history] += 1
        if seen >= t - 1:
            shorter[history & short_mask] += 1
    signs, fed = np.empty(deviations.size - start, dtype=np.uint8), 0
    for i in range(start, deviations.size):
        signs[fed] = deviations[i] < 0
        fed += deviations[i] != 0
    patterns = np.zeros((4, counts.size), dtype=np.int64)
    quarter = fed // 4 if fed >= 4 * t else 0
    # four runs of signs counted side by side, each history starting from the signs before its run
    first, second, third = _history(signs, quarter, t), _history(signs, 2 * quarter, t), _history(signs, 3 * quarter, t)
    for i in range(quarter):
        history = ((history << 1) | signs[i]) & mask
        first = ((first << 1) | signs[quarter + i]) & mask
        second = ((second << 1) | signs[2 * quarter + i]) & mask
        third = ((third << 1) | signs[3 * quarter + i]) & mask
        patterns[0, history] += 1
        patterns[1, first] += 1
        patterns[2, second] += 1
        patterns[3, third] += 1
    if quarter:
        history = third
    for i in range(4 * quarter, fed):
        history = ((history << 1) | signs[i]) & mask
        patterns[0, history] += 1
    for pattern in range(counts.size):
        total = patterns[0, pattern] + patterns[1, pattern] + patterns[2, pattern] + patterns[3, pattern]
        counts[pattern] += total
        shorter[pattern & short_mask] += total
    state[0], state[1], state[2] = history, seen + fed, head
    return ties + deviations.size - start - fed


@njit(cache=True, nogil=True, inline="always")
def _history(signs, end, t):  # pragma: no cover - compiled
    """The ``t - 1`` signs before ``signs[end]`` as a history (bit 0 the newest; 0 when ``end`` is 0)."""
    history = 0
    for i in range(max(0, end - t + 1), end):
        history = (history << 1) | signs[i]
    return history


@njit(cache=True, nogil=True)
def _pair(values, size, carry):  # pragma: no cover - compiled
    """Sum the ``size`` deviations of ``values`` in pairs, in place, after the one left open by the last chunk
    (``carry = [deviation, open]``); return the number of sums, leaving the last deviation open when one is over."""
    opened = carry[1]
    total, left = size + opened, values[size - 1] if size else carry[0]
    if opened and size:
        values[0] += carry[0]
    rest = values[opened:size]  # the values after the pair completed, paired among themselves
    for i in range(rest.size // 2):
        rest[i] = rest[2 * i] + rest[2 * i + 1]
    carry[0], carry[1] = left if total % 2 else 0, total % 2
    return total // 2


@njit(cache=True, nogil=True)
def _scan(deviations, top, pattern_bits, states, counts, shorter, ties, carries=None):  # pragma: no cover - compiled
    """Feed every level ``0 .. top - 1`` of one chunk: level ``L`` sums pairs of level ``L - 1`` in place, the
    first completing the pair left open by the last chunk (``carries[L - 1]``, :func:`_pair`; none when
    ``carries`` is omitted: the chunk starts the stream)."""
    if carries is None:
        carries = np.zeros((top, 2), dtype=np.int64)
    size = deviations.size
    for level in range(top):
        if level:
            size = _pair(deviations, size, carries[level - 1])
        ties[level] += _feed(deviations[:size], pattern_bits, states[level], counts[level], shorter[level])


def _wrap(pattern_bits: int, state: np.ndarray, counts: np.ndarray, shorter: np.ndarray) -> None:
    """Close the sequence into a circle: feed its first ``t - 1`` signs again, adding the ``t - 1`` patterns
    that wrap (and the ``t - 2`` shorter ones that do), so that each count has one pattern per sign."""
    t = pattern_bits
    history, _, head = (int(v) for v in state)
    mask, short_mask = (1 << t) - 1, (1 << (t - 1)) - 1
    for k in range(t - 1):
        sign = (head >> (t - 2 - k)) & 1
        history = ((history << 1) | sign) & mask
        counts[history] += 1
        if k < t - 2:
            shorter[history & short_mask] += 1


def overlapping_statistic(counts: np.ndarray, shorter: np.ndarray) -> tuple[float, int]:
    """Good's ``psi^2_t - psi^2_(t-1)`` of circular overlapping pattern counts of fair bits.

    With ``m`` signs, ``psi^2_t = sum_w (N_w - m 2^-t)^2 / (m 2^-t)`` over the
    ``2^t`` patterns ``w``; the difference is asymptotically chi-square with
    ``2^(t-1)`` degrees of freedom (I. J. Good, Proc. Cambridge Philos. Soc.
    49, 1953; the overlapping serial test of TestU01's ``smultin`` and
    Marsaglia's overlapping tests), whereas ``psi^2_t`` alone is not.
    """
    m = counts.sum()

    def psi(table: np.ndarray) -> float:
        expected = m / table.size
        return float(((table - expected) ** 2).sum() / expected)

    return psi(counts) - psi(shorter), counts.size // 2


@functools.cache
def tie_probability(block_bits: int) -> float:
    """``P(weight = B/2) = C(B, B/2) 2^-B`` for a block of ``B`` fair bits."""
    return float(binom_pmf(block_bits // 2, block_bits, 0.5))


def level_distances(level_bits: np.ndarray, blocks: np.ndarray, ties: np.ndarray, counts: np.ndarray,
                    shorter: np.ndarray) -> tuple[np.ndarray, list, list]:
    """The levels' two-sided p-values of their ties, then their pattern statistics and those statistics' two-sided
    p-values (each ``None`` for a level whose patterns are untested).

    Level ``L`` (row ``L`` of each argument: ``2^L B`` bits a block, its
    number of blocks and of ties, its circular pattern counts) has binomial
    ties ``(blocks, P(tie))``: ``min(1, 2 min(P(T <= t), P(T >= t)))``, exact
    (conservative for a discrete law). Its patterns are tested when at least
    as many signs as patterns were seen: ``2 min(p, 1 - p)`` for the
    chi-square tail ``p`` (a fit too good is as suspect as a bad one). One
    call of each of scipy's functions serves every level (a call costs some
    50 microseconds, and a tally's result is read at every doubling).
    """
    tied = np.array([tie_probability(int(bits)) for bits in level_bits])  # not a frozen law: freezing costs 1 ms
    below, above = binom_cdf(ties, blocks, tied), binom_sf(ties - 1, blocks, tied)
    tie = np.minimum(1.0, 2 * np.minimum(below, above))
    tested = blocks - ties >= counts.shape[1]
    statistics = [overlapping_statistic(c, s)[0] if t else None for c, s, t in zip(counts, shorter, tested)]
    upper = chi2_sf([np.nan if s is None else s for s in statistics], counts.shape[1] // 2).tolist()
    return tie, statistics, [None if s is None else 2 * min(u, 1 - u) for u, s in zip(upper, statistics)]


class BcfnTally(Tally):
    """The pattern counts and ties of every level of :func:`bcfn`, carried on: each level's signs in its pattern
    state, the block of each level left open (its first half read), and the bits of a partly read output go on
    to the next call. Every level up to ``LEVELS`` is counted, since the size reached decides which are tested."""

    def __init__(self, source: Source, *, block_bits: int = 32, pattern_bits: int = 4) -> None:
        super().__init__()
        require(2 <= block_bits <= 64 and block_bits % 2 == 0, f"block_bits must be even, 2 to 64; got {block_bits}")
        require(2 <= pattern_bits <= 12, f"pattern_bits must be in [2, 12]; got {pattern_bits}")
        self.block_bits, self.pattern_bits, self.selection = block_bits, pattern_bits, selection_of(source)
        self.reader, cells = BitReader(), 2**pattern_bits
        self.states, self.carries = np.zeros((LEVELS, 3), dtype=np.int64), np.zeros((LEVELS, 2), dtype=np.int64)
        self.counts, self.shorter = np.zeros((LEVELS, cells), dtype=np.int64), np.zeros((LEVELS, cells // 2), np.int64)
        self.ties, self.deviations = np.zeros(LEVELS, dtype=np.int64), np.empty(0, dtype=np.int64)

    def levels(self, n: int) -> int:
        """The number of levels reported at ``n`` blocks: up to the last that expects ``MIN_EXPECTED`` signs per
        pattern (0 when none does)."""
        cells = 2**self.pattern_bits
        tested = [level for level in range(LEVELS)
                  if (n >> level) * (1 - tie_probability(self.block_bits << level)) >= MIN_EXPECTED * cells]
        return tested[-1] + 1 if tested else 0

    def check(self, n: int) -> None:
        require(self.levels(n) > 0,
                f"bcfn needs n (1 - P(tie)) >= {MIN_EXPECTED:g} 2^t blocks at level 0; got n = {n}")

    def _read(self, source: Source, count: int) -> None:
        for words, per, size in self.reader.word_chunks(source, count, self.block_bits, chunk_fields=CHUNK_BLOCKS):
            self.deviations = self.deviations if self.deviations.size >= size else np.empty(size, dtype=np.int64)
            _scan(_deviations(words, per, self.block_bits, size, self.deviations), LEVELS, self.pattern_bits,
                  self.states, self.counts, self.shorter, self.ties, self.carries)

    def result(self) -> EmpiricalResult:
        n, top = self.samples, self.levels(self.samples)
        counts, shorter, levels = self.counts[:top].copy(), self.shorter[:top].copy(), np.arange(top)
        for level in range(top):
            _wrap(self.pattern_bits, self.states[level], counts[level], shorter[level])
        tie, statistics, patterns = level_distances(self.block_bits << levels, n >> levels, self.ties[:top], counts,
                                                    shorter)
        pvalues = [p for level in range(top) for p in (float(tie[level]), patterns[level]) if p is not None]
        smallest = min(pvalues)
        return EmpiricalResult("bcfn", float(-np.log10(max(smallest, 1e-300))), min(0.5, len(pvalues) * smallest / 2),
                               gateway_params(n, self.selection, block_bits=self.block_bits,
                                              pattern_bits=self.pattern_bits),
                               {"levels": top, "tests": len(pvalues), "statistics": statistics,
                                "ties": self.ties[:top].copy(), "pvalues": pvalues})


@register("bcfn", BcfnTally)
def bcfn(source: Source, n: int, *, block_bits: int = 32, pattern_bits: int = 4) -> EmpiricalResult:
    """Bit-count frequency at doubling block sizes: the signs of the blocks' weight deviations, as patterns.

    The bit stream is cut into ``n`` blocks of ``B = block_bits`` bits; at
    level ``L`` each run of ``2^L`` consecutive blocks (``2^L B`` bits) has a
    weight ``w`` and a sign, 1 when ``w < 2^L B / 2`` and 0 when above. For
    fair bits the signs of the blocks that are not tied (``w`` exactly half)
    are independent fair bits, whatever the level: the level's circular
    overlapping patterns of ``t = pattern_bits`` signs give Good's statistic
    ``psi^2_t - psi^2_(t-1)``, asymptotically chi-square with ``2^(t-1)``
    degrees of freedom (:func:`overlapping_statistic`), and the number of
    ties is exactly binomial with ``P(tie) = C(2^L B, 2^(L-1) B) 2^-(2^L B)``
    (:func:`level_distances`, two-sided). Levels are tested while they expect
    20 signs per pattern. A long-range bias (a Fibonacci generator's lags) or
    a short-range one (a constant or periodic low bit) moves the signs'
    patterns at the level of its range; a bit that alternates makes every
    block a tie.

    The p-value combines the ``K`` two-sided p-values ``d_i`` of the tested
    levels (patterns and ties) by Bonferroni's bound: ``p = min(1/2, K min d_i / 2)``,
    whose distance to the nearer tail (``p`` itself) is below ``x`` with
    probability at most ``2 x``, as a uniform p-value's is, whatever the
    dependence between levels (conservative; ``p`` is never above 1/2, so
    these p-values are not uniform: not for a second-level test). The
    chi-square law of the patterns is asymptotic; its accuracy at the
    smallest levels is checked by calibration on ideal sources
    (``tests/empirical/stattests/test_bcfn.py``).

    Parameters
    ----------
    source : Source
    n : int
        Number of base blocks (``n B`` bits are read).
    block_bits : int
        ``B``, even, 2 to 64.
    pattern_bits : int
        ``t``, 2 to 12.

    References
    ----------
    C. Doty-Humphrey, PractRand 0.94, doc/Tests_engines.txt (BCFN, a test of
    long-range linear correlations by bit counting: at each level, the
    frequencies of overlapping patterns of Hamming-weight signs), whose source
    was read for the statistic's design; the tie handling, Good's statistic
    and the combination are rnglab's own (PractRand calibrates its levels
    empirically).
    """
    return BcfnTally(source, block_bits=block_bits, pattern_bits=pattern_bits).extend(
        source, n).result()
