"""The steps shuffle programs are made of, and the in-place operations that run them.

A shuffle whose law the library knows exactly is a *program*: a list of steps,
each drawing bounded values. :class:`SwapStep` exchanges a position with a
uniform one in a range (Fisher--Yates and its broken relatives),
:class:`TranspositionStep` exchanges two independent uniform positions, and
:class:`TakeStep` moves a uniform remaining item to the next position.

Each step kind knows its facets, so the exact analyses need no dispatch on it:
the bounds it draws below (:meth:`bounds`), the rearrangement of the deck each
choice makes (:meth:`orders`, for the law over all ``n!`` deals), the update of
the position matrix given the weights of its draws, on packed columns
(:meth:`update_columns`, :func:`scale`) and the cost of that update
(:meth:`rewritten_columns`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rnglab.core.compiled import kernel_serves, njit


@dataclass(frozen=True)
class SwapStep:
    """Swap ``position`` with a position uniform in ``[low, high]``."""

    position: int
    low: int
    high: int

    def bounds(self, n: int) -> tuple[int, ...]:
        """The bounds of the values the step draws (one draw here)."""
        return (self.high - self.low + 1,)

    def orders(self, n: int) -> list[tuple]:
        """The rearrangements of the deck, one per choice: new position ``p`` holds old position ``order[p]``."""
        return [_swapped(n, self.position, j) for j in range(self.low, self.high + 1)]

    def update_columns(self, columns: list, draws: list, total_so_far: int, ones: int) -> list:
        """Packed columns of the position counts after the step (see :func:`scale`); ``draws[0][j]`` is
        the integer weight of choice ``j``.

        Positions the step does not touch are scaled by ``W = sum(weights)``;
        a partner ``low + j`` receives the card at ``position`` on weight ``w_j``
        and keeps its own on ``W - w_j``; ``position`` receives partner ``j``'s
        card on ``w_j``. With equal weights ``w`` over every column, that sum is
        ``w`` times the row sums, each the denominator so far: ``w D ones``.
        """
        weights, p = [int(w) for w in draws[0]], self.position
        total, partners = sum(weights), range(self.low, self.high + 1)
        new = [column if k == p or self.low <= k <= self.high else scale(total, column)
               for k, column in enumerate(columns)]
        moved = {}  # w -> w * columns[p]: equal weights multiply once
        for w, k in zip(weights, partners):
            if k != p:
                if w not in moved:
                    moved[w] = scale(w, columns[p])
                new[k] = moved[w] + scale(total - w, columns[k])
        if len(set(weights)) == 1 and len(partners) == len(columns):
            new[p] = scale(weights[0] * total_so_far, ones)
        else:
            new[p] = sum(scale(w, columns[k]) for w, k in zip(weights, partners))
        return new

    def rewritten_columns(self, n: int) -> int:
        """Columns of the position matrix the step rewrites, as its cost: one per choice."""
        return self.high - self.low + 1

    def even_partner_weight(self, draws: list, n: int) -> int | None:
        """``w`` when the step swaps ``position`` with every position of the deck, each on weight ``w`` (the
        naive exchange without a reducer), else ``None``: such steps share one update of the position matrix
        (:func:`rnglab.shuffles.fairness.even_swaps_position_counts`)."""
        weights = draws[0]
        if (self.low, self.high) == (0, n - 1) and min(weights) == max(weights):
            return int(weights[0])
        return None


@dataclass(frozen=True)
class TranspositionStep:
    """Swap two independent uniform positions (``n^2`` equally likely ordered pairs)."""

    def bounds(self, n: int) -> tuple[int, ...]:
        """Two independent draws below ``n``."""
        return (n, n)

    def orders(self, n: int) -> list[tuple]:
        """The rearrangements, ordered pairs ``(a, b)`` with ``a`` major."""
        return [_swapped(n, a, b) for a in range(n) for b in range(n)]

    def update_columns(self, columns: list, draws: list, total_so_far: int, ones: int) -> list:
        """Packed columns after the step; both draws have the weights ``u = draws[0]`` (total ``U``).

        The ordered pairs ``(p, q)`` and ``(q, p)``, ``p != q``, move the card at
        ``p`` to ``q`` on ``2 u_p u_q`` of ``U^2``; the card at ``q`` stays on the
        other ``U^2 - 2 u_q (U - u_q)``: ``new_q = m_q (U^2 - 2 u_q U) + 2 u_q (m . u)``.
        """
        u = [int(w) for w in draws[0]]
        total = sum(u)
        mixed = sum(scale(w, column) for w, column in zip(u, columns))
        return [scale(total * total - 2 * w * total, column) + scale(2 * w, mixed) for w, column in zip(u, columns)]

    def rewritten_columns(self, n: int) -> int:
        """Every column (an outer product of the whole matrix)."""
        return n

    def even_partner_weight(self, draws: list, n: int) -> None:
        """``None``: not a swap with every position (see :meth:`SwapStep.even_partner_weight`)."""


@dataclass(frozen=True)
class TakeStep:
    """Move the item at a position uniform in ``[position, n)`` to ``position``, shifting the others right."""

    position: int

    def bounds(self, n: int) -> tuple[int, ...]:
        """One draw below the items left, ``n - position``."""
        return (n - self.position,)

    def orders(self, n: int) -> list[tuple]:
        """The rearrangements: item ``k + j`` moved to ``k``, the ones between shifted right."""
        k, identity = self.position, list(range(n))
        return [tuple(identity[:k] + [k + j] + identity[k:k + j] + identity[k + j + 1:]) for j in range(n - k)]

    def update_columns(self, columns: list, draws: list, total_so_far: int, ones: int) -> list:
        """Packed columns after the step: position ``k`` receives choice ``j`` on ``w_j = draws[0][j]``;
        ``k + t`` (``t >= 1``) takes the card from ``k + t - 1`` when ``j >= t`` and keeps its own otherwise."""
        weights = [int(w) for w in draws[0]]
        n, k, total = len(columns), self.position, sum(weights)
        new = [scale(total, column) for column in columns[:k]]
        new.append(sum(scale(w, column) for w, column in zip(weights, columns[k:])))
        later = total
        for t in range(1, n - k):
            later -= weights[t - 1]  # the sum of w[j] for j >= t
            new.append(scale(later, columns[k + t - 1]) + scale(total - later, columns[k + t]))
        return new

    def rewritten_columns(self, n: int) -> int:
        """Columns from ``position`` on."""
        return n - self.position

    def even_partner_weight(self, draws: list, n: int) -> None:
        """``None``: not a swap with every position (see :meth:`SwapStep.even_partner_weight`)."""


def _swapped(n: int, a: int, b: int) -> tuple:
    order = list(range(n))
    order[a], order[b] = order[b], order[a]
    return tuple(order)


def scale(weight: int, column: int) -> int:
    """``weight * column`` for a packed column, without the work when the weight is 0 or 1.

    A packed column is one Python integer holding a column of the position
    counts, entry ``i`` in bits ``[i B, (i + 1) B)`` (``B`` enough for every
    count until the columns are repacked, see
    :func:`rnglab.shuffles.fairness.program_position_counts`). Packing is linear, so any
    integer combination of packed columns is the packed combination of their
    entries, intermediate negative terms included, as long as the final
    entries lie in ``[0, 2^B)``: one big-integer operation updates a whole
    column, instead of one Python object per cell.
    """
    if weight == 1:
        return column
    return weight * column if weight else 0


@njit(cache=True, nogil=True)
def _swap_kernel(decks, first, second):  # pragma: no cover - compiled
    """Swap ``decks[r, first[r]]`` and ``decks[r, second[r]]`` in every row (one pass over memory).

    ``first`` and ``second`` hold one position (shared by every row) or one
    per row. Returns False, having swapped nothing, when a position is
    outside the deck.
    """
    rows, n = decks.shape
    step_first, step_second = (1 if first.size > 1 else 0), (1 if second.size > 1 else 0)
    for row in range(rows):
        if not (0 <= first[row * step_first] < n and 0 <= second[row * step_second] < n):
            return False
    for row in range(rows):
        a, b = first[row * step_first], second[row * step_second]
        kept = decks[row, a]
        decks[row, a] = decks[row, b]
        decks[row, b] = kept
    return True


def swap(decks: np.ndarray, first, second) -> None:
    """Swap positions ``first`` and ``second`` (ints or one per row) in every row, in place.

    Raises ``ValueError`` for a position outside the deck (and then swaps nothing).
    """
    first, second = (np.atleast_1d(np.asarray(p, dtype=np.int64)) for p in (first, second))
    swapped = _swap_kernel if kernel_serves(len(decks)) else _swap_indexed
    if not swapped(decks, first, second):
        raise outside_the_deck(decks.shape[1])


def _swap_indexed(decks: np.ndarray, first: np.ndarray, second: np.ndarray) -> bool:
    """:func:`_swap_kernel` by numpy's indexing (for a few decks): the same swaps, the same refusal."""
    n = decks.shape[1]
    if len(decks) and not all(((0 <= p) & (p < n)).all() for p in (first, second)):
        return False
    rows = np.arange(len(decks))
    decks[rows, first], decks[rows, second] = decks[rows, second], decks[rows, first]
    return True


def outside_the_deck(n: int) -> ValueError:
    return ValueError(f"a swap position is outside the deck [0, {n - 1}]: the source produced a value outside "
                      "its declared range")


def take_in_order(decks: np.ndarray, choose: Callable[[int, int], np.ndarray]) -> np.ndarray:
    """Deal position ``k`` from the remaining items kept in their original order.

    ``choose(k, remaining)`` gives, per row, the index in ``[0, remaining)``
    of the item to take next; the item is removed from the remaining list.
    """
    lanes, n = decks.shape
    remaining, out = decks.copy(), np.empty_like(decks)
    for k in range(n):
        j = choose(k, n - k)
        out[:, k] = remaining[np.arange(lanes), j]
        keep = np.arange(n - k)[None, :] != j[:, None]
        remaining = remaining[keep].reshape(lanes, n - k - 1)
    return out


def step_bounds(steps: list[SwapStep]) -> np.ndarray:
    """The bound each swap step draws below (``high - low + 1``), as uint64."""
    return np.array([step.high - step.low + 1 for step in steps], dtype=np.uint64)
