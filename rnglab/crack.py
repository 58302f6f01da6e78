"""Seed recovery: which seeds deal a deck that shows the cards an observer saw?

A program that seeds its generator from the clock has few seeds: 86,400,000
for Delphi's ``Randomize`` (milliseconds since midnight), a few thousand for
``srand(time(0))`` around a known date. An observer who sees ``k`` cards of a
deal tries every seed, shuffles as the program does and keeps the seeds whose
deal shows the same cards at the same positions; with enough cards one seed
is left, and the whole deck is known (Arkin, Hill, Marks, Schmid, Walls,
"How we learned to cheat at online poker", 1999).

How many cards are enough? A seed whose deal is an independent uniform
permutation matches ``k`` given positions with probability
``1 / (n (n-1) ... (n-k+1))``, so a search of ``S`` seeds expects
``S / (n)_k`` chance matches besides the true one (:func:`expected_false_matches`).

Exact equivalences. A power-of-two LCG whose outputs read only the state bits
below ``b`` (MSVC's ``rand()`` reads bits 16..30, so ``b = 31``) evolves those
bits on their own: when the seed is the state, seeds ``s`` and ``s + 2^b``
deal identical decks. A search covering more than ``2^b`` consecutive seeds
shuffles each residue once and reports every seed of the class
(:func:`equivalent_seed_period`).

Three search paths, fastest first (:attr:`CrackResult.method`):

* ``compiled`` -- an LCG (power-of-two modulus, or any modulus up to 2^32)
  with outputs of at most 32 bits and a reducer of :mod:`rnglab.reduce`, or
  whole 64-bit words and ``lemire`` (:func:`rnglab.swap_kernels.kernel_code`), and a
  shuffle whose exact program is a list of swaps
  (:attr:`rnglab.shuffle.Shuffle.program`): :mod:`rnglab.swap_kernels`,
  on every core, filtering on the observed cards only;
* ``batch`` -- any other LCG or shuffle: the library's
  :func:`rnglab.shuffle.shuffle_seeds`, one generator per seed, in chunks;
* ``one-at-a-time`` -- any other source: :func:`rnglab.shuffle.shuffle` per seed.

A seed range is a list of independent chunks, so a search too big for one
machine is split into sub-ranges (``--seeds A..B``), one per machine.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .cards import Deck, deck_for, parse_cards
from .generators import LCG, LCGBatch, Source
from .generators.affine import arithmetic_kind
from .generators.conventions import JAVA_MULTIPLIER
from .params import parse_int
from .presets import make_source, preset
from .reduce import check_bound, reducer
from .results import Result
from .seeding import Window, parse_window, policy
from .shuffle import SwapStep, algorithm, shuffle, shuffle_seeds, step_bounds
from .swap_kernels import draw_table, kernel_code, kernel_fields, search_seeds

#: Seeds per chunk handed to a kernel (a fraction of a second; progress and Ctrl-C act between chunks).
CHUNK = 1 << 22
#: Seeds per chunk on the slower paths.
SLOW_CHUNK = {"batch": 1 << 14, "one-at-a-time": 1 << 10}
#: Largest search accepted in one run, after equivalences; split bigger ones with --seeds.
MAX_SEEDS = 1 << 36
#: Largest search on the one-at-a-time path (a few hundred seeds a second).
MAX_SLOW_SEEDS = 1 << 16
#: Candidates listed with their decks (all are counted).
MAX_LISTED = 1000
#: Observed cards followed by the filter stage when the shuffle has final positions.
MAX_TRACKED = 8
#: Most hidden state bits tried when recovering a state from outputs.
MAX_HIDDEN_BITS = 26


# -- what was seen ---------------------------------------------------------------------

@dataclass(frozen=True)
class Observation:
    """Cards seen at positions of the shuffled deck (position 0 is dealt first).

    Attributes
    ----------
    deck : Deck
    positions, cards : tuple of int
        ``cards[q]`` (an index of the unshuffled deck) was seen at ``positions[q]``.
    """

    deck: Deck
    positions: tuple
    cards: tuple

    @property
    def size(self) -> int:
        """Number of cards seen."""
        return len(self.cards)

    def names(self) -> list[str]:
        """The cards seen, by name."""
        return self.deck.names(self.cards)


def observe(seen: str, positions: str | None = None, deck: str | Deck = "52") -> Observation:
    """Parse the cards seen (``"As Kd 7h"`` or 0-based indices) and where (default: the first k positions).

    Raises
    ------
    ValueError
        For an unknown or repeated card, more cards than the deck holds, no
        cards, or positions that are repeated, out of range or not one per card.
    """
    deck = deck if isinstance(deck, Deck) else deck_for(deck)
    cards = parse_cards(seen, deck)
    if not cards:
        raise ValueError("no cards seen: give at least one card, e.g. --seen \"As Kd 7h\"")
    if positions is None:
        places = list(range(len(cards)))
    else:
        places = [parse_int(p) for p in positions.replace(",", " ").split()]
        if len(places) != len(cards):
            raise ValueError(f"give one position per card seen: {len(cards)} cards, {len(places)} positions")
        if len(set(places)) != len(places) or not all(0 <= p < deck.size for p in places):
            raise ValueError(f"positions must be distinct and in [0, {deck.size - 1}]; got {positions}")
    return Observation(deck, tuple(places), tuple(cards))


def expected_false_matches(seeds: int, deck_size: int, seen: int) -> float:
    """Chance matches expected among ``seeds`` wrong seeds: ``seeds / (n (n-1) ... (n-k+1))``.

    Exact when every wrong seed's deal is an independent uniform permutation;
    a biased shuffle (the 1999 exchange shuffle) makes some deals likelier,
    and the true figure can be somewhat higher.
    """
    return seeds / math.perm(deck_size, seen)


def cards_for_unique(seeds: int, deck_size: int) -> int | None:
    """Fewest cards with fewer than one expected chance match (``None`` when even the whole deck is not)."""
    for seen in range(1, deck_size + 1):
        if expected_false_matches(seeds, deck_size, seen) < 1:
            return seen
    return None


# -- where the seeds come from ---------------------------------------------------------

@dataclass(frozen=True)
class SeedSpace:
    """Seeds to search: half-open ranges ``[first, stop)`` and how they were chosen."""

    label: str
    ranges: tuple

    @property
    def size(self) -> int:
        """Number of seeds."""
        return sum(stop - first for first, stop in self.ranges)


def parse_seed_range(text: str) -> SeedSpace:
    """Parse ``A..B`` (both ends included, expressions allowed: ``0..2^32-1``)."""
    first, sep, last = text.partition("..")
    if not sep:
        raise ValueError(f"a seed range is written A..B (both included), e.g. 0..2^32-1; got {text!r}")
    first, last = parse_int(first), parse_int(last)
    if first < 0 or last < first:
        raise ValueError(f"a seed range needs 0 <= A <= B; got {text!r}")
    return SeedSpace(f"seeds {first}..{last}", ((first, last + 1),))


def policy_seeds(name: str, window: str | None = None, now: float | None = None) -> SeedSpace:
    """The seeds a policy reaches over a window (default: its whole period, e.g. a day of milliseconds).

    Raises
    ------
    ValueError
        For an unknown policy, an empty or absurd window, or a policy that
        needs a window (``time-s``) or cannot be enumerated (``os``).
    """
    chosen = policy(name)
    if window is None:
        if chosen.period_ms is None and chosen.name.split(":")[0] != "fixed":
            raise ValueError(f"the {chosen.name} policy needs --window (e.g. 2026-11-22T10:00:00±1h or 1d)")
        length = chosen.period_ms or 1
        span = Window(f"whole period ({length} ms)", 0, length, anchored=False)
    else:
        span = parse_window(window, now)
    return SeedSpace(f"{chosen.name} over {span.text}", tuple(chosen.seed_ranges(span)))


# -- equivalences ----------------------------------------------------------------------

def equivalent_seed_period(source: Source) -> int | None:
    """``P`` such that seeds ``s`` and ``s + P`` always give the same outputs, or ``None``.

    For an LCG with ``m = 2^e`` whose seed is its state and whose outputs are
    the bits ``shift .. shift + width - 1`` with ``shift + width < e``: the
    state modulo ``2^(shift + width)`` follows its own recurrence, and the
    outputs read nothing else, so ``P = 2^(shift + width)`` (MSVC: ``2^31``).
    """
    if not isinstance(source, LCG) or source.seeding.name not in ("state", "uint32"):
        return None
    bits = source.m.bit_length() - 1
    read = source.output.shift + source.output.width
    if source.m != 1 << bits or source.output.kind != "bits" or read >= bits:
        return None
    return 1 << read


def fold_ranges(ranges, period: int | None) -> list[tuple[int, int]]:
    """Each range cut to at most ``period`` seeds (one seed per residue class)."""
    if period is None:
        return [tuple(r) for r in ranges]
    return [(first, min(stop, first + period)) for first, stop in ranges]


def unfold(seed: int, ranges, period: int | None) -> list[int]:
    """Every seed equivalent to ``seed`` (``seed + k P``) in the range that holds it.

    ``seed`` was found among the first ``P`` seeds of its range (see :func:`fold_ranges`).
    """
    if period is None:
        return [seed]
    return [s for first, stop in ranges if first <= seed < stop for s in range(seed, stop, period)]


def check_seeds(source: Source, ranges) -> None:
    """Refuse seeds the generator's seeding convention rejects, or that give states outside ``[0, m)``.

    Only each range's end points are tried: the conventions are monotone in the seed.
    """
    for first, stop in ranges:
        for seed in (first, stop - 1):
            state = source.seeding.to_state(seed) if isinstance(source, LCG) else seed
            if isinstance(source, LCG) and not 0 <= state < source.m:
                raise ValueError(f"seeds of {source.name} must give states in [0, m) = [0, {source.m}); "
                                 f"seed {seed} gives {state}")


def usable(source: Source, seed: int) -> bool:
    """False for the one seed a multiplicative LCG cannot start from (state 0, a fixed point)."""
    return not (isinstance(source, LCG) and source.c == 0 and source.seeding.to_state(seed) == 0)


# -- the compiled search plan ----------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """Everything a search needs, resolved from names and checked.

    Attributes
    ----------
    method : str
        The search path: ``compiled``, ``batch`` or ``one-at-a-time``.
    period : int or None
        See :func:`equivalent_seed_period`.
    folded : list of (first, stop)
        The seed ranges actually shuffled (one seed per equivalence class).
    kernel : dict
        Arguments of the compiled kernel (``compiled`` only).
    """

    generator: str
    source: Source
    algorithm: str
    reducer: str
    observation: Observation
    seeds: SeedSpace
    method: str
    period: int | None
    folded: list
    kernel: dict = field(default_factory=dict)

    @property
    def shuffle_count(self) -> int:
        """Seeds the search shuffles."""
        return sum(stop - first for first, stop in self.folded)


def native_reducer(generator: str) -> str:
    """The generator's own bounded call (the catalog's ``bounded`` field; ``modulo`` for inline LCGs)."""
    return "modulo" if generator.startswith("lcg:") else preset(generator).bounded


def swap_program(name: str, n: int) -> list[SwapStep] | None:
    """The shuffle's exact program when it is a list of swaps, else ``None``."""
    shuffle_algorithm = algorithm(name)
    if shuffle_algorithm.program is None:
        return None
    steps = shuffle_algorithm.program(n, {})
    return steps if all(isinstance(s, SwapStep) for s in steps) else None


def step_table(steps: list[SwapStep], n: int) -> np.ndarray:
    """Per step: position swapped, offset of the drawn value, and the position then final (-1: none).

    A step's own position is final when no later step swaps it or can draw it.
    """
    table = np.empty((len(steps), 3), dtype=np.int64)
    touched = np.zeros(n, dtype=bool)
    for t in range(len(steps) - 1, -1, -1):
        step = steps[t]
        table[t] = (step.position, step.low, -1 if touched[step.position] else step.position)
        touched[step.position] = True
        touched[step.low:step.high + 1] = True
    return table


def compiled_kernel(source: Source, method: str, name: str, observation: Observation) -> dict | None:
    """The kernel's arguments for this combination, or ``None`` when the compiled path cannot serve it."""
    steps = swap_program(name, observation.deck.size)
    code = kernel_code(source, method) if isinstance(source, LCG) else None
    if steps is None or code is None:
        return None
    table = step_table(steps, observation.deck.size)
    return {"code": code, "generator": kernel_fields(source), "draws": draw_table(step_bounds(steps), source.range_size),
            "steps": table, "track": tracked_cards(table, observation)}


def tracked_cards(table: np.ndarray, observation: Observation) -> int:
    """Cards the filter follows: several when most steps make a position final (they can reject early), else one.

    Following ``k`` cards costs ``k`` comparisons a step; it pays when a
    final position can reject at most steps (Fisher-Yates: every step), not
    when positions become final only at the end (the 1999 shuffle's last step).
    """
    mostly_final = np.count_nonzero(table[:, 2] >= 0) > len(table) // 2
    return min(observation.size, MAX_TRACKED) if mostly_final else 1


def validate_reducer(method: str, source: Source, n: int) -> None:
    """Let :mod:`rnglab.reduce` refuse a method or bound this source cannot serve (its own messages)."""
    check_bound(n, source.range_size)
    if source.range_size < 2**64:
        reducer(method).map(np.zeros(1, dtype=np.uint64), n, source.range_size)


def make_plan(generator: str, seeds: SeedSpace, observation: Observation, algorithm_name: str = "fisher-yates",
              reduce: str = "native") -> Plan:
    """Resolve and check a search (the arguments of :func:`crack`); choose the fastest path that serves it.

    Raises
    ------
    ValueError
        As :func:`crack`.
    """
    source = make_source(generator)
    method = native_reducer(generator) if reduce == "native" else reducer(reduce).name
    algorithm(algorithm_name)
    validate_reducer(method, source, observation.deck.size)
    check_seeds(source, seeds.ranges)
    kernel = compiled_kernel(source, method, algorithm_name, observation)
    path = "compiled" if kernel else "batch" if isinstance(source, LCG) else "one-at-a-time"
    period = equivalent_seed_period(source)
    plan = Plan(generator, source, algorithm_name, method, observation, seeds, path, period,
                fold_ranges(seeds.ranges, period), kernel or {})
    _check_size(plan)
    return plan


# -- searching -------------------------------------------------------------------------

def matching_seeds(plan: Plan, first: int, stop: int) -> np.ndarray:
    """The seeds in ``[first, stop)`` whose deal shows the observed cards (uint64 or object array)."""
    seeds = np.arange(first, stop, dtype=np.uint64)
    if plan.method == "compiled":
        return seeds[_compiled_hits(plan, seeds)]
    if plan.method == "batch":
        decks, _ = shuffle_seeds(plan.source, seeds, plan.observation.deck.size, plan.algorithm, plan.reducer)
        return seeds[_shows(decks, plan.observation)]
    hits = [s for s in range(first, stop) if _shows(deal(plan, s)[None, :], plan.observation)[0]]
    return np.array(hits, dtype=object)


def _compiled_hits(plan: Plan, seeds: np.ndarray) -> np.ndarray:
    source, kernel, seen = plan.source, plan.kernel, plan.observation
    states = np.asarray(source.seeding.to_states(seeds), dtype=np.uint64)
    hits = search_seeds(kernel["code"], states, kernel["generator"], kernel["draws"], kernel["steps"],
                        np.array(seen.cards, dtype=np.int64), np.array(seen.positions, dtype=np.int64),
                        kernel["track"], seen.deck.size)
    return hits.astype(bool)


def _shows(decks: np.ndarray, observation: Observation) -> np.ndarray:
    """Rows of ``decks`` with the observed cards at the observed positions."""
    return (decks[:, list(observation.positions)] == np.array(observation.cards)).all(axis=1)


def deal(plan: Plan, seed: int) -> np.ndarray:
    """The deck the program deals from ``seed``: the library's one-at-a-time shuffle (the reference)."""
    return shuffle(plan.observation.deck.size, make_source(plan.generator, int(seed)), plan.algorithm, plan.reducer)


def deals(plan: Plan, seeds: list[int]) -> list[np.ndarray]:
    """The decks of many seeds: one batch of generators for an LCG (bit-exact with :func:`deal`)."""
    if not seeds or not isinstance(plan.source, LCG):
        return [deal(plan, s) for s in seeds]
    decks, _ = shuffle_seeds(plan.source, np.array(seeds, dtype=np.uint64), plan.observation.deck.size,
                             plan.algorithm, plan.reducer)
    return list(decks)


@dataclass(frozen=True)
class Candidate(Result):
    """A seed consistent with the observation and the whole deck it deals (card names, position 0 first)."""

    seed: int
    deck: list


@dataclass(frozen=True)
class CrackResult(Result):
    """The outcome of a seed search.

    Attributes
    ----------
    generator, algorithm, reducer, seeds : str
        What was searched (``seeds`` describes the seed space).
    ranges : list of [first, stop)
    deck_size : int
    positions, seen : list
        Where the cards were seen, and the cards (names).
    searched : int
        Seeds covered (equivalent seeds included).
    shuffled : int
        Seeds actually shuffled (one per equivalence class).
    expected_false_matches : float
        ``searched / (n)_k``, computed before the search.
    cards_for_unique : int or None
        Fewest cards with fewer than one expected chance match over this seed space.
    equivalence : str or None
        The exact equivalence used to shuffle fewer seeds, if any.
    method : str
        ``compiled``, ``batch`` or ``one-at-a-time``.
    candidates : list of Candidate
        Consistent seeds and their decks (at most ``MAX_LISTED``).
    candidate_count : int
    seconds : float
    complete : bool
        False when the search was interrupted.
    remaining : list of [first, stop)
        Seed ranges not searched (resume with them).
    """

    generator: str
    algorithm: str
    reducer: str
    seeds: str
    ranges: list
    deck_size: int
    positions: list
    seen: list
    searched: int
    shuffled: int
    expected_false_matches: float
    cards_for_unique: int | None
    equivalence: str | None
    method: str
    candidates: list
    candidate_count: int
    seconds: float
    complete: bool = True
    remaining: list = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Seeds shuffled per second."""
        return self.shuffled / self.seconds if self.seconds > 0 else float("inf")


def chunks(ranges, size: int):
    """Split half-open ranges into pieces of at most ``size`` seeds."""
    for first, stop in ranges:
        for start in range(first, stop, size):
            yield start, min(stop, start + size)


def crack(generator: str, seeds: SeedSpace, observation: Observation, *, algorithm_name: str = "fisher-yates",
          reduce: str = "native", on_progress: Callable[[int], None] | None = None) -> CrackResult:
    """Find every seed in ``seeds`` whose deal shows the observed cards, and predict its deck.

    Parameters
    ----------
    generator : str
        A catalog name (``delphi``, ``msvc``, ``java``, ...) or ``lcg:a=...,m=...``;
        seeds are turned into states by its seeding convention.
    seeds : SeedSpace
        From :func:`policy_seeds` or :func:`parse_seed_range`.
    observation : Observation
        From :func:`observe`.
    algorithm_name : str
        A shuffle of :data:`rnglab.shuffle.SHUFFLES`.
    reduce : str
        A reducer of :data:`rnglab.reduce.REDUCERS`, or ``"native"`` (the
        generator's own bounded call: Delphi ``Random(n)``, MSVC ``rand() % n``,
        Java ``nextInt(bound)``).
    on_progress : callable, optional
        Called with the number of seeds shuffled after each chunk.

    Returns
    -------
    CrackResult
        Interrupted with Ctrl-C, the result holds what was found so far,
        ``complete=False`` and the ranges left.

    Raises
    ------
    ValueError
        For unknown names, a reducer the generator cannot serve, seeds outside
        the generator's seeding convention, or a search too large for one run.
    """
    return search(make_plan(generator, seeds, observation, algorithm_name, reduce), on_progress)


def search(plan: Plan, on_progress: Callable[[int], None] | None = None) -> CrackResult:
    """Run a search planned by :func:`make_plan` (see :func:`crack`)."""
    pieces = list(chunks(plan.folded, _chunk_size(plan)))
    if pieces:
        matching_seeds(plan, pieces[0][0], pieces[0][0])  # load (or compile) the kernel outside the timing
    started, found, done, finished, remaining = time.perf_counter(), [], 0, 0, []
    for first, stop in pieces:
        try:
            found.extend(int(s) for s in matching_seeds(plan, first, stop))
            done, finished = done + stop - first, finished + 1
            if on_progress:
                on_progress(stop - first)
        except KeyboardInterrupt:
            remaining = merge_ranges(pieces[finished:])
            break
    return _result(plan, found, done, time.perf_counter() - started, remaining)


def merge_ranges(pieces) -> list[list[int]]:
    """Join consecutive half-open ranges: ``[[0, 4], [4, 9]] -> [[0, 9]]``."""
    merged: list[list[int]] = []
    for first, stop in pieces:
        if merged and merged[-1][1] == first:
            merged[-1][1] = stop
        else:
            merged.append([first, stop])
    return merged


def _chunk_size(plan: Plan) -> int:
    return CHUNK if plan.method == "compiled" else SLOW_CHUNK[plan.method]


def _check_size(plan: Plan) -> None:
    limit = MAX_SLOW_SEEDS if plan.method == "one-at-a-time" else MAX_SEEDS
    if plan.shuffle_count > limit:
        raise ValueError(f"{plan.shuffle_count} seeds to shuffle on the {plan.method} path, more than {limit} "
                         "in one run; "
                         "split the space into ranges with --seeds A..B (one per run or machine)")


def _result(plan, found, done, seconds, remaining) -> CrackResult:
    seen, seeds, period = plan.observation, plan.seeds, plan.period
    every = sorted({s for hit in found for s in unfold(hit, seeds.ranges, period) if usable(plan.source, s)})
    listed = every[:MAX_LISTED]
    candidates = [Candidate(s, seen.deck.names(d)) for s, d in zip(listed, deals(plan, listed))]
    covered = seeds.size if not remaining else done
    folded = plan.shuffle_count < seeds.size
    return CrackResult(plan.generator, plan.algorithm, plan.reducer, seeds.label, [list(r) for r in seeds.ranges],
                       seen.deck.size, list(seen.positions), seen.names(), covered, done,
                       expected_false_matches(seeds.size, seen.deck.size, seen.size),
                       cards_for_unique(seeds.size, seen.deck.size),
                       f"seeds s and s + {period} deal identical decks" if folded else None, plan.method,
                       candidates, len(every), seconds, not remaining, remaining)


# -- a generator seen directly ---------------------------------------------------------

@dataclass(frozen=True)
class StateRecovery(Result):
    """States of an LCG consistent with consecutive outputs, and what follows.

    Attributes
    ----------
    generator : str
    outputs : list of int
        The outputs seen (as the generator's raw values).
    hidden_bits : int
        State bits an output does not show; ``2^hidden_bits`` states were tried.
    states : list of int
        Every state consistent with the outputs, as it is after the last output.
    initial_states : list of int
        The state before the first output (the seeded state, if that output was the first).
    seeds : list of int or None
        The seed that gives each initial state (Java: ``state XOR 0x5DEECE66D``, modulo 2^48).
    predicted : list of list of int
        For each state, the next outputs.
    """

    generator: str
    outputs: list
    hidden_bits: int
    states: list
    initial_states: list
    seeds: list | None
    predicted: list


def parse_outputs(text: str, source: Source) -> list[int]:
    """Parse comma-separated outputs; negative values are read as the signed form of a word (Java's int)."""
    values = []
    for token in text.replace(",", " ").split():
        value = parse_int(token)
        if value < 0:
            value += source.range_size
        if not source.low <= value <= source.high:
            raise ValueError(f"outputs of {source.name} are in [{source.low}, {source.high}] "
                             f"(or signed); got {token}")
        values.append(value)
    if len(values) < 2:
        raise ValueError(f"give at least two consecutive outputs; got {len(values)}")
    return values


def recover_state(generator: str, outputs: list[int], predict: int = 10) -> StateRecovery:
    """Recover an LCG's state from consecutive outputs that show some of its bits.

    An output ``(x >> shift) & (2^width - 1)`` of a state ``x`` modulo
    ``2^e`` hides ``e - width`` bits: the first output leaves ``2^(e - width)``
    candidate states (Java's ``nextInt()``: 2^16), and each later output keeps
    a wrong one with probability ``2^-width``.

    Raises
    ------
    ValueError
        For a generator that is not a power-of-two LCG with a bits output, or
        more than ``2^26`` candidates.
    """
    source = make_source(generator)
    if not isinstance(source, LCG) or arithmetic_kind(source.m) != "pow2" or source.output.kind != "bits":
        raise ValueError(f"{generator}: state recovery from outputs needs an LCG with m = 2^e and a bits(...) output")
    shift, width = source.output.shift, source.output.width
    hidden = source.m.bit_length() - 1 - width
    if hidden > MAX_HIDDEN_BITS:
        raise ValueError(f"{generator} hides {hidden} state bits per output, more than {MAX_HIDDEN_BITS} to try")
    lanes = _candidate_states(outputs[0], shift, width, hidden)
    batch = LCGBatch(a=source.a, m=source.m, c=source.c, states=lanes, output=source.output)
    keep = np.ones(len(lanes), dtype=bool)
    for value in outputs[1:]:
        keep &= batch.next_raw() == np.uint64(value)
    states = [int(s) for s in batch.current_states()[keep]]
    initial = [_step_back(source, int(s)) for s in lanes[keep]]
    seeds = [s ^ JAVA_MULTIPLIER for s in initial] if source.seeding.name == "java" else \
        initial if source.seeding.name in ("state", "uint32") else None
    predicted = [[int(v) for v in _continue(source, s, predict)] for s in states]
    return StateRecovery(generator, list(outputs), hidden, states, initial, seeds, predicted)


def _candidate_states(output: int, shift: int, width: int, hidden: int) -> np.ndarray:
    """Every state whose output is ``output``: the hidden low ``shift`` bits and high bits, all values."""
    free = np.arange(1 << hidden, dtype=np.uint64)
    low, high = free & np.uint64((1 << shift) - 1), free >> np.uint64(shift)
    return low | (np.uint64(output) << np.uint64(shift)) | (high << np.uint64(shift + width))


def _step_back(source: LCG, state: int) -> int:
    """The state one step earlier: ``x = (x' - c) a^-1 mod m`` (``a`` is odd)."""
    return (state - source.c) * pow(source.a, -1, source.m) % source.m


def _continue(source: LCG, state: int, count: int) -> np.ndarray:
    return LCG(a=source.a, c=source.c, m=source.m, seed=state, output=source.output).random_raw(count)
