"""Compiled swap shuffles on LCG lanes (numba): deal decks, one kernel per reducer.

A *swap shuffle* is a table of steps ``t``, each drawing ``v`` in
``[0, bound_t)`` and exchanging positions ``position_t`` and ``v + offset_t``
of the deck. The tables are built from the library's definitions
(:mod:`rnglab.shuffles.algorithms`) and tested against its one-at-a-time
shuffles. Each draw is one :func:`rnglab.draws.lcg.draw_value`: the LCG
given at run time (its fields), the reducer's one-draw map
(:mod:`rnglab.reduction.scalar`) a constant of the kernel, so numba compiles
and caches one dealing kernel per map (:func:`deal_kernel`), whatever the
generator. The pieces here (:func:`swapped`, :func:`shuffle_deck`) are also
the seed search's (:mod:`rnglab.recovery.search_kernels`, on CPU and GPU).

A source that rejects :data:`~rnglab.draws.bounded.STUCK_REJECTIONS` draws in a
row is stuck: the kernel stops with the status ``STUCK`` and its Python caller
raises :func:`~rnglab.draws.bounded.stuck_source_error`.
"""

from __future__ import annotations

import functools

import numpy as np

from rnglab.core.compiled import device, fingerprint, njit
from rnglab.draws.bounded import STUCK_REJECTIONS, stuck_source_error
from rnglab.draws.lcg import as_fields, draw_value

#: Statuses of a deal: every row shuffled; a drawn position outside the deck; a stuck source.
DEALT, OUTSIDE, STUCK = 0, 1, 2


@device(inline=False)
def swapped(position, i, j):  # pragma: no cover - compiled
    """Where an item at ``position`` is after positions ``i`` and ``j`` are exchanged.

    Not inlined in numba's IR (:func:`~rnglab.core.compiled.device`): typed once, not at each of the seed
    search's calls; LLVM inlines it.
    """
    return j if position == i else (i if position == j else position)


@device
def shuffle_deck(reduce, x, fields, draws, steps, deck, limit):  # pragma: no cover - compiled
    """Run the swap table on ``deck`` (one row) from state ``x``; return ``(new state, outputs drawn, status)``.

    ``draws[t] = (bound, parameter)`` (:func:`rnglab.draws.lcg.bound_table`),
    ``steps[t] = (position, offset, ...)``. The status is ``DEALT``, or ``OUTSIDE``
    at the first drawn position outside the deck (a source outside its declared
    range), or ``STUCK`` at the first value not drawn in ``limit`` outputs; the
    deck is then left part-shuffled.

    Inlined in numba's IR (:func:`~rnglab.core.compiled.device`): called, it left a call and reference counts
    per deck in the deal kernel of ``lemire`` (LLVM did not inline it there), which measured 17 % slower
    (best of 7 alternated runs, 10^6 decks).
    """
    drawn = 0
    for t in range(steps.shape[0]):
        value, x, count = draw_value(reduce, x, draws[t, 0], draws[t, 1], fields, limit)
        if count == 0:
            return x, drawn, STUCK
        drawn += count
        i, j = steps[t, 0], np.int64(value) + steps[t, 1]
        if not 0 <= j < deck.shape[0]:
            return x, drawn, OUTSIDE
        deck[i], deck[j] = deck[j], deck[i]
    return x, drawn, DEALT


@functools.cache
def deal_kernel(reduce):
    """The dealing kernel for a reducer's one-draw map: ``deal(decks, states, drawn, generator, draws, steps)``.

    Shuffles row ``r`` of ``decks`` from ``states[r]``, updating ``states`` and
    adding the outputs consumed to ``drawn``. With a single state
    (``len(states) == 1``) every row draws from it in turn: row ``r`` starts
    where row ``r - 1`` stopped. ``generator``: :func:`rnglab.draws.lcg.kernel_fields`;
    ``draws``: :func:`rnglab.draws.lcg.bound_table`; ``steps[t] = (position, offset)``.
    Returns False at the first drawn position outside the deck (a source outside
    its declared range), leaving that row and the later ones undone, and raises
    the :func:`~rnglab.draws.bounded.stuck_source_error` for a stuck source.
    ``settings``, the closure numba's disk cache keys on: the stuck limit, and the
    :func:`~rnglab.core.compiled.fingerprint` of the device code the kernel compiles
    (which lives in other files than the kernel's: a change there compiles anew).
    """
    settings = (STUCK_REJECTIONS, fingerprint(reduce) ^ fingerprint(shuffle_deck))

    @njit(cache=True, nogil=True, description="the dealing kernel for this reducer", seconds=2)
    def compiled(decks, states, drawn, generator, draws, steps):  # pragma: no cover - compiled
        fields, limit = as_fields(generator), settings[0]
        shared = states.shape[0] == 1
        for row in range(decks.shape[0]):
            lane = 0 if shared else row
            x, used, status = shuffle_deck(reduce, states[lane], fields, draws, steps, decks[row], limit)
            if status != DEALT:
                return status
            states[lane] = x
            drawn[lane] += used
        return DEALT

    def deal(decks, states, drawn, generator, draws, steps):
        status = compiled(decks, states, drawn, generator, draws, steps)
        if status == STUCK:
            raise stuck_source_error()
        return status == DEALT

    return deal
