"""The position matrix after K passes (rnglab.shuffles.passes) against every run of the passes played out."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from rnglab.shuffles.algorithms import make_shuffle
from rnglab.shuffles.passes import MAX_PASSES, matrix_power, repeated_passes


def every_run_position_counts(name: str, n: int, passes: int) -> np.ndarray:
    """``counts[card, position]`` over every run of ``passes`` passes of the program, played one by one."""
    steps = [step.orders(n) for step in make_shuffle(name).program(n)] * passes
    counts = np.zeros((n, n), dtype=np.int64)
    for choices in itertools.product(*steps):
        deck = list(range(n))
        for order in choices:
            deck = [deck[k] for k in order]
        counts[deck, range(n)] += 1
    return counts


@pytest.mark.parametrize("name", ["naive", "fisher-yates", "sattolo", "poker1999"])
@pytest.mark.parametrize("n", [3, 4])
def test_two_passes_equal_every_run(name, n):
    result = repeated_passes(name, n, 2)
    counts = every_run_position_counts(name, n, 2)
    assert result.denominator == counts[0].sum()
    assert result.counts == counts.tolist()


def test_three_passes_of_naive_on_three_cards():
    counts = every_run_position_counts("naive", 3, 3)  # 3^9 runs
    assert repeated_passes("naive", 3, 3).counts == counts.tolist()


def test_naive_fifty_four_cards_one_and_two_passes():
    # the claim of issue 32: up to 35 % off 1/n after one pass, about 1 % after two; exactly:
    one, two = repeated_passes("naive", 54, 1), repeated_passes("naive", 54, 2)
    assert (one.largest.card, one.largest.position) == (1, 0) and f"{float(one.largest.relative_to_uniform):.4f}" == "0.3528"
    assert (one.smallest.card, one.smallest.position) == (53, 0)
    assert f"{float(one.smallest.relative_to_uniform):.4f}" == "-0.2574"
    assert (two.largest.card, two.largest.position) == (16, 0)
    assert f"{float(two.largest.relative_to_uniform):.5f}" == "0.01250"
    assert f"{float(two.smallest.relative_to_uniform):.5f}" == "-0.02902"
    assert two.denominator == 54**108 and sum(two.counts[0]) == 54**108


def test_one_pass_is_the_position_matrix():
    from rnglab.shuffles.fairness import position_counts

    counts, denominator = position_counts("naive", 7)
    result = repeated_passes("naive", 7, 1)
    assert result.counts == counts.tolist() and result.denominator == denominator
    assert result.position_max_deviation == max(abs(Fraction(int(c), denominator) - Fraction(1, 7)) for c in counts.flat)


def test_matrix_power_by_squaring():
    matrix = np.array([[1, 2], [3, 4]], dtype=object)
    for power in range(1, 9):
        expected = matrix
        for _ in range(power - 1):
            expected = expected.dot(matrix)
        assert (matrix_power(matrix, power) == expected).all()


def test_a_fair_shuffle_stays_fair():
    result = repeated_passes("fisher-yates", 6, 3)
    assert result.position_max_deviation == 0 and result.denominator == math.factorial(6) ** 3


@pytest.mark.parametrize("passes", [0, MAX_PASSES + 1])
def test_passes_out_of_range(passes):
    with pytest.raises(ValueError, match=f"\\[1, {MAX_PASSES}\\]"):
        repeated_passes("naive", 5, passes)


def test_passes_through_a_reducer():
    # rand() % (i + 1) from an ideal source of 7 values: one pass's exact matrix, squared
    from rnglab.shuffles.fairness import position_counts

    counts, denominator = position_counts("fisher-yates", 6, reduce="modulo", range_size=7)
    result = repeated_passes("fisher-yates", 6, 2, reduce="modulo", range_size=7)
    assert result.counts == counts.dot(counts).tolist() and result.denominator == denominator**2
    assert result.source == "ideal source of 7 values, modulo" and result.position_max_deviation > 0
