"""Shuffles as real programs write them, beyond the textbook algorithms.

Each is written against :class:`~rnglab.shuffles.draws.Draws` (one request,
one call of the program's bounded draw), so that with the right generator and
reducer it consumes exactly the values the real program consumes:

* Deitel's two-dimensional deck: for each card ``k``, ``do { row = rand() % 4;
  column = rand() % 13; } while (deck[row][column] != 0)``; card ``k`` goes to
  that slot, and the deal lists the slots of cards 1, 2, ... (slot ``13 row +
  column``; the book's rows are hearts, diamonds, clubs, spades: the ``deitel``
  deck of :mod:`~rnglab.shuffles.cards` names them);
* ascending Fisher--Yates: ``for i = 1 .. n-1: swap(i, j)``, ``j`` uniform in
  ``[0, i]`` (libstdc++ ``std::random_shuffle`` with ``rand() % (i + 1)``);
* libstdc++ ``std::shuffle``: the same swaps, two positions drawn per call of
  ``uniform_int_distribution`` (one value ``x`` below ``(i+1)(i+2)`` gives
  ``x / (i+2)`` and ``x % (i+2)``) whenever the generator's range holds ``n^2``.

References
----------
P. J. Deitel and H. M. Deitel, C++ How to Program, "Card shuffling and dealing simulation" (fig. 8.x in
several editions; the program's text varies by edition, the loop above does not).
libstdc++ ``include/bits/stl_algo.h`` (``random_shuffle``, ``shuffle``, ``__gen_two_uniform_ints``, GCC 9+).
"""

from __future__ import annotations

import numpy as np

from rnglab.shuffles.steps import SwapStep, swap

#: Columns of Deitel's deck (faces); rows are suits.
DEITEL_COLUMNS = 13


def deal_unused(decks, draws, position, name: str):
    """Draw positions with ``position(mask)`` until one not yet dealt, and deal it, ``n`` times.

    ``position(mask)`` returns, per lane selected by ``mask`` (``None``: all), a
    position in ``[0, n)``. After ``64 (n + 1)`` clashes in a row, which an ideal
    source produces with probability below ``e^-64``, the source is declared
    unable to reach the positions left (``ValueError`` naming the algorithm ``name``).
    """
    lanes, n = decks.shape
    rows, taken, out = np.arange(lanes), np.zeros(decks.shape, dtype=bool), np.empty_like(decks)
    for k in range(n):
        choice = position(None)
        clash = taken[rows, choice]
        for _ in range(64 * (n + 1)):
            if not clash.any():
                break
            choice[clash] = position(clash)
            clash = taken[rows, choice]
        else:
            raise ValueError(f"the source gave {64 * (n + 1)} dealt positions in a row to {name} (chance below "
                             f"e^-64 for a source that fills its declared range): with this reducer it cannot reach "
                             f"every position of a {n}-card deck")
        out[:, k] = decks[rows, choice]
        taken[rows, choice] = True
    return out


def deitel_grid(n: int) -> tuple[int, int]:
    """Rows and columns of Deitel's deck for ``n`` cards: ``(n / 13, 13)`` when 13 divides ``n``, else ``(1, n)``."""
    return (n // DEITEL_COLUMNS, DEITEL_COLUMNS) if n % DEITEL_COLUMNS == 0 else (1, n)


def deitel(decks, draws, config):
    """Deitel's deck: a row then a column per try, retried while the slot is taken. Uniform (rejection)."""
    rows, columns = deitel_grid(decks.shape[1])
    return deal_unused(decks, draws, lambda mask: draws.below(rows, mask) * columns + draws.below(columns, mask),
                       "deitel")


def ascending(n, config):
    """Ascending Fisher--Yates: for i = 1 .. n-1, swap i with j uniform in [0, i]. Uniform."""
    return [SwapStep(i, 0, i) for i in range(1, n)]


def libstdcxx_shuffle(decks, draws, config):
    """libstdc++ ``std::shuffle``: ascending Fisher--Yates, two swaps per draw when ``(R - 1) / n >= n``.

    With ``urange = n`` and an even ``n`` the first swap (position 1) is drawn
    alone, below 2; then positions ``i, i + 1`` take ``x`` uniform below
    ``(i + 1)(i + 2)``: ``j_1 = x / (i + 2)``, ``j_2 = x mod (i + 2)``. A
    generator whose range is too small for ``n^2`` gets one draw per position.
    ``R`` is taken as ``2^word_bits`` (``std::mt19937``: 2^32).
    """
    n = decks.shape[1]
    if (2**draws.word_bits - 1) // max(n, 1) < n:
        return draws.run_swaps(decks, ascending(n, config))
    i = 1
    if n % 2 == 0 and n > 1:
        swap(decks, 1, draws.below(2))
        i = 2
    while i < n:
        x = draws.below((i + 1) * (i + 2))
        swap(decks, i, x // (i + 2))
        swap(decks, i + 1, x % (i + 2))
        i += 2
    return decks

