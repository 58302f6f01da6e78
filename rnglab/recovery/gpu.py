"""The seed search of :mod:`rnglab.shuffles.kernels` on a CUDA GPU (numba.cuda): one thread per seed.

Same arguments, same arithmetic, same hits as :func:`rnglab.shuffles.kernels.search_seeds`:
each thread takes one initial state and runs the two stages of the CPU kernel,
calling its compiled scalar pieces (:func:`~rnglab.shuffles.kernels.draw_value`,
:func:`~rnglab.shuffles.kernels.swapped`, the generator vector as
:data:`~rnglab.shuffles.kernels.Fields`), so that a change of arithmetic there
reaches both devices.

1. *Filter*: follow the observed cards (one card to the end when
   ``track == 1``; else the first ``track`` cards, rejecting at the first
   final position that misfits), as ``filter_one_card`` and ``follows_cards`` do.
2. *Check*: the survivors shuffle a real deck (``deck_size`` at most
   :data:`MAX_DECK`, a per-thread array) and compare every observed position.

The state is cast to uint64 at each draw: a no-op on the GPU, and under the
simulator, where the compiled pieces hand back Python integers, it keeps states
of 2^63 and more from being typed int64.

A thread whose source gets stuck reports ``STUCK``; the host then raises the
:func:`~rnglab.draws.bounded.stuck_source_error`, as the CPU kernel does.

Its speed has not been measured (no GPU was available); the tests run it under
numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``) and compare its hits with
the CPU kernel's. This module (and numba.cuda) is imported only when the GPU is asked for.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import cuda

from rnglab.draws.bounded import STUCK_REJECTIONS, stuck_source_error
from rnglab.shuffles.kernels import STUCK, Fields, draw_value, swapped

#: Largest deck a GPU thread shuffles (its deck and followed cards live in per-thread arrays of this size).
MAX_DECK = 256
#: Threads per block.
THREADS = 128
#: A thread's verdict on its seed: no match, a match (the third is ``STUCK``).
MISS, HIT = 0, 1


def check_gpu(deck_size: int) -> None:
    """Refuse a deck over :data:`MAX_DECK` cards, or a machine without a CUDA GPU."""
    if deck_size > MAX_DECK:
        raise ValueError(f"the GPU kernel shuffles decks of at most {MAX_DECK} cards; got {deck_size}")
    if not cuda.is_available():
        raise ValueError("--device gpu: no CUDA GPU is available here (numba.cuda finds none); use --device cpu")


def search_seeds_gpu(code: int, states: np.ndarray, generator: np.ndarray, draws: np.ndarray, steps: np.ndarray,
                     cards: np.ndarray, positions: np.ndarray, track: int, deck_size: int) -> np.ndarray:
    """Flags (uint8), one per state, as :func:`rnglab.shuffles.kernels.search_seeds` (same arguments), on the GPU."""
    flags = np.zeros(states.size, dtype=np.uint8)
    kernel = gpu_search_kernel(code)
    if states.size:
        kernel[-(-states.size // THREADS), THREADS](states, generator, draws, steps, cards, positions, track,
                                                    deck_size, flags)
    if np.any(flags == STUCK):
        raise stuck_source_error()
    return (flags == HIT).astype(np.uint8)


@functools.cache
def gpu_search_kernel(code: int):
    """The CUDA kernel for reducer ``code`` (a constant of the closure, as in the CPU kernels)."""
    limit = STUCK_REJECTIONS

    @cuda.jit(device=True)
    def row(draws, t):  # pragma: no cover - compiled
        return draws[t, 0], draws[t, 1], draws[t, 2], draws[t, 3]

    @cuda.jit(device=True)
    def follow_one(x, fields, draws, steps, card, position):  # pragma: no cover - compiled
        """``filter_one_card`` for one seed: every step, then where the card ended."""
        fewest = 1
        for t in range(steps.shape[0]):
            value, x, drawn = draw_value(np.uint64(x), code, row(draws, t), fields, limit)
            card = swapped(card, steps[t, 0], np.int64(value) + steps[t, 1])
            fewest = min(fewest, drawn)
        if fewest == 0:
            return STUCK
        return HIT if card == position else MISS

    @cuda.jit(device=True)
    def follow_cards(x, fields, draws, steps, cards, positions, track, tracked):  # pragma: no cover - compiled
        """``follows_cards`` for the first ``track`` cards."""
        for q in range(track):
            tracked[q] = cards[q]
        for t in range(steps.shape[0]):
            value, x, drawn = draw_value(np.uint64(x), code, row(draws, t), fields, limit)
            if drawn == 0:
                return STUCK
            i, j, final = steps[t, 0], np.int64(value) + steps[t, 1], steps[t, 2]
            for q in range(track):
                if tracked[q] == i:
                    tracked[q] = j
                elif tracked[q] == j:
                    tracked[q] = i
                if final >= 0 and (tracked[q] == final) != (positions[q] == final):
                    return MISS
        for q in range(track):
            if tracked[q] != positions[q]:
                return MISS
        return HIT

    @cuda.jit(device=True)
    def reproduces(x, fields, draws, steps, cards, positions, deck_size, deck):  # pragma: no cover - compiled
        """``reproduces``: shuffle a real deck (stopping where ``shuffle_deck`` stops) and compare every position."""
        for i in range(deck_size):
            deck[i] = i
        for t in range(steps.shape[0]):
            value, x, drawn = draw_value(np.uint64(x), code, row(draws, t), fields, limit)
            i, j = steps[t, 0], np.int64(value) + steps[t, 1]
            if drawn == 0 or not 0 <= j < deck_size:
                break
            deck[i], deck[j] = deck[j], deck[i]
        for q in range(positions.size):
            if deck[positions[q]] != cards[q]:
                return MISS
        return HIT

    @cuda.jit
    def search(states, generator, draws, steps, cards, positions, track, deck_size, flags):  # pragma: no cover
        s = cuda.grid(1)
        if s >= states.size:
            return
        fields = Fields(generator[0], generator[1], generator[2], generator[3], generator[4], generator[5],
                        generator[6], generator[7], generator[8])
        scratch = cuda.local.array(MAX_DECK, np.int64)
        if track == 1:
            verdict = follow_one(states[s], fields, draws, steps, cards[0], positions[0])
        else:
            verdict = follow_cards(states[s], fields, draws, steps, cards, positions, track, scratch)
        if verdict == HIT:
            verdict = reproduces(states[s], fields, draws, steps, cards, positions, deck_size, scratch)
        flags[s] = verdict

    return search
