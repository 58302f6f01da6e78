"""Bounded draws from a source through a reducer (:mod:`rnglab.reduction.reducers`).

A reducer's accept/reject decision depends only on the current draw, so using
it one value at a time means "draw, and draw again while rejected";
:func:`draw_bounded` does exactly that on arrays and consumes exactly the same
draws (unused draws go back to the source with ``Source.unread``), and
:func:`draw_bounded_reference` is the one-at-a-time reference it is tested against.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from rnglab.core.compiled import fingerprint, kernel_serves, njit
from rnglab.core.results import Result
from rnglab.draws.compact import compact, compacts
from rnglab.draws.words import WordBlock, draw_range, give_back, narrow_words, next_draw, read_block
from rnglab.generators import LCGBatch, Source
from rnglab.generators.base import check_count
from rnglab.reduction.maps import UINT64_LIMIT, _as_values, check_bound
from rnglab.reduction.reducers import Reducer
from rnglab.reduction.scalar import rejections_after

# -- drawing ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Drawn(Result):
    """Bounded values drawn from a source.

    Attributes
    ----------
    values : numpy.ndarray
        The values in ``[0, n)`` (uint64).
    draws : int
        Source outputs consumed, rejected ones included.
    """

    values: np.ndarray
    draws: int


#: Largest number of draws mapped at once: small chunks stay in cache and reuse their memory.
CHUNK = 2**15

#: Fewest values for which a draw steps a numpy BitGenerator in the compiled loop of
#: :mod:`rnglab.draws.direct`: numba types that loop's function arguments on every call (about
#: 25 microseconds), more than reading a few outputs through ``random_raw`` costs.
DIRECT_MIN = 512

#: Rejections in a row after which a source is declared stuck. Every reducer rejects a draw of a
#: source that fills its declared range with probability below 3/4, and ``(3/4)^309 < 2^-128``.
#: The threshold methods, ``lemire`` and ``java-nextint`` reject ``R mod n < R / 2`` of ``R`` values
#: (of ``2^31``); ``bitmask`` with ``b = 2^ceil(log2 n) < 2n`` keeps ``n floor(R / b)`` of ``R < (floor(R / b) + 1) b``
#: values, more than 1/4 (just over 1/4 for ``R = 2b - 1``, ``n = b/2 + 1``; over 1/2 when ``b`` divides ``R``).
STUCK_REJECTIONS = 309


def stuck_source_error() -> ValueError:
    """The one error every redrawing loop raises after :data:`STUCK_REJECTIONS` rejections in a row."""
    return ValueError(f"the source gave {STUCK_REJECTIONS} rejected values in a row (chance below 2^-128 for a "
                      "source that fills its declared range): it is stuck, e.g. an LCG in a fixed point")


def rejection_streak(accepted: np.ndarray, streak: int = 0) -> int:
    """Rejections in a row at the end of the flags ``accepted`` (in stream order), ``streak`` of them before it.

    The flags are followed in order by a compiled loop that counts
    with :func:`~rnglab.reduction.scalar.rejections_after` as every compiled
    redrawing loop does. Raises the :func:`stuck_source_error` when a run of
    rejections, the ``streak`` carried in included, reaches :data:`STUCK_REJECTIONS`.
    """
    streak = int(_streak_kernel()(accepted, streak))
    if streak >= STUCK_REJECTIONS:
        raise stuck_source_error()
    return streak


@functools.cache
def _streak_kernel():
    """The compiled loop of :func:`rejection_streak`: ``follow(accepted, streak)``, the rejections in a row after
    the flags, stopping when they reach :data:`STUCK_REJECTIONS`. ``settings``, the closure numba's disk cache keys
    on, holds the limit and the :func:`~rnglab.core.compiled.fingerprint` of ``rejections_after``, which lives in
    another file (a change there compiles anew)."""
    settings = (STUCK_REJECTIONS, fingerprint(rejections_after))

    @njit(cache=True, nogil=True)
    def follow(accepted, streak):  # pragma: no cover - compiled
        for flag in accepted:
            streak = rejections_after(streak, flag)
            if streak >= settings[0]:
                break
        return streak

    return follow


def _chunk_size(needed: int, accepted: int, drawn: int) -> int:
    """Draws to ask for next: the values still needed (scaled by the acceptance rate seen, plus a margin),
    at most :data:`CHUNK`."""
    if not drawn:
        return min(needed, CHUNK)
    return min(int(needed / max(accepted / drawn, 1e-3) * 1.02) + 16, CHUNK)


def _draws_for(accepted: np.ndarray, wanted: int) -> tuple[int, bool]:
    """Draws that hold the first ``wanted`` accepted values (all of them if fewer), and whether none was rejected.

    The ``wanted``-th accepted draw sits at ``wanted - 1 + k``, with ``k`` the
    rejections before it: the first ``k`` with ``rejected[k] - k >= wanted``.
    """
    head = accepted[:wanted]
    if head.all():
        return len(head), True
    if np.count_nonzero(accepted) < wanted:  # the usual case mid-stream: the whole chunk is used
        return len(accepted), False
    rejected = np.flatnonzero(~accepted)
    return wanted + int(np.searchsorted(rejected - np.arange(len(rejected)), wanted - 1, side="right")), False


def _map_and_keep(reducer: Reducer, block: WordBlock, n, range_size: int, out: np.ndarray, have: int,
                  streak: int) -> tuple[int, int, int]:
    """Map the draws of ``block``, keep at most ``len(out) - have`` accepted values in ``out[have:]``.

    Returns ``(kept, used, streak)``; one compiled pass when the reducer has
    one for these draws (:mod:`rnglab.draws.compact`) and :func:`~rnglab.core.compiled.kernel_serves` their
    number, numpy's passes otherwise (the same values).
    """
    wanted = len(out) - have
    if compacts(reducer, block.raw.dtype, n, range_size) and kernel_serves(len(block.raw)):
        kept, used, streak = compact(reducer, block, int(n), range_size, out, (have, wanted),
                                     (streak, STUCK_REJECTIONS))
        if streak >= STUCK_REJECTIONS:
            raise stuck_source_error()
        return kept, used, streak
    values, accepted = reducer.map(block.words(), n, range_size)
    used, clean = _draws_for(accepted, wanted)
    streak = 0 if clean else rejection_streak(accepted[:used], streak)  # clean: every draw used was accepted
    kept = values[:used] if clean else values[:used][accepted[:used]]
    out[have:have + len(kept)] = kept
    return len(kept), used, streak


def _draw_direct(source: Source, reducer: Reducer, words: tuple[int, bool], n: int, out: np.ndarray,
                 done: tuple[int, int, int]) -> Drawn:
    """Fill ``out`` after ``done = (have, draws, streak)`` stepping the source's numpy BitGenerator directly
    (:mod:`rnglab.draws.direct`); ``words = (R, narrow)``."""
    from rnglab.draws.direct import draw_direct  # imports numba

    (have, draws, streak), (range_size, narrow) = done, words
    spare = source.spare_half
    if narrow and spare is not None:
        source.spare_half = None
    _, used, streak, left = draw_direct(reducer, source.direct_generator(), range_size, int(n), out,
                                        (have, len(out) - have), (streak, STUCK_REJECTIONS), (narrow, spare))
    if narrow and left is not None:
        source.spare_half = left
    if streak >= STUCK_REJECTIONS:
        raise stuck_source_error()
    return Drawn(out, draws + used)


def draw_bounded(source: Source, n, size: int, reducer: Reducer) -> Drawn:
    """Draw ``size`` values in ``[0, n)`` from ``source`` through ``reducer``.

    Vectorised, and bit-exact with :func:`draw_bounded_reference`: chunks of
    draws are mapped at once, accepted values are kept in stream order, and
    draws beyond the last value needed are handed back with ``source.unread``,
    so the source ends in the same state as after the one-at-a-time loop. A
    source of 64-bit words may read 32-bit halves for ``n <= 2^32``
    (:func:`narrow_words`: numpy's ``Generator.integers`` with ``lemire``).

    Raises
    ------
    ValueError
        Unless ``1 <= n <= R``, for a reducer that cannot serve this ``R``, and
        after :data:`STUCK_REJECTIONS` rejections in a row (a stuck source).
    """
    check_bound(n, source.range_size)
    narrow = narrow_words(source, n)
    range_size = draw_range(source, narrow)
    reducer.check(n, range_size)
    out = np.empty(check_count(size), dtype=np.uint64 if int(np.max(n)) < UINT64_LIMIT else object)
    if narrow and int(np.max(n)) == 1:
        out[:] = 0
        return Drawn(out, 0)
    generator = source.direct_generator() if compacts(reducer, np.dtype(np.uint64), n, range_size) \
        else None
    have, draws, streak = 0, 0, 0
    while have < size:
        if generator is not None and not source.pending_count and size - have >= DIRECT_MIN:
            return _draw_direct(source, reducer, (range_size, narrow), n, out, (have, draws, streak))
        chunk = _chunk_size(size - have, have, draws)
        if generator is not None and source.pending_count:  # the pending values first, then the generator itself
            chunk = min(chunk, source.pending_count * 2 + (source.spare_half is not None) if narrow else
                        source.pending_count)
        block = read_block(source, chunk, narrow)
        kept, used, streak = _map_and_keep(reducer, block, n, range_size, out, have, streak)
        give_back(source, block, used)
        have, draws = have + kept, draws + used
    return Drawn(out, draws)


def draw_bounded_reference(source: Source, n, size: int, reducer: Reducer) -> Drawn:
    """One value at a time: draw, and draw again while rejected (the reference for :func:`draw_bounded`).

    Raises the :func:`stuck_source_error` after :data:`STUCK_REJECTIONS` rejections in a row.
    """
    map_values = reducer.map
    check_bound(n, source.range_size)
    narrow = narrow_words(source, n)
    range_size = draw_range(source, narrow)
    values, draws, streak = [], 0, 0
    for _ in range(size):
        accepted, value = narrow and int(n) == 1, 0
        while not accepted:
            x = next_draw(source, narrow)
            draws += 1
            drawn, flags = map_values(np.array([x], dtype=np.uint64 if x < UINT64_LIMIT else object), n, range_size)
            value, accepted = int(drawn[0]), bool(flags[0])
            streak = rejections_after(streak, accepted)
            if streak >= STUCK_REJECTIONS:
                raise stuck_source_error()
        values.append(value)
    return Drawn(_as_values(np.array(values, dtype=object)), draws)


def draw_bounded_lanes(batch: LCGBatch, n, reducer: Reducer, draws: np.ndarray | None = None,
                       mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One bounded value per lane of an :class:`~rnglab.generators.LCGBatch`.

    Steps every lane once, then re-steps only the rejected lanes until every
    lane has accepted; lane ``i`` sees exactly what the one-at-a-time loop on
    its own generator would.

    Parameters
    ----------
    batch : LCGBatch
    n : int or numpy.ndarray
        The bound, shared or one per lane.
    reducer : Reducer
    draws : numpy.ndarray, optional
        An int64 count per lane to add this call's draws to, in place (a
        running total kept without a new array per call).
    mask : numpy.ndarray, optional
        Draw for the lanes selected only (a batch whose ``next_raw(mask)``
        steps just those lanes, as :class:`~rnglab.generators.glibc.GlibcBatch`);
        ``values`` then has one entry per selected lane.

    Returns
    -------
    values, draws : numpy.ndarray
        The value per lane (uint64) and the source outputs each lane consumed
        (added to ``draws`` when it is given).

    Raises
    ------
    ValueError
        The :func:`stuck_source_error`, when a lane is rejected :data:`STUCK_REJECTIONS` times in a row.
    """
    map_values = reducer.map
    range_size = batch.range_size
    bounds = np.asarray(n, dtype=np.uint64 if int(np.max(n)) < UINT64_LIMIT else object) \
        if isinstance(n, np.ndarray) else n
    check_bound(bounds, range_size)
    selected = slice(None) if mask is None else np.flatnonzero(mask)
    values, accepted = map_values(_lane_offsets(batch, mask), bounds, range_size)
    draws = np.zeros(batch.lanes, dtype=np.int64) if draws is None else draws
    draws[selected] += 1
    streak = rejections_after(0, bool(accepted.all()))  # the longest run: each lane still waiting was rejected every time
    while streak:
        if streak >= STUCK_REJECTIONS:
            raise stuck_source_error()
        waiting = ~accepted
        stepped = waiting if mask is None else _lanes_mask(batch.lanes, selected[waiting])
        retry, flags = map_values(_lane_offsets(batch, stepped),
                                  bounds[waiting] if isinstance(bounds, np.ndarray) else bounds, range_size)
        values[waiting], accepted[waiting] = retry, flags
        draws[stepped] += 1
        streak = rejections_after(streak, bool(accepted.all()))
    return values, draws


def _lanes_mask(lanes: int, chosen: np.ndarray) -> np.ndarray:
    """A boolean mask of ``lanes`` lanes selecting the indices ``chosen``."""
    mask = np.zeros(lanes, dtype=bool)
    mask[chosen] = True
    return mask


def _lane_offsets(batch: LCGBatch, mask: np.ndarray | None) -> np.ndarray:
    """Step the lanes selected by ``mask`` (all for None); return their offsets ``raw - low``.

    A new array, or the batch's own state array when ``low = 0`` and the
    output is the whole state: the maps only read it.
    """
    raw = batch.next_raw(mask)
    raw = raw if mask is None else raw[mask]
    if not batch.low:
        return raw
    return raw - (np.uint64(batch.low) if raw.dtype != object else batch.low)
