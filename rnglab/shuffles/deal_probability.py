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

    Work is budgeted by size: the number of states of a level (:data:`MAX_STATES`), the number of
    choices per level (:data:`MAX_TRANSITIONS`), and ``n <= DEAL_LIMIT``. Measured for the naive
    exchange (CPU seconds on a 2-core machine shared by many jobs, ``bench/results/deal_probability.md``):
    at n = 18 the identity, a two-cycle and a random deal in 2.4, 2.3 and 5.0 s (2,510, 2,148 and
    5,096 states): issue 32's goal (any deal at n = 18 under 10 s) is met. At n = 24, 66, 52 and
    231 s (41,226, 36,282 and 207,680 states); an earlier run under a lighter load took 37, 29 and
    83 s: the goal of a minute for the identity and a two-cycle at n = 24 is met only on a quiet machine.

Closed forms under the naive exchange
    The runs (``n^n`` of them) that leave the deck in order are exactly the involutions ``J``
    (:func:`naive_identity_count`): the telephone number ``I(n) = I(n-1) + (n-1) I(n-2)`` (OEIS
    A000085), any ``n`` at once. A transposition of positions ``a, b``:
    ``2 I(n-2) + (3n - 5 - |b - a|) I(n-3)`` (:func:`naive_transposition_count`). Both are proved
    in their docstrings from the components of the edges ``{i, J_i}``.

    The least likely deal: the rotation ``R_n`` (position 0 holds card ``n - 1``, position ``p`` card
    ``p - 1``), with ``2^(n-1)`` runs; every deal counted shows it the unique least for ``n = 5 .. 11``
    (``bench/naive_law_extremes.py``). *At least* ``2^(n-1)`` is proved: from each run ``J'`` of
    ``R_{n-1}`` two runs of ``R_n``, (a) ``J = (J', 0)``: the first ``n - 1`` steps never touch position
    ``n - 1`` and deal ``R_{n-1}`` on the others, the last swaps positions ``n - 1`` and 0; (b)
    ``J = (n - 1, J'_0 + 1, ..., J'_{n-2} + 1)``: the first step puts card ``n - 1`` at 0 and card 0 at
    ``n - 1``, the others deal ``R_{n-1}`` on positions ``1 .. n-1``, which then hold ``1 .. n-2, 0``:
    card 0 goes to 1 and card ``p - 1`` to ``p``. (a) ends with ``J_{n-1} = 0``, (b) with ``J_{n-1} >= 1``,
    so the runs differ. That there are no others (the count exactly ``2^(n-1)``) is checked (every
    run to ``n = 7``, every deal to ``n = 11``, the backward count at 12 and 16), not proved; nor is the rotation
    proved the least likely deal beyond ``n = 11``.

The most likely deal
    Every deal counted (``bench/naive_law_extremes.py``: the law over all ``n!`` deals by a dynamic
    program over arrangements, not runs) gives the maxima of OEIS A192053 to ``n = 10`` and one more
    term, ``91,693`` at ``n = 11`` (105 CPU s); ``n = 12`` (about 30 CPU minutes and 7.7 GB by the
    same program) was not run. The most likely deals for ``n = 4 .. 11`` are the two half rotations
    (:func:`block_rotations`); :func:`identity_against_rotations` compares them with the identity,
    which overtakes them at ``n = 18`` (Goldstein and Moews prove it the most likely for ``n >= 18``);
    beyond ``n = 11`` that is a comparison with one candidate family, not a search.

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

from rnglab.core.results import Result
from rnglab.shuffles.algorithms import NAIVE, Shuffle, check_size, swap_count
from rnglab.shuffles.fairness import integer_partitions, transposition_law
from rnglab.shuffles.steps import SwapStep

#: Largest deck for the backward count (the states are canonical forms of arrangements of ``n`` positions).
DEAL_LIMIT = 64
#: Largest number of merged states at one level of the backward count (each a representative and a canonical
#: form: about 1 KB of Python objects at n = 24; the random deal of 24 cards of the benchmark needs 207,680).
MAX_STATES = 5 * 10**5
#: Largest number of states times choices undone at one level (each choice a canonical form in Python): a
#: budget by size, the same on every machine; the seconds it costs are measured in bench/results/deal_probability.md.
MAX_TRANSITIONS = 10**7
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


def _orbit_key(perm: tuple, level: _Level) -> tuple | None:
    """The orbit of ``perm`` under the relabellings inside the classes ``level.colors`` (its cycles, each as the
    classes of its positions rotated to the least form, sorted), or ``None`` when ``perm`` has no run of the steps
    still to undo: fewer than ``n - level.reach`` cycles, or two free positions in one cycle
    (:func:`_free_positions`)."""
    n, colors, free = len(perm), level.colors, level.free
    seen, cycles, spare = bytearray(n), [], level.reach  # n - cycles = sum of (length - 1) over the cycles
    for start in range(n):
        if seen[start]:
            continue
        cycle, p, frees = [], start, 0
        while not seen[p]:
            seen[p] = 1
            cycle.append(colors[p])
            if free is not None:
                frees += free[p]
            p = perm[p]
        if len(cycle) > 1:
            spare -= len(cycle) - 1
            if spare < 0 or frees > 1:
                return None
            least = min(cycle)
            cycle = min(tuple(cycle[k:] + cycle[:k]) for k, color in enumerate(cycle) if color == least)
        cycles.append(tuple(cycle))
    cycles.sort()
    return tuple(cycles)


def backward_count(program: list, n: int, deal: list, *, max_states: int = MAX_STATES) -> tuple[int, int]:
    """Runs of ``program`` on ``n`` items that deal ``deal``, by undoing the steps with merged states.

    Returns the count and the most states of one level. Raises ``ValueError`` when a level would
    exceed ``max_states`` states or :data:`MAX_TRANSITIONS` choices undone.
    """
    levels = _levels(program, n)
    start = tuple(deal)
    key = _orbit_key(start, levels[-1])
    if key is None:
        return 0, 1
    states = {key: (start, 1)}
    largest = 1
    for s in range(len(program), 0, -1):
        inverses = [_inverse(order) for order in program[s - 1].orders(n)]
        if len(states) * len(inverses) > MAX_TRANSITIONS:
            raise ValueError(_beyond(n, f"{len(states) * len(inverses):,} choices to undo at one level",
                                     MAX_TRANSITIONS))
        states = _undo_step(states, inverses, levels[s - 1])
        if len(states) > max_states:
            raise ValueError(_beyond(n, f"more than {max_states:,} states at one level", max_states))
        largest = max(largest, len(states))
    return sum(mass for _, mass in states.values()), largest


def _undo_step(states: dict, inverses: list, level: _Level) -> dict:
    """The states before one step: every state's arrangement with each choice undone, merged by orbit."""
    following: dict = {}
    frozen = level.frozen
    for arrangement, mass in states.values():
        for inverse in inverses:
            before = tuple([arrangement[k] for k in inverse])
            if any(before[p] != p for p in frozen):
                continue
            key = _orbit_key(before, level)
            if key is None:
                continue
            held = following.get(key)
            following[key] = (before, mass) if held is None else (held[0], held[1] + mass)
    return following


def _beyond(n: int, what: str, limit: int) -> str:
    return f"the probability of this deal on n = {n} is out of reach of the backward count: {what} (limit {limit:,})"


# -- the most likely deal ---------------------------------------------------------------------------------

def block_rotations(sizes) -> list[int]:
    """The deal of consecutive blocks of ``sizes`` cards, each cycled by one: in a block starting at ``b`` of ``k``
    cards, position ``b + t`` holds card ``b + (t + 1) mod k``.

    Two blocks of ``floor(n/2)`` and ``ceil(n/2)`` cards are the most likely deals of the naive exchange
    for ``n = 4 .. 11`` (every deal counted: ``bench/naive_law_extremes.py``; OEIS A192053 to ``n = 10``).
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

    Exhaustively (every deal, ``n = 4 .. 11``) the half rotations are the most likely deals; beyond, they
    are a candidate family, and this is a comparison, not a search: Goldstein and Moews prove the
    identity the most likely deal for every ``n >= 18``, and the counts here show where it overtakes
    the family (``n = 18``: ``I(18) = 997,313,824`` against ``966,771,894``).
    """
    program = NAIVE.program(check_size(n, DEAL_LIMIT))
    rotations, states = backward_count(program, n, block_rotations((n // 2, n - n // 2)))
    identity = naive_identity_count(n)
    return IdentityAgainstRotations(n=n, identity=identity, rotations=rotations, ratio=Fraction(identity, rotations),
                                    states=states)
