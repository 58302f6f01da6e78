"""The questions an opponent asks: can the seed be found (unpredictability), do tables repeat (non-repeatability).

The brute-force time is the seed count divided by the rate of a short, real
seed search (:func:`rnglab.seeds.crack.crack`) on this machine, over a range
of seeds sized to fit the time budget. The collision chance of tables started
in the same window is :func:`rnglab.seeds.policies.collision_probability`.
"""

from __future__ import annotations

import math
import time

from ..seeds.crack import cards_for_unique, crack, observe
from ..seeds.policies import collision_probability
from ..seeds.space import seed_range_space
from ..shuffles.algorithms import shuffle
from ..shuffles.reach import largest_period
from .facts import KNOWN_STATES
from .grades import Finding, finding
from .numbers import duration, power, probability
from .structure import drawn_bounds, seed_space
from .target import Target

#: Seeds of the first, timing search; the second is sized from its rate to last the section's budget.
PROBE_SEEDS = 256
#: Most seeds the timed search covers.
MAX_TIMED_SEEDS = 2**22
#: The largest LCG modulus for which lattice recovery of the state from outputs is practical.
LATTICE_MODULUS = 2**128


def measured_rate(target: Target, seconds: float) -> tuple[float, int]:
    """Seeds searched per second by a real crack of a known deal (``(rate, seeds searched)``)."""
    seeds = PROBE_SEEDS
    rate = _timed_search(target, seeds)
    seeds = int(min(MAX_TIMED_SEEDS, max(PROBE_SEEDS, rate * seconds)))
    return (_timed_search(target, seeds), seeds) if seeds > PROBE_SEEDS else (rate, seeds)


def _timed_search(target: Target, seeds: int) -> float:
    """Deal from the middle seed of ``[0, seeds)``, then time the search for it from the first cards seen."""
    deck = shuffle(target.n, target.generator.make(seeds // 2), target.shuffle, target.reducer)
    seen = observe(" ".join(str(int(card)) for card in deck[:min(target.n, 8)]), deck=target.deck)
    start = time.perf_counter()
    result = crack(target.generator, seed_range_space([(0, seeds)]), seen, algo=target.shuffle, reducer=target.reducer)
    if seeds // 2 not in [c.seed for c in result.candidates]:
        raise RuntimeError(f"the timed search missed seed {seeds // 2}")  # the library's own consistency
    return seeds / max(time.perf_counter() - start, 1e-9)


def lattice_applies(target: Target) -> bool:
    """Whether the state is an LCG's of modulus at most 2^128 (recoverable from outputs by lattice reduction)."""
    return target.generator.is_lcg and target.generator.m <= LATTICE_MODULUS


def unpredictability(target: Target, seconds: float) -> Finding:
    """Seeds to search, the measured search rate, the brute-force time, lattice recovery, cards an opponent sees."""
    space = seed_space(target)
    seeds = space.size
    if target.generator.is_lcg:
        seeds = min(seeds, target.generator.m)
    rate, timed = measured_rate(target, seconds) if target.shuffle is not None else (math.nan, 0)
    brute = seeds / rate if rate == rate else math.nan
    unique = cards_for_unique(seeds, target.n)
    lattice = lattice_applies(target)
    facts = [["seeds to search", power(seeds)], ["seed search rate (one core, measured)",
                                                 f"{rate:,.0f} seeds/s over {timed:,} seeds" if timed else "not measured"],
             ["brute-force time, one core", duration(brute) if brute == brute else "not measured"],
             ["lattice recovery from outputs", f"applies: an LCG with m = {power(target.generator.m)} <= 2^128"
              if lattice else "does not apply"],
             ["cards an opponent sees per game", str(target.cards_seen)],
             ["cards that single out the seed", str(unique) if unique else "more than the deck"]]
    notes = _unpredictability_notes(target, lattice, unique, bool(timed))
    value = math.log2(brute) if brute == brute and brute > 0 else (math.log2(seeds) if not timed else 0.0)
    headline = f"every seed tried in {duration(brute)} on one core" if timed else f"{power(seeds)} seeds"
    return finding("unpredictability", value, headline, facts, notes, fails=lattice)


def _unpredictability_notes(target: Target, lattice: bool, unique: int | None, timed: bool) -> list[str]:
    notes = []
    if unique is not None and target.cards_seen >= unique:
        notes.append(f"an opponent sees {target.cards_seen} cards, and {unique} single out the seed: "
                     "the rest of the deck follows")
    if lattice:
        notes.append("an LCG's state is recoverable from a few outputs by lattice reduction (Frieze, Hastad, Kannan, "
                     "Lagarias and Shamir, SIAM J. Comput. 17(2), 1988), without trying seeds")
    if not timed:
        notes.append("a user function is not searched: the grade uses the seed count at one seed per second "
                     "(no rate measured)")
    return notes


def period_of(target: Target) -> int | None:
    """The generator's period: number theory for an LCG, the published figure otherwise."""
    if target.generator.is_lcg:
        return largest_period(target.generator)
    return KNOWN_STATES.get(target.generator.name, (None, None))[1]


def repeatability(target: Target) -> Finding:
    """The chance that two of ``tables`` started in the window share a seed; the period against a day's draws."""
    collision = collision_probability(target.seeding.distribution(target.window), target.tables)
    chance = float(collision.probability)
    period = period_of(target)
    per_day = target.games_per_day * _draws_per_game(target)
    exhausted = period is not None and per_day > period
    facts = [["tables started in the window", f"{target.tables:,} over {target.window.text}"],
             ["chance two share a seed", probability(chance)], ["formula", collision.formula],
             ["period", power(period) if period else "unknown"],
             ["draws a day (games x draws per game, at least)", power(per_day)],
             ["days before the stream repeats", f"{period / per_day:.3g}" if period else "unknown"]]
    notes = ["a day's draws exceed the period: the stream repeats within a day"] if exhausted else []
    return finding("repeatability", chance, f"P(two tables share a seed) = {probability(chance)}", facts, notes,
                   fails=exhausted)


def _draws_per_game(target: Target) -> int:
    """Draws one shuffle makes at least: one per bound drawn per card of a program (n - 1 for a function)."""
    program = target.shuffle.program(target.n) if target.shuffle is not None else None
    return sum(len(step.bounds(target.n)) for step in program) if program else max(len(drawn_bounds(target)), 1)
