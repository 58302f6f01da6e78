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
  with outputs of at most 32 bits and a reducer with a one-draw map
  (:attr:`rnglab.reduction.reducers.Reducer.scalar`), or whole 64-bit words and
  ``lemire`` or ``bitmask`` (:func:`rnglab.draws.lcg.serves`), and a shuffle whose
  exact program is a list of swaps (:attr:`rnglab.shuffles.algorithms.Shuffle.program`):
  :mod:`rnglab.recovery.search_kernels`, on every core, filtering on the observed cards only;
* ``batch`` -- any other LCG or shuffle, glibc's ``rand()``, and MRGs and combinations with moduli
  below 2^63: one generator per seed, in chunks
  (:func:`rnglab.shuffles.reach.seed_decks`: an LCG batch, or a
  :class:`~rnglab.generators.glibc.GlibcBatch` or :class:`~rnglab.generators.mrg.MRGBatch` drawn lane by lane);
* ``sources`` -- any other source (numpy's generators, CPython's ``random``):
  one seeded source per seed, read in blocks and shuffled lane by lane
  (:class:`rnglab.shuffles.draws.SourcesDraws`, through the same
  :func:`~rnglab.shuffles.reach.seed_decks`).

A seed range is a list of independent chunks, so a search too big for one
machine runs its chunks as tasks on a dask cluster, resumable from a journal
(:mod:`rnglab.recovery.distributed`), or is split into sub-ranges (``--seeds A..B``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from rnglab.core.compiled import kernels_would_serve
from rnglab.core.params import parse_int
from rnglab.core.results import Result
from rnglab.draws.lcg import bound_table, kernel_fields, serves
from rnglab.generators import LCG, GeneratorSpec, Source
from rnglab.recovery.search_kernels import search_seeds
from rnglab.reduction.reducers import Reducer
from rnglab.seeds.space import SeedSpace, check_seed_space, seed_array, seed_dtype, seed_range_space
from rnglab.shuffles.algorithms import FISHER_YATES, Shuffle, shuffle
from rnglab.shuffles.cards import Deck, deck_for, parse_cards
from rnglab.shuffles.draws import numpy_deal_work
from rnglab.shuffles.reach import batched, seed_decks
from rnglab.shuffles.steps import SwapStep, step_bounds

#: Seeds per chunk handed to a kernel (a fraction of a second; progress and Ctrl-C act between chunks).
CHUNK = 1 << 22
#: Seeds per chunk on the slower paths.
SLOW_CHUNK = {"batch": 1 << 14, "sources": 1 << 14}
#: Largest search accepted in one run, after equivalences; split bigger ones with --seeds, or run them in chunks.
MAX_SEEDS = 1 << 36
#: Largest search on the sources path in one run (3,700 to 60,000 seeds a second for 52 cards, MT19937's seeding
#: the slowest: minutes at most); a search in chunks (:mod:`rnglab.recovery.distributed`) may take more.
MAX_SLOW_SEEDS = 1 << 20
#: Candidates listed with their decks (all are counted).
MAX_LISTED = 1000
#: Observed cards followed by the filter stage when the shuffle has final positions.
MAX_TRACKED = 8


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


def observe(seen: str, positions: str | None = None, deck: Deck | None = None) -> Observation:
    """Parse the cards seen (``"As Kd 7h"`` or 0-based indices) and where (default: the first k positions) in
    ``deck`` (default: the 52 cards).

    Raises
    ------
    ValueError
        For an unknown or repeated card, more cards than the deck holds, no
        cards, or positions that are repeated, out of range or not one per card.
    """
    deck = deck_for("52") if deck is None else deck
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


# -- equivalences ----------------------------------------------------------------------

def equivalent_seed_period(generator: GeneratorSpec) -> int | None:
    """``P`` such that seeds ``s`` and ``s + P`` always give the same outputs, or ``None``.

    For an LCG with ``m = 2^e`` whose seed is its state and whose outputs are
    the bits ``shift .. shift + width - 1`` with ``shift + width < e``: the
    state modulo ``2^(shift + width)`` follows its own recurrence, and the
    outputs read nothing else, so ``P = 2^(shift + width)`` (MSVC: ``2^31``).
    A multiplicative LCG (``c = 0``) is left unfolded: its residue 0 cannot be a state.
    """
    if not generator.is_lcg or generator.seeding.name not in ("state", "uint32") or generator.c == 0:
        return None
    bits = generator.m.bit_length() - 1
    read = generator.output.shift + generator.output.width
    if generator.m != 1 << bits or generator.output.kind != "bits" or read >= bits:
        return None
    return 1 << read


def residue_ranges(space: SeedSpace, period: int) -> SeedSpace:
    """The residues modulo ``period`` that ``space`` covers, as a seed space of seeds in ``[0, period)``.

    Seed ``r`` stands for every seed of ``space`` congruent to it (each class is shuffled once).
    """
    pieces = []
    for first, stop in space.ranges:
        if stop - first >= period:
            return seed_range_space([(0, period)], f"residues of {space.label} modulo {period}")
        low, high = first % period, (stop - 1) % period + 1
        pieces += [(low, high)] if low < high else [(low, period), (0, high)]
    return seed_range_space(_union(pieces), f"residues of {space.label} modulo {period}")


def _union(pieces) -> list[tuple[int, int]]:
    """Half-open ranges merged where they overlap or touch."""
    merged: list[list[int]] = []
    for first, stop in sorted(pieces):
        if merged and first <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], stop)
        else:
            merged.append([first, stop])
    return [tuple(r) for r in merged]


def expand_residues(residues, space: SeedSpace, period: int | None) -> list[tuple[int, int]]:
    """The seeds of ``space`` whose residue modulo ``period`` lies in the half-open ``residues`` ranges."""
    if period is None:
        return [tuple(r) for r in residues]
    out = []
    for first, stop in space.ranges:
        for base in range(first - first % period, stop, period):
            out += [(max(first, base + a), min(stop, base + b)) for a, b in residues
                    if max(first, base + a) < min(stop, base + b)]
    return sorted(out)


def usable_seeds(generator: GeneratorSpec, seeds: np.ndarray) -> np.ndarray:
    """``seeds`` without the one a multiplicative LCG cannot start from (state 0, a fixed point)."""
    if not (generator.is_lcg and generator.c == 0):
        return seeds
    return seeds[np.asarray(generator.seeding.to_states(seeds)) != 0]


# -- the compiled search plan ----------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """Everything a search needs, resolved and checked once.

    Attributes
    ----------
    generator : GeneratorSpec
    shuffle : Shuffle
    reducer : Reducer
    observation : Observation
    seeds : SeedSpace
        The seeds asked about.
    method : str
        The search path: ``compiled``, ``batch`` or ``sources``.
    period : int or None
        See :func:`equivalent_seed_period`.
    searched : SeedSpace
        The seeds actually shuffled (one per equivalence class).
    kernel : dict
        Arguments of the compiled kernel (``compiled`` only).
    """

    generator: GeneratorSpec
    shuffle: Shuffle
    reducer: Reducer
    observation: Observation
    seeds: SeedSpace
    method: str
    period: int | None
    searched: SeedSpace
    kernel: dict = field(default_factory=dict)

    @property
    def shuffle_count(self) -> int:
        """Seeds the search shuffles."""
        return self.searched.size

    @property
    def folding(self) -> int | None:
        """The equivalence period when the search shuffles one seed per class (residues), else ``None``."""
        return self.period if self.searched is not self.seeds else None


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


def compiled_kernel(source: Source, reducer: Reducer, chosen: Shuffle, observation: Observation) -> dict | None:
    """The kernel's arguments for this combination, or ``None`` when the compiled path cannot serve it."""
    steps = chosen.swap_program(observation.deck.size)
    if steps is None or not (isinstance(source, LCG) and serves(source, reducer)):
        return None
    table = step_table(steps, observation.deck.size)
    return {"scalar": reducer.scalar, "generator": kernel_fields(source),
            "draws": bound_table(step_bounds(steps), reducer, source.range_size), "steps": table,
            "track": tracked_cards(table, observation)}


def tracked_cards(table: np.ndarray, observation: Observation) -> int:
    """Cards the filter follows: several when most steps make a position final (they can reject early), else one.

    Following ``k`` cards costs ``k`` comparisons a step; it pays when a
    final position can reject at most steps (Fisher-Yates: every step), not
    when positions become final only at the end (the 1999 shuffle's last step).
    """
    mostly_final = np.count_nonzero(table[:, 2] >= 0) > len(table) // 2
    return min(observation.size, MAX_TRACKED) if mostly_final else 1


def make_plan(generator: GeneratorSpec, seeds: SeedSpace, observation: Observation, algo: Shuffle = FISHER_YATES,
              reducer: Reducer | None = None, max_seeds: int | None = None) -> Plan:
    """Check a search (the arguments of :func:`crack`); choose the fastest path that serves it.

    ``max_seeds`` bounds the seeds shuffled, on every path; ``None``: the limits of one
    run, :data:`MAX_SEEDS` (compiled and batch paths) and :data:`MAX_SLOW_SEEDS` (sources
    path). A search in chunks (:mod:`rnglab.recovery.distributed`: a cluster, a journal)
    passes its own bound, :data:`rnglab.recovery.distributed.MAX_SCALED_SEEDS`.

    Raises
    ------
    ValueError
        As :func:`crack`.
    """
    chosen, reducer = algo, reducer or generator.native_reducer
    source = generator.make()
    reducer.check(observation.deck.size, source.range_size)
    check_seed_space(generator, seeds)
    kernel = compiled_kernel(source, reducer, chosen, observation)
    path = "compiled" if kernel else "batch" if batched(generator) else "sources"
    period = equivalent_seed_period(generator)
    residues = None if period is None else residue_ranges(seeds, period)
    searched = residues if residues is not None and residues.size < seeds.size else seeds
    plan = Plan(generator, chosen, reducer, observation, seeds, path, period, searched, kernel or {})
    _check_size(plan, max_seeds)
    return plan


# -- searching -------------------------------------------------------------------------

def matching_seeds(plan: Plan, first: int, stop: int, searcher: Callable = search_seeds,
                   by_numpy: bool = False) -> np.ndarray:
    """The seeds in ``[first, stop)`` whose deal shows the observed cards (uint64 or object array).

    ``searcher`` runs the compiled path's kernel (:func:`rnglab.recovery.search_kernels.search_seeds`,
    or the GPU's :func:`rnglab.recovery.gpu.search_seeds_gpu`, which takes the same arguments); ``by_numpy``:
    deal every deck of a compiled plan by numpy and keep those that show the cards instead (the same seeds;
    :func:`search_method`).
    """
    seeds = usable_seeds(plan.generator, seed_array(first, stop))
    if plan.method == "compiled" and not by_numpy:
        return seeds[_compiled_hits(plan, seeds, searcher)]
    decks = seed_decks(plan.generator, seeds, plan.observation.deck.size, plan.shuffle, plan.reducer)
    return seeds[_shows(decks, plan.observation)]


def search_method(plan: Plan) -> str:
    """The path :func:`search` takes: the plan's, but ``batch`` (numpy deals every deck, step by step) for a
    compiled plan that numpy deals in less than numba's start-up time, in a process where no kernel has run
    (:func:`~rnglab.core.compiled.kernels_would_serve` of :func:`~rnglab.shuffles.draws.numpy_deal_work`: a day
    of seeds, 0.2 CPU s where numba's first kernel costs 0.5 to 0.9). The same seeds either way."""
    work = numpy_deal_work(plan.shuffle_count, len(plan.kernel.get("steps", ())))
    return "batch" if plan.method == "compiled" and not kernels_would_serve(work) else plan.method


def _compiled_hits(plan: Plan, seeds: np.ndarray, searcher: Callable) -> np.ndarray:
    kernel, seen = plan.kernel, plan.observation
    states = np.asarray(plan.generator.seeding.to_states(seeds), dtype=np.uint64)
    hits = searcher(kernel["scalar"], states, kernel["generator"], kernel["draws"], kernel["steps"],
                        np.array(seen.cards, dtype=np.int64), np.array(seen.positions, dtype=np.int64),
                        kernel["track"], seen.deck.size)
    return hits.astype(bool)


def _shows(decks: np.ndarray, observation: Observation) -> np.ndarray:
    """Rows of ``decks`` with the observed cards at the observed positions."""
    return (decks[:, list(observation.positions)] == np.array(observation.cards)).all(axis=1)


def deal(plan: Plan, seed: int) -> np.ndarray:
    """The deck the program deals from ``seed``: the library's one-at-a-time shuffle (the reference)."""
    return shuffle(plan.observation.deck.size, plan.generator.make(int(seed)), plan.shuffle, plan.reducer)


def deals(plan: Plan, seeds: list[int]) -> list[np.ndarray]:
    """The decks of many seeds, in one batch (:func:`~rnglab.shuffles.reach.seed_decks`; bit-exact with :func:`deal`)."""
    if not seeds:
        return []
    lanes = np.array(seeds, dtype=seed_dtype(min(seeds), max(seeds)))
    return list(seed_decks(plan.generator, lanes, plan.observation.deck.size, plan.shuffle, plan.reducer))


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
        ``compiled``, ``batch`` or ``sources``.
    candidates : list of Candidate
        Consistent seeds and their decks (at most ``MAX_LISTED``).
    candidate_count : int
    seconds : float
    complete : bool
        False when the search was interrupted.
    remaining : list of [first, stop)
        Seed ranges not searched, equivalent seeds included (resume with them).
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

    def resume_option(self) -> str:
        """The ``--seeds`` value that searches what an interrupted run left."""
        return ",".join(f"{a}..{b - 1}" for a, b in self.remaining)


def crack(generator: GeneratorSpec, seeds: SeedSpace, observation: Observation, *, algo: Shuffle = FISHER_YATES,
          reducer: Reducer | None = None, on_progress: Callable[[int], None] | None = None) -> CrackResult:
    """Find every seed in ``seeds`` whose deal shows the observed cards, and predict its deck.

    Parameters
    ----------
    generator : GeneratorSpec
        Seeds are turned into states by its seeding convention.
    seeds : SeedSpace
        From :func:`rnglab.seeds.policies.parse_seed_space`.
    observation : Observation
        From :func:`observe`.
    algo : Shuffle
        A shuffle (:func:`rnglab.shuffles.algorithms.make_shuffle`).
    reducer : Reducer, optional
        Default: the generator's own bounded call (Delphi ``Random(n)``, MSVC
        ``rand() % n``, Java ``nextInt(bound)``).
    on_progress : callable, optional
        Called with the number of seeds shuffled after each chunk.

    Returns
    -------
    CrackResult
        Interrupted with Ctrl-C, the result holds what was found so far,
        ``complete=False`` and the ranges left (equivalent seeds included).

    Raises
    ------
    ValueError
        For a reducer the generator cannot serve, seeds outside
        the generator's seeding convention, or a search too large for one run.
    """
    return search(make_plan(generator, seeds, observation, algo, reducer), on_progress)


def search(plan: Plan, on_progress: Callable[[int], None] | None = None) -> CrackResult:
    """Run a search planned by :func:`make_plan` (see :func:`crack`)."""
    method = search_method(plan)
    by_numpy = method != plan.method
    pieces = list(plan.searched.chunks(_chunk_size(plan)))
    if pieces and not by_numpy:
        matching_seeds(plan, pieces[0][0], pieces[0][0])  # load (or compile) the kernel outside the timing
    started, found, done, finished, remaining = time.perf_counter(), [], 0, 0, []
    for first, stop in pieces:
        try:
            found.extend(int(s) for s in matching_seeds(plan, first, stop, by_numpy=by_numpy))
            done, finished = done + stop - first, finished + 1
            if on_progress:
                on_progress(stop - first)
        except KeyboardInterrupt:
            remaining = expand_residues(_union(pieces[finished:]), plan.seeds, plan.folding)
            break
    return search_result(plan, found, done, time.perf_counter() - started, remaining, method)


def _chunk_size(plan: Plan) -> int:
    return CHUNK if plan.method == "compiled" else SLOW_CHUNK[plan.method]


def one_run_limit(method: str) -> int:
    """Most seeds one run shuffles on the search path ``method`` (:data:`MAX_SLOW_SEEDS` on the sources path)."""
    return MAX_SLOW_SEEDS if method == "sources" else MAX_SEEDS


def _check_size(plan: Plan, max_seeds: int | None) -> None:
    """Refuse a search beyond ``max_seeds`` (``None``: one run's limit on the plan's path), saying what serves it."""
    one_run = max_seeds is None
    limit = one_run_limit(plan.method) if one_run else max_seeds
    if plan.shuffle_count > limit:
        chunks = (", or run it in chunks: --journal FILE (resumable), --workers N or --cluster tcp://HOST:PORT"
                  if one_run else "")
        raise ValueError(f"{plan.shuffle_count:,} seeds to shuffle on the {plan.method} path, more than {limit:,} "
                         f"in {'one run' if one_run else 'one search'}; split the space into ranges with "
                         f"--seeds A..B{chunks}")


def _every_equivalent(plan: Plan, found: list[int]) -> tuple[list[int], int]:
    """The seeds of the space equivalent to the hits (the first ``MAX_LISTED``) and how many there are."""
    ranges = expand_residues([(r, r + 1) for r in sorted(set(found))], plan.seeds, plan.folding)
    seeds = (s for first, stop in ranges for s in range(first, stop))  # hits are usable; c = 0 is never folded
    listed, count = [], 0
    for seed in seeds:
        count += 1
        if len(listed) < MAX_LISTED:
            listed.append(seed)
    return sorted(listed), count


def search_result(plan: Plan, found: list[int], done: int, seconds: float, remaining: list,
                  method: str | None = None) -> CrackResult:
    """The result of a search: ``found`` hits (one per class), ``done`` seeds shuffled, ``remaining`` ranges left,
    on the path ``method`` (the plan's when None)."""
    seen, seeds, period = plan.observation, plan.seeds, plan.period
    listed, count = _every_equivalent(plan, found)
    candidates = [Candidate(s, seen.deck.names(d)) for s, d in zip(listed, deals(plan, listed))]
    covered = seeds.size - sum(b - a for a, b in remaining)
    return CrackResult(plan.generator.name, str(plan.shuffle), plan.reducer.name, seeds.label,
                       [list(r) for r in seeds.ranges], seen.deck.size, list(seen.positions), seen.names(), covered,
                       done, expected_false_matches(seeds.size, seen.deck.size, seen.size),
                       cards_for_unique(seeds.size, seen.deck.size),
                       f"seeds s and s + {period} deal identical decks" if plan.folding else None,
                       method or plan.method,
                       candidates, count, seconds, not remaining, [list(r) for r in remaining])
