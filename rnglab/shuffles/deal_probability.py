"""The exact probability of one given deal, for decks beyond the law over all ``n!`` deals.

:func:`~rnglab.shuffles.fairness.permutation_law` gives the whole law, ``n <= 10``. The question a
user has at ``n = 52`` is narrower: how likely is *this* deal? :func:`deal_probability` answers it
exactly, as the number of equally likely runs of the shuffle's program that give the deal
(a count over the product of the step sizes), for any program of steps
(:mod:`rnglab.shuffles.steps`): the swap shuffles (naive exchange, Fisher--Yates forward and
backward, Sattolo, the 1999 poker shuffle...), random transpositions, the take programs.

Method: the runs counted backwards, with the states merged by symmetry
    Write an arrangement as ``a[p]`` = the card at position ``p``; step ``t``'s choice ``o``
    makes ``a' = a o`` (``a'[p] = a[o[p]]``). Let ``N_s(a)`` be the number of runs of the first ``s``
    steps that take the deck in order to ``a``. Then
    ``N_s(a) = sum_o N_{s-1}(a o^{-1})`` over the choices ``o`` of step ``s`` (with multiplicity), so
    the count of a deal ``pi`` is found by undoing the steps from the last, starting from ``pi``
    with mass 1: the mass that reaches the deck in order is ``N_m(pi)``.

    The states are merged by symmetry. A relabelling ``g`` of the positions *treats step t
    alike* when conjugating its choices, ``o -> g o g^{-1}``, permutes them (with their
    multiplicities): for a swap ``[position, low, high]`` any ``g`` that fixes ``position`` and maps
    the range ``[low, high]`` to itself; for a transposition of two uniform positions, any ``g``.
    Let ``G_s`` be the relabellings that treat each of the steps ``1..s`` alike: the permutations
    inside each class of positions those steps cannot tell apart (:func:`alike_classes`; for the
    naive exchange after undoing ``n - s`` steps, the positions ``s..n-1`` are one class). Then

    * ``N_s(g a g^{-1}) = N_s(a)`` for ``g`` in ``G_s`` (relabel every run), and
    * undoing step ``s`` commutes with ``G_s``: ``(g a g^{-1}) o^{-1} = g (a (g^{-1} o g)^{-1}) g^{-1}``
      and ``g^{-1} o g`` runs over the same choices,

    so the mass of a whole orbit under ``G_s``, however it is spread over the orbit, lands on the
    same orbits under ``G_{s-1}`` (a larger group: fewer steps tell fewer positions apart) as the
    mass of one representative. One state per orbit: its canonical form is the multiset of the
    cycles of ``a``, each written with the class of each of its positions and rotated to its least
    form (two arrangements are conjugate by a class-preserving relabelling exactly when these
    agree). The deck in order is its own orbit under any group, so the mass it receives is the
    count. Three prunes keep only states that can still reach it: the positions no remaining step
    moves must be fixed; ``n - cycles(a)`` (the fewest transpositions that make ``a``) must not
    exceed what the remaining steps can undo; and, when the remaining steps are swaps of distinct
    pivots (the naive exchange, Fisher--Yates, Sattolo...), no cycle of ``a`` may hold two positions
    that are no remaining step's pivot (:func:`_free_positions`: a component of the steps' edges
    holds at most one). The last one keeps the naive exchange's levels small: at ``n = 18`` the
    identity needs 2,510 states at the widest level (71,677 without it).

    Each level is undone by a compiled kernel (:func:`_undo_level`): the orbit of each arrangement
    written as a row of bytes (:func:`_orbit_row`), the rows merged in a hash table that compares
    them in full, the masses exact as limbs of 32 bits. Work is budgeted by size: the number of
    states of a level (:data:`MAX_STATES`), the number of choices per level
    (:data:`MAX_TRANSITIONS`), and ``n <= DEAL_LIMIT``. Measured for the naive exchange (CPU
    seconds on a 2-core machine shared by many jobs, ``bench/results/deal_probability.md``): at
    n = 18 the identity, a two-cycle and a random deal in about 0.1, 0.1 and 0.2 s (2,510, 2,148
    and 5,096 states); at n = 24 in about 3, 2.5 and 11 s (41,226, 36,282 and 207,680 states),
    where the Python loop this kernel replaced took 66, 52 and 231 s under a similar load (75 s
    for the identity on a quiet machine): issue 32's goals (any deal at n = 18 under 10 s, the
    identity and a two-cycle at n = 24 under a minute) are met with a margin of twenty.

Closed forms under the naive exchange
    The runs (``n^n`` of them) that leave the deck in order are exactly the involutions ``J``
    (:func:`naive_identity_count`): the telephone number ``I(n) = I(n-1) + (n-1) I(n-2)`` (OEIS
    A000085), any ``n`` at once. A transposition of positions ``a, b``:
    ``2 I(n-2) + (3n - 5 - |b - a|) I(n-3)`` (:func:`naive_transposition_count`). Both are proved
    in their docstrings from the components of the edges ``{i, J_i}``.

    The least likely deal: the rotation ``R_n`` (position 0 holds card ``n - 1``, position ``p`` card
    ``p - 1``), with ``2^(n-1)`` runs; every deal counted shows it the unique least for ``n = 5 .. 12``
    (``bench/naive_law_extremes.py``). *At least* ``2^(n-1)`` is proved: from each run ``J'`` of
    ``R_{n-1}`` two runs of ``R_n``, (a) ``J = (J', 0)``: the first ``n - 1`` steps never touch position
    ``n - 1`` and deal ``R_{n-1}`` on the others, the last swaps positions ``n - 1`` and 0; (b)
    ``J = (n - 1, J'_0 + 1, ..., J'_{n-2} + 1)``: the first step puts card ``n - 1`` at 0 and card 0 at
    ``n - 1``, the others deal ``R_{n-1}`` on positions ``1 .. n-1``, which then hold ``1 .. n-2, 0``:
    card 0 goes to 1 and card ``p - 1`` to ``p``. (a) ends with ``J_{n-1} = 0``, (b) with ``J_{n-1} >= 1``,
    so the runs differ. That there are no others (the count exactly ``2^(n-1)``) is checked (every
    run to ``n = 7``, every deal to ``n = 12``, the backward count at 12 and 16), not proved; nor is the rotation
    proved the least likely deal beyond ``n = 12``.

The most likely deal
    Every deal counted (``bench/naive_law_extremes.py``: the law over all ``n!`` deals by a dynamic
    program over arrangements, not runs, carrying only the arrangements the steps so far can reach)
    gives the maxima of OEIS A192053 to ``n = 10`` and two more terms, ``91,693`` at ``n = 11`` and
    ``340,306`` at ``n = 12`` (issue 32's goal, under 10 CPU minutes at ``n = 12``: 5.3 minutes and
    3.9 GB, ``bench/results/naive_law_extremes.jsonl``; ``n = 13`` would need 50 GB). The most likely
    deals for ``n = 4 .. 12`` are the two half rotations (:func:`block_rotations`; at ``n = 12`` the
    one most likely deal); :func:`identity_against_rotations` compares them with the identity, which
    overtakes them at ``n = 18`` (Goldstein and Moews prove it the most likely for ``n >= 18``);
    beyond ``n = 12`` that is a comparison with one candidate family, not a search.

References
----------
D. Goldstein and D. Moews, The identity is the most likely exchange shuffle for large n,
arXiv math/0010066, 2000 (the naive exchange; the runs from involutions).
D. P. Robbins and E. D. Bolker, The bias of three pseudo-random shuffles, Aequationes Math. 22, 1981.
OEIS A000085 (involutions), A192053 (the most likely deal of the naive exchange).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from rnglab.core.compiled import njit
from rnglab.core.results import Result
from rnglab.shuffles.algorithms import NAIVE, Shuffle, check_size, swap_count
from rnglab.shuffles.fairness import integer_partitions, transposition_law
from rnglab.shuffles.steps import SwapStep

#: Largest deck for the backward count (the states are canonical forms of arrangements of ``n`` positions).
DEAL_LIMIT = 64
#: Largest number of merged states at one level of the backward count (each a representative, a canonical
#: form and a mass: ``3 n + 8 limbs + 16`` bytes, under 400 at n = 64; the random deal of 24 cards of the
#: benchmark needs 207,680).
MAX_STATES = 5 * 10**5
#: Largest number of states times choices undone at one level (each choice a canonical form, compiled): a budget
#: by size, the same on every machine (the seconds it costs are measured in bench/results/deal_probability.md);
#: below ``2^31``, so the limbs of a mass cannot overflow (:func:`_undo_level`).
MAX_TRANSITIONS = 10**8
#: Largest deck for the closed form of the identity under the naive exchange (I(n) has about n log n / 2 digits;
#: n = 10^4 with its n^n runs and n! in 0.1 s of CPU, n = 1000 in 3 ms).
IDENTITY_LIMIT = 10**4


@dataclass(frozen=True)
class DealProbability(Result):
    """The exact probability of one deal under a shuffle driven by an ideal uniform source.

    Attributes
    ----------
    n, algo : int, str
    deal : list
        The cards at positions ``0 .. n-1`` (cards numbered by their place in the deck in order).
    count : int
        Equally likely runs of the shuffle that give the deal.
    paths : int
        All the runs: the product of the sizes of the steps' draws.
    probability : Fraction
        ``count / paths``.
    ratio_to_uniform : Fraction
        ``probability * n!``: 1 for a uniform shuffle.
    method : str
        ``"involutions"`` or ``"transposition"`` (closed forms of the naive exchange), ``"cycle types"`` (random
        transpositions) or ``"backward orbits"``.
    largest_level : int or None
        Most merged states at one level of the backward count (``None`` for the closed form).
    """

    n: int
    algo: str
    deal: list
    count: int
    paths: int
    probability: Fraction
    ratio_to_uniform: Fraction
    method: str
    largest_level: int | None


def deal_probability(algo: Shuffle, deal) -> DealProbability:
    """The exact probability that ``algo`` deals ``deal`` (the cards at positions ``0 .. n-1``).

    The identity and the transpositions under the naive exchange come from their closed forms (any ``n``
    up to :data:`IDENTITY_LIMIT`), random transpositions from their law over cycle types (``n <= 30``);
    every other deal, and every other shuffle with a program, from the backward count (see the
    module notes; ``n <= DEAL_LIMIT``, within :data:`MAX_STATES`).

    Raises
    ------
    ValueError
        For a deal that is not a permutation of ``0 .. n-1``, a shuffle without a program (the key
        sorts, the comparator sorts, std::shuffle), or work beyond the limits (with the limit).
    """
    shuffle = algo
    deal = check_deal(deal)
    n = shuffle.check(len(deal))
    program = shuffle.program(n)
    if program is None:
        with_programs = ", ".join(name for name in _program_shuffles())
        raise ValueError(f"the probability of one deal is counted for shuffles given as a program of steps "
                         f"({with_programs}); {shuffle.name} has none")
    paths = math.prod(math.prod(step.bounds(n)) for step in program)
    if shuffle.name == "naive" and deal == list(range(n)):
        count, method, largest = naive_identity_count(n), "involutions", None
    elif shuffle.name == "naive" and transposed_positions(deal):
        count, method, largest = naive_transposition_count(n, *transposed_positions(deal)), "transposition", None
    elif shuffle.law == "transpositions":
        count, method, largest = transposition_deal_count(n, swap_count(n, shuffle.swaps), deal), "cycle types", None
    else:
        if n > DEAL_LIMIT:
            raise ValueError(f"the probability of one deal is counted for n <= {DEAL_LIMIT} (the identity under "
                             f"naive: any n up to {IDENTITY_LIMIT:,}); got n = {n}")
        count, largest = backward_count(program, n, deal)
        method = "backward orbits"
    probability = Fraction(count, paths)
    return DealProbability(n=n, algo=str(shuffle), deal=deal, count=count, paths=paths, probability=probability,
                           ratio_to_uniform=probability * math.factorial(n), method=method, largest_level=largest)


def _program_shuffles() -> list[str]:
    from rnglab.shuffles.algorithms import SHUFFLES

    return [name for name, entry in SHUFFLES.items() if entry.program is not None]


def check_deal(deal) -> list[int]:
    """A deal as a list of ints, checked to be a permutation of ``0 .. n-1`` (``n >= 1``)."""
    cards = [int(card) for card in deal]
    if not cards or sorted(cards) != list(range(len(cards))):
        raise ValueError(f"a deal must be a permutation of 0 .. n-1 (each card once); got {deal_text(cards)}")
    return cards


def deal_text(cards: list) -> str:
    """A deal for a message: its first 12 cards."""
    return " ".join(map(str, cards[:12])) + (" ..." if len(cards) > 12 else "")


# -- closed form ----------------------------------------------------------------------------------------

def involutions(n: int) -> int:
    """``I(n)``: the involutions of ``n`` items, ``I(n) = I(n-1) + (n-1) I(n-2)``, ``I(0) = I(1) = 1`` (OEIS A000085)."""
    previous, current = 1, 1
    for size in range(2, n + 1):
        previous, current = current, current + (size - 1) * previous
    return current


def naive_identity_count(n: int) -> int:
    """Runs of the naive exchange on ``n`` cards (of ``n^n``) that leave the deck in order: ``I(n)``.

    Step ``i`` swaps positions ``i`` and ``J_i``; the deal is the product of the transpositions
    ``(i J_i)``, ``i = 0 .. n-1``. **Claim**: it is the identity exactly when ``J`` is an
    involution, so the count is the number of involutions ``I(n)`` (OEIS A000085; the runs from
    involutions are Goldstein and Moews' observation, arXiv math/0010066).

    *Proof.* If ``J`` is an involution its fixed points swap a position with itself and each pair
    ``J_i = j, J_j = i`` swaps the same two positions twice; transpositions of disjoint pairs
    commute, so the product is the identity. Conversely, draw the edges ``{i, J_i}`` (a loop when
    ``J_i = i``): each position has one out-edge, so each connected component of ``v`` positions
    carries exactly ``v`` edges, and the deal acts on each component as the product of its
    transpositions in step order. *Bound*: ``m`` transpositions whose edges connect ``v`` points
    have a product with at most ``m - v + 2`` cycles there. (Follow the partial products:
    ``v - 1`` of the transpositions join two components of the edges so far, hence two
    different cycles, and lower the cycle count by one; each of the others changes it by one
    either way; so at the end at most ``v - (v - 1) + (m - v + 1) = m - v + 2``.) The identity has
    ``v`` cycles, so the ``m`` non-loop edges of a component must satisfy ``v <= m - v + 2``. A
    component whose functional cycle is a loop has ``m = v - 1``: ``v <= 1``. One whose cycle
    is longer than 2 has ``m = v`` distinct edges: ``v <= 2``, impossible for such a cycle. One whose
    cycle is a pair ``J_i = j, J_j = i`` has ``m = v`` edges: ``v <= 2``, the pair alone. So every
    component is a fixed point or a pair: ``J`` is an involution. QED.

    Checked against every run for ``n <= 7`` and the law over all deals for ``n <= 9``
    (tests/shuffles/test_deal_probability.py).
    """
    return involutions(check_size(n, IDENTITY_LIMIT))


def naive_transposition_count(n: int, a: int, b: int) -> int:
    """Runs of the naive exchange on ``n`` cards that exchange the cards at positions ``a != b`` and leave the others:
    ``2 I(n-2) + (3n - 5 - |b - a|) I(n-3)`` (``I`` the involutions, :func:`involutions`).

    *Proof.* As in :func:`naive_identity_count`, the product acts on each component of the edges
    ``{i, J_i}`` separately, a component of ``v`` positions with ``m <= v`` non-loop edges has at
    most ``m - v + 2`` cycles, and every component on which the deal is the identity is a fixed
    point or a pair ``J_i = j, J_j = i``. The component ``K`` holding ``a`` holds ``b`` (the cycle
    ``(a b)`` of the deal lies in one component) and the deal has ``v - 1`` cycles on it, so
    ``v - 1 <= m - v + 2 <= 2``: ``v = 2`` or ``3``.

    * ``v = 2``, ``K = {a, b}``: one of ``J_a = b, J_b = b`` or ``J_a = a, J_b = a`` (one exchange of
      ``a`` and ``b``; ``J_a = b, J_b = a`` exchanges them twice); the other ``n - 2`` positions form an
      involution: ``2 I(n-2)``.
    * ``v = 3``, ``K = {a, b, c}``, ``m = 3``: ``J`` maps each of the three to one of the other two
      (8 maps, each connected), the other ``n - 3`` form an involution. The three transpositions
      act in the time order of ``a, b, c`` (the other components' commute with them); their
      product is odd on three points, a transposition. Writing the three positions ``x < y < z``,
      the 8 maps give ``(x y)`` 3 times, ``(y z)`` 3 times and ``(x z)`` twice (each map played out:
      ``tests/shuffles/test_deal_probability.py``). So a third position ``c`` outside ``[a, b]``
      (``n - 1 - |b - a|`` of them) gives 3 runs of ``K``, one between them (``|b - a| - 1``) 2:
      ``(3 (n - 1 - d) + 2 (d - 1)) I(n-3)`` with ``d = |b - a|``, which is ``(3n - 5 - d) I(n-3)``. QED.

    Checked against every run for ``n <= 7`` and against the backward count to ``n = 24``.
    """
    check_size(n, IDENTITY_LIMIT)
    if not (0 <= a < n and 0 <= b < n and a != b):
        raise ValueError(f"a transposition exchanges two distinct positions in [0, {n - 1}]; got {a} and {b}")
    return 2 * involutions(n - 2) + (3 * n - 5 - abs(b - a)) * (involutions(n - 3) if n >= 3 else 0)


def transposed_positions(deal: list) -> tuple[int, int] | None:
    """The two positions a transposition exchanges, or ``None`` for any other deal."""
    moved = [p for p, card in enumerate(deal) if card != p]
    return (moved[0], moved[1]) if len(moved) == 2 else None


def transposition_deal_count(n: int, swaps: int, deal: list) -> int:
    """Runs of ``swaps`` random transpositions that give ``deal``: its cycle type's count in the law over cycle
    types (:func:`~rnglab.shuffles.fairness.transposition_law`, ``n <= 30``; the law is invariant under
    conjugation, so every deal of one cycle type has the same count)."""
    law = transposition_law(n, swaps)
    return law.counts[integer_partitions(n).index(cycle_type(deal))]


def cycle_type(perm) -> tuple:
    """The lengths of the cycles of ``perm``, non-increasing."""
    seen, lengths = bytearray(len(perm)), []
    for start in range(len(perm)):
        length, p = 0, start
        while not seen[p]:
            seen[p], length, p = 1, length + 1, perm[p]
        if length:
            lengths.append(length)
    return tuple(sorted(lengths, reverse=True))


# -- the backward count ---------------------------------------------------------------------------------

@lru_cache(maxsize=256)
def alike_classes(step, n: int) -> tuple[int, ...]:
    """The class of each position for ``step``: positions ``p, q`` share one when exchanging their labels
    (conjugating every choice by the transposition ``(p q)``) permutes the step's choices.

    Such transpositions compose (``(p r) = (p q)(q r)(p q)``), so "alike" is an equivalence and every
    permutation inside each class treats the step alike.
    """
    orders = step.orders(n)
    choices = Counter(orders)
    classes: list[int] = []
    representatives: list[int] = []
    for p in range(n):
        found = next((c for c, r in enumerate(representatives) if _swap_treats_alike(orders, choices, r, p)), None)
        if found is None:
            found = len(representatives)
            representatives.append(p)
        classes.append(found)
    return tuple(classes)


def _swap_treats_alike(orders: list, choices: Counter, p: int, q: int) -> bool:
    relabel = list(range(len(orders[0])))
    relabel[p], relabel[q] = q, p
    conjugated = Counter(tuple(relabel[order[relabel[k]]] for k in range(len(order))) for order in orders)
    return conjugated == choices


def _inverse(order: tuple) -> tuple:
    inverse = [0] * len(order)
    for position, source in enumerate(order):
        inverse[source] = position
    return tuple(inverse)


def _cycles(perm: tuple) -> int:
    seen, cycles = bytearray(len(perm)), 0
    for start in range(len(perm)):
        if not seen[start]:
            cycles += 1
            p = start
            while not seen[p]:
                seen[p] = 1
                p = perm[p]
    return cycles


@dataclass(frozen=True)
class _Level:
    """What the steps still to undo (the first ``s``) allow: the classes of ``G_s``, the positions they
    never move, the most transpositions they can undo, and the positions that are no step's pivot
    (``free[p]``; ``None`` when the steps are not swaps of distinct pivots, see :func:`_free_positions`)."""

    colors: tuple
    frozen: tuple
    reach: int
    free: tuple | None


def _levels(program: list, n: int) -> list[_Level]:
    """``levels[s]`` for ``s = 0 .. len(program)``."""
    levels = [_Level((0,) * n, tuple(range(n)), 0, (True,) * n)]
    signature: list[tuple] = [() for _ in range(n)]
    moved, reach = [False] * n, 0
    for s, step in enumerate(program, start=1):
        classes, orders = alike_classes(step, n), step.orders(n)
        signature = [signature[p] + (classes[p],) for p in range(n)]
        names: dict = {}
        colors = tuple(names.setdefault(key, len(names)) for key in signature)
        for order in orders:
            for p in range(n):
                moved[p] = moved[p] or order[p] != p
        reach += max(n - _cycles(order) for order in orders)
        levels.append(_Level(colors, tuple(p for p in range(n) if not moved[p]), reach,
                             _free_positions(program[:s], n)))
    return levels


def _free_positions(steps: list, n: int) -> tuple | None:
    """``free[p]``: position ``p`` is the pivot of none of ``steps``, when they are swaps (:class:`SwapStep`) of
    distinct pivots; ``None`` otherwise.

    Then every cycle of an arrangement those steps make holds at most one free position. Step ``t``
    adds the edge ``{pivot_t, J_t}`` (a loop when ``J_t = pivot_t``); a connected component of ``v``
    positions needs ``v - 1`` edges and has at most one per pivot in it, so at most one free
    position; a product of transpositions keeps each component, so each cycle of the arrangement
    lies in one. An arrangement with two free positions in a cycle has no run (nor has its orbit:
    the count is constant on it), and its state is dropped.
    """
    pivots = [step.position for step in steps if isinstance(step, SwapStep)]
    if len(pivots) < len(steps) or len(set(pivots)) < len(pivots):
        return None
    free = [True] * n
    for pivot in pivots:
        free[pivot] = False
    return tuple(free)


def backward_count(program: list, n: int, deal: list, *, max_states: int = MAX_STATES) -> tuple[int, int]:
    """Runs of ``program`` on ``n`` items that deal ``deal``, by undoing the steps with merged states.

    Returns the count and the most states of one level. Raises ``ValueError`` when a level would
    exceed ``max_states`` states or :data:`MAX_TRANSITIONS` choices undone. The levels are undone
    by a compiled kernel (:func:`_undo_level`); the masses are exact, as limbs of 32 bits
    (:func:`_limbs`).
    """
    levels = [_LevelArrays.of(level, n) for level in _levels(program, n)]
    width = _limbs(math.prod(len(step.orders(n)) for step in program))
    masses = np.zeros((1, width), dtype=np.int64)
    masses[0, 0] = 1
    unchanged = np.arange(n, dtype=np.uint8)[None]  # the deal itself, kept when the steps can still reach it
    states, masses = _undo_level(np.array([deal], dtype=np.uint8), masses, unchanged, *levels[-1], max_states)
    if not len(states):
        return 0, 1
    largest = 1
    for s in range(len(program), 0, -1):
        inverses = np.array([_inverse(order) for order in program[s - 1].orders(n)], dtype=np.uint8)
        if len(states) * len(inverses) > MAX_TRANSITIONS:
            raise ValueError(_beyond(n, f"{len(states) * len(inverses):,} choices to undo at one level",
                                     MAX_TRANSITIONS))
        states, masses = _undo_level(states, masses, inverses, *levels[s - 1], max_states)
        if len(states) > max_states:
            raise ValueError(_beyond(n, f"more than {max_states:,} states at one level", max_states))
        largest = max(largest, len(states))
    return sum(_limbs_value(row) for row in masses), largest


class _LevelArrays(NamedTuple):
    """A :class:`_Level` as the compiled kernels take it: the class of each position, the positions never
    moved (a mask), the free positions (a mask, all False when :func:`_free_positions` gives ``None``), and
    the most transpositions the steps can undo."""

    colors: np.ndarray
    frozen: np.ndarray
    free: np.ndarray
    reach: int

    @classmethod
    def of(cls, level: _Level, n: int) -> _LevelArrays:
        frozen = np.zeros(n, dtype=np.bool_)
        frozen[list(level.frozen)] = True
        free = np.array(level.free if level.free is not None else (False,) * n, dtype=np.bool_)
        return cls(np.array(level.colors, dtype=np.uint8), frozen, free, level.reach)


#: Bits of one limb of a mass (:func:`_undo_level` adds at most ``MAX_TRANSITIONS < 2^31`` limbs into an int64).
LIMB_BITS = 32


def _limbs(bound: int) -> int:
    """Limbs of :data:`LIMB_BITS` bits that hold any integer up to ``bound`` (a mass is at most the runs of the
    steps undone, so at most the product of the steps' sizes)."""
    return bound.bit_length() // LIMB_BITS + 1


def _limbs_value(row) -> int:
    """The integer ``sum_k row[k] 2^(32 k)``."""
    return sum(int(limb) << (LIMB_BITS * k) for k, limb in enumerate(row))


@njit(cache=True, nogil=True, description="the backward count's kernel", seconds=10)
def _undo_level(states, masses, inverses, colors, frozen, free, reach, max_states):  # pragma: no cover - compiled
    """The states before one step: each state's arrangement (a row of ``states``) with each choice undone
    (``before[p] = arrangement[inverse[p]]``), merged by orbit (:func:`_orbit_row`) in an open-addressing
    table whose keys are compared in full (no merge on a hash alone); the first arrangement of an orbit is
    its representative. Returns the states and their masses (limbs normalised to 32 bits), or
    ``max_states + 1`` states when there are more."""
    n, width = states.shape[1], 2 * states.shape[1]
    capacity = min(len(states) * len(inverses), max_states + 1)
    slots = 2
    while slots < 2 * capacity:
        slots *= 2
    table = np.full(slots, -1, dtype=np.int64)
    keys = np.zeros((capacity, width), dtype=np.uint8)
    found, found_masses = np.empty((capacity, n), dtype=np.uint8), np.zeros((capacity, masses.shape[1]), np.int64)
    before, row, work = np.empty(n, dtype=np.uint8), np.empty(width, dtype=np.uint8), _scratch(n)
    count = 0
    for state in range(len(states)):
        for choice in range(len(inverses)):
            for p in range(n):
                before[p] = states[state, inverses[choice, p]]
            if not _orbit_row(before, colors, frozen, free, reach, row, work):
                continue
            slot = _row_hash(row) & (slots - 1)
            while table[slot] >= 0 and not _same_row(keys[table[slot]], row):
                slot = (slot + 1) & (slots - 1)
            if table[slot] < 0:
                if count == capacity:
                    return found, found_masses
                table[slot] = count
                keys[count, :] = row
                found[count, :] = before
                count += 1
            for limb in range(masses.shape[1]):
                found_masses[table[slot], limb] += masses[state, limb]
    _carry(found_masses[:count])
    return found[:count], found_masses[:count]


@njit(cache=True, nogil=True)
def _scratch(n):  # pragma: no cover - compiled
    """Scratch rows for :func:`_orbit_row`."""
    return np.zeros((6, n + 1), dtype=np.int64)


@njit(cache=True, nogil=True)
def _same_row(a, b) -> bool:  # pragma: no cover - compiled
    for k in range(len(a)):
        if a[k] != b[k]:
            return False
    return True


@njit(cache=True, nogil=True)
def _carry(masses) -> None:  # pragma: no cover - compiled
    """Normalise every row of limbs to :data:`LIMB_BITS` bits each (the top limb keeps the rest)."""
    for state in range(len(masses)):
        for k in range(masses.shape[1] - 1):
            masses[state, k + 1] += masses[state, k] >> 32
            masses[state, k] &= 0xFFFFFFFF


@njit(cache=True, nogil=True)
def _row_hash(row) -> int:  # pragma: no cover - compiled
    """FNV-1a (64 bits) of a key row, for the table's slot only (keys are then compared in full)."""
    value = np.uint64(14695981039346656037)
    for byte in row:
        value = (value ^ np.uint64(byte)) * np.uint64(1099511628211)
    return np.int64(value >> np.uint64(1))


@njit(cache=True, nogil=True)
def _orbit_row(perm, colors, frozen, free, reach, row, work) -> bool:  # pragma: no cover - compiled
    """Write in ``row`` the orbit of ``perm`` under the relabellings inside the classes ``colors``, or return
    False when ``perm`` has no run of the steps still to undo: a position of ``frozen`` moved, fewer than
    ``n - reach`` cycles, or two positions of ``free`` in one cycle (:func:`_free_positions`).

    The orbit is the multiset of the cycles of ``perm``, each as the classes of its positions rotated to
    its least form (see the module notes). Written in a canonical order: the fixed points by class, then
    the other cycles by length and then by their classes; each cycle as its length and its classes; zeros
    after (no cycle has length 0), ``n + cycles <= 2 n`` bytes in all. ``work``: scratch (:func:`_scratch`).
    """
    n = len(perm)
    for p in range(n):
        if frozen[p] and perm[p] != p:
            return False
    seen, fixed, bounds, cycle, rotated = work[0], work[1], work[2], work[3], work[4]  # rotated: the non-trivial
    seen[:] = 0  # cycles in their least rotations, end to end; bounds: where each starts
    fixed[:] = 0
    spare, cycles, end = reach, 0, 0  # n - (number of cycles) = sum of (length - 1) over the cycles
    for start in range(n):
        if seen[start]:
            continue
        if perm[start] == start:
            seen[start] = 1
            fixed[colors[start]] += 1
            continue
        length, frees, p = 0, 0, start
        while not seen[p]:
            seen[p] = 1
            cycle[length] = colors[p]
            if free[p]:
                frees += 1
            length += 1
            p = perm[p]
        spare -= length - 1
        if spare < 0 or frees > 1:
            return False
        least = _least_rotation(cycle, length)
        for t in range(length):
            rotated[end + t] = cycle[(least + t) % length]
        bounds[cycles] = end
        cycles += 1
        end += length
    bounds[cycles] = end
    _write_row(row, fixed, rotated, bounds, cycles, work[5])
    return True


@njit(cache=True, nogil=True)
def _least_rotation(cycle, length) -> int:  # pragma: no cover - compiled
    """The shift ``k`` that makes ``cycle[k:length] + cycle[:k]`` least (lexicographically)."""
    best = 0
    for k in range(1, length):
        for t in range(length):
            here, there = cycle[(k + t) % length], cycle[(best + t) % length]
            if here != there:
                if here < there:
                    best = k
                break
    return best


@njit(cache=True, nogil=True)
def _write_row(row, fixed, rotated, bounds, cycles, order) -> None:  # pragma: no cover - compiled
    """The key row of :func:`_orbit_row`: fixed points by class, then the cycles ``rotated[bounds[i]:bounds[i + 1]]``
    sorted by length and classes (insertion sort: a state has few non-trivial cycles; ``order`` is scratch)."""
    for i in range(cycles):
        order[i] = i
    for i in range(1, cycles):
        k = i
        while k > 0 and _cycle_less(rotated, bounds, order[k], order[k - 1]):
            order[k], order[k - 1] = order[k - 1], order[k]
            k -= 1
    w = 0
    for color in range(len(fixed)):
        for _ in range(fixed[color]):
            row[w], row[w + 1] = 1, color
            w += 2
    for i in order[:cycles]:
        row[w] = bounds[i + 1] - bounds[i]
        w += 1
        for t in range(bounds[i], bounds[i + 1]):
            row[w] = rotated[t]
            w += 1
    row[w:] = 0


@njit(cache=True, nogil=True)
def _cycle_less(rotated, bounds, a, b) -> bool:  # pragma: no cover - compiled
    """Cycle ``a`` before cycle ``b``: shorter, or as long and lexicographically less."""
    length_a, length_b = bounds[a + 1] - bounds[a], bounds[b + 1] - bounds[b]
    if length_a != length_b:
        return length_a < length_b
    for t in range(length_a):
        if rotated[bounds[a] + t] != rotated[bounds[b] + t]:
            return rotated[bounds[a] + t] < rotated[bounds[b] + t]
    return False


def _beyond(n: int, what: str, limit: int) -> str:
    return f"the probability of this deal on n = {n} is out of reach of the backward count: {what} (limit {limit:,})"


# -- the most likely deal ---------------------------------------------------------------------------------

def block_rotations(sizes) -> list[int]:
    """The deal of consecutive blocks of ``sizes`` cards, each cycled by one: in a block starting at ``b`` of ``k``
    cards, position ``b + t`` holds card ``b + (t + 1) mod k``.

    Two blocks of ``floor(n/2)`` and ``ceil(n/2)`` cards are the most likely deals of the naive exchange
    for ``n = 4 .. 12`` (every deal counted: ``bench/naive_law_extremes.py``; OEIS A192053 to ``n = 10``).
    """
    deal, start = [], 0
    for size in sizes:
        deal += [start + (t + 1) % size for t in range(size)]
        start += size
    return deal


@dataclass(frozen=True)
class IdentityAgainstRotations(Result):
    """Naive-exchange runs giving the identity and the two half rotations on ``n`` cards.

    Attributes
    ----------
    n : int
    identity : int
        ``I(n)`` (:func:`naive_identity_count`).
    rotations : int
        Runs giving :func:`block_rotations` ``(n // 2, n - n // 2)``, by the backward count.
    ratio : Fraction
        ``identity / rotations``: above 1 where the identity is the more likely.
    states : int
        Most states of one level of the backward count.
    """

    n: int
    identity: int
    rotations: int
    ratio: Fraction
    states: int


def identity_against_rotations(n: int) -> IdentityAgainstRotations:
    """The identity against the best competitor family of the naive exchange, the two half rotations.

    Exhaustively (every deal, ``n = 4 .. 12``) the half rotations are the most likely deals; beyond, they
    are a candidate family, and this is a comparison, not a search: Goldstein and Moews prove the
    identity the most likely deal for every ``n >= 18``, and the counts here show where it overtakes
    the family (``n = 18``: ``I(18) = 997,313,824`` against ``966,771,894``).
    """
    program = NAIVE.program(check_size(n, DEAL_LIMIT))
    rotations, states = backward_count(program, n, block_rotations((n // 2, n - n // 2)))
    identity = naive_identity_count(n)
    return IdentityAgainstRotations(n=n, identity=identity, rotations=rotations, ratio=Fraction(identity, rotations),
                                    states=states)
