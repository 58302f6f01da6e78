"""The position DP on packed columns against the object-array DP it replaced (issue 19, item 4).

``reference_counts`` is the previous implementation, kept here as the one-step
reference: each step updates an ``n x n`` object array of Python integers,
cell by cell, with the same weights.
"""

import math

import numpy as np
import pytest

from rnglab.core import compiled
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles.algorithms import SHUFFLES, make_shuffle
from rnglab.shuffles.fairness import ChoiceWeights, program_position_counts, repack, unpack_columns
from rnglab.shuffles.steps import SwapStep, TakeStep, TranspositionStep, swap


def reference_update(step, matrix, draws):
    """One step on the object array (the previous ``update_positions``)."""
    n, weights = matrix.shape[1], draws[0]
    total = sum(weights)
    if isinstance(step, TranspositionStep):
        return matrix * (total * total - 2 * weights * total) + np.outer(matrix.dot(weights), 2 * weights)
    new = matrix * total
    if isinstance(step, SwapStep):
        partners = slice(step.low, step.high + 1)
        new[:, partners] = matrix[:, [step.position]] * weights + matrix[:, partners] * (total - weights)
        new[:, step.position] = matrix[:, partners].dot(weights)
        return new
    k = step.position
    new[:, k] = matrix[:, k:].dot(weights)
    later = np.cumsum(weights[::-1])[::-1]
    for t in range(1, n - k):
        new[:, k + t] = later[t] * matrix[:, k + t - 1] + (total - later[t]) * matrix[:, k + t]
    return new


def reference_counts(program, n, weigh):
    matrix, denominator = np.identity(n, dtype=np.int64).astype(object), 1
    for step in program:
        draws = weigh.draws(step, n)
        matrix = reference_update(step, matrix, draws)
        denominator *= math.prod(sum(weights) for weights in draws)
    return matrix, denominator


PROGRAMS = [name for name, algorithm in SHUFFLES.items() if algorithm.program is not None]
WEIGHTS = [(None, None), ("modulo", 7), ("lemire", 11), ("bitmask", 13)]


@pytest.mark.parametrize("algo", PROGRAMS)
@pytest.mark.parametrize("reduce, range_size", WEIGHTS)
@pytest.mark.parametrize("n", [1, 2, 3, 5, 7])
def test_packed_columns_equal_the_object_array_dp(algo, reduce, range_size, n):
    program = make_shuffle(algo).program(n)
    if program is None or reduce and any(b > range_size for step in program for b in step.bounds(n)):
        pytest.skip("no program, or a bound above R")
    weigh = ChoiceWeights(reduce and REDUCERS[reduce], range_size)
    counts, denominator = program_position_counts(program, n, weigh)
    expected, expected_denominator = reference_counts(program, n, weigh)
    assert denominator == expected_denominator
    assert counts.tolist() == expected.tolist()


@pytest.mark.parametrize("algo, n", [("naive", 30), ("poker1999", 24), ("fisher-yates", 20), ("transpositions", 9)])
def test_larger_decks_equal_the_object_array_dp(algo, n):
    program = make_shuffle(algo).program(n)
    counts, denominator = program_position_counts(program, n)
    expected, expected_denominator = reference_counts(program, n, ChoiceWeights())
    assert (denominator, counts.tolist()) == (expected_denominator, expected.tolist())


def test_uniform_swap_over_every_column_uses_the_row_sums():
    # a naive step on 3 cards from the identity: position 0 receives each card on weight 1 (D = 1)
    counts, denominator = program_position_counts([SwapStep(0, 0, 2)], 3)
    assert denominator == 3 and counts.tolist() == [[1, 1, 1], [1, 2, 0], [1, 0, 2]]


def test_take_step_hand_computed():
    counts, denominator = program_position_counts([TakeStep(0)], 3)
    # choice j moves item j to the front, the ones before it shift right
    assert denominator == 3 and counts.tolist() == [[1, 2, 0], [1, 1, 1], [1, 0, 2]]


def test_repack_and_unpack_round_trip():
    entries = [0, 1, 255, 2**40 + 3]
    packed = sum(v << (i * 48) for i, v in enumerate(entries))
    wider = repack(packed, 4, 48, 64)
    assert wider == sum(v << (i * 64) for i, v in enumerate(entries))
    assert unpack_columns([wider], 4, 64)[:, 0].tolist() == entries


@pytest.mark.parametrize("numpy_work", [0, compiled.NUMPY_WORK_LIMIT])
@pytest.mark.parametrize("rows", [1, 63, 64, 3000])
def test_swap_exchanges_positions_per_deck_by_numpy_or_compiled(rows, numpy_work, monkeypatch):
    # decks are swapped by numpy in a process where no kernel has run until its numpy work passes
    # NUMPY_WORK_LIMIT, then by the kernel
    monkeypatch.setattr(compiled, "_started", False)
    monkeypatch.setattr(compiled, "_numpy_work", numpy_work)
    rng = np.random.default_rng(rows)
    decks, first, second = np.tile(np.arange(52), (rows, 1)), rng.integers(0, 52, rows), rng.integers(0, 52, rows)
    expected = decks.copy()
    for row, (a, b) in enumerate(zip(first, second)):
        expected[row, [a, b]] = expected[row, [b, a]]
    swap(decks, first, second)
    assert np.array_equal(decks, expected)
    swap(decks, 51, 0)
    expected[:, [0, 51]] = expected[:, [51, 0]]
    assert np.array_equal(decks, expected)
    for outside in (-1, 52):  # refused, nothing swapped (numpy's indexing would take -1 as the last card)
        with pytest.raises(ValueError, match=r"outside the deck \[0, 51\]"):
            swap(decks, second, np.where(np.arange(rows) == rows - 1, outside, first))
        assert np.array_equal(decks, expected)
