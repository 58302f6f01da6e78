"""The exact position matrix after ``K`` independent passes of a shuffle.

Let ``M[i, j] = P(card i ends at position j)`` after one pass from the deck in order. Every
shuffle of rnglab rearranges *positions* by a random permutation drawn independently of the
cards, so a second pass moves the card found at position ``j`` to position ``k`` with
probability ``M[j, k]`` whatever that card is; the passes are independent, so the position of one
card is a Markov chain with transition matrix ``M`` and after ``K`` passes

    ``P(card i at position k) = (M^K)[i, k]``.

With the exact counts ``M = C / D`` (:func:`~rnglab.shuffles.fairness.position_counts`, Python
integers) the counts after ``K`` passes are ``C^K`` over ``D^K``, exact; the matrix power is
computed by repeated squaring. The largest and smallest entries, against ``1/n``, answer how
far ``K`` passes are from a fair deck position by position (a claim about the naive exchange at
``n = 54``: 35 % after one pass, about 1 % after two; ``bench/results/deal_probability.md``).

Work is budgeted by size: ``passes <= MAX_PASSES`` (the counts of ``C^K`` have about
``K log2 D`` bits: 54^54 is 311 bits a pass at ``n = 54``).

References
----------
D. P. Robbins and E. D. Bolker, The bias of three pseudo-random shuffles, Aequationes Math. 22, 1981.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from rnglab.core.results import Result
from rnglab.reduction.reducers import as_reducer
from rnglab.shuffles.algorithms import Shuffle, make_shuffle
from rnglab.shuffles.fairness import max_deviation, position_counts

#: Most passes (the counts of ``K`` passes have ``K`` times the bits of one pass's).
MAX_PASSES = 64


@dataclass(frozen=True)
class PositionExtreme(Result):
    """One entry of a position matrix: ``P(card at position)`` and its excess over ``1/n``, relative to
    ``1/n`` (``n P - 1``: ``+0.35`` is 35 % more likely than under a fair shuffle)."""

    card: int
    position: int
    probability: Fraction
    relative_to_uniform: Fraction


@dataclass(frozen=True)
class RepeatedPasses(Result):
    """The exact position matrix after ``passes`` independent passes of a shuffle.

    Attributes
    ----------
    n, algo, passes : int, str, int
    source : str
        ``"ideal"``, or the ideal source's number of values and the reducer its draws go through.
    denominator : int
        ``D^K``: every probability is ``counts[i][j] / denominator``.
    counts : list
        ``counts[i][j]``: card ``i`` at position ``j``, Python integers.
    largest, smallest : PositionExtreme
        The most and the least likely (card, position), the first in row-major order on ties.
    position_max_deviation : Fraction
        ``max |P(card i at j) - 1/n|``.
    """

    n: int
    algo: str
    passes: int
    source: str
    denominator: int
    counts: list
    largest: PositionExtreme
    smallest: PositionExtreme
    position_max_deviation: Fraction


def repeated_passes(algo: str | Shuffle, n: int, passes: int, *, reduce: str | None = None,
                    range_size: int | None = None, **options) -> RepeatedPasses:
    """The exact position matrix of ``passes`` independent passes of ``algo`` on ``n`` cards (see the module notes).

    Any shuffle whose one-pass position matrix is exact (:func:`~rnglab.shuffles.fairness.position_counts`,
    with its limits; through ``reduce`` from an ideal source of ``range_size`` values) is accepted; ``options``
    are the shuffle's (:func:`~rnglab.shuffles.algorithms.make_shuffle`).

    Raises
    ------
    ValueError
        For ``passes`` outside ``[1, MAX_PASSES]``, or a one-pass matrix out of reach (with its limit).
    """
    if not 1 <= passes <= MAX_PASSES:
        raise ValueError(f"--passes must be in [1, {MAX_PASSES}] (the exact counts grow by one pass's bits each); "
                         f"got {passes}")
    shuffle = make_shuffle(algo, **options)
    one_pass, denominator = position_counts(shuffle, n, reduce=reduce, range_size=range_size)
    counts = matrix_power(np.asarray(one_pass, dtype=object), passes)
    denominator **= passes
    source = "ideal" if reduce is None else f"ideal source of {range_size} values, {as_reducer(reduce).name}"
    return RepeatedPasses(n=n, algo=str(shuffle), passes=passes, source=source, denominator=denominator,
                          counts=[[int(c) for c in row] for row in counts],
                          largest=_extreme(counts, denominator, np.argmax),
                          smallest=_extreme(counts, denominator, np.argmin),
                          position_max_deviation=max_deviation(counts, denominator))


def matrix_power(matrix: np.ndarray, power: int) -> np.ndarray:
    """``matrix ** power`` (``power >= 1``) of a square object array of Python integers, by repeated squaring."""
    result, square = None, matrix
    while power:
        if power & 1:
            result = square if result is None else result.dot(square)
        power >>= 1
        if power:
            square = square.dot(square)
    return result


def _extreme(counts: np.ndarray, denominator: int, pick) -> PositionExtreme:
    card, position = np.unravel_index(int(pick(counts)), counts.shape)
    probability = Fraction(int(counts[card, position]), denominator)
    return PositionExtreme(card=int(card), position=int(position), probability=probability,
                           relative_to_uniform=probability * counts.shape[0] - 1)
