"""Which deals can a seed space ever reach?

A program that seeds a generator with one of ``S`` seeds and then shuffles
can produce at most ``S`` different deals, however good the shuffle: the
52-card deck has ``52! ~ 2^225.58`` orderings, and a 32-bit seed reaches at
most one in ``2^193.6`` of them. This module counts the distinct deals
exactly, by running every seed through generator + reducer + shuffle (one
batch lane per seed) and counting distinct decks (exact: decks are compared
whole, as lexicographic ranks for ``n <= 20`` and as byte strings above), and
gives the bounds where enumeration is out of reach.

It also deals game after game from one stream without reseeding: the deals
repeat when the generator's state at the start of a game repeats. For a small
modulus every state is a batch lane at once, so the map "state at the start
of a game -> state at the start of the next" is computed for all states, and
the cycle the seed falls into is followed exactly.
"""

from __future__ import annotations

import base64
import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from rnglab.algebra.mrg_period import period as mrg_period
from rnglab.algebra.mwc_period import mwc_period
from rnglab.algebra.period import lcg_period
from rnglab.core.rates import SOURCE_SEED_SECONDS
from rnglab.core.results import Result
from rnglab.generators import CallableSource, GeneratorSpec, LCGBatch
from rnglab.generators.glibc import GlibcBatch
from rnglab.generators.mrg import MRGBatch
from rnglab.parallel.chunks import run_chunks
from rnglab.parallel.journal import Journal
from rnglab.reduction.reducers import Reducer
from rnglab.seeds.space import SeedSpace, check_seed_space, seed_array
from rnglab.shuffles.algorithms import (
    FISHER_YATES,
    Shuffle,
    check_size,
    deck_dtype,
    permutation_rank,
    shuffle_decks,
    shuffle_seeds,
)
from rnglab.shuffles.draws import BatchDraws, LaneDraws, SourceDraws, SourcesDraws
from rnglab.shuffles.fairness import DealTally

#: The journal's name for a count of reachable deals.
KIND = "rnglab reach"
#: Most seeds enumerated (memory: the distinct decks are kept).
MAX_SEEDS = 2**24
#: Most seeds dealt one generator per seed in one run: at most about 10 minutes (python: 30 s), as crack's
#: sources path; a bigger space is split into ranges.
MAX_SOURCE_SEEDS = 2**20
#: Most generator states for the game-after-game cycle (every state is a lane).
MAX_STATES = 2**22
#: Most bytes of decks the game-after-game cycle holds (one deck per state).
MAX_CYCLE_BYTES = 2**31


def deck_keys(decks: np.ndarray) -> np.ndarray:
    """Exact, sortable keys of decks: lexicographic ranks (n <= 20) or the rows as byte strings."""
    n = decks.shape[1]
    if n <= 20:
        return permutation_rank(decks)
    rows = np.ascontiguousarray(decks.astype(np.uint8 if n <= 256 else np.uint16))
    return rows.view(np.dtype((np.void, rows.shape[1] * rows.itemsize))).ravel()


def smallest_deck_exceeding(space: int) -> int:
    """The least ``n`` with ``n! > space``: from that size on, some deals are unreachable."""
    n, total = 1, 1
    while total <= space:
        n += 1
        total *= n
    return n


def bits_for_every_deal(n: int) -> int:
    """State bits a generator needs before every one of the ``n!`` deals can be reached: ``ceil(log2 n!)``."""
    return (math.factorial(n) - 1).bit_length()


@dataclass(frozen=True)
class ReachResult(Result):
    """Distinct deals a seed space reaches.

    Attributes
    ----------
    generator, reduce, algo, seed_space : str
    n : int
    seeds : int
        Seeds in the space.
    dealt : int or None
        Seeds dealt (all of them when the count is exact; fewer in the partial
        result of an interrupted count, :class:`ReachInterrupted`), ``None``
        when not enumerated.
    distinct : int or None
        Distinct deals of the seeds dealt, ``None`` when not enumerated.
    n_factorial : int
    fraction : float
        ``distinct / n!`` (or ``bound / n!`` when not enumerated), the float nearest to :attr:`fraction_exact`
        (Python's integer division rounds correctly, however large the integers).
    fraction_exact : Fraction
        The same ratio exactly, in lowest terms (``"33/40"`` in JSON).
    period : int or None
        The generator's largest period (LCGs and MRGs), for information.
    states : int or None
        The generator's states (:func:`state_count`), ``None`` when unknown.
    bound : int
        ``min(seeds, states, n!)``.
    log2_bound, log2_n_factorial : float
    exact : bool
        True when every seed was dealt.
    """

    generator: str
    reduce: str
    algo: str
    seed_space: str
    n: int
    seeds: int
    dealt: int | None
    distinct: int | None
    n_factorial: int
    fraction: float
    fraction_exact: Fraction
    period: int | None
    states: int | None
    bound: int
    log2_bound: float
    log2_n_factorial: float
    exact: bool


class ReachInterrupted(KeyboardInterrupt):
    """Ctrl-C during a count: ``partial`` holds the deals of the seeds dealt (a :class:`ReachResult` that is not
    exact, its ``distinct`` a lower bound), ``left`` the seed ranges not dealt."""

    def __init__(self, partial: ReachResult, left: list[tuple[int, int]]) -> None:
        super().__init__()
        self.partial, self.left = partial, left


@dataclass(frozen=True)
class DealCount:
    """Distinct deals over the seeds dealt so far: ``dealt`` seeds, ``left`` the seed ranges not dealt."""

    distinct: int
    dealt: int
    left: list


def distinct_keys(generator: GeneratorSpec, n: int, chosen: Shuffle, reducer: Reducer, first: int,
                  stop: int) -> np.ndarray:
    """The distinct deck keys (:func:`deck_keys`) of the seeds in ``[first, stop)``, sorted: one chunk's task."""
    return np.unique(deck_keys(seed_decks(generator, seed_array(first, stop), n, chosen, reducer)))


def journaled_keys(generator: GeneratorSpec, n: int, chosen: Shuffle, reducer: Reducer, first: int,
                   stop: int) -> dict:
    """:func:`distinct_keys` as a journal records them: ``{"dtype": ..., "keys": base64 of their bytes}``."""
    keys = distinct_keys(generator, n, chosen, reducer, first, stop)
    return {"dtype": keys.dtype.str, "keys": base64.b64encode(keys.tobytes()).decode("ascii")}


def recorded_keys(record: dict) -> np.ndarray:
    """The keys of a chunk recorded by :func:`journaled_keys`."""
    return np.frombuffer(base64.b64decode(record["keys"]), dtype=np.dtype(record["dtype"]))


def reach_identity(generator: GeneratorSpec, space: SeedSpace, n: int, chosen: Shuffle, reducer: Reducer) -> dict:
    """What a journal records of a count, to refuse resuming another one (JSON-ready)."""
    return {"generator": generator.name, "algorithm": str(chosen), "reducer": reducer.name, "deck": n,
            "seeds": [list(r) for r in space.ranges]}


def default_chunk(generator: GeneratorSpec) -> int:
    """Seeds per chunk: 2^18 on a batch (a fraction of a second), 2^14 for generators seeded one by one (seconds:
    a journal then loses little to Ctrl-C; fewer lanes share less of the numpy calls per step)."""
    return 2**18 if batched(generator) else 2**14


def count_distinct_deals(generator: GeneratorSpec, space: SeedSpace, n: int, chosen: Shuffle, reducer: Reducer, *,
                         chunk: int | None = None, client=None, journal: Journal | None = None,
                         progress=None) -> DealCount:
    """Distinct deals over the seeds of ``space`` (exact), one lane per seed (:func:`seed_decks`).

    The seeds are cut into chunks of ``chunk`` (:func:`rnglab.parallel.chunks.run_chunks`; default
    :func:`default_chunk`), run here or on ``client``'s workers (a ``dask.distributed`` client); the distinct keys
    of every chunk are merged. With ``journal`` (``open_journal(path, KIND, reach_identity(...))``) each finished
    chunk's keys are recorded and the chunks it holds are not dealt again. After Ctrl-C the count covers the chunks
    finished (``left`` is not empty).

    Raises
    ------
    ValueError
        When a chunk failed every attempt on the cluster.
    """
    task = functools.partial(journaled_keys if journal else distinct_keys, generator, n, chosen, reducer)
    outcome = run_chunks(task, space.ranges, chunk or default_chunk(generator), client, journal=journal,
                         on_progress=progress)
    if outcome.failures:
        failure = outcome.failures[0]
        kept = " (the journal keeps the chunks finished: run the same command again)" if journal else ""
        raise ValueError(f"seeds {failure.first}..{failure.stop - 1} failed every attempt: {failure.error}{kept}")
    keys = [recorded_keys(value) if journal else value for value in outcome.results()]
    return DealCount(len(np.unique(np.concatenate(keys))) if keys else 0,
                     sum(stop - first for first, stop, _ in outcome.records), outcome.left)


def check_enumerable(generator: GeneratorSpec, space: SeedSpace, instead: str = ", or use --bound-only") -> None:
    """Refuse a seed space too large to deal: over :data:`MAX_SEEDS` seeds, or :data:`MAX_SOURCE_SEEDS` for a
    generator seeded one by one (``ValueError``; ``instead`` ends the advice: the caller's other way)."""
    if space.size > MAX_SEEDS:
        raise ValueError(f"at most {MAX_SEEDS:,} seeds are enumerated; {space.label} holds {space.size:,} "
                         f"(choose a shorter --window or a smaller range{instead})")
    if not batched(generator) and space.size > MAX_SOURCE_SEEDS:
        raise ValueError(f"{generator.name} is dealt one generator per seed (up to {SOURCE_SEED_SECONDS * 1e3:.1f} ms "
                         f"each): at most {MAX_SOURCE_SEEDS:,} seeds in one run; {space.label} holds {space.size:,}, "
                         f"up to {space.size * SOURCE_SEED_SECONDS / 3600:.1f} h (split it into ranges of --seeds"
                         f"{instead})")


def source_seconds(generator: GeneratorSpec, seeds: int) -> float | None:
    """Most CPU seconds ``seeds`` seeds take on the one-generator-per-seed path (:data:`SOURCE_SEED_SECONDS`
    each), or ``None`` for a :func:`batched` generator (under a microsecond a seed)."""
    return None if batched(generator) else seeds * SOURCE_SEED_SECONDS


def batched(generator: GeneratorSpec) -> bool:
    """True when :func:`seed_decks` runs one batch lane per seed: an LCG (an MWC), glibc's ``rand()``, an MRG or
    combination the compiled kernel steps (:meth:`~rnglab.generators.mrg.MRGBatch.serves`)."""
    return generator.is_lcg or generator.kind == "additive" or \
        (generator.is_mrg and MRGBatch.serves(generator.combination))


def seed_decks(generator: GeneratorSpec, seeds: np.ndarray, n: int, chosen: Shuffle, reducer: Reducer) -> np.ndarray:
    """One shuffled deck per seed: a batch where :func:`batched` says so, else one generator per seed, read in
    blocks (:class:`~rnglab.shuffles.draws.SourcesDraws`)."""
    if generator.is_lcg:
        return shuffle_seeds(generator.lcg(), seeds, n, chosen, reducer)[0]
    if generator.kind == "additive":
        return shuffle_decks(n, LaneDraws(GlibcBatch(seeds, generator.name), reducer), chosen)
    if batched(generator):
        return shuffle_decks(n, LaneDraws(MRGBatch(generator.combination, seeds, generator.name), reducer), chosen)
    if not len(seeds):
        return np.empty((0, n), dtype=deck_dtype(n))
    return shuffle_decks(n, SourcesDraws([generator.make(int(s)) for s in seeds], reducer), chosen)


def seed_space_tally(generator: GeneratorSpec, seeds: np.ndarray, n: int, chosen: Shuffle,
                     reducer: Reducer) -> DealTally:
    """The deals of ``seeds`` tallied chunk by chunk (:func:`default_chunk` seeds each, :func:`seed_decks`):
    memory holds one chunk's decks and generators, not one per seed of the space."""
    step = default_chunk(generator)
    tally = DealTally.of(np.empty((0, n), dtype=deck_dtype(n)))
    for first in range(0, len(seeds), step):
        tally = tally.merge(DealTally.of(seed_decks(generator, seeds[first:first + step], n, chosen, reducer)))
    return tally


def state_count(generator: GeneratorSpec) -> int | None:
    """The generator's states, a bound on the distinct streams, and so deals, that any seeds can give.

    ``m`` for an LCG (a multiply-with-carry generator through its equivalent
    LCG), the product of ``m_i^k_i`` over the components of an MRG or a
    combination, the catalog's published figure for other generators
    (MT19937's 2^19937 - 1; ``None`` where it has none). The period is no such bound:
    states on different cycles start different streams (RANDU's odd states
    form two cycles of 2^29; MRG32k3a's period is the lcm of its components',
    about half the product of their 2^96 - 1).
    """
    if generator.is_lcg:
        return generator.m
    if generator.is_mrg:
        return math.prod(part.m**part.order for part in generator.combination.components)
    return generator.states


def largest_period(generator: GeneratorSpec) -> int | None:
    """The largest period of the generator (``None`` when unknown).

    ``m`` for an LCG with c != 0, Carmichael's lambda for c = 0; for a
    multiply-with-carry generator with prime m = a b - 1 the order of b modulo m
    (:func:`~rnglab.algebra.mwc_period.mwc_period`); for an MRG or a combination
    the period from its default seed (:func:`~rnglab.algebra.mrg_period.period`);
    for other generators the catalog's published figure.
    """
    if generator.is_mrg:
        return mrg_period(generator.make()).period
    if not generator.is_lcg:
        return generator.period
    if generator.carry is not None and mwc_period(generator.carry).period is not None:
        return mwc_period(generator.carry).period
    lcg = generator.lcg()
    return lcg_period(a=lcg.a, m=lcg.m, c=lcg.c, seed=lcg.x).max_period


def reachable_deals(generator: GeneratorSpec, space: SeedSpace, n: int, algo: Shuffle = FISHER_YATES,
                    reducer: Reducer | None = None, *, client=None, chunk: int | None = None,
                    journal: Journal | None = None, progress=None) -> ReachResult:
    """Count the deals reachable from the seeds of ``space``, and compare with ``n!`` and ``min(seeds, states, n!)``.

    ``reducer`` defaults to the generator's own bounded call. ``client`` (a
    ``dask.distributed`` client) spreads the chunks of ``chunk`` seeds over its
    workers, ``journal`` makes the count resumable (:func:`count_distinct_deals`); the count is the same.

    Raises
    ------
    ValueError
        For seeds the generator does not accept, or more than :data:`MAX_SEEDS` seeds (:data:`MAX_SOURCE_SEEDS`
        for a generator seeded one by one).
    ReachInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``), with the deals of the seeds dealt so far.
    """
    chosen, reducer = algo, reducer or generator.native_reducer
    n = chosen.check(check_size(n, 1000))
    check_seed_space(generator, space)
    check_enumerable(generator, space)
    count = count_distinct_deals(generator, space, n, chosen, reducer, chunk=chunk, client=client, journal=journal,
                                 progress=progress)
    result = _reach_result(generator, space, n, chosen, reducer, count)
    if count.left:
        raise ReachInterrupted(result, count.left)
    return result


def reach_bound(generator: GeneratorSpec, space: SeedSpace, n: int, algo: Shuffle = FISHER_YATES,
                reducer: Reducer | None = None) -> ReachResult:
    """The bound ``min(seeds, states, n!)`` for the seeds of ``space``, without enumerating them."""
    check_seed_space(generator, space)
    return _reach_result(generator, space, algo.check(check_size(n, 1000)), algo,
                         reducer or generator.native_reducer, None)


def _reach_result(generator: GeneratorSpec, space: SeedSpace, n: int, chosen: Shuffle, reducer: Reducer,
                  count: DealCount | None) -> ReachResult:
    """The result for the seeds of ``space``, with the deals counted (``None``: the bound alone)."""
    seeds, total, states = space.size, math.factorial(n), state_count(generator)
    bound = min(seeds, total, states or seeds)
    reached = bound if count is None else count.distinct
    return ReachResult(
        generator=generator.name, reduce=reducer.name, algo=str(chosen), seed_space=space.label, n=n, seeds=seeds,
        dealt=None if count is None else count.dealt, distinct=None if count is None else count.distinct,
        n_factorial=total, fraction=reached / total, fraction_exact=Fraction(reached, total),
        period=largest_period(generator), states=states, bound=bound, log2_bound=math.log2(bound) if bound else 0.0,
        log2_n_factorial=math.lgamma(n + 1) / math.log(2), exact=count is not None and count.dealt == seeds)


@dataclass(frozen=True)
class GameCycle(Result):
    """Deals game after game from one seeded stream, without reseeding.

    Attributes
    ----------
    tail : int
        Games before the sequence of deals becomes periodic.
    games_period : int
        Games after which the sequence of deals repeats (the cycle of start states).
    distinct_deals : int
        Distinct deals over one whole cycle.
    draws_per_game : float
        Mean generator outputs per game over the cycle.
    """

    generator: str
    seed: int
    n: int
    algo: str
    reduce: str
    tail: int
    games_period: int
    distinct_deals: int
    draws_per_game: float


def game_cycle(generator: GeneratorSpec, n: int, algo: Shuffle = FISHER_YATES,
               reducer: Reducer | None = None) -> GameCycle:
    """Exact cycle of deals dealt one game after another from an LCG's seeded state.

    Every state of the generator is a batch lane, shuffled once: the map "state
    at the start of a game -> state at the start of the next" is then known
    for all states, and the seed's orbit is followed exactly. A multiplicative
    LCG (``c = 0``) whose state reaches 0 stays there (a fixed point): that
    game is dealt from the constant output of state 0.

    Raises
    ------
    ValueError
        For a generator that is not an LCG, more than :data:`MAX_STATES`
        states, decks that would need more than :data:`MAX_CYCLE_BYTES`, or a
        reducer that can never accept the outputs of the cycle (a stuck source).
    """
    chosen, reducer = algo, reducer or generator.native_reducer
    lcg, n = generator.lcg(), chosen.check(check_size(n, 1000))
    first = 1 if lcg.c == 0 else 0
    _check_cycle_size(lcg.m - first, n)
    batch = LCGBatch(a=lcg.a, m=lcg.m, c=lcg.c, states=np.arange(first, lcg.m, dtype=np.uint64), output=lcg.output,
                     low=lcg.low)
    draws = BatchDraws(batch, reducer)
    decks = shuffle_decks(n, draws, chosen)
    following = np.concatenate([np.zeros(first, dtype=np.int64), batch.current_states().astype(np.int64)])
    order = _walk(following, lcg.x)
    tail = order.index(int(following[order[-1]]))
    cycle = order[tail:]
    if cycle == [0] and first:
        deck, used = _fixed_point_deal(lcg, n, chosen, reducer)
        keys, mean_draws = deck_keys(deck[None, :]), float(used)
    else:
        rows = np.array(cycle) - first
        keys, mean_draws = deck_keys(decks[rows]), float(draws.draws[rows].mean())
    return GameCycle(generator.name, lcg.seed, n, str(chosen), reducer.name, tail, len(cycle),
                     len(np.unique(keys)), mean_draws)


def _check_cycle_size(lanes: int, n: int) -> None:
    """Refuse a game cycle whose lanes or decks would not fit."""
    if lanes > MAX_STATES:
        raise ValueError(f"every state is a lane: at most {MAX_STATES:,} states; this generator has {lanes:,}")
    need = lanes * n * deck_dtype(n).itemsize
    if need > MAX_CYCLE_BYTES:
        raise ValueError(f"the game cycle keeps one deck per state: {lanes:,} states x {n} cards need "
                         f"{need / 2**30:.1f} GiB, more than {MAX_CYCLE_BYTES / 2**30:.0f} GiB; choose a smaller m or n")


def _fixed_point_deal(lcg, n: int, chosen: Shuffle, reducer: Reducer) -> tuple[np.ndarray, int]:
    """The deal of a multiplicative LCG stuck in state 0: every output is the output of state 0."""
    value = lcg.output.apply_int(0)
    source = CallableSource(lambda size: np.full(size, value, dtype=np.uint64), lcg.low, lcg.high,
                            name=f"{lcg.name} in state 0", vectorized=True)
    draws = SourceDraws(source, reducer)
    return shuffle_decks(n, draws, chosen)[0], draws.draws


def _walk(following: np.ndarray, start: int) -> list[int]:
    """Follow ``start -> following[start] -> ...`` until a state repeats; return the states in order."""
    seen, order, state = set(), [], start
    while state not in seen:
        seen.add(state)
        order.append(state)
        state = int(following[state])
    return order
