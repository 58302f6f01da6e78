"""The seed search's kernel: which initial LCG states deal the observed cards (numba, CPU; the GPU's in gpu.py).

One kernel per reducer's one-draw map (:mod:`rnglab.reduction.scalar`),
compiled once and cached on disk (:func:`search_kernel`); the generator's
fields (:func:`rnglab.draws.lcg.kernel_fields`), the bounds, the swap table
and the cards come in at run time, so ``crack borland`` after ``crack msvc``
compiles nothing. The search runs on every core, a slice of the seeds per
thread (:func:`search_seeds`), and the search of one seed has up to three stages.

0. *Lock step* (:func:`lock_step`), where the reducer's map has a lane form
   (:attr:`rnglab.reduction.scalar.Scalar.lanes`), the LCG's modulus is a power
   of two, its range ``2^bits <= 2^32`` and the deck at most 63 cards: blocks of
   seeds take each step together in a loop the compiler turns into vector
   instructions, each lane holding the positions of the observed cards as the
   bits of one word; a lane drops out where the filter below would reject, the
   dead lanes are squeezed out as they accumulate, and only the survivors and
   the lanes whose draw was rejected (a redraw breaks the lock step) go on to
   stages 1 and 2, which decide alone: the hits are the same as without stage 0
   (tests/recovery/test_search_kernels.py).
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

#: Seeds stepped together in a lock-step block (:func:`lock_step`): their states, bit sets and fates fill
#: 32 KiB, a level-1 cache.
BLOCK = 1024

ZERO, ONE, THIRTY_TWO, SIXTY_THREE = np.uint64(0), np.uint64(1), np.uint64(32), np.uint64(63)

#: Bits of a lane's set (:func:`lock_step`): positions 0 to 62, and :data:`LEFT`.
WORD = np.uint64(64)

#: The top bit of a lane's set: the lane left the lock step (a rejected draw); the scalar filter judges it.
LEFT = ONE << SIXTY_THREE


@device(inline=False)
def follow_step(reduce, x, position, n, parameter, i, offset, fields, limit):  # pragma: no cover - compiled
    """One swap step for one seed's followed card: ``(new state, new position of the card, outputs drawn)``.

    Not inlined in numba's IR (:func:`~rnglab.core.compiled.device`): typed once, not at each of its calls
    (four in the one-card filter, one in :func:`follow_card`); LLVM inlines it.
    """
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


@device(inline=False)
def reproduces(reduce, x, fields, draws, steps, cards, positions, deck, limit):  # pragma: no cover - compiled
    """Stage 2: shuffle a real deck (``deck``, its cards' room) from state ``x`` and compare every observed position.

    It replays the draws of stage 1, which the seed passed, so its source is not stuck here. Not inlined in
    numba's IR (:func:`~rnglab.core.compiled.device`): it runs for the rare survivors only, where a call costs
    nothing measurable.
    """
    for i in range(deck.shape[0]):
        deck[i] = i
    shuffle_deck(reduce, x, fields, draws, steps, deck, limit)
    for q in range(positions.size):
        if deck[positions[q]] != cards[q]:
            return False
    return True


def search_seeds(scalar, states: np.ndarray, generator: np.ndarray, draws: np.ndarray, steps: np.ndarray,
                 cards: np.ndarray, positions: np.ndarray, track: int, deck_size: int) -> np.ndarray:
    """Flags (uint8), one per state: 1 where the swap table from ``states[s]`` puts ``cards`` at ``positions``.

    The states are split into slices searched on ``numba.get_num_threads()``
    threads at once (the kernel releases the GIL; a few slices per thread
    even out their speeds). Raises the :func:`~rnglab.draws.bounded.stuck_source_error`
    when the source of a seed the filter follows gets stuck.

    Parameters
    ----------
    scalar : Scalar
        The reducer's compiled form (:attr:`rnglab.reduction.reducers.Reducer.scalar`): its one-draw map and,
        where it has one, the map's lane form.
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
    kernel = search_kernel(scalar)
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


@njit(inline="always", nogil=True)
def lock_step(lanes, states, fields, draws, steps, dealt, seen, finals, hits):  # pragma: no cover - compiled
    """Stage 0, seeds in lock step: ``hits[s] = 1`` for the seeds that stages 1 and 2 must still judge.

    Blocks of :data:`BLOCK` seeds take each step together, each lane in a loop
    that LLVM vectorizes (no branch, no division: the reducer's lane form
    ``lanes``, :attr:`rnglab.reduction.scalar.Scalar.lanes`). A lane does not
    follow cards: it holds the set of positions where the observed cards are,
    as bits 0 to 62 of a word (``dealt``: their positions in the unshuffled
    deck; ``seen``: where they were seen), and a step exchanges two bits,
    whatever the number of cards. The word is the lane's whole fate: a lane
    whose draw is rejected (a redraw breaks the lock step) gets bit
    :data:`LEFT` and is judged by the scalar filter from its first draw; a
    lane rejected for sure gets the empty set (a live one holds at least one
    card). It is rejected where :func:`follows_cards` rejects (with
    ``finals``, a position made final holds an observed card where none was
    seen, or the reverse) and at the end where the set differs from
    ``seen``; both are necessary for the deal to show the cards, at the very
    step the scalar filter rejects, so a seed dropped here is one it drops
    there too, before any stuck source. Steps without a final position take
    the shorter loop of :func:`free_step` (the 1999 shuffle's every step but
    the last); after a judged step (:func:`judged_step`) the dead lanes are
    squeezed out (the survivors moved to the front) when a quarter of the
    block has died.

    Parameters: as :func:`search_seeds`, with ``dealt`` and ``seen`` the two
    bit sets, ``finals`` whether a final position may reject (the several-card
    filter; the one-card filter follows every seed to the end) and ``hits``
    cleared on entry. Serves an LCG whose modulus is a power of two, a range
    ``R = 2^bits`` with ``1 <= bits <= 32`` and a deck of at most 63 cards
    (:func:`in_lock_step`).
    """
    x = np.empty(BLOCK, dtype=np.uint64)
    held = np.empty(BLOCK, dtype=np.uint64)
    order = np.empty(BLOCK, dtype=np.int64)
    for start in range(0, states.size, BLOCK):
        width = min(BLOCK, states.size - start)
        for lane in range(width):
            x[lane], held[lane], order[lane] = states[start + lane], dealt, start + lane
        for t in range(steps.shape[0]):
            n, parameter, i, offset = draws[t, 0], draws[t, 1], np.uint64(steps[t, 0]), np.uint64(steps[t, 1])
            if finals and steps[t, 2] >= 0:
                alive = judged_step(lanes, x, held, width, fields, n, parameter, i, offset, np.uint64(steps[t, 2]),
                                    seen)
                if 4 * alive <= 3 * width:
                    width = squeeze(x, held, order, width)
            else:
                free_step(lanes, x, held, width, fields, n, parameter, i, offset)
        for lane in range(width):
            hits[order[lane]] = held[lane] >= LEFT or held[lane] == seen


@njit(inline="always", nogil=True)
def exchanged(lanes, x, held, lane, fields, n, parameter, reciprocal, i, offset):  # pragma: no cover - compiled
    """One lane's step: its state advanced in ``x`` and its set with positions ``i`` and ``j`` exchanged, ``j``
    the draw plus ``offset``; a rejected draw exchanges nothing and marks the set with :data:`LEFT`.

    An accepted draw is below ``n`` and ``offset + n`` is at most the deck's
    size (63), so ``j`` never reaches bit 63; the mask keeps the shift defined
    for a reducer that broke that rule. The offset (below ``R <= 2^32``) and
    ``n`` (below 64) pass through uint32 so that LLVM knows their high words
    are zero: a product of the two is then one 32 x 32 -> 64-bit vector
    multiply (``vpmuludq``), not a 64-bit one.
    """
    y = (fields.a * x[lane] + fields.c) & fields.state_mask
    x[lane] = y
    word = np.uint32(((y >> fields.shift) & fields.output_mask) - fields.low)  # below R <= 2^32
    value, accepted = lanes(np.uint64(word), np.uint64(np.uint32(n)), parameter, reciprocal, fields.range_bits)
    j = (value + offset) & (WORD - ONE) if accepted else i
    m = held[lane]
    moved = ((m >> i) ^ (m >> j)) & ONE
    return (m ^ (moved << i) ^ (moved << j)) | (np.uint64(not accepted) << SIXTY_THREE)


@njit(inline="always", nogil=True)
def free_step(lanes, x, held, width, fields, n, parameter, i, offset):  # pragma: no cover - compiled
    """A step that makes no position final, on the first ``width`` lanes (the vectorized loop): no lane dies."""
    reciprocal = 1.0 / np.float64(n)
    for lane in range(width):
        held[lane] = exchanged(lanes, x, held, lane, fields, n, parameter, reciprocal, i, offset)


@njit(inline="always", nogil=True)
def judged_step(lanes, x, held, width, fields, n, parameter, i, offset, final, seen):  # pragma: no cover - compiled
    """A step that makes position ``final`` final, on the first ``width`` lanes (the vectorized loop): a lane
    still in the lock step dies (its set emptied) where an observed card is at ``final`` and none was seen there,
    or the reverse; returns how many lanes are not dead."""
    reciprocal, want = 1.0 / np.float64(n), (seen >> final) & ONE
    alive = 0
    for lane in range(width):
        m = exchanged(lanes, x, held, lane, fields, n, parameter, reciprocal, i, offset)
        m = m if (((m >> final) & ONE) == want) | (m >= LEFT) else ZERO
        held[lane] = m
        alive += np.int64(m != ZERO)
    return alive


@njit(inline="always", nogil=True)
def squeeze(x, held, order, width):  # pragma: no cover - compiled
    """Move the lanes of the first ``width`` that are not dead (empty set) to the front; return how many."""
    kept = 0
    for lane in range(width):
        x[kept], held[kept], order[kept] = x[lane], held[lane], order[lane]
        kept += held[lane] != ZERO
    return kept


@njit(inline="always", nogil=True)
def in_lock_step(fields, deck_size):  # pragma: no cover - compiled
    """Whether :func:`lock_step` serves this generator and deck (see there)."""
    return fields.modulus == ZERO and ONE <= fields.range_bits <= THIRTY_TWO and fields.range_size != ZERO and \
        deck_size < 64


@njit(inline="always", nogil=True)
def bit_set(positions):  # pragma: no cover - compiled
    """The positions (each below 64) as the bits of a word."""
    bits = ZERO
    for q in range(positions.size):
        bits |= ONE << np.uint64(positions[q])
    return bits


@njit(inline="always", nogil=True)
def filter_stage(reduce, states, fields, draws, steps, cards, positions, track, hits, limit):  # pragma: no cover
    """Stage 1 on every state: the one-card filter (``track == 1``) or the several-card one; returns its status."""
    if track == 1:
        return filter_one_card(reduce, states, fields, draws, steps, cards[0], positions[0], hits, limit)
    return filter_cards(reduce, states, fields, draws, steps, cards[:track], positions[:track], hits, limit)


@njit(inline="always", nogil=True)
def check_stage(reduce, states, fields, draws, steps, cards, positions, deck_size, hits, limit):  # pragma: no cover
    """Stage 2 on the states flagged in ``hits``: each keeps its flag where :func:`reproduces` holds."""
    deck = np.empty(deck_size, dtype=np.int64)
    for s in range(states.size):
        if hits[s]:
            hits[s] = reproduces(reduce, states[s], fields, draws, steps, cards, positions, deck, limit)


@functools.cache
def search_kernel(scalar):
    """The seed-search kernel for a reducer's compiled form ``scalar`` (compiled once, cached on disk).

    It takes the arguments of :func:`search_seeds` but ``scalar``, then
    ``hits``, its output, and returns ``STUCK`` when a followed seed's source
    is stuck, else ``DEALT``. Where the map has a lane form and
    :func:`in_lock_step` serves the search, stage 0 (:func:`lock_step`) runs
    first and stages 1 and 2 judge only the seeds it leaves. The maps and
    ``settings`` are the closure's, which numba's disk cache keys on (the maps
    are pickled by name): the stuck limit and the
    :func:`~rnglab.core.compiled.fingerprint` of the device code compiled in,
    which lives in other files than this one (a change there compiles anew).
    """
    reduce, lanes = scalar.reduce, scalar.lanes
    settings = (STUCK_REJECTIONS, fingerprint(reduce) ^ fingerprint(reproduces) ^ fingerprint(follows_cards)
                ^ fingerprint(follow_step))
    if lanes is None:
        @njit(cache=True, nogil=True, description="the seed-search kernel for this reducer", seconds=15)
        def search(states, generator, draws, steps, cards, positions, track, deck_size, hits):  # pragma: no cover
            fields, limit = as_fields(generator), settings[0]
            if filter_stage(reduce, states, fields, draws, steps, cards, positions, track, hits, limit) == STUCK:
                return STUCK
            check_stage(reduce, states, fields, draws, steps, cards, positions, deck_size, hits, limit)
            return DEALT

        return search
    settings += (fingerprint(lanes) ^ fingerprint(lock_step),)

    @njit(cache=True, nogil=True, description="the seed-search kernel for this reducer", seconds=20)
    def search_in_lock_step(states, generator, draws, steps, cards, positions, track, deck_size, hits):  # pragma: no cover
        fields, limit = as_fields(generator), settings[0]
        if in_lock_step(fields, deck_size):
            lock_step(lanes, states, fields, draws, steps, bit_set(cards), bit_set(positions), track > 1, hits)
            chosen = np.flatnonzero(hits)
        else:
            chosen = np.arange(states.size)
        left, judged = states[chosen], np.zeros(chosen.size, dtype=np.uint8)
        if filter_stage(reduce, left, fields, draws, steps, cards, positions, track, judged, limit) == STUCK:
            return STUCK
        check_stage(reduce, left, fields, draws, steps, cards, positions, deck_size, judged, limit)
        for k in range(chosen.size):  # a loop: numba's array assignment compiles its shape error's text (~3 CPU s)
            hits[chosen[k]] = judged[k]
        return DEALT

    return search_in_lock_step
