"""Gap-16: gaps by hand, the expected counts against brute force, power-of-two LCG low bits, false alarms."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.empirical.stattests import TESTS, gap16
from rnglab.empirical.stattests.gap16 import (
    Gap16Tally,
    _count_gaps,
    coarse_bins,
    distinct_variance,
    expected_gaps,
    gap_edges,
    kernel_edges,
)
from rnglab.generators import CallableSource, make_source
from rnglab.generators.adapters import ideal_source
from rnglab.streams.gateway import BitSelection, select


def _sixteen_bit(values):
    cycle = itertools.cycle(values)
    return CallableSource(lambda size: [next(cycle) for _ in range(size)], 0, 2**16 - 1, name="fixed",
                          vectorized=True)


def test_gaps_by_hand():
    """Values 7, 9, 7, 7, 9 repeated: gaps 1 (7 _ 7), 0 (7 7), 2 (9 _ _ 9), ... all in the first bin."""
    result = TESTS["gap-16"](_sixteen_bit([7, 9, 7, 7, 9]), 5000)
    assert result.details["recurrences"] == 5000 - 2  # every value but the first 7 and the first 9 closes a gap
    assert result.details["observed"][0] == 4998 and result.pvalue < 1e-100


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4096), st.integers(0, 2**32 - 1))
def test_kernel_bins_every_gap_as_the_edges_do(bins, seed):
    """The kernel's coarse table gives each gap the bin ``searchsorted(edges, gap, "right") - 1`` of its edges:
    at each edge, on both sides of it and at random gaps up to beyond the last edge (a value last seen at 0
    recurs at ``gap + 1``)."""
    edges = gap_edges(bins)
    coarse, shift = coarse_bins(edges)
    near = np.r_[edges[:-1], edges[:-1] - 1, edges[1:-1] + 1,
                 np.random.default_rng(seed).integers(0, 3 * edges[-2] + 2, 100)]
    least = int(edges[-2]) + 2  # positions start here: a value never seen is then past the last bin's start
    for gap in np.unique(near[near >= 0]).tolist():
        counts, last = np.zeros(bins, dtype=np.int64), np.zeros(2**16, dtype=np.uint32)
        last[1] = least
        _count_gaps(np.array([1], dtype=np.uint64), 1, 1, least + gap + 1, last, kernel_edges(edges), coarse, shift,
                    np.empty(1, dtype=np.uint32), counts)
        assert np.flatnonzero(counts).tolist() == [np.searchsorted(edges, gap, "right") - 1]
        assert counts.sum() == 1 and last[1] == least + gap + 1


@pytest.mark.parametrize("per", [1, 2, 3, 4])
def test_kernel_counts_the_gaps_of_every_packing_fed_in_pieces(per):
    """Values ``per`` to a word (the first in the high bits; the compiled loop for two and four a word and the
    general one), fed in pieces that end inside a word, the next piece starting at the next word: the kernel's
    bins and last positions are those of a plain count over the values read, by position."""
    words = np.random.default_rng(per).integers(0, 64, (300, per)).astype(np.uint64)  # 64 values: many gaps
    packed = (words << (16 * np.arange(per - 1, -1, -1, dtype=np.uint64))).sum(axis=1, dtype=np.uint64)
    edges = gap_edges(8)
    coarse, shift = coarse_bins(edges)
    counts, last, expected = np.zeros(8, dtype=np.int64), np.zeros(2**16, dtype=np.uint32), np.zeros(8, np.int64)
    seen, start = {}, int(edges[-2]) + 2
    for first, size in [(0, 1), (1, 50), (51, 249)]:  # pieces of words; the last word of each read but its last value
        count = max(1, size * per - 1)
        _count_gaps(packed[first:first + size], per, count, start, last, kernel_edges(edges), coarse, shift,
                    np.empty(count, dtype=np.uint32), counts)
        for position, value in enumerate(words[first:first + size].ravel()[:count].tolist(), start):
            if value in seen:
                expected[np.searchsorted(edges, position - seen[value] - 1, "right") - 1] += 1
            seen[value] = position
        start += count
    assert counts.tolist() == expected.tolist() and counts.sum() > 200
    assert {value: int(last[value]) for value in np.flatnonzero(last).tolist()} == seen


def _array_source(values, bits):
    """The outputs ``values`` (``bits`` bits each) in turn, a read at a time."""
    stream = iter(np.asarray(values, dtype=np.uint64).tolist())
    return CallableSource(lambda size: [next(stream) for _ in range(size)], 0, 2**bits - 1, name="array",
                          vectorized=True)


def _brute_force_gaps(values, edges):
    """Every gap of the 16-bit ``values``, binned by ``searchsorted`` on the edges: the definition, position by
    position."""
    counts, seen = np.zeros(edges.size - 1, dtype=np.int64), {}
    for position, value in enumerate(values):
        if value in seen:
            counts[np.searchsorted(edges, position - seen[value] - 1, "right") - 1] += 1
        seen[value] = position
    return counts


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([16, 32, 64]), st.integers(0, 2**32 - 1), st.integers(1, 400), st.integers(100_000, 250_000),
       st.lists(st.floats(0, 1), max_size=5))
def test_the_tally_counts_every_gap_across_pieces_and_rebases(bits, seed, alphabet, total, cuts):
    """The tally's counts equal the gaps binned one by one (:func:`_brute_force_gaps`) for 16-, 32- and 64-bit
    outputs (one, two and four values a word) read in pieces, with positions held so near their limit that
    they are rebased every few dozen chunks: frequent values from a small alphabet (value 0 among them), rare ones
    whose gaps often pass the last bin's start (so that their positions are clamped at a rebase), a value seen
    once."""
    rng = np.random.default_rng(seed)
    values = np.where(rng.random(total) < 1e-4, rng.integers(60_000, 60_010, total), rng.integers(0, alphabet, total))
    values[rng.integers(0, total)] = 65_535
    per = bits // 16
    values = np.resize(values, -(-total // per) * per)  # whole outputs
    outputs = (values.reshape(-1, per).astype(np.uint64) << (16 * np.arange(per - 1, -1, -1, dtype=np.uint64))).sum(
        axis=1, dtype=np.uint64)
    source = _array_source(outputs, bits)
    tally = Gap16Tally(source, bins=2)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gap16, "CHUNK_VALUES", 4096)
        patch.setattr(gap16, "POSITION_LIMIT", 3 * tally.least_position)
        for read in sorted({round(cut * total) for cut in cuts if cut * total >= 1} | {total}):
            tally.extend(source, read, checked=False)
    assert tally.counts.tolist() == _brute_force_gaps(values[:total].tolist(), tally.edges).tolist()


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4096), st.integers(0, 2**40), st.lists(st.integers(1, 2**20), min_size=1, max_size=30),
       st.integers(0, 3))
def test_a_rebase_keeps_the_bin_of_every_gap_to_come(bins, start, ages, later):
    """After :meth:`Gap16Tally._rebase` at ``start``, the value at ``start`` is held at the least position, and
    a value last seen ``age`` values before ``start`` still closes, at ``start + later``, a gap in the bin of
    ``age + later - 1`` (those older than the last bin's start clamped to 1, never to 0, which means never
    seen); values never seen stay at 0."""
    tally = Gap16Tally(make_source("pcg64", 1), bins=bins)
    tally.offset = 2**32 - 1 - start - 10  # the positions held near the largest uint32
    ages = [age for age in ages if age <= start] or [1]
    values = np.arange(1, len(ages) + 1)
    tally.last[values] = [start - age + tally.offset for age in ages]
    tally._rebase(start)
    assert start + tally.offset == tally.least_position and tally.last[0] == 0 and (tally.last[values] > 0).all()
    tail, position = tally.edges[-2], start + later + tally.offset
    held = np.minimum(position - tally.last[values].astype(np.int64) - 1, tail)
    true = np.minimum(np.array(ages) + later - 1, tail)
    assert np.searchsorted(tally.edges, held, "right").tolist() == np.searchsorted(tally.edges, true, "right").tolist()


@pytest.mark.parametrize("offset, rebased_at", [(2**32 - 4096, 4096), (2**32 - 4095, 0)])
def test_positions_are_rebased_before_they_pass_the_largest_uint32(offset, rebased_at):
    """Chunks of 4096 values from the position ``offset``: the first ends at ``2^32 - 1`` (held as it is) or at
    ``2^32`` (which uint32 would hold as 0, never seen): rebased first. A value repeated throughout closes a gap
    of 0 at every position but its first."""
    source = _sixteen_bit([5])
    tally = Gap16Tally(source, bins=2)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gap16, "CHUNK_VALUES", 4096)
        tally.offset = offset
        tally.extend(source, 4096, checked=False).extend(source, 5000, checked=False)
    assert tally.counts.tolist() == [4999, 0]
    assert tally.offset == tally.least_position - rebased_at


def test_expected_counts_match_the_sum_over_gaps():
    """``E_g = (n - g - 1) p q^g`` summed gap by gap over every bin, and the total is ``n - E[D]``."""
    n, p = 5000, 2.0**-16
    gaps = np.arange(n - 1)
    exact = (n - gaps - 1) * p * (1 - p) ** gaps
    edges = gap_edges(8)
    by_bin = [exact[(gaps >= a) & (gaps < b)].sum() for a, b in itertools.pairwise(edges)]
    assert expected_gaps(n, edges) == pytest.approx(by_bin, rel=1e-9, abs=1e-12)
    assert expected_gaps(n, edges).sum() == pytest.approx(n - 2**16 * (1 - (1 - p) ** n), rel=1e-9)


def test_distinct_variance_by_enumeration():
    """Three draws from N = 2^16: D = 3 - (pairs equal) + ..., its variance by the occupancy formula."""
    big = 2.0**16
    # D in {1, 2, 3} with P(1) = 1/N^2, P(3) = (N-1)(N-2)/N^2, P(2) = rest
    probabilities = np.array([1 / big**2, 0.0, (big - 1) * (big - 2) / big**2])
    probabilities[1] = 1 - probabilities[0] - probabilities[2]
    values = np.array([1, 2, 3])
    mean = (probabilities * values).sum()
    assert distinct_variance(3) == pytest.approx((probabilities * (values - mean) ** 2).sum(), rel=1e-6)


def test_pcg64_passes_and_the_low_bits_of_power_of_two_lcgs_fail():
    assert 0.001 < TESTS["gap-16"](make_source("pcg64", 12345), 2**16).pvalue < 0.999
    for name in ("drand48", "mmix", "delphi"):
        result = TESTS["gap-16"](select(make_source(name, 12345), BitSelection(low=8)), 2**13)
        assert result.pvalue < 1e-20, name
    assert TESTS["gap-16"](select(make_source("java", 12345), BitSelection(low=1)), 2**15).pvalue < 1e-20


@pytest.mark.parametrize("range_size, n", [(2**15, 2**12), (2**32, 2**16), (2**64, 2**12), (2**31 - 1, 2**14)])
def test_false_alarm_rate_of_ideal_sources(range_size, n):
    """60 ideal sources per resolution and size: no p-value beyond 1e-4 in either tail (expected 0.012)."""
    pvalues = np.array([TESTS["gap-16"](ideal_source(range_size, seed), n).pvalue for seed in range(60)])
    assert np.minimum(pvalues, 1 - pvalues).min() > 1e-4
    assert 0.2 < pvalues.mean() < 0.8


def test_too_few_values_are_refused():
    with pytest.raises(ValueError, match="expect 30 recurrences"):
        TESTS["gap-16"](make_source("pcg64", 1), 1000)
