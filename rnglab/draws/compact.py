"""Map and compact a chunk of draws in one compiled pass, for a reducer with a one-draw map.

:func:`rnglab.draws.bounded.draw_bounded` maps a chunk of source offsets with
a reducer's vectorised map (:mod:`rnglab.reduction.maps`) and then keeps the
accepted values: four or five passes of numpy over the chunk. For one bound
``n`` on ``R = 2^bits`` offsets (uint64), :func:`compact` does it in one loop:
map a draw, keep it when accepted, stop at the ``wanted``-th kept value or at
:data:`~rnglab.draws.bounded.STUCK_REJECTIONS` rejections in a row. Its
values and draws are those of the reducer's map (tested against it).

The per-draw map is the reducer's own (:attr:`~rnglab.reduction.reducers.Reducer.scalar`,
:mod:`rnglab.reduction.scalar`): one kernel per map, for every reducer that has one.
"""

from __future__ import annotations

import functools

import numpy as np

from rnglab.core.compiled import fingerprint, njit
from rnglab.reduction.reducers import Reducer
from rnglab.reduction.scalar import rejections_after, span


@njit(cache=True, nogil=True, inline="always")
def _draw(raw, i, halves, lead, spare):  # pragma: no cover - compiled
    """Draw ``i`` of a block: the kept half, then each output's low and high halves; or output ``i``."""
    if not halves:
        return raw[i]
    if i < lead:
        return spare
    j = i - lead
    return (raw[j >> 1] >> np.uint64(32 * (j & 1))) & np.uint64(0xFFFFFFFF)


@functools.cache
def compact_kernel(reduce, stuck: int):
    """The one-pass kernel for a reducer's one-draw map ``reduce`` that stops at ``stuck`` rejections in a row
    (compiled once per map, cached on disk; ``settings`` holds the limit and the :func:`fingerprint` of the map
    and of ``rejections_after``, so that a change of either, in other files, compiles anew)."""
    settings = (stuck, fingerprint(reduce) ^ fingerprint(rejections_after))

    @njit(cache=True, nogil=True)
    def kernel(raw, halves, spare, n, parameter, span, out, limits):  # pragma: no cover - compiled
        """Map the draws in order, writing kept values to ``out[start:]``; return ``(kept, used, streak)``.

        The draws are ``raw`` (``halves`` false) or the ``spare`` half (when
        ``spare >= 0``) and the halves of ``raw``. ``parameter`` is the map's
        constant for ``n`` and ``span = (R mod 2^64, log2 R)`` (:mod:`rnglab.reduction.scalar`).
        ``limits = (start, wanted, streak)``: stops after ``wanted`` kept
        values or when ``streak``, the rejections in a row, reaches ``stuck``.
        """
        start, wanted, streak = limits
        stuck = settings[0]
        size, bits = span
        lead = 1 if halves and spare >= 0 else 0
        total = lead + (2 * raw.size if halves else raw.size)
        kept, used, kept_half = 0, 0, np.uint64(max(spare, 0))
        while used < total and kept < wanted:
            value, accepted = reduce(_draw(raw, used, halves, lead, kept_half), n, parameter, size, bits)
            used += 1
            streak = rejections_after(streak, accepted)
            if accepted:
                out[start + kept] = value
                kept += 1
            elif streak >= stuck:
                break
        return kept, used, streak

    return kernel


def compact(reducer: Reducer, block, n: int, range_size: int, out: np.ndarray, place: tuple[int, int],
            run: tuple[int, int]) -> tuple[int, int, int]:
    """Map the draws of a :class:`~rnglab.draws.words.WordBlock` (uint64, ``R = 2^32`` or ``2^64``) through
    ``reducer``'s one-draw map and keep the accepted values in ``out[start:]``, ``place = (start, wanted)``,
    ``run = (streak, stuck)``.

    Returns ``(kept, used, streak)``: values written (at most ``wanted``, which
    must fit in ``out``), draws read (the rest are untouched), and rejections
    in a row at the end; ``streak`` reaching ``stuck`` stops the loop (the caller raises).
    """
    spare, (streak, stuck) = -1 if block.spare is None else int(block.spare), run
    return compact_kernel(reducer.scalar.reduce, stuck)(block.raw, block.narrow, spare, np.uint64(n),
                                                        np.uint64(reducer.scalar.parameter(n, range_size)),
                                                        span(range_size), out, (*place, streak))


def compacts(reducer: Reducer, dtype: np.dtype, n, range_size: int) -> bool:
    """True when :func:`compact` serves this reducer, draws and bound: a one-draw map exact on ``R``, one integer
    ``n``, uint64 offsets, ``R = 2^32`` or ``R = 2^64``."""
    return reducer.scalar is not None and reducer.scalar.serves(range_size) and dtype == np.uint64 and \
        not isinstance(n, np.ndarray) and int(n) < 2**64 and range_size in (2**32, 2**64)
