"""State recovery from a deal: the cards seen become bounded draws, solved by lattice reduction.

A shuffle that is a program of steps (:mod:`rnglab.shuffles.steps`) fixes some
positions for good at each step: Fisher--Yates from the end (Java's
``Collections.shuffle``: ``for i = size..2: swap(i - 1, nextInt(i))``) fixes
position ``i - 1`` at its step, so the bottom ``k`` cards give the first ``k``
draws exactly; the forward form and draw-and-remove fix the top cards. Walking the
program from the unshuffled deck, a step's draw is the choice that puts the seen
card(s) at the position(s) it fixes; a step that fixes no seen card leaves its draw
unknown, and the walk branches over its values while seen cards follow (at most
:data:`MAX_BRANCHES` paths). Each path's draws are solved by
:func:`rnglab.recovery.lattice.solve`, and each state found deals the whole deck again
with the real generator, reducer and shuffle (the rest of the deck is predicted,
and the seen cards checked once more).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rnglab.core.results import Result
from rnglab.generators import GeneratorSpec
from rnglab.recovery.clues import Clue
from rnglab.recovery.crack import Observation
from rnglab.recovery.lattice import InsufficientObservations, seeded_state, seeds_of, solve, source_at
from rnglab.reduction.reducers import Reducer
from rnglab.shuffles.algorithms import Shuffle, shuffle
from rnglab.shuffles.fairness import REDRAWING
from rnglab.shuffles.steps import SwapStep, TakeStep

#: Most paths of unknown draws followed.
MAX_BRANCHES = 64


@dataclass(frozen=True)
class DealRecovery(Result):
    """Generator states that deal the cards seen, with the decks they deal.

    Attributes
    ----------
    generator, algorithm, reducer : str
    seen : list of str
    positions : list of int
    draws : int
        Draws constrained by the cards seen (on the first path).
    paths : int
        Paths of unknown draws solved.
    information_bits, state_bits : float
    states : list of int
        The seeded states (before the first draw).
    seeds : list of int or None
        The seed of each state where the seeding can be inverted (Java: ``state XOR 0x5DEECE66D``).
    decks : list of list of str
        The deck each state deals (position 0 first).
    complete : bool
        False when an enumeration was cut short.
    """

    generator: str
    algorithm: str
    reducer: str
    seen: list
    positions: list
    draws: int
    paths: int
    information_bits: float
    state_bits: float
    states: list
    seeds: list | None
    decks: list
    complete: bool


def draw_paths(steps: list, observation: Observation) -> list[list[Clue]]:
    """The draws each path of the program makes, as clues, up to the last step that fixes a seen card.

    Raises ``ValueError`` when no path deals the cards seen, or more than :data:`MAX_BRANCHES` paths do.
    """
    n = observation.deck.size
    wanted = dict(zip(observation.positions, observation.cards))
    fixed = _fixed_positions(steps, n)
    last = max((t for t, positions in enumerate(fixed) if wanted.keys() & positions), default=-1)
    paths = [(np.arange(n), [])]
    for t, step in enumerate(steps[:last + 1]):
        paths = [grown for deck, clues in paths for grown in _choices(step, deck, clues, fixed[t], wanted)]
        if not paths:
            raise ValueError("no deal of this shuffle shows these cards at these positions")
        if len(paths) > MAX_BRANCHES:
            raise ValueError(f"more than {MAX_BRANCHES} paths of unseen draws lead to the cards seen: "
                             "give cards at the positions the shuffle fixes first (Fisher-Yates: the bottom ones)")
    return [clues for _, clues in paths]


def _choices(step, deck, clues, fixed, wanted):
    """Each value of the step's draw that keeps the seen cards possible: (new deck, clues with the draw)."""
    size = _bound(step, len(deck))
    kept = []
    for j in range(size):
        moved = _apply(step, deck, j)
        if all(moved[p] == wanted[p] for p in fixed if p in wanted):
            kept.append((moved, j))
    if len(kept) == size:
        return [(moved, clues + [Clue(0, size - 1, size)]) for moved, _ in kept]
    return [(moved, clues + [Clue.value(j, size)]) for moved, j in kept]


def _bound(step, n: int) -> int:
    return step.high - step.low + 1 if isinstance(step, SwapStep) else n - step.position


def _apply(step, deck: np.ndarray, j: int) -> np.ndarray:
    """The deck after the step with draw ``j``."""
    moved = deck.copy()
    if isinstance(step, SwapStep):
        other = step.low + j
        moved[step.position], moved[other] = deck[other], deck[step.position]
    else:
        k = step.position
        moved[k], moved[k + 1:k + j + 1] = deck[k + j], deck[k:k + j]
    return moved


def _fixed_positions(steps: list, n: int) -> list[set]:
    """For each step, the positions no later step touches (fixed for good at that step)."""
    last_touch = {}
    for t, step in enumerate(steps):
        for p in _touched(step, n):
            last_touch[p] = t
    fixed = [set() for _ in steps]
    for p, t in last_touch.items():
        fixed[t].add(p)
    return fixed


def _touched(step, n: int) -> range | list:
    if isinstance(step, SwapStep):
        return [step.position, *range(step.low, step.high + 1)]
    if isinstance(step, TakeStep):
        return range(step.position, n)
    raise ValueError("state recovery from a deal needs a shuffle of swaps or takes (a program of steps)")


def check_cards_information(spec: GeneratorSpec, observation: Observation) -> None:
    """Refuse too few cards: ``k`` cards of ``n`` carry at most ``log2(n (n-1) ... (n-k+1))`` bits.

    Raises :class:`rnglab.recovery.lattice.InsufficientObservations` below ``log2 m``, with the fewest cards that reach it.
    """
    n, state_bits = observation.deck.size, math.log2(spec.m)
    carried = sum(math.log2(n - i) for i in range(observation.size))
    if carried >= state_bits:
        return
    needed, total = 0, 0.0
    while total < state_bits and needed < n:
        total, needed = total + math.log2(n - needed), needed + 1
    raise InsufficientObservations(
        f"{observation.size} card(s) of {n} carry at most {carried:.1f} bits and the state has {state_bits:.0f}: "
        f"give at least {needed} cards (at the positions the shuffle fixes first)" if total >= state_bits else
        f"a deck of {n} cards carries at most {total:.1f} bits: fewer than the state's {state_bits:.0f}")


def recover_from_deal(spec: GeneratorSpec, reducer: Reducer, chosen: Shuffle, observation: Observation) -> DealRecovery:
    """Every state of the LCG ``spec`` whose shuffle (``chosen`` with ``reducer``) shows the cards seen.

    Raises
    ------
    ValueError
        For a shuffle that is not a program of swaps or takes, or whose program is only its law (the
        redrawing shuffles: draw-unused, deitel, unrank, whose real draws are not its steps), cards no path
        deals, or observations that carry too little information
        (:class:`rnglab.recovery.lattice.InsufficientObservations`).
    """
    n = observation.deck.size
    steps = chosen.program(n)
    if steps is None:
        raise ValueError(f"{chosen.name} is not a program of steps: its deals cannot be read as draws")
    if chosen.name in REDRAWING:
        raise ValueError(f"{chosen.name} redraws when a try fails (a slot already dealt, a value >= n!): its deals "
                         "cannot be read as draws (search its seeds with --seeds instead)")
    check_cards_information(spec, observation)
    paths = draw_paths(steps, observation)
    states, info, complete = set(), 0.0, True
    for clues in paths:
        solution = solve(spec, reducer, clues)
        info, complete = solution.information_bits, complete and solution.complete
        states |= {seeded_state(spec, x) for x in solution.states}
    decks = {s: _deal(spec, reducer, chosen, n, s) for s in sorted(states)}
    kept = [s for s, deck in decks.items() if all(deck[p] == c for p, c in zip(observation.positions, observation.cards))]
    return DealRecovery(spec.name, chosen.name, reducer.name, observation.names(), list(observation.positions),
                        len(paths[0]), len(paths), info, math.log2(spec.m), kept, seeds_of(spec, kept),
                        [observation.deck.names(decks[s]) for s in kept], complete)


def _deal(spec: GeneratorSpec, reducer: Reducer, chosen: Shuffle, n: int, state: int) -> list[int]:
    return [int(card) for card in shuffle(n, source_at(spec, state), chosen, reducer)]
