"""Compiled swap shuffles (numba) on LCG lanes: deal decks, and search the seeds that deal the observed cards.

One arithmetic serves every combination of an LCG (modulus a power of two up
to 2^64, or any modulus up to 2^32), an output function ``(x >> shift) & mask``,
a range reducer (by code, see ``REDUCER_CODES``) and a *swap shuffle*: a
table of steps ``t``, each drawing ``v`` in ``[0, bound_t)`` and exchanging
positions ``position_t`` and ``v + offset_t`` of the deck. The tables are
built from the library's definitions (:mod:`rnglab.shuffles.algorithms`, :mod:`rnglab.recovery.crack`)
and tested against its one-at-a-time shuffles; the arithmetic of each reducer
below is the same as in :mod:`rnglab.draws.bounded`, restricted to ``R <= 2^32`` so
that every product ``x n`` is exact in uint64, plus Lemire's method on whole
64-bit words (``WIDE_LEMIRE``, a 128-bit product).

Two kernels, each compiled for one reducer, which is then chosen when the
kernel is compiled, not at every draw (:func:`deal_kernel`, :func:`search_kernel`;
numba caches each on disk: about 10 s the first time a reducer is used, not
after). The search runs on every core, a slice of the seeds per thread
(:func:`search_seeds`), and the search of one seed has two stages.

1. *Filter.* Follow only the observed cards: a card starts at its own index
   (the deck is unshuffled) and moves when a step exchanges its position.
   No deck is written. When the shuffle makes a position final after a step
   (Fisher-Yates makes position ``i`` final at step ``i``), a tracked card that
   lands there must belong there, and the card observed there must have
   arrived; the first violation rejects the seed, so most seeds stop after a
   few steps. Shuffles with no final positions (the 1999 exchange shuffle)
   follow one card to the end, for ``LANES`` seeds at once: their generator
   steps are independent chains that the processor overlaps, where one seed
   alone waits for each multiplication in turn.
2. *Check.* The rare survivors replay the whole shuffle on a real deck and
   compare every observed position.

A source that rejects :data:`~rnglab.draws.bounded.STUCK_REJECTIONS` draws in a
row is stuck (an LCG in a fixed point on a rejected output): :func:`draw_value`
then reports 0 draws, the kernels stop with the status ``STUCK``, and their
Python callers raise :func:`~rnglab.draws.bounded.stuck_source_error`. The limit is a
variable of each kernel's closure, so numba's on-disk cache follows it.

Inner loops take scalars and tuples only: an array passed to a function in a
loop costs numba two atomic reference-count updates per call. All arithmetic
is uint64: numba turns mixed uint64/int64 arithmetic into float64, which would
silently lose bits.
"""

from __future__ import annotations

import functools
import itertools
from collections import namedtuple
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from rnglab.core.compiled import njit
from rnglab.draws.bounded import STUCK_REJECTIONS, stuck_source_error
from rnglab.generators import LCG, LCGBatch
from rnglab.generators.affine import arithmetic_kind
from rnglab.reduction.maps import complete_blocks_end, multiply_128, range_mod, smear_mask
from rnglab.reduction.reducers import REDUCERS, Reducer

#: Reducer names and their codes in the kernels: the position in the registry ``rnglab.reduction.reducers.REDUCERS``.
#: Kernels cached on disk are keyed by code: add reducers at the end of the registry.
REDUCER_CODES = {name: code for code, name in enumerate(REDUCERS)}

#: The codes :func:`reduce_offset` has a branch for.
COMPILED = (MODULO, FLOAT_MULTIPLY, MULTIPLY_SHIFT, THRESHOLD, THRESHOLD_OPENBSD, BITMASK, LEMIRE, JAVA_NEXTINT,
            PYTHON_RANDBELOW) = tuple(
    REDUCER_CODES[name] for name in ("modulo", "float-multiply", "multiply-shift", "threshold", "threshold-openbsd",
                                     "bitmask", "lemire", "java-nextint", "python-randbelow"))

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

#: Seeds followed together by the one-card filter (independent multiplication chains in flight).
LANES = 4

ZERO = np.uint64(0)
ONE = np.uint64(1)
SIXTY_FOUR = np.uint64(64)
JAVA_INT_LIMIT = np.uint64(2**31)

#: Statuses of a deal: every row shuffled; a drawn position outside the deck; a stuck source.
DEALT, OUTSIDE, STUCK = 0, 1, 2


# -- tables ----------------------------------------------------------------------------

def kernel_code(batch: LCG | LCGBatch, reducer: Reducer) -> int | None:
    """The reducer code the kernels run for this generator and reducer, or ``None`` when they cannot serve them.

    Served: a modulus that is a power of two (up to 2^64) or at most 2^32,
    with ``R <= 2^32`` outputs (every reducer of ``REDUCER_CODES``, whose
    products are exact in uint64) or whole 64-bit words (``R = 2^64``) and
    Lemire's method (a 128-bit product).
    """
    if arithmetic_kind(batch.m) not in ("pow2", "small"):
        return None
    if batch.range_size <= 2**32:
        code = REDUCER_CODES.get(reducer.name)
        return code if code in COMPILED else None
    return WIDE_LEMIRE if batch.range_size == 2**64 and reducer.name == "lemire" else None


def kernel_fields(batch: LCG | LCGBatch) -> np.ndarray:
    """An LCG's or a batch's parameters as ``GENERATOR_FIELDS`` (``R`` kept modulo 2^64)."""
    pow2 = arithmetic_kind(batch.m) == "pow2"
    shift, mask = batch.output.shift_and_mask(batch.m)
    size = batch.range_size
    bits = size.bit_length() - 1 if size & (size - 1) == 0 else 64
    return np.array([batch.a, batch.c, 0 if pow2 else batch.m, batch.m - 1 if pow2 else 0, shift, mask, batch.low,
                     size % 2**64, bits], dtype=np.uint64)


def draw_table(bounds: np.ndarray, range_size: int) -> np.ndarray:
    """Per bound, the columns ``DRAW_COLUMNS`` (for ``R = 2^64``, read by Lemire's method only, the last two are 0)."""
    def row(b):
        if range_size > 2**32:
            return [b, range_mod(range_size, b), 0, 0]
        return [b, range_mod(range_size, b), smear_mask(b), complete_blocks_end(range_size, smear_mask(b))]

    return np.array([row(b) for b in map(int, bounds)], dtype=np.uint64).reshape(len(bounds), len(DRAW_COLUMNS))


# -- one draw --------------------------------------------------------------------------

#: The generator vector's fields by name, as the kernels read them.
Fields = namedtuple("Fields", GENERATOR_FIELDS)


@njit(inline="always", nogil=True)
def as_fields(generator):  # pragma: no cover - compiled
    """The generator vector as named scalars (:data:`Fields`: registers, not memory the compiler must reload)."""
    return Fields(generator[0], generator[1], generator[2], generator[3], generator[4], generator[5],
                  generator[6], generator[7], generator[8])


@njit(inline="always", nogil=True)
def draw_row(draws, t):  # pragma: no cover - compiled
    """Row ``t`` of the draw table as a tuple (``DRAW_COLUMNS``)."""
    return draws[t, 0], draws[t, 1], draws[t, 2], draws[t, 3]


@njit(inline="always", nogil=True)
def advance(x, fields):  # pragma: no cover - compiled
    """One LCG step: ``(a x + c) mod m``; ``modulus == 0`` marks m = 2^e (masked wrap-around)."""
    y = fields.a * x + fields.c
    if fields.modulus == ZERO:
        return y & fields.state_mask
    return y % fields.modulus


@njit(inline="always", nogil=True)
def scaled(product, fields):  # pragma: no cover - compiled
    """``(product div R, product mod R)``, by shifting when ``R = 2^range_bits``."""
    if fields.range_bits < SIXTY_FOUR:
        return product >> fields.range_bits, product & (fields.range_size - ONE)
    return product // fields.range_size, product % fields.range_size


@njit(inline="always", nogil=True)
def reduce_offset(code, x, draw, fields):  # pragma: no cover - compiled
    """Map a source offset ``x`` in ``[0, R)`` to ``(value, accepted)`` as :mod:`rnglab.draws.bounded` does.

    ``draw`` is a row of the draw table (:func:`draw_row`). In the kernels ``code``
    is a compile-time constant, and the compiler keeps only its branch.
    """
    n = draw[0]
    if code == MODULO:
        return x % n, True
    if code == FLOAT_MULTIPLY:
        return np.uint64(np.floor(np.float64(x) * np.float64(n) / np.float64(fields.range_size))), True
    if code == MULTIPLY_SHIFT:
        return scaled(x * n, fields)[0], True
    if code == THRESHOLD:
        return x % n, fields.range_size - ONE - x >= draw[1]
    if code == THRESHOLD_OPENBSD:
        return x % n, x >= draw[1]
    if code == BITMASK:
        value = x & draw[2]
        return value, value < n and x < draw[3]
    if code == LEMIRE:
        quotient, remainder = scaled(x * n, fields)
        return quotient, remainder >= draw[1]
    if code == WIDE_LEMIRE:
        high, low = multiply_128(x, n)
        return high, low >= draw[1]
    if code == PYTHON_RANDBELOW:  # the top k = bit_length(n) bits of R = 2^range_bits (n < R: checked before)
        bits, rest = ZERO, n
        while rest != ZERO:
            rest >>= ONE
            bits += ONE
        value = x >> (fields.range_bits - bits)
        return value, value < n
    r = x >> ONE  # JAVA_NEXTINT
    if n & (n - ONE) == ZERO:
        return (n * r) >> np.uint64(31), True
    value = r % n
    return value, r - value + (n - ONE) < JAVA_INT_LIMIT


@njit(inline="always", nogil=True)
def draw_value(x, code, draw, fields, limit):  # pragma: no cover - compiled
    """Step until the reducer accepts; return ``(value, new state, outputs drawn)``.

    After ``limit`` rejections in a row the source is stuck: ``(0, state, 0)``.
    """
    drawn = 0
    while drawn < limit:
        x = advance(x, fields)
        drawn += 1
        offset = ((x >> fields.shift) & fields.output_mask) - fields.low
        value, accepted = reduce_offset(code, offset, draw, fields)
        if accepted:
            return value, x, drawn
    return ZERO, x, 0


@njit(inline="always", nogil=True)
def swapped(position, i, j):  # pragma: no cover - compiled
    """Where an item at ``position`` is after positions ``i`` and ``j`` are exchanged."""
    return j if position == i else (i if position == j else position)


@njit(inline="always", nogil=True)
def follow_step(x, position, code, draw, i, offset, fields, limit):  # pragma: no cover - compiled
    """One swap step for one seed's followed card: ``(new state, new position of the card, outputs drawn)``."""
    value, x, drawn = draw_value(x, code, draw, fields, limit)
    return x, swapped(position, i, np.int64(value) + offset), drawn


# -- stages of the search --------------------------------------------------------------

@njit(inline="always", nogil=True)
def filter_one_card(states, code, fields, draws, steps, card, position, hits, limit):  # pragma: no cover
    """Stage 1 for one followed card, ``LANES`` (4) seeds at a time: ``hits[s] = 1`` where it ends at ``position``.

    The last group repeats the last seed in its unused lanes. Returns ``STUCK``
    when a seed's source is stuck (``limit`` rejections in a row), else ``DEALT``.
    """
    last = states.size - 1
    for s in range(0, states.size, LANES):
        x0, x1, x2, x3 = states[s], states[min(s + 1, last)], states[min(s + 2, last)], states[min(s + 3, last)]
        k0 = k1 = k2 = k3 = card
        fewest = 1  # fewest outputs drawn for a value: 0 marks a stuck source
        for t in range(steps.shape[0]):
            draw, i, offset = draw_row(draws, t), steps[t, 0], steps[t, 1]
            x0, k0, d0 = follow_step(x0, k0, code, draw, i, offset, fields, limit)
            x1, k1, d1 = follow_step(x1, k1, code, draw, i, offset, fields, limit)
            x2, k2, d2 = follow_step(x2, k2, code, draw, i, offset, fields, limit)
            x3, k3, d3 = follow_step(x3, k3, code, draw, i, offset, fields, limit)
            fewest = min(fewest, d0, d1, d2, d3)
        if fewest == 0:
            return STUCK
        for lane, k in enumerate((k0, k1, k2, k3)):
            if s + lane <= last:
                hits[s + lane] = k == position
    return DEALT


@njit(inline="always", nogil=True)
def follows_cards(x, code, fields, draws, steps, cards, positions, tracked, limit):  # pragma: no cover
    """Stage 1 for several followed cards from state ``x``: False at the first final position that misfits.

    A followed card seldom moves, so a predicted branch beats the select of
    :func:`swapped` here. ``STUCK`` (2) when the source gets stuck before a misfit.
    """
    for q in range(cards.size):
        tracked[q] = cards[q]
    for t in range(steps.shape[0]):
        value, x, drawn = draw_value(x, code, draw_row(draws, t), fields, limit)
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
def filter_cards(states, code, fields, draws, steps, cards, positions, hits, limit):  # pragma: no cover
    """Stage 1 for several followed cards, seed by seed: ``hits[s] = 1`` where :func:`follows_cards` passes.

    Returns ``STUCK`` at the first seed whose source is stuck, else ``DEALT``.
    """
    tracked = np.empty(cards.size, dtype=np.int64)
    for s in range(states.size):
        hits[s] = follows_cards(states[s], code, fields, draws, steps, cards, positions, tracked, limit)
        if hits[s] == STUCK:
            return STUCK
    return DEALT


@njit(inline="always", nogil=True)
def shuffle_deck(x, code, fields, draws, steps, decks, row, limit):  # pragma: no cover - compiled
    """Run the swap table on ``decks[row]`` from state ``x``; return ``(new state, outputs drawn, status)``.

    The status is ``DEALT``, or ``OUTSIDE`` at the first drawn position outside
    the deck (a source outside its declared range), or ``STUCK`` at the first
    value not drawn in ``limit`` outputs; the deck is then left part-shuffled.
    """
    drawn = 0
    for t in range(steps.shape[0]):
        value, x, count = draw_value(x, code, draw_row(draws, t), fields, limit)
        if count == 0:
            return x, drawn, STUCK
        drawn += count
        i, j = steps[t, 0], np.int64(value) + steps[t, 1]
        if not 0 <= j < decks.shape[1]:
            return x, drawn, OUTSIDE
        decks[row, i], decks[row, j] = decks[row, j], decks[row, i]
    return x, drawn, DEALT


@njit(inline="always", nogil=True)
def reproduces(state, code, fields, draws, steps, cards, positions, deck, limit):  # pragma: no cover
    """Stage 2: shuffle a real deck (``deck``, shape ``(1, n)``) from ``state`` and compare every observed position.

    It replays the draws of stage 1, which the seed passed, so its source is not stuck here.
    """
    for i in range(deck.shape[1]):
        deck[0, i] = i
    shuffle_deck(state, code, fields, draws, steps, deck, 0, limit)
    for q in range(positions.size):
        if deck[0, positions[q]] != cards[q]:
            return False
    return True


# -- kernels, one per reducer ----------------------------------------------------------

def search_seeds(code: int, states: np.ndarray, generator: np.ndarray, draws: np.ndarray, steps: np.ndarray,
                 cards: np.ndarray, positions: np.ndarray, track: int, deck_size: int) -> np.ndarray:
    """Flags (uint8), one per state: 1 where the swap table from ``states[s]`` puts ``cards`` at ``positions``.

    The states are split into slices searched on ``numba.get_num_threads()``
    threads at once (the kernel releases the GIL; a few slices per thread
    even out their speeds). Raises the :func:`~rnglab.draws.bounded.stuck_source_error`
    when the source of a seed the filter follows gets stuck.

    Parameters
    ----------
    code : int
        Reducer code (``REDUCER_CODES``, ``WIDE_LEMIRE``).
    states : uint64 array
        Initial generator states (one per seed).
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
        Observed cards followed by the filter stage (1: the one-card filter, which rejects at the end only).
    deck_size : int
    """
    hits = np.zeros(states.size, dtype=np.uint8)
    kernel = search_kernel(code, tuple(int(v) for v in generator))
    import numba  # imported by the kernel above: only its thread count is read here

    threads = numba.get_num_threads()
    bounds = np.linspace(0, states.size, 4 * threads + 1).astype(np.int64)
    pieces = [slice(a, b) for a, b in itertools.pairwise(bounds)]  # empty ones too: no states still loads the kernel

    def run(piece):
        return kernel(states[piece], draws, steps, cards, positions, track, deck_size, hits[piece])

    with ThreadPoolExecutor(threads) as pool:
        if STUCK in pool.map(run, pieces):
            raise stuck_source_error()
    return hits


@functools.cache
def search_kernel(code: int, generator: tuple):
    """The seed-search kernel for reducer ``code`` and one generator (its ``GENERATOR_FIELDS`` as Python integers).

    The kernel takes the arguments of :func:`search_seeds` but ``code`` and
    ``generator``, then ``hits``, its output. The generator's fields are
    constants of the compiled code (variables of its closure, which numba
    freezes and its on-disk cache keys on): the compiler folds the branches
    on them (is the modulus a power of two, is R a power of two), a
    remainder by a constant modulus or R becomes a multiplication, and the
    fields are immediates instead of values reloaded from memory. The
    disk cache then holds one kernel per reducer and generator (each about
    10 s to compile the first time).
    Returns ``STUCK`` when a followed seed's source is stuck, else ``DEALT``.
    """
    limit = STUCK_REJECTIONS
    a, c, modulus, state_mask, shift, output_mask, low, range_size, range_bits = map(np.uint64, generator)

    @njit(cache=True, nogil=True, description="the seed-search kernel for this reducer", seconds=15)
    def search(states, draws, steps, cards, positions, track, deck_size, hits):  # pragma: no cover
        fields = Fields(a, c, modulus, state_mask, shift, output_mask, low, range_size, range_bits)
        if track == 1:
            status = filter_one_card(states, code, fields, draws, steps, cards[0], positions[0], hits, limit)
        else:
            status = filter_cards(states, code, fields, draws, steps, cards[:track], positions[:track], hits, limit)
        if status == STUCK:
            return STUCK
        deck = np.empty((1, deck_size), dtype=np.int64)
        for s in range(states.size):
            if hits[s]:
                hits[s] = reproduces(states[s], code, fields, draws, steps, cards, positions, deck, limit)
        return DEALT

    return search


@functools.cache
def deal_kernel(code: int):
    """The dealing kernel for reducer ``code``: ``deal(decks, states, drawn, generator, draws, steps)``.

    Shuffles row ``r`` of ``decks`` from ``states[r]``, updating ``states`` and
    adding the outputs consumed to ``drawn``. With a single state
    (``len(states) == 1``) every row draws from it in turn: row ``r`` starts
    where row ``r - 1`` stopped. ``steps[t] = (position, offset)``. Returns
    False at the first drawn position outside the deck (a source outside its
    declared range), leaving that row and the later ones undone, and raises
    the :func:`~rnglab.draws.bounded.stuck_source_error` for a stuck source.
    """
    limit = STUCK_REJECTIONS

    @njit(cache=True, nogil=True, description="the dealing kernel for this reducer", seconds=2)
    def compiled(decks, states, drawn, generator, draws, steps):  # pragma: no cover - compiled
        fields = as_fields(generator)
        shared = states.shape[0] == 1
        for row in range(decks.shape[0]):
            lane = 0 if shared else row
            x, used, status = shuffle_deck(states[lane], code, fields, draws, steps, decks, row, limit)
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
