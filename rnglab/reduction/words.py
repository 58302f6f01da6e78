"""The words a bounded draw reads from a source: its outputs, or 32-bit halves of them (numpy's rule).

A source of 64-bit words with :attr:`~rnglab.generators.Source.NARROW_HALVES`
(numpy's BitGenerators PCG64, PCG64DXSM, SFC64, Philox) is read the way
numpy's ``Generator.integers`` reads it (``random_bounded_uint64_fill`` in
numpy's ``distributions.c``): for a bound ``n <= 2^32`` it draws 32-bit words
from ``next_uint32``, which splits each 64-bit output into its low half, then
its high half, and keeps the unused high half for the next 32-bit call (the
BitGenerator's ``has_uint32``/``uinteger``, here ``source.spare_half``); for
``n > 2^32`` it draws whole outputs and the kept half waits; for ``n = 1`` it
draws nothing. Every consumer that draws bounded values from a source
(:mod:`rnglab.reduction.draw`, the shuffles' decks in turn) reads through
these functions, so one rule holds everywhere.
"""

from __future__ import annotations

import numpy as np

from ..generators import Source
from ..stream import offsets

#: The range of a narrow draw's words.
HALF_RANGE = 2**32


def narrow_words(source: Source, n) -> bool:
    """True when bounded draws of ``n`` from ``source`` read 32-bit halves of its 64-bit outputs.

    The rule of a source with :attr:`~rnglab.generators.Source.NARROW_HALVES`
    (numpy's BitGenerators of 64-bit words): for ``n <= 2^32`` its draws are
    32-bit words (``R = 2^32``) as numpy's ``next_uint32`` gives them, the low
    half of an output first and its high half kept in ``source.spare_half``
    for the next 32-bit word, and a bound ``n = 1`` reads nothing; for
    ``n > 2^32`` they are whole outputs and the kept half waits. With
    ``lemire`` this is numpy's ``Generator.integers(0, n)``, values and state.
    """
    return source.NARROW_HALVES and int(np.max(n)) <= 2**32


def read_draws(source: Source, count: int, narrow: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """At least ``count`` draws (offsets, or the 32-bit words of a narrow draw) and the outputs they came from."""
    if not narrow:
        return offsets(source, count), None
    lead = int(source.spare_half is not None)
    raw = source.random_raw((count - lead + 1) // 2)
    words = np.empty(lead + 2 * len(raw), dtype=np.uint64)
    words[:lead] = source.spare_half or 0
    np.bitwise_and(raw, np.uint64(0xFFFFFFFF), out=words[lead::2])
    np.right_shift(raw, np.uint64(32), out=words[lead + 1::2])
    source.spare_half = None
    return words, raw


def give_back(source: Source, x: np.ndarray, used: int, raw: np.ndarray | None) -> None:
    """Hand the draws ``x[used:]`` back to ``source``: whole outputs with ``unread``, a high half as the spare."""
    if raw is None:
        if used < len(x):
            source.unread(x[used:] + (np.uint64(source.low) if x.dtype != object else source.low))
        return
    lead = len(x) - 2 * len(raw)
    if used < lead:  # not even the spare half was used
        source.spare_half, used = int(x[0]), lead
    whole = (used - lead + 1) // 2
    source.unread(raw[whole:])
    if (used - lead) % 2:
        source.spare_half = int(raw[whole - 1] >> np.uint64(32))


def next_draw(source: Source, narrow: bool) -> int:
    """One draw: an offset, or the next 32-bit word of a narrow draw (the spare half, or a low half)."""
    if not narrow:
        return source.next_raw() - source.low
    if source.spare_half is not None:
        word, source.spare_half = source.spare_half, None
        return word
    raw = source.next_raw()
    source.spare_half = raw >> 32
    return raw & 0xFFFFFFFF


def draw_range(source: Source, narrow: bool) -> int:
    """The range ``R`` of the words a bounded draw reads: ``2^32`` for a narrow draw, else the source's."""
    return HALF_RANGE if narrow else source.range_size
