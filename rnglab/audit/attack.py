"""The questions an opponent asks: can the seed be found (unpredictability), do tables repeat (non-repeatability).

The brute-force time is the seed count divided by the rate of one core in a
short, real seed search (:func:`rnglab.seeds.crack.crack`) on this machine,
over a range of seeds sized to fit the time budget (for a user's function, the
rate of its calls), and projected to clusters of 100 and 1,000 cores with the
measured efficiency of a dask cluster
(:func:`rnglab.seeds.distributed.projected_seconds`). The collision chance of tables started
in the same window is :func:`rnglab.seeds.policies.collision_probability`.
"""

from __future__ import annotations

import math
import time

from ..pages.numbers import duration_of_bits, power, probability
from ..seeds.crack import cards_for_unique, crack, observe
from ..seeds.distributed import CLUSTER_EFFICIENCY, projected_seconds
from ..seeds.policies import SeedDistribution, collision_probability
from ..seeds.space import seed_range_space
from ..shuffles.algorithms import shuffle
from ..shuffles.userfunc import function_position_counts, running
from .grades import Finding, finding
from .structure import distinct_states, drawn_bounds, os_seed_count, period_of, seed_space
from .target import Target

#: Seeds of the first, timing search; the second is sized from its rate to last the section's budget.
PROBE_SEEDS = 256
#: Most seeds the timed search covers.
MAX_TIMED_SEEDS = 2**22
#: The largest LCG modulus for which lattice recovery of the state from outputs is practical.
LATTICE_MODULUS = 2**128
#: Cores of the clusters the brute-force time is projected to.
CLUSTER_CORES = (100, 1000)


def measured_rate(target: Target, seconds: float) -> tuple[float, int]:
    """Seeds tried per second (``(rate, seeds tried)``): a real crack of a known deal, or for a user's
    function, its calls on one stream (:func:`~rnglab.shuffles.userfunc.function_position_counts`,
    a lower bound on the cost of trying a seed: seeding comes on top)."""
    timed = _timed_search if target.shuffle is not None else _timed_calls
    seeds = PROBE_SEEDS
    rate = timed(target, seeds)
    seeds = int(min(MAX_TIMED_SEEDS, max(PROBE_SEEDS, rate * seconds)))
    return (timed(target, seeds), seeds) if seeds > PROBE_SEEDS else (rate, seeds)


def _timed_calls(target: Target, calls: int) -> float:
    """Calls per second of the user's function, shuffling the whole deck from the generator (in its child
    process, started and warmed up with one call before the clock starts)."""
    with running(target.function) as runner:
        function_position_counts(runner, target.n, target.generator.make(calls), target.reducer, 1,
                                 label=target.function_name)
        start = time.perf_counter()
        function_position_counts(runner, target.n, target.generator.make(calls), target.reducer, calls,
                                 label=target.function_name)
        return calls / max(time.perf_counter() - start, 1e-9)


def _timed_search(target: Target, seeds: int) -> float:
    """Deal from the middle seed of ``[0, seeds)``, then time the search for it from the first cards seen."""
    deck = shuffle(target.n, target.generator.make(seeds // 2), target.shuffle, target.reducer)
    seen = observe(" ".join(str(int(card)) for card in deck[:min(target.n, 8)]), deck=target.deck)
    start = time.perf_counter()
    result = crack(target.generator, seed_range_space([(0, seeds)]), seen, algo=target.shuffle, reducer=target.reducer)
    if seeds // 2 not in [c.seed for c in result.candidates]:
        raise RuntimeError(f"the timed search missed seed {seeds // 2}")  # the library's own consistency
    return seeds / max(time.perf_counter() - start, 1e-9)


def _search_threads(target: Target) -> int:
    """Threads the timed search ran on: numba's thread count for a seed search (it splits the seeds), one for
    the calls of a user's function."""
    if target.shuffle is None:
        return 1
    import numba

    return numba.get_num_threads()


def lattice_applies(target: Target) -> bool:
    """Whether the state is an LCG's of modulus at most 2^128 (recoverable from outputs by lattice reduction)."""
    return target.generator.is_lcg and target.generator.m <= LATTICE_MODULUS


def unpredictability(target: Target, seconds: float) -> Finding:
    """Seeds to search, the measured search rate, the brute-force time, lattice recovery, cards an opponent sees."""
    accepted = seed_space(target).size
    seeds = distinct_states(target, accepted)        # a search over states covers every seed that leads to them
    rate, timed = measured_rate(target, seconds)
    threads = _search_threads(target)
    per_core = rate / threads
    bits = math.log2(seeds) - math.log2(per_core)      # log2 of one core's seconds (2^19937 states exceed a float)
    # Seeds beyond 2 n! change nothing here (no run of cards singles out one of them) and may exceed a float.
    unique = cards_for_unique(min(seeds, 2 * math.factorial(target.n)), target.n)
    lattice = lattice_applies(target)
    how = "seed search" if target.shuffle is not None else "calls of the function (seeding not counted)"
    facts = [["seeds accepted", power(accepted)], ["distinct starting states to search", power(seeds)],
             [f"rate of the {how}, measured on {threads} thread{'s' if threads > 1 else ''}",
              f"{rate:,.0f} seeds/s over {timed:,} seeds"],
             ["brute-force time, one core", duration_of_bits(bits)],
             *[[f"on {cores:,} cores (a dask cluster at {CLUSTER_EFFICIENCY:.0%} of the cores' summed rate)",
                duration_of_bits(math.log2(seeds) + math.log2(projected_seconds(1, per_core, cores)))]
               for cores in CLUSTER_CORES],                       # the time is linear in the seeds
             ["lattice recovery from outputs", f"applies: an LCG with m = {power(target.generator.m)} <= 2^128"
              if lattice else "does not apply"],
             ["cards an opponent sees per game", str(target.cards_seen)],
             ["cards that single out the seed", str(unique) if unique else "more than the deck"]]
    notes = _unpredictability_notes(target, lattice, unique)
    headline = f"every seed tried in {duration_of_bits(bits)} on one core"
    return finding("unpredictability", bits, headline, facts, notes, fails=lattice)


def _unpredictability_notes(target: Target, lattice: bool, unique: int | None) -> list[str]:
    notes = []
    if unique is not None and target.cards_seen >= unique:
        notes.append(f"an opponent sees {target.cards_seen} cards, and {unique} single out the seed: "
                     "the rest of the deck follows")
    if lattice:
        notes.append("an LCG's state is recoverable from a few outputs by lattice reduction (Frieze, Hastad, Kannan, "
                     "Lagarias and Shamir, SIAM J. Comput. 17(2), 1988), without trying seeds")
    return notes


def state_distribution(target: Target) -> SeedDistribution:
    """The law of the starting state: the policy's seeds, or for OS seeds their :func:`distinct_states`
    equally likely (Java's 2^64 seeds on its 2^48 states, CPython's 2^19968 on MT19937's 2^19937 - 1)."""
    if target.seeding.enumerable:
        return target.seeding.distribution(target.window)
    states = distinct_states(target, os_seed_count(target))
    return SeedDistribution(((1, states),), states)


def repeatability(target: Target) -> Finding:
    """The chance that two of ``tables`` started in the window share a seed; the period against a day's draws."""
    collision = collision_probability(state_distribution(target), target.tables)
    chance = float(collision.probability)
    period = period_of(target)
    per_day = target.games_per_day * _draws_per_game(target)
    exhausted = period is not None and per_day > period
    facts = [["tables started in the window", f"{target.tables:,} over {target.window.text}"],
             ["seeds accepted", power(seed_space(target).size)],
             ["distinct starting states", power(state_distribution(target).seeds)],
             ["chance two share a seed", probability(chance)], ["formula", collision.formula],
             ["period", power(period) if period else "unknown"],
             ["draws a day (games x draws per game, at least)", power(per_day)],
             ["days before the stream repeats", power(period // per_day) if period else "unknown"]]
    notes = ["a day's draws exceed the period: the stream repeats within a day"] if exhausted else []
    return finding("repeatability", chance, f"P(two tables share a seed) = {probability(chance)}", facts, notes,
                   fails=exhausted)


def _draws_per_game(target: Target) -> int:
    """Draws one shuffle makes at least: one per bound drawn per card of a program (n - 1 for a function)."""
    program = target.shuffle.program(target.n) if target.shuffle is not None else None
    return sum(len(step.bounds(target.n)) for step in program) if program else max(len(drawn_bounds(target)), 1)
