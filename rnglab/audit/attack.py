"""The questions an opponent asks: can the seed be found (unpredictability), do tables repeat (non-repeatability).

The brute-force time is work, not a timing: the distinct starting states to
try, at one cost per seed for every pipeline,
:data:`~rnglab.core.rates.SEED_TRY_SECONDS` (the fastest seed search per core
measured, ``bench/results/seed_search.md``), projected to clusters of 100 and
1,000 cores with the measured efficiency of a dask cluster
(:func:`rnglab.recovery.distributed.projected_seconds`). So the grade is the
same on every machine, under any load. :func:`demonstration` gives the
``rnglab crack`` command that runs the attack on a real deal of the pipeline.
The collision chance of tables started in the same window is
:func:`rnglab.seeds.policies.collision_probability`.
"""

from __future__ import annotations

import math
import shlex

from rnglab.audit.facts import PUBLISHED_ATTACKS, PublishedAttack
from rnglab.audit.gf2_attack import fewest_bottom_cards, is_v8_deal, linear_attack, runs_gf2_attack
from rnglab.audit.grades import RULES, Finding, finding
from rnglab.audit.structure import distinct_states, drawn_bounds, os_seed_count, period_of, seed_space
from rnglab.audit.target import AUDIT_SEED, Target
from rnglab.core.rates import SEED_TRY_SECONDS
from rnglab.pages.numbers import duration_of_bits, power, probability
from rnglab.recovery.crack import cards_for_unique
from rnglab.recovery.distributed import CLUSTER_EFFICIENCY, projected_seconds
from rnglab.seeds.policies import SeedDistribution, collision_probability
from rnglab.shuffles.algorithms import shuffle
from rnglab.shuffles.cards import DECKS

#: Seeds the printed crack command searches around the real seed where the seed space is larger.
DEMO_SEEDS = 2**12
#: The largest LCG modulus for which lattice recovery of the state from outputs is practical.
LATTICE_MODULUS = 2**128
#: Cores of the clusters the brute-force time is projected to.
CLUSTER_CORES = (100, 1000)


def brute_force_bits(states: int, cores: int = 1) -> float:
    """log2 of the seconds ``cores`` cores take to try ``states`` starting states at
    :data:`~rnglab.core.rates.SEED_TRY_SECONDS` each: ``log2(states) + log2(T)`` on one core, over ``cores``
    cores a dask cluster at :data:`~rnglab.recovery.distributed.CLUSTER_EFFICIENCY` (log2, since 2^19937 states
    exceed a float; the time is linear in the states)."""
    one_seed = SEED_TRY_SECONDS if cores == 1 else projected_seconds(1, 1 / SEED_TRY_SECONDS, cores)
    return math.log2(states) + math.log2(one_seed)


def lattice_applies(target: Target) -> bool:
    """Whether the state is an LCG's of modulus at most 2^128 (recoverable from outputs by lattice reduction)."""
    return target.generator.is_lcg and target.generator.m <= LATTICE_MODULUS


def linear_applies(target: Target) -> bool:
    """Whether the outputs are linear over GF(2) in the state (recoverable by elimination, no seed tried)."""
    return target.generator.is_gf2_linear


def unpredictability(target: Target) -> Finding:
    """Seeds to search, the brute-force time, lattice or GF(2) recovery, cards seen.

    The deciding number is log2 of one core's seconds to try every distinct starting state
    (:func:`brute_force_bits`): the states are exact and the cost per seed a constant, so the grade is the same on
    every machine. The cheapest attack that applies grades first: an LCG (:func:`lattice_applies`) or a
    GF(2)-linear generator (:func:`linear_applies`) fails whatever its seeds, and where rnglab runs the GF(2)
    attack it is run on a hidden state (:func:`~rnglab.audit.gf2_attack.linear_attack`): its observations and
    rank are facts, its time a measurement.
    """
    accepted = seed_space(target).size
    seeds = distinct_states(target, accepted)        # a search over states covers every seed that leads to them
    bits = brute_force_bits(seeds)
    # Seeds beyond 2 n! change nothing here (no run of cards singles out one of them) and may exceed a float.
    unique = cards_for_unique(min(seeds, 2 * math.factorial(target.n)), target.n)
    lattice = lattice_applies(target)
    facts = [["seeds accepted", power(accepted)], ["distinct starting states to search", power(seeds)],
             ["brute-force time", (f"the states at {SEED_TRY_SECONDS:.2g} s a seed on one core (the fastest seed "
                                  "search per core measured, bench/results/seed_search.md; the same for every "
                                  "pipeline)")],
             ["brute-force time, one core", duration_of_bits(bits)],
             *[[f"on {cores:,} cores (a dask cluster at {CLUSTER_EFFICIENCY:.0%} of the cores' summed rate)",
                duration_of_bits(brute_force_bits(seeds, cores))] for cores in CLUSTER_CORES],
             ["lattice recovery from outputs", f"applies: an LCG with m = {power(target.generator.m)} <= 2^128"
              if lattice else "does not apply"],
             ["GF(2) recovery of the state", _gf2_applies(target)],
             ["cards an opponent sees per game", str(target.cards_seen)],
             ["cards that single out the seed", str(unique) if unique else "more than the deck"]]
    attack = linear_attack(target) if runs_gf2_attack(target) else None
    if attack:
        facts.append(["GF(2) attack run on a hidden state", _attack_text(attack)])
    measured = [["GF(2) elimination, one recovery", f"{attack.seconds * 1e3:.1f} ms"]] if attack else []
    linear_ = linear_applies(target)
    published = None if lattice or linear_ else PUBLISHED_ATTACKS.get(target.generator.name)
    value = bits if published is None else min(bits, published_bits(published))
    if published:
        facts.append(["published attack (not run by rnglab)",
                      (f"the state from {published.needs} in at most {published.cpu_hours:,.0f} CPU hours "
                      f"({published.source})")])
    notes = (_unpredictability_notes(target, lattice, unique) + _linear_notes(target, linear_, attack)
             + _published_notes(target, published, value))
    headline = (f"state recovered from {attack.observed} by GF(2) elimination" if attack else
                "outputs linear over GF(2): the state follows from outputs" if linear_ else
                f"a published attack recovers the state in at most {published.cpu_hours:,.0f} CPU hours"
                if published and value < bits else f"every seed tried in {duration_of_bits(bits)} on one core")
    return finding("unpredictability", value, headline, facts, notes, fails=lattice or linear_, measured=measured,
                   pass_at=None if target.generator.cryptographic else math.inf)


def published_bits(attack: PublishedAttack) -> float:
    """log2 of one core's seconds for a published attack (its CPU hours, worst case)."""
    return math.log2(attack.cpu_hours * 3600)


def _published_notes(target: Target, published: PublishedAttack | None, value: float) -> list[str]:
    """What a published attack needs that a card game may not give; why a non-cryptographic source cannot pass."""
    notes = []
    if published:
        notes.append(f"the published attack needs {published.needs}; an opponent who sees only cards sees fewer "
                     "bits per output, and its cost from cards has not been published")
    if not target.generator.cryptographic and value >= RULES["unpredictability"].pass_at:
        notes.append(f"{target.generator.name} is not a cryptographic generator: no attack on it is known to rnglab, "
                     "none is ruled out, and only a cryptographic source (the OS's) passes")
    return notes


def _gf2_applies(target: Target) -> str:
    """Whether GF(2) elimination applies, in words (Vigna's scramblers named as what stops it)."""
    if linear_applies(target):
        return "applies: every output bit is an XOR of state bits"
    if target.generator.kind == "linear":
        return ("does not apply as rnglab runs it: the engine is linear over GF(2), but its +, ++ or ** "
                "output is not (rnglab.recovery.linear refuses it); attacks on the scrambled outputs are not run")
    return "does not apply: the outputs are not linear over GF(2)"


def _attack_text(attack) -> str:
    """The observations, rank and states of :func:`~rnglab.audit.gf2_attack.linear_attack` (exact)."""
    states = "one state fits" if attack.states == 1 else f"{attack.states} states fit, one future"
    if attack.rank < attack.unknowns:
        states = f"the 2^{attack.unknowns - attack.rank} states of the equations checked against every draw: {states}"
    return (f"state recovered from {attack.observed} (seed {AUDIT_SEED}): rank {attack.rank} of "
            f"{attack.unknowns} state bits, {states}")


def _linear_notes(target: Target, linear_: bool, attack) -> list[str]:
    """What the GF(2) attack means for the game, and what the audit did not run."""
    if not linear_:
        return []
    notes = [(f"{target.generator.name}'s outputs are linear over GF(2) in its state: the state, and so every "
              "later card, follows from enough outputs by Gaussian elimination (rnglab.recovery.linear; rnglab crack "
              "--method linear), without trying seeds")]
    if attack is None:
        notes.append("the audit does not run this attack on this generator; it applies all the same")
    elif is_v8_deal(target):
        notes.append("the cards seen are the bottom ones, dealt from the end of the array (pop()), with V8's "
                     "cache at phase 0 (a fresh node process); the --random_seed and the rest of the deck follow")
    elif target.shuffle is not None:
        notes.append("the attack is run on raw outputs, not on the cards of a shuffle: where the reducer hides "
                     "how many outputs a draw consumed (CPython's _randbelow rejects), cards give fewer equations")
    return notes


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
    """Draws one shuffle makes at least: one per bound drawn per card of a program (n - 1 for a function);
    Deitel's deck draws a row and a column per try, at least one try per card (its program, draws below the
    cards left, is only its law under an ideal source)."""
    if target.shuffle is not None and target.shuffle.name == "deitel":
        return 2 * target.n
    program = target.shuffle.program(target.n) if target.shuffle is not None else None
    return sum(len(step.bounds(target.n)) for step in program) if program else max(len(drawn_bounds(target)), 1)


def demonstration(target: Target, seed: int) -> dict | None:
    """A real deal of the pipeline and the ``rnglab crack`` command that finds its seed (``None`` for a user's
    function, which the seed search does not run; for the JavaScript Fisher--Yates on V8, GF(2) elimination
    from its bottom cards: :func:`_linear_demonstration`).

    The deal is dealt from ``seed`` (a seed the pipeline's policy gives: :func:`demo_seed`); the command
    searches the seed space when it holds at most :data:`DEMO_SEEDS` seeds, else the :data:`DEMO_SEEDS` seeds
    around ``seed`` (the whole space takes the brute-force time), from the cards an opponent sees.
    """
    if target.shuffle is None:
        return None
    if is_v8_deal(target):
        return _linear_demonstration(target, seed)
    deck = shuffle(target.n, target.generator.make(seed), target.shuffle, target.reducer)
    seen = _card_text(target, deck[:target.cards_seen])
    space = seed_space(target)
    whole = target.seeding.enumerable and space.size <= DEMO_SEEDS
    ranges = space.ranges if whole else [(max(0, seed - DEMO_SEEDS // 2), max(0, seed - DEMO_SEEDS // 2) + DEMO_SEEDS)]
    arguments = ["rnglab", "crack", target.generator.name, "--algo", target.shuffle.name, *_shuffle_options(target),
                 "--reducer", target.reducer.name, "--deck", target.deck.name if target.deck.name in DECKS else
                 str(target.n), "--seeds", ",".join(f"{first}..{stop - 1}" for first, stop in ranges), "--seen", seen]
    return {"seed": seed, "seen": seen, "searched": "the whole seed space" if whole else
            f"{DEMO_SEEDS:,} seeds around the real one", "command": shlex.join(arguments)}


def _linear_demonstration(target: Target, seed: int) -> dict:
    """A V8 deal and the ``rnglab crack --method linear`` command that finds its state and seed from the fewest
    bottom cards that leave one state (:func:`~rnglab.audit.gf2_attack.fewest_bottom_cards`)."""
    bottom, _ = fewest_bottom_cards(target, seed)
    seen = _card_text(target, bottom)
    arguments = ["rnglab", "crack", target.generator.name, "--algo", target.shuffle.name, "--reducer",
                 target.reducer.name, "--deck", target.deck.name if target.deck.name in DECKS else str(target.n),
                 "--method", "linear", "--seen", seen]
    return {"seed": seed, "seen": seen, "searched": f"no seed (GF(2) elimination from the {len(bottom)} bottom "
            "cards, dealt from the end)", "command": shlex.join(arguments)}


def demo_seed(target: Target) -> int:
    """The seed of the demonstration deal: the middle seed of an enumerable policy's seeds, else
    :data:`~rnglab.audit.target.AUDIT_SEED` (any seed of an OS policy is one it can give)."""
    if not target.seeding.enumerable:
        return AUDIT_SEED
    middle = seed_space(target).size // 2
    for first, stop in seed_space(target).ranges:
        if middle < stop - first:
            return first + middle
        middle -= stop - first
    raise AssertionError("the middle seed lies in a range")


def _shuffle_options(target: Target) -> list[str]:
    """``--swaps K`` or ``--key-bits K`` where the algorithm takes one."""
    option = target.shuffle.algorithm.option
    if option == "swaps" and target.shuffle.swaps is not None:
        return ["--swaps", str(target.shuffle.swaps)]
    return ["--key-bits", str(target.shuffle.key_bits)] if option == "key_bits" else []


def _card_text(target: Target, cards) -> str:
    """Cards as ``--seen`` takes them: their names where every name is one word, else 0-based indices."""
    names = target.deck.names(cards)
    if target.deck.named and not any(" " in name for name in names):
        return " ".join(names)
    return " ".join(str(int(card)) for card in cards)
