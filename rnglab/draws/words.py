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
(:mod:`rnglab.draws.bounded`, the shuffles' decks in turn) reads through
these functions, so one rule holds everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rnglab.generators import Source
from rnglab.streams.gateway import offsets

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


@dataclass(frozen=True)
class WordBlock:
    """Draws read from a source in one go: offsets, or, for a narrow draw, the kept half and the 32-bit halves.

    Attributes
    ----------
    raw : numpy.ndarray
        The outputs read, as offsets ``raw - low``.
    narrow : bool
        Whether each output gives two draws, its low half first.
    spare : int or None
        The kept half, the first draw (narrow draws only).
    """

    raw: np.ndarray
    narrow: bool
    spare: int | None = None

    @property
    def lead(self) -> int:
        """Draws before the first output's: 1 with a kept half, else 0."""
        return int(self.spare is not None)

    def __len__(self) -> int:
        return self.lead + (2 if self.narrow else 1) * len(self.raw)

    def words(self) -> np.ndarray:
        """The draws in order, as one array (uint64, or object above 2^64)."""
        if not self.narrow:
            return self.raw
        words = np.empty(len(self), dtype=np.uint64)
        words[:self.lead] = self.spare or 0
        np.bitwise_and(self.raw, np.uint64(0xFFFFFFFF), out=words[self.lead::2])
        np.right_shift(self.raw, np.uint64(32), out=words[self.lead + 1::2])
        return words


def read_block(source: Source, count: int, narrow: bool) -> WordBlock:
    """At least ``count`` draws (``count + 1`` when a narrow draw needs half an output more)."""
    if not narrow:
        return WordBlock(offsets(source, count), False)
    spare, source.spare_half = source.spare_half, None
    return WordBlock(source.random_raw((count - (spare is not None) + 1) // 2), True, spare)


def give_back(source: Source, block: WordBlock, used: int) -> None:
    """Hand the draws after the first ``used`` back: whole outputs with ``unread``, a high half as the spare."""
    if not block.narrow:
        if used < len(block.raw):
            raw = block.raw[used:]
            source.unread(raw + (np.uint64(source.low) if raw.dtype != object else source.low))
        return
    if used < block.lead:  # not even the kept half was used
        source.spare_half, used = block.spare, block.lead
    whole = (used - block.lead + 1) // 2
    source.unread(block.raw[whole:])
    if (used - block.lead) % 2:
        source.spare_half = int(block.raw[whole - 1] >> np.uint64(32))


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
