"""The seed search's kernel: which initial LCG states deal the observed cards (numba, CPU; the GPU's in gpu.py).

One kernel per reducer's one-draw map (:mod:`rnglab.reduction.scalar`),
compiled once and cached on disk (:func:`search_kernel`); the generator's
fields (:func:`rnglab.draws.lcg.kernel_fields`), the bounds, the swap table
and the cards come in at run time, so ``crack borland`` after ``crack msvc``
compiles nothing. The search runs on every core, a slice of the seeds per
thread (:func:`search_seeds`), and the search of one seed has two stages.

1. *Filter.* Follow only the observed cards: a card starts at its own index
   (the deck is unshuffled) and moves when a step exchanges its position.
   No deck is written. When the shuffle makes a position final after a step
   (Fisher-Yates makes position ``i`` final at step ``i``), a tracked card that
   lands there must belong there, and the card observed there must have
   arrived; the first violation rejects the seed, so most seeds stop after a
   few steps (:func:`follows_cards`). Shuffles with no final positions (the
   1999 exchange shuffle) follow one card to the end, for ``LANES`` seeds at
   once: their generator steps are independent chains that the processor
   overlaps, where one seed alone waits for each multiplication in turn.
2. *Check.* The rare survivors replay the whole shuffle on a real deck and
   compare every observed position (:func:`reproduces`).

The per-seed pieces are :func:`~rnglab.core.compiled.device` functions: the
GPU kernel (:mod:`rnglab.recovery.gpu`) calls the same ones. Inner loops take
scalars and tuples only: an array passed to a function in a loop costs numba
two atomic reference-count updates per call.
"""

from __future__ import annotations

import functools
import itertools
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from rnglab.core.compiled import device, fingerprint, njit
from rnglab.draws.bounded import STUCK_REJECTIONS, stuck_source_error
from rnglab.draws.lcg import as_fields, draw_value
from rnglab.shuffles.kernels import DEALT, STUCK, shuffle_deck, swapped

#: Seeds followed together by the one-card filter (independent multiplication chains in flight).
LANES = 4


@device
def follow_step(reduce, x, position, n, parameter, i, offset, fields, limit):  # pragma: no cover - compiled
    """One swap step for one seed's followed card: ``(new state, new position of the card, outputs drawn)``."""
    value, x, drawn = draw_value(reduce, x, n, parameter, fields, limit)
    return x, swapped(position, i, np.int64(value) + offset), drawn


@device
def follow_card(reduce, x, fields, draws, steps, card, limit):  # pragma: no cover - compiled
    """Where ``card`` ends after the whole swap table from state ``x``, and the fewest outputs a draw took
    (0: the source got stuck)."""
    fewest = 1
    for t in range(steps.shape[0]):
        x, card, drawn = follow_step(reduce, x, card, draws[t, 0], draws[t, 1], steps[t, 0], steps[t, 1], fields,
                                     limit)
        fewest = min(fewest, drawn)
    return card, fewest


@njit(inline="always", nogil=True)
def filter_one_card(reduce, states, fields, draws, steps, card, position, hits, limit):  # pragma: no cover
    """Stage 1 for one followed card, ``LANES`` (4) seeds at a time: ``hits[s] = 1`` where it ends at ``position``.

    :func:`follow_card` on four seeds interleaved. The last group repeats the
    last seed in its unused lanes. Returns ``STUCK`` when a seed's source is
    stuck (``limit`` rejections in a row), else ``DEALT``.
    """
    last = states.size - 1
    for s in range(0, states.size, LANES):
        x0, x1, x2, x3 = states[s], states[min(s + 1, last)], states[min(s + 2, last)], states[min(s + 3, last)]
        k0 = k1 = k2 = k3 = card
        fewest = 1  # fewest outputs drawn for a value: 0 marks a stuck source
        for t in range(steps.shape[0]):
            n, parameter, i, offset = draws[t, 0], draws[t, 1], steps[t, 0], steps[t, 1]
            x0, k0, d0 = follow_step(reduce, x0, k0, n, parameter, i, offset, fields, limit)
            x1, k1, d1 = follow_step(reduce, x1, k1, n, parameter, i, offset, fields, limit)
            x2, k2, d2 = follow_step(reduce, x2, k2, n, parameter, i, offset, fields, limit)
            x3, k3, d3 = follow_step(reduce, x3, k3, n, parameter, i, offset, fields, limit)
            fewest = min(fewest, d0, d1, d2, d3)
        if fewest == 0:
            return STUCK
        for lane, k in enumerate((k0, k1, k2, k3)):
            if s + lane <= last:
                hits[s + lane] = k == position
    return DEALT


@device
def follows_cards(reduce, x, fields, draws, steps, cards, positions, tracked, limit):  # pragma: no cover
    """Stage 1 for the cards ``cards`` (``tracked``: room for them) from state ``x``: False at the first final
    position that misfits, ``STUCK`` (2) when the source gets stuck before a misfit.

    A followed card seldom moves, so a predicted branch beats the select of
    :func:`~rnglab.shuffles.kernels.swapped` here.
    """
    for q in range(cards.size):
        tracked[q] = cards[q]
    for t in range(steps.shape[0]):
        value, x, drawn = draw_value(reduce, x, draws[t, 0], draws[t, 1], fields, limit)
        if drawn == 0:
            return STUCK
        i, j, final = steps[t, 0], np.int64(value) + steps[t, 1], steps[t, 2]
        for q in range(cards.size):
            if tracked[q] == i:
                tracked[q] = j
            elif tracked[q] == j:
                tracked[q] = i
            if final >= 0 and (tracked[q] == final) != (positions[q] == final):
                return False
    for q in range(cards.size):
        if tracked[q] != positions[q]:
            return False
    return True


@njit(inline="always", nogil=True)
def filter_cards(reduce, states, fields, draws, steps, cards, positions, hits, limit):  # pragma: no cover
    """Stage 1 for several followed cards, seed by seed: ``hits[s] = 1`` where :func:`follows_cards` passes.

    Returns ``STUCK`` at the first seed whose source is stuck, else ``DEALT``.
    """
    tracked = np.empty(cards.size, dtype=np.int64)
    for s in range(states.size):
        hits[s] = follows_cards(reduce, states[s], fields, draws, steps, cards, positions, tracked, limit)
        if hits[s] == STUCK:
            return STUCK
    return DEALT


@device
def reproduces(reduce, x, fields, draws, steps, cards, positions, deck, limit):  # pragma: no cover - compiled
    """Stage 2: shuffle a real deck (``deck``, its cards' room) from state ``x`` and compare every observed position.

    It replays the draws of stage 1, which the seed passed, so its source is not stuck here.
    """
    for i in range(deck.shape[0]):
        deck[i] = i
    shuffle_deck(reduce, x, fields, draws, steps, deck, limit)
    for q in range(positions.size):
        if deck[positions[q]] != cards[q]:
            return False
    return True


def search_seeds(reduce, states: np.ndarray, generator: np.ndarray, draws: np.ndarray, steps: np.ndarray,
                 cards: np.ndarray, positions: np.ndarray, track: int, deck_size: int) -> np.ndarray:
    """Flags (uint8), one per state: 1 where the swap table from ``states[s]`` puts ``cards`` at ``positions``.

    The states are split into slices searched on ``numba.get_num_threads()``
    threads at once (the kernel releases the GIL; a few slices per thread
    even out their speeds). Raises the :func:`~rnglab.draws.bounded.stuck_source_error`
    when the source of a seed the filter follows gets stuck.

    Parameters
    ----------
    reduce : callable
        The reducer's one-draw map (:attr:`rnglab.reduction.scalar.Scalar.reduce`).
    states : uint64 array
        Initial generator states (one per seed).
    generator : uint64 array
        :func:`rnglab.draws.lcg.kernel_fields`.
    draws : uint64 array, shape (steps, 2)
        Per step, the bound and the reducer's constant (:func:`rnglab.draws.lcg.bound_table`).
    steps : int64 array, shape (steps, 3)
        Per step: the position exchanged, the offset added to the drawn value,
        and the position that is final after the step (-1: none).
    cards, positions : int64 arrays
        The observed cards (indices in the unshuffled deck) and where they were seen.
    track : int
        Observed cards followed by the filter stage (1: the one-card filter, which rejects at the end only).
    deck_size : int
    """
    hits = np.zeros(states.size, dtype=np.uint8)
    kernel = search_kernel(reduce)
    import numba  # imported by the kernel above: only its thread count is read here

    threads = numba.get_num_threads()
    bounds = np.linspace(0, states.size, 4 * threads + 1).astype(np.int64)
    pieces = [slice(a, b) for a, b in itertools.pairwise(bounds)]  # empty ones too: no states still loads the kernel

    def run(piece):
        return kernel(states[piece], generator, draws, steps, cards, positions, track, deck_size, hits[piece])

    with ThreadPoolExecutor(threads) as pool:
        if STUCK in pool.map(run, pieces):
            raise stuck_source_error()
    return hits


@functools.cache
def search_kernel(reduce):
    """The seed-search kernel for a reducer's one-draw map ``reduce`` (compiled once, cached on disk).

    It takes the arguments of :func:`search_seeds` but ``reduce``, then
    ``hits``, its output, and returns ``STUCK`` when a followed seed's source
    is stuck, else ``DEALT``. The map and ``settings`` are the closure's, which
    numba's disk cache keys on (the map is pickled by name): the stuck limit and
    the :func:`~rnglab.core.compiled.fingerprint` of the device code compiled in,
    which lives in other files than this one (a change there compiles anew).
    """
    settings = (STUCK_REJECTIONS, fingerprint(reduce) ^ fingerprint(reproduces) ^ fingerprint(follows_cards)
                ^ fingerprint(follow_step))

    @njit(cache=True, nogil=True, description="the seed-search kernel for this reducer", seconds=15)
    def search(states, generator, draws, steps, cards, positions, track, deck_size, hits):  # pragma: no cover
        fields, limit = as_fields(generator), settings[0]
        if track == 1:
            status = filter_one_card(reduce, states, fields, draws, steps, cards[0], positions[0], hits, limit)
        else:
            status = filter_cards(reduce, states, fields, draws, steps, cards[:track], positions[:track], hits,
                                  limit)
        if status == STUCK:
            return STUCK
        deck = np.empty(deck_size, dtype=np.int64)
        for s in range(states.size):
            if hits[s]:
                hits[s] = reproduces(reduce, states[s], fields, draws, steps, cards, positions, deck, limit)
        return DEALT

    return search
