"""The steps shuffle programs are made of, and the in-place operations that run them.

A shuffle whose law the library knows exactly is a *program*: a list of steps,
each drawing one bounded value. :class:`SwapStep` exchanges a position with a
uniform one in a range (Fisher--Yates and its broken relatives),
:class:`TranspositionStep` exchanges two independent uniform positions, and
:class:`TakeStep` moves a uniform remaining item to the next position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numba
import numpy as np


@dataclass(frozen=True)
class SwapStep:
    """Swap ``position`` with a position uniform in ``[low, high]``."""

    position: int
    low: int
    high: int


@dataclass(frozen=True)
class TranspositionStep:
    """Swap two independent uniform positions (``n^2`` equally likely ordered pairs)."""


@dataclass(frozen=True)
class TakeStep:
    """Move the item at a position uniform in ``[position, n)`` to ``position``, shifting the others right."""

    position: int


@numba.njit(cache=True, nogil=True)
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
    if not _swap_kernel(decks, first, second):
        raise outside_the_deck(decks.shape[1])


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
