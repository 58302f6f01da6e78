"""Bounded draws straight from a numpy BitGenerator, in one compiled loop: draw, map, keep.

numba calls the BitGenerator's own C functions (``next_uint64``, or
``next_uint32`` for a generator of 32-bit words, through
``numba.np.random.generator_core``), so the generator steps inside the loop
as in numpy's ``Generator.integers``. A narrow draw
(:mod:`rnglab.draws.words`) splits each ``next_uint64`` output itself,
low half first, starting with the source's kept half and handing back the
high half left: the 32-bit words ``next_uint32`` gives, with half the calls.
Nothing is drawn beyond the last value needed. The map is the reducer's
one-draw map (:mod:`rnglab.reduction.scalar`), as in the one-pass kernel
(:mod:`rnglab.draws.compact`), so the values equal the reducer's.
Importing this module imports numba: it is imported where a draw first
needs it (:data:`rnglab.draws.bounded.DIRECT_MIN` values or more).
"""

from __future__ import annotations

import functools

import numpy as np
from numba.np.random.generator_core import next_uint32, next_uint64

from rnglab.core.compiled import fingerprint, njit
from rnglab.reduction.reducers import Reducer
from rnglab.reduction.scalar import rejections_after, span


@njit(cache=True, nogil=True, inline="always")
def _word_32(bit_generator):  # pragma: no cover - compiled
    return np.uint64(next_uint32(bit_generator))


@njit(cache=True, nogil=True, inline="always")
def _word_64(bit_generator):  # pragma: no cover - compiled
    return np.uint64(next_uint64(bit_generator))


@functools.cache
def direct_kernel(reduce, bits: int, stuck: int):
    """The loop for a reducer's one-draw map ``reduce`` on ``bits``-bit words, stopping at ``stuck`` rejections in
    a row (compiled once per map and width, cached on disk). ``settings`` holds constants only (a kernel there
    would defeat numba's disk cache), the :func:`fingerprint` of the map and of ``rejections_after`` among them (a change of either compiles anew)."""
    settings = (bits == 64, stuck, fingerprint(reduce) ^ fingerprint(rejections_after))

    @njit(cache=True, nogil=True)
    def kernel(bit_generator, halves, n, parameter, span, out, limits):  # pragma: no cover - compiled
        """Map draws by ``reduce`` until ``wanted`` values are kept in ``out[start:]`` or ``streak`` reaches ``stuck``.

        The draws are the generator's ``bits``-bit words, or with ``halves`` the 32-bit
        halves of ``next_uint64``, low half first, after the kept half ``spare``
        (none when negative): what ``next_uint32`` gives, with half the calls.
        ``limits = (start, wanted, streak, spare)``. Returns
        ``(kept, used, streak, spare)``, ``spare`` the high half left (-1: none).
        Branch-free compaction: every value is written at the next free place
        and the place advances only when it is kept (``out[start + wanted - 1]``
        is the last place written).
        """
        start, wanted, streak, spare = limits
        wide, stuck = settings[0], settings[1]
        size, range_bits = span
        kept, used, high, waiting = 0, 0, np.uint64(max(spare, 0)), spare >= 0
        while kept < wanted:
            if not halves:
                x = _word_64(bit_generator) if wide else _word_32(bit_generator)
            elif waiting:
                x, waiting = high, False
            else:
                output = _word_64(bit_generator)
                x, high, waiting = output & np.uint64(0xFFFFFFFF), output >> np.uint64(32), True
            value, accepted = reduce(x, n, parameter, size, range_bits)
            used += 1
            out[start + kept] = value
            kept += accepted
            streak = rejections_after(streak, accepted)
            if streak >= stuck:
                break
        return kept, used, streak, np.int64(high) if waiting else np.int64(-1)

    return kernel


def draw_direct(reducer: Reducer, bit_generator: np.random.BitGenerator, range_size: int, n: int, out: np.ndarray,
                place: tuple[int, int], run: tuple[int, int], halves: tuple[bool, int | None]
                ) -> tuple[int, int, int, int | None]:
    """Keep ``wanted`` values of ``reducer`` for bound ``n`` in ``out[start:]``, ``place = (start, wanted)``,
    ``run = (streak, stuck)``, drawing whole outputs of ``R`` values, or with ``halves = (True, spare)`` the 32-bit
    halves of 64-bit outputs after the kept half ``spare`` (a narrow draw, :mod:`rnglab.draws.words`).

    Returns ``(kept, used, streak)`` as :func:`rnglab.draws.compact.compact` does, and the high half
    left for the next 32-bit draw (``None``: none; with ``halves = (False, spare)``, ``spare`` itself).
    """
    split, spare = halves
    streak, stuck = run
    kernel = direct_kernel(reducer.scalar.reduce, range_size.bit_length() - 1, stuck)
    kept, used, streak, left = kernel(bit_generator, split, np.uint64(n),
                                      np.uint64(reducer.scalar.parameter(n, range_size)), span(range_size), out,
                                      (*place, streak, -1 if spare is None or not split else int(spare)))
    return kept, used, streak, (None if left < 0 else int(left)) if split else spare
