"""The seed search of :mod:`rnglab.recovery.search_kernels` on a CUDA GPU (numba.cuda): one thread per seed.

Same arguments, same arithmetic, same hits as :func:`rnglab.recovery.search_kernels.search_seeds`:
each thread takes one initial state and runs the two stages of the CPU kernel
with the CPU kernel's own per-seed functions, written once as plain
:func:`~rnglab.core.compiled.device` functions that numba compiles for
either target (:func:`~rnglab.recovery.search_kernels.follow_card`,
:func:`~rnglab.recovery.search_kernels.follows_cards`,
:func:`~rnglab.recovery.search_kernels.reproduces`, and under them
:func:`rnglab.draws.lcg.draw_value` and the reducer's one-draw map).

1. *Filter*: follow the observed cards (one card to the end when
   ``track == 1``; else the first ``track`` cards, rejecting at the first
   final position that misfits).
2. *Check*: the survivors shuffle a real deck (``deck_size`` at most
   :data:`MAX_DECK`, a per-thread array) and compare every observed position.

The state is cast to uint64 before it is followed: a no-op on the GPU, and
under the simulator, where the pieces run as Python, it keeps the arithmetic
in numpy's uint64 (wrapping, as on the device).

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

from rnglab.core.compiled import register_devices
from rnglab.draws.bounded import STUCK_REJECTIONS, stuck_source_error
from rnglab.draws.lcg import as_fields
from rnglab.recovery.search_kernels import follow_card, follows_cards, reproduces
from rnglab.shuffles.kernels import STUCK

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


def search_seeds_gpu(scalar, states: np.ndarray, generator: np.ndarray, draws: np.ndarray, steps: np.ndarray,
                     cards: np.ndarray, positions: np.ndarray, track: int, deck_size: int) -> np.ndarray:
    """Flags (uint8), one per state, as :func:`rnglab.recovery.search_kernels.search_seeds` (same arguments),
    on the GPU."""
    flags = np.zeros(states.size, dtype=np.uint8)
    kernel = gpu_search_kernel(scalar.reduce)
    if states.size:
        with np.errstate(over="ignore"):  # the simulator's uint64 arithmetic wraps, as the device's does
            kernel[-(-states.size // THREADS), THREADS](states, generator, draws, steps, cards, positions, track,
                                                        deck_size, flags)
    if np.any(flags == STUCK):
        raise stuck_source_error()
    return (flags == HIT).astype(np.uint8)


@functools.cache
def gpu_search_kernel(reduce):
    """The CUDA kernel for a reducer's one-draw map (a constant of the closure, as in the CPU kernel)."""
    limit = STUCK_REJECTIONS

    def search(states, generator, draws, steps, cards, positions, track, deck_size, flags):  # pragma: no cover
        s = cuda.grid(1)
        if s >= states.size:
            return
        fields, x = as_fields(generator), np.uint64(states[s])
        scratch = cuda.local.array(MAX_DECK, np.int64)
        if track == 1:
            card, fewest = follow_card(reduce, x, fields, draws, steps, cards[0], limit)
            verdict = STUCK if fewest == 0 else HIT if card == positions[0] else MISS
        else:
            verdict = follows_cards(reduce, x, fields, draws, steps, cards[:track], positions[:track],
                                    scratch[:track], limit)
        if verdict == HIT:
            verdict = HIT if reproduces(reduce, x, fields, draws, steps, cards, positions, scratch[:deck_size],
                                        limit) else MISS
        flags[s] = verdict

    register_devices(search)
    return cuda.jit(search)
