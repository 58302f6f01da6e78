"""``std::mt19937`` behind consecutive ``std::shuffle`` decks (libstdc++), recovered by GF(2) elimination.

A C++ card program that keeps one engine and deals round after round,
``std::shuffle(deck.begin(), deck.end(), engine)`` on a fresh ordered deck
each time (``cpp-shuffle-mt19937``), hands out MT19937 words through
libstdc++'s ``uniform_int_distribution``:

* **From a whole deck to its draws.** ``std::shuffle`` is the ascending
  Fisher--Yates ``swap(i, j_i)``, ``j_i`` in ``[0, i]``, ``i = 1 .. n-1``.
  Before step ``i`` card ``i`` still lies at position ``i`` (earlier steps touch
  positions below ``i`` only) and step ``i`` sends it to ``j_i``; so undoing the
  steps from the last, ``j_i`` is where card ``i`` lies (:func:`ascending_draws`).
  libstdc++ draws two positions per call when ``n^2`` fits in the engine's
  range: with an even ``n`` one call below 2 for position 1, then for
  ``i = 2, 4, ...`` one value ``x = j_i (i + 2) + j_(i+1)`` below
  ``(i + 1)(i + 2)`` (:func:`libstdcxx_shuffle_draws`; 26 calls for 52 cards).
* **From a draw to equations.** A call below ``b`` is Lemire's
  ``floor(w b / 2^32)`` of one 32-bit word ``w`` (GCC 11+, ``_S_nd``): ``w``
  lies in an interval whose shared top bits are equations on the tempered word,
  as for V8's ``Math.floor(Math.random() * n)``
  (:meth:`~rnglab.recovery.linear.Observation.draw_below`; the arithmetic is
  exact in doubles for ``b < 2^21``). Lemire redraws a word with probability
  below ``b / 2^32`` (``6 10^-7`` for ``b = 2652``): the words are taken as one
  per call, and a redraw, should one have happened, shows as observations no
  state gives (a refusal, never a wrong state).
* **Solving.** The unknowns are the 624 words after the first twist (CPython's
  MT19937 model, :func:`~rnglab.recovery.linear.python_random_model`: the
  same engine and tempering); each deck of 52 gives about 190 equations for
  19,968 unknowns, so about a hundred decks are needed (the information in a
  deck, ``log2 52! = 225.6`` bits, sets the floor at 89). Every state found
  deals every observed deck again through the real pipeline; the seed comes
  back by untwisting the state and inverting ``init_genrand``
  (:func:`mt19937_seed`).

References
----------
libstdc++ ``include/bits/stl_algo.h`` (``shuffle``, ``__gen_two_uniform_ints``, GCC 9+) and
``include/bits/uniform_int_dist.h`` (``_S_nd``, GCC 11+).
D. Lemire, "Fast random integer generation in an interval", ACM TOMACS 29(1), 2019.
M. Matsumoto and T. Nishimura, "Mersenne twister", ACM TOMACS 8(1), 1998 (``init_genrand``, the twist).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rnglab.core.results import Result
from rnglab.generators.adapters import NumpySource
from rnglab.recovery.linear import (
    BUDGET,
    Observation,
    _draw_interval,
    _int_vector,
    _python_random_of,
    _vector_int,
    python_random_at,
    python_random_model,
    python_words,
    solve,
)
from rnglab.recovery.twister import MT19937, init_genrand, seed_candidate
from rnglab.reduction.reducers import Reducer
from rnglab.shuffles.algorithms import Shuffle, shuffle_in_turn

#: MT19937's words and the upper mask of its twist.
WORDS, UPPER, LOWER = MT19937.words, MT19937.upper, MT19937.lower
#: The tempering masks ``B`` and ``C``.
TEMPER_B, TEMPER_C = 0x9D2C5680, 0xEFC60000
_MASK32 = 2**32 - 1
#: Bits per engine word (``std::mt19937``).
WORD_BITS = 32


def is_cpp_shuffle_mt19937(generator, algorithm, reducer) -> bool:
    """Whether a generator spec, shuffle and reducer are ``std::shuffle`` on ``std::mt19937`` (``cpp-shuffle-mt19937``):
    MT19937's 32-bit words, ``libstdcxx-shuffle``, ``lemire``."""
    return (generator.kind == "numpy" and generator.bit_generator == "MT19937" and algorithm is not None
            and algorithm.name == "libstdcxx-shuffle" and reducer is not None and reducer.name == "lemire")


def is_python_shuffle(generator, algorithm, reducer) -> bool:
    """Whether these are CPython's ``random.shuffle`` (``python3-shuffle``): ``_randbelow`` on MT19937."""
    return (generator.kind == "python" and algorithm is not None and algorithm.name == "fisher-yates"
            and reducer is not None and reducer.name == "python-randbelow")


def randbelow_alignment(size: int) -> tuple[float, float]:
    """What CPython's ``random.shuffle`` of ``size`` items hides: ``(rejected words expected, bits of alignment)``.

    ``_randbelow(m)`` (``m = size .. 2``) reads ``getrandbits(k)``, ``k = m.bit_length()``, until a value below
    ``m``: a rejection has probability ``p = 1 - m / 2^k``, the rejections before the accepted word are geometric,
    with mean ``p / (1 - p)`` and entropy ``(-(1-p) log2(1-p) - p log2 p) / (1 - p)`` bits. Which word gave which
    card is hidden by the sum of these entropies (66 bits for 52 cards, more than a quarter of the
    ``log2 52! = 225.6`` bits the deck shows), so the words cannot be aligned with the draws by branching.
    """
    expected = bits = 0.0
    for m in range(2, size + 1):
        p = 1 - m / 2**m.bit_length()
        expected += p / (1 - p)
        bits += (-(1 - p) * math.log2(1 - p) - (p * math.log2(p) if p else 0.0)) / (1 - p)
    return expected, bits


def equations_per_deck(size: int) -> int:
    """The most bit equations a deck of ``size`` gives: for each call below ``b``, the top bits its interval of
    ``2^32 / b`` words can share, ``32 - bit_length(ceil(2^32 / b) - 1)``."""
    bounds = [bound for _, bound in libstdcxx_shuffle_draws(list(range(size)))]
    return sum(WORD_BITS - (-(-2**WORD_BITS // bound) - 1).bit_length() for bound in bounds)


def ascending_draws(deck: Sequence[int]) -> list[int]:
    """The draws ``j_1 .. j_(n-1)`` of the ascending Fisher--Yates ``swap(i, j_i)`` that deal ``deck`` from ``0..n-1``.

    ``deck[p]`` is the card (its index in the ordered deck) dealt at position ``p``.

    Raises
    ------
    ValueError
        When ``deck`` is not an ordering of ``0 .. n-1``.
    """
    n = len(deck)
    if sorted(deck) != list(range(n)):
        raise ValueError(f"a whole deck is each of the {n} cards once; got {list(deck)}")
    cards, where = list(deck), [0] * n
    for position, card in enumerate(cards):
        where[card] = position
    draws = []
    for i in range(n - 1, 0, -1):
        j = where[i]
        draws.append(j)
        cards[i], cards[j] = cards[j], cards[i]  # undo swap(i, j): card i back at i
        where[cards[i]], where[cards[j]] = i, j
    return draws[::-1]


def libstdcxx_shuffle_draws(deck: Sequence[int]) -> list[tuple[int, int]]:
    """``(value, bound)`` of each ``uniform_int_distribution`` call ``std::shuffle`` made to deal ``deck``.

    Two positions per call (the engine's range ``2^32`` holds ``n^2`` for ``n <= 65536``): with ``n`` even, first
    ``(j_1, 2)``; then ``(j_i (i + 2) + j_(i+1), (i + 1)(i + 2))`` for ``i = 2, 4, ...`` (``i = 1, 3, ...`` for an
    odd ``n``).
    """
    n = len(deck)
    if n > 2**16:
        raise ValueError(f"std::shuffle draws two positions per call up to 65536 cards; got {n}")
    j = [0] + ascending_draws(deck)  # j[i] for i = 1 .. n-1
    calls, i = [], 1
    if n % 2 == 0 and n > 1:
        calls.append((j[1], 2))
        i = 2
    while i < n:
        calls.append((j[i] * (i + 2) + j[i + 1], (i + 1) * (i + 2)))
        i += 2
    return calls


def libstdcxx_observations(decks: Sequence[Sequence[int]]) -> list[Observation]:
    """The engine words' equations behind consecutive decks (one word per call, numbered from the first deck)."""
    observations = []
    for deck in decks:
        for value, bound in libstdcxx_shuffle_draws(deck):
            observations.append(Observation.draw_below(len(observations), value, bound, WORD_BITS))
    return observations


@dataclass(frozen=True)
class DecksRecovery(Result):
    """``std::mt19937`` states behind consecutive ``std::shuffle`` decks.

    Attributes
    ----------
    states : list of int
        The 624 words after the first twist (word ``i`` at bits ``32i ..``), the first output next; each deals
        every observed deck.
    seeds : list of int or None
        The ``std::mt19937(seed)`` of each, where the state is a freshly seeded engine's.
    decks : int
        Decks observed.
    words : int
        Engine words they consumed.
    equations, rank, unknowns : int
        Bit equations, their rank over GF(2), bits of state.
    """

    states: list
    seeds: list
    decks: int
    words: int
    equations: int
    rank: int
    unknowns: int


def recover_mt19937_decks(decks: Sequence[Sequence[int]], algorithm: Shuffle, reducer: Reducer,
                          budget: int = BUDGET) -> DecksRecovery:
    """The ``std::mt19937`` states whose consecutive ``std::shuffle`` decks are ``decks``.

    Parameters
    ----------
    decks : sequence of sequence of int
        Whole decks, in the order dealt (cards as indices of the ordered deck).
    algorithm, reducer : Shuffle, Reducer
        The pipeline's (``libstdcxx-shuffle``, ``lemire``): every state found deals the decks again with them.
    budget : int
        Most candidate states enumerated.

    Raises
    ------
    UnderdeterminedState
        Too few decks: the rank and about how many more decks' worth of draws it takes.
    ValueError
        When no state deals the decks.
    """
    observations = libstdcxx_observations(decks)
    if not observations:
        raise ValueError("give at least one deck of 2 cards or more: a deck of 1 card draws nothing")
    first, rest = observations[0], observations[1:]
    found = solve(python_random_model(), rest, budget, pinned=range(LOWER.bit_length()))
    expected = [list(deck) for deck in decks]
    seeds = [mt19937_seed(state) for state in found.states]
    states = [seeded_state(seed) if seed is not None else with_first_word(state, first)
              for state, seed in zip(found.states, seeds)]
    kept = [(state, seed) for state, seed in zip(states, seeds) if state is not None
            and deal_in_turn(state, len(decks), len(expected[0]), algorithm, reducer) == expected]
    if not kept:
        raise ValueError("no std::mt19937 state deals these decks in turn (a Lemire redraw, odds below 10^-6 a "
                         "call, or decks not consecutive)")
    return DecksRecovery([state for state, _ in kept], [seed for _, seed in kept], len(decks), len(observations),
                         found.equations, found.rank, found.unknowns)


def with_first_word(state: int, first: Observation) -> int | None:
    """``state`` with the low 31 bits of word 0 (read by output 0 alone) set so that output 0 shows ``first``.

    Output ``tempered(word 0)`` must lie in the draw's interval and word 0 keep its top bit (the one bit a later
    output reads): the outputs of the interval are untempered in turn until one does (None if none does).
    """
    low, high = _draw_interval(first.draw, first.bound, WORD_BITS)
    top = state & UPPER
    for output in range(low, high + 1):
        word = untemper(output)
        if word & UPPER == top:
            return state & ~_MASK32 | word
    return None


def untemper(output: int) -> int:
    """The MT19937 word whose tempered output is ``output`` (tempering is invertible: Matsumoto and Nishimura).

    Tempering is ``y ^= y >> 11; y ^= (y << 7) & B; y ^= (y << 15) & C; y ^= y >> 18``; each step is undone in
    turn, a shift by ``s`` as a fixed point reached in ``ceil(32 / s)`` rounds.
    """
    y = output ^ (output >> 18)
    y ^= (y << 15) & TEMPER_C
    x = y
    for _ in range(-(-WORD_BITS // 7)):
        x = y ^ ((x << 7) & TEMPER_B)
    x &= _MASK32
    z = x
    for _ in range(-(-WORD_BITS // 11)):
        z = x ^ (z >> 11)
    return z


def mt19937_seed(state: int) -> int | None:
    """The ``init_genrand`` seed of a state (624 words after the first twist), or None for a state no seed gives.

    The seed comes from word 2 before the twist (:func:`rnglab.recovery.twister.seed_candidate`); it is checked
    on 1247 outputs from the second (the first reads the low bits of word 0, which are not always known).
    """
    seed = seed_candidate([int(w) for w in _int_vector(state, WORDS // 2).view("<u4")])
    check = 2 * WORDS
    same = np.array_equal(python_words(python_random_at(seeded_state(seed)), check)[1:],
                          python_words(python_random_at(state), check)[1:])
    return seed if same else None


def seeded_state(seed: int) -> int:
    """The state (624 words after the first twist) of ``std::mt19937(seed)``."""
    generator = _python_random_of(np.array(init_genrand(seed), dtype=np.uint32), WORDS)
    generator.getrandbits(WORD_BITS)
    return _vector_int(np.array(generator.getstate()[1][:WORDS], dtype="<u4").view("<u8"))


def engine_at(state: int) -> NumpySource:
    """numpy's ``MT19937`` (``std::mt19937``'s words) at a state: its 624 words, the first output next."""
    engine = np.random.MT19937()
    engine.state = {"bit_generator": "MT19937",
                    "state": {"key": _int_vector(state, WORDS // 2).view("<u4").astype(np.uint32), "pos": 0}}
    return NumpySource(engine, "mt19937")


def deal_in_turn(state: int, count: int, size: int, algorithm: Shuffle, reducer: Reducer) -> list[list[int]]:
    """``count`` decks of ``size`` cards dealt one after another from a state by the real shuffle and reducer."""
    return shuffle_in_turn(size, engine_at(state), count, algorithm, reducer).tolist()
