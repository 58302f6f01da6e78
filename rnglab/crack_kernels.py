"""Compiled kernels (numba) for seed recovery: which seeds reproduce the observed cards?

One kernel serves every combination of an LCG (modulus a power of two up to
2^64, or any modulus up to 2^32), an output function ``(x >> shift) & mask``,
a range reducer (by code, see ``REDUCER_CODES``) and a *swap shuffle*: a
table of steps ``t``, each drawing ``v`` in ``[0, bound_t)`` and exchanging
positions ``position_t`` and ``v + offset_t`` of the deck. The tables are
built in :mod:`rnglab.crack` from the library's definitions and tested
against its one-at-a-time shuffles; the arithmetic of each reducer below is
the same as in :mod:`rnglab.reduce`, restricted to ``R <= 2^32`` so that every
product ``x n`` is exact in uint64, plus Lemire's method on whole 64-bit words
(``WIDE_LEMIRE``, a 128-bit product) for the shuffle kernel of :mod:`rnglab.shuffle`.

The search of one seed has two stages.

1. *Filter.* Follow only the observed cards: a card starts at its own index
   (the deck is unshuffled) and moves when a step exchanges its position.
   No deck is written. When the shuffle makes a position final after a step
   (Fisher-Yates makes position ``i`` final at step ``i``), a tracked card that
   lands there must belong there, and the card observed there must have
   arrived; the first violation rejects the seed, so most seeds stop after a
   few steps. Shuffles with no final positions (the 1999 exchange shuffle)
   track one card and reject at the end.
2. *Check.* The rare survivors replay the whole shuffle on a real deck and
   compare every observed position.

All arithmetic is uint64: numba turns mixed uint64/int64 arithmetic into
float64, which would silently lose bits.
"""

from __future__ import annotations

import numba
import numpy as np

from .reduce import multiply_128

#: Reducer names (``rnglab.reduce.REDUCERS``) and their codes in the kernel.
REDUCER_CODES = {"modulo": 0, "float-multiply": 1, "multiply-shift": 2, "threshold": 3,
                 "threshold-openbsd": 4, "bitmask": 5, "lemire": 6, "java-nextint": 7}

#: Code of Lemire's method on whole 64-bit words (``R = 2^64``): ``x n = high 2^64 + low``,
#: value ``high``, rejected iff ``low < 2^64 mod n`` (column ``range_mod`` of the draw table).
WIDE_LEMIRE = len(REDUCER_CODES)

#: Fields of the generator vector ``generator`` passed to the kernels: the LCG's ``a`` and ``c``;
#: ``modulus`` (0 for m = 2^e, whose states are kept with ``state_mask = m - 1``); the output
#: ``(x >> shift) & output_mask``, its declared ``low`` and ``range_size`` R; ``range_bits`` = log2 R
#: when R is a power of two, else 64.
GENERATOR_FIELDS = ("a", "c", "modulus", "state_mask", "shift", "output_mask", "low", "range_size", "range_bits")

#: Columns of the per-step draw table: the bound n, R mod n, the bitmask and the end of its complete blocks.
DRAW_COLUMNS = ("bound", "range_mod", "bitmask", "blocks_end")

#: Seeds handled by one parallel task.
BLOCK = 4096

ZERO = np.uint64(0)
ONE = np.uint64(1)
SIXTY_FOUR = np.uint64(64)
JAVA_INT_LIMIT = np.uint64(2**31)


@numba.njit(inline="always", nogil=True)
def as_fields(generator):  # pragma: no cover - compiled
    """The generator vector as a tuple of scalars (registers, not memory the compiler must reload)."""
    return (generator[0], generator[1], generator[2], generator[3], generator[4], generator[5],
            generator[6], generator[7], generator[8])


@numba.njit(inline="always", nogil=True)
def advance(x, generator):  # pragma: no cover - compiled
    """One LCG step: ``(a x + c) mod m``; ``modulus == 0`` marks m = 2^e (masked wrap-around)."""
    y = generator[0] * x + generator[1]
    if generator[2] == ZERO:
        return y & generator[3]
    return y % generator[2]


@numba.njit(inline="always", nogil=True)
def scaled(product, generator):  # pragma: no cover - compiled
    """``(product div R, product mod R)``, by shifting when ``R = 2^range_bits``."""
    if generator[8] < SIXTY_FOUR:
        return product >> generator[8], product & (generator[7] - ONE)
    return product // generator[7], product % generator[7]


@numba.njit(inline="always", nogil=True)
def reduce_offset(code, x, draws, t, generator):  # pragma: no cover - compiled
    """Map a source offset ``x`` in ``[0, R)`` to ``(value, accepted)`` as :mod:`rnglab.reduce` does."""
    n = draws[t, 0]
    if code == 0:
        return x % n, True
    if code == 1:
        return np.uint64(np.floor(np.float64(x) * np.float64(n) / np.float64(generator[7]))), True
    if code == 2:
        return scaled(x * n, generator)[0], True
    if code == 3:
        return x % n, generator[7] - ONE - x >= draws[t, 1]
    if code == 4:
        return x % n, x >= draws[t, 1]
    if code == 5:
        value = x & draws[t, 2]
        return value, value < n and x < draws[t, 3]
    if code == 6:
        quotient, remainder = scaled(x * n, generator)
        return quotient, remainder >= draws[t, 1]
    if code == WIDE_LEMIRE:
        high, low = multiply_128(x, n)
        return high, low >= draws[t, 1]
    r = x >> ONE
    if n & (n - ONE) == ZERO:
        return (n * r) >> np.uint64(31), True
    value = r % n
    return value, r - value + (n - ONE) < JAVA_INT_LIMIT


@numba.njit(inline="always", nogil=True)
def draw_value(x, code, draws, t, generator):  # pragma: no cover - compiled
    """Step until the reducer accepts; return ``(value, new state, outputs drawn)``."""
    drawn = 0
    while True:
        x = advance(x, generator)
        drawn += 1
        offset = ((x >> generator[4]) & generator[5]) - generator[6]
        value, accepted = reduce_offset(code, offset, draws, t, generator)
        if accepted:
            return value, x, drawn


@numba.njit(inline="always", nogil=True)
def passes_filter(state, code, generator, draws, steps, cards, positions, track, tracked):  # pragma: no cover
    """Stage 1: follow the first ``track`` observed cards through the swaps; False on the first misfit."""
    for q in range(track):
        tracked[q] = cards[q]
    x = state
    for t in range(steps.shape[0]):
        value, x, _ = draw_value(x, code, draws, t, generator)
        i = steps[t, 0]
        j = np.int64(value) + steps[t, 1]
        final = steps[t, 2]
        for q in range(track):
            if tracked[q] == i:
                tracked[q] = j
            elif tracked[q] == j:
                tracked[q] = i
            if final >= 0 and (tracked[q] == final) != (positions[q] == final):
                return False
    for q in range(track):
        if tracked[q] != positions[q]:
            return False
    return True


@numba.njit(inline="always", nogil=True)
def passes_filter_one(state, code, generator, draws, steps, card, position):  # pragma: no cover - compiled
    """Stage 1 for one followed card, held in a register (the common case of shuffles without final positions)."""
    tracked = card
    x = state
    for t in range(steps.shape[0]):
        value, x, _ = draw_value(x, code, draws, t, generator)
        i = steps[t, 0]
        j = np.int64(value) + steps[t, 1]
        if tracked == i:
            tracked = j
        elif tracked == j:
            tracked = i
        final = steps[t, 2]
        if final >= 0 and (tracked == final) != (position == final):
            return False
    return tracked == position


@numba.njit(inline="always", nogil=True)
def reproduces(state, code, generator, draws, steps, cards, positions, deck):  # pragma: no cover
    """Stage 2: shuffle a real deck from ``state`` and compare every observed position."""
    for i in range(deck.size):
        deck[i] = i
    x = state
    for t in range(steps.shape[0]):
        value, x, _ = draw_value(x, code, draws, t, generator)
        i = steps[t, 0]
        j = np.int64(value) + steps[t, 1]
        deck[i], deck[j] = deck[j], deck[i]
    for q in range(positions.size):
        if deck[positions[q]] != cards[q]:
            return False
    return True


@numba.njit(parallel=True, cache=True, nogil=True)
def search_states(states, code, generator, draws, steps, cards, positions, track, deck_size, hits):  # pragma: no cover
    """Set ``hits[s] = 1`` where the shuffle from ``states[s]`` puts ``cards`` at ``positions``.

    Parameters
    ----------
    states : uint64 array
        Initial generator states (one per seed).
    code : int
        Reducer code (``REDUCER_CODES``).
    generator : uint64 array
        The fields ``GENERATOR_FIELDS``.
    draws : uint64 array, shape (steps, 4)
        Per step, the columns ``DRAW_COLUMNS``.
    steps : int64 array, shape (steps, 3)
        Per step: the position exchanged, the offset added to the drawn value,
        and the position that is final after the step (-1: none).
    cards, positions : int64 arrays
        The observed cards (indices in the unshuffled deck) and where they were seen.
    track : int
        Number of observed cards followed by the filter stage.
    deck_size : int
    hits : uint8 array
        Output, one flag per state.
    """
    fields = as_fields(generator)
    blocks = (states.size + BLOCK - 1) // BLOCK
    for block in numba.prange(blocks):
        deck = np.empty(deck_size, dtype=np.int64)
        tracked = np.empty(max(track, 1), dtype=np.int64)
        for s in range(block * BLOCK, min(states.size, (block + 1) * BLOCK)):
            if track == 1:
                hit = passes_filter_one(states[s], code, fields, draws, steps, cards[0], positions[0])
            else:
                hit = passes_filter(states[s], code, fields, draws, steps, cards, positions, track, tracked)
            hits[s] = 1 if hit and reproduces(states[s], code, fields, draws, steps, cards, positions, deck) else 0


@numba.njit(cache=True, nogil=True)
def shuffled_deck(state, code, generator, draws, steps, deck_size):  # pragma: no cover - compiled
    """The whole deck the swap table produces from ``state`` (for display and tests)."""
    deck = np.empty(deck_size, dtype=np.int64)
    cards = np.empty(0, dtype=np.int64)
    reproduces(state, code, as_fields(generator), draws, steps, cards, cards, deck)
    return deck
