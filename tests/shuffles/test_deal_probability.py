"""The exact probability of one deal (rnglab.shuffles.deal_probability) against brute force over every run."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.shuffles.algorithms import make_shuffle, permutation_rank
from rnglab.shuffles.deal_probability import (
    MAX_STATES,
    backward_count,
    deal_probability,
    involutions,
    naive_identity_count,
)
from rnglab.shuffles.fairness import permutation_law

#: Shuffles with a program, and their options, brute-forced below.
PROGRAMS = [("naive", {}), ("fisher-yates", {}), ("forward", {}), ("sattolo", {}), ("poker1999", {}),
            ("inside-out", {}), ("ascending", {}), ("fisher-yates-to-zero", {}), ("draw-remove", {}),
            ("transpositions", {"swaps": 3})]

#: OEIS A000085, involutions of n items, n = 0..12 (https://oeis.org/A000085).
A000085 = [1, 1, 2, 4, 10, 26, 76, 232, 764, 2620, 9496, 35696, 140152]
#: OEIS A192053, the largest number of naive-exchange runs giving one deal, n = 1..10 (https://oeis.org/A192053).
A192053 = [1, 2, 5, 15, 47, 159, 543, 1931, 6879, 25118]


def every_run_counts(name: str, n: int, **options) -> np.ndarray:
    """Runs giving each deal (by lexicographic rank), from every run of the program played out (numpy)."""
    program = make_shuffle(name, **options).program(n)
    choices = [np.array(step.orders(n), dtype=np.int64) for step in program]
    runs = math.prod(len(c) for c in choices)
    decks = np.tile(np.arange(n, dtype=np.int64), (runs, 1))
    inner = runs
    for options_of_step in choices:  # the first step is the most significant digit of the run's index
        inner //= len(options_of_step)
        picked = options_of_step[(np.arange(runs) // inner) % len(options_of_step)]
        decks = np.take_along_axis(decks, picked, axis=1)
    return np.bincount(permutation_rank(decks), minlength=math.factorial(n))


@pytest.mark.parametrize("name, options", PROGRAMS)
def test_every_deal_equals_every_run_counted(name, options):
    for n in range(1, 6):
        counts = every_run_counts(name, n, **options)
        for rank, deal in enumerate(itertools.permutations(range(n))):
            result = deal_probability(name, deal, **options)
            assert result.count == counts[rank], (name, n, deal)
            assert result.paths == counts.sum()
            assert result.probability == Fraction(int(counts[rank]), int(counts.sum()))
            assert result.ratio_to_uniform == result.probability * math.factorial(n)


def test_naive_every_deal_of_seven_cards_equals_every_run():
    counts = every_run_counts("naive", 7)  # 7^7 = 823,543 runs
    program = make_shuffle("naive").program(7)
    for rank, deal in enumerate(itertools.permutations(range(7))):
        assert backward_count(program, 7, list(deal))[0] == counts[rank], deal


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PROGRAMS[:8]), st.integers(1, 7), st.randoms(use_true_random=False))
def test_a_random_deal_equals_the_law_over_every_deal(program, n, random):
    name, options = program
    deal = list(range(n))
    random.shuffle(deal)
    law = permutation_law(name, n, **options)
    assert deal_probability(name, deal, **options).count == law.counts[permutation_rank(np.array([deal]))[0]]


def test_identity_runs_are_the_involutions():
    assert [involutions(n) for n in range(13)] == A000085
    for n in range(1, 8):
        assert naive_identity_count(n) == every_run_counts("naive", n)[0]
    for n in (8, 9):
        assert naive_identity_count(n) == permutation_law("naive", n).counts[0]
    program = make_shuffle("naive").program(12)
    assert backward_count(program, 12, list(range(12)))[0] == A000085[12]  # the general method agrees


def test_identity_closed_form_any_deck():
    result = deal_probability("naive", range(1000))
    assert result.method == "involutions" and result.count == involutions(1000)
    assert result.paths == 1000**1000
    # I(52) by the explicit sum over the number k of pairs, n! / ((n - 2k)! 2^k k!) (OEIS A000085), and its ratio
    identity = deal_probability("naive", range(52))
    assert identity.count == sum(math.factorial(52) // (math.factorial(52 - 2 * k) * 2**k * math.factorial(k))
                                 for k in range(27))
    assert identity.ratio_to_uniform == Fraction(identity.count * math.factorial(52), 52**52)


def test_most_likely_naive_deal_is_oeis_a192053():
    for n in range(1, 9):  # every deal's count, exhaustively (the law over all n! deals)
        assert int(np.max(np.asarray(permutation_law("naive", n).counts))) == A192053[n - 1]
    for n in range(1, 7):  # and from the one-deal count, deal by deal
        assert max(deal_probability("naive", d).count for d in itertools.permutations(range(n))) == A192053[n - 1]


def test_least_likely_naive_deal_is_the_rotation():
    # Shor: the rotation (position 0 holds card n-1, position p card p-1) has 2^(n-1) naive runs (answer to
    # "How asymptotically bad is naive shuffling?", cs.stackexchange.com; the least for small n, OEIS A192053
    # notes): the least of the law over all deals for n <= 8, and the backward count agrees beyond.
    for n in range(2, 9):
        assert int(np.min(np.asarray(permutation_law("naive", n).counts))) == 2 ** (n - 1)
    for n in (8, 12, 16):
        assert deal_probability("naive", [n - 1] + list(range(n - 1))).count == 2 ** (n - 1)


@pytest.mark.parametrize("deal, match", [([0, 0, 1], "permutation"), ([1, 2, 3], "permutation"), ([], "permutation")])
def test_not_a_permutation(deal, match):
    with pytest.raises(ValueError, match=match):
        deal_probability("naive", deal)


def test_refusals():
    with pytest.raises(ValueError, match="has none"):
        deal_probability("sort-keys", [0, 1, 2])
    with pytest.raises(ValueError, match="n <= 64"):
        deal_probability("naive", [1, 0] + list(range(2, 65)))
    with pytest.raises(ValueError, match="states at one level"):
        backward_count(make_shuffle("naive").program(12), 12, [1, 0] + list(range(2, 12)), max_states=100)
    assert MAX_STATES >= 236176  # the random deal of 16 cards of bench/bench_deal_probability.py


def test_command_line_deal():
    from click.testing import CliRunner

    from rnglab.cli import rnglab

    shown = CliRunner().invoke(rnglab, ["fairness", "--n", "5", "--algo", "naive", "--deal", "4 0 1 2 3"])
    assert shown.exit_code == 0, shown.output
    assert "runs giving the deal: 16 of 3125" in shown.output  # 2^(5-1) runs, every run counted above
    assert "ratio to 1/n!: 384/625 = 0.6144" in shown.output
    data = json.loads(CliRunner().invoke(rnglab, ["fairness", "--n", "18", "--algo", "naive", "--deal", "identity",
                                                 "--json"]).output)
    assert data["count"] == involutions(18) == 997313824  # I(18), OEIS A000085
    assert data["paths"] == 18**18 and data["method"] == "involutions"
    assert Fraction(data["ratio_to_uniform"]) == Fraction(997313824 * math.factorial(18), 18**18)


def test_transpositions_by_cycle_types_and_by_the_backward_count_agree():
    for n, swaps in ((4, 0), (4, 1), (5, 3), (6, 2)):
        program = make_shuffle("transpositions", swaps=swaps).program(n)
        for deal in itertools.permutations(range(n)):
            by_type = deal_probability("transpositions", deal, swaps=swaps)
            assert by_type.method == "cycle types"
            assert by_type.count == backward_count(program, n, list(deal))[0]
    with pytest.raises(ValueError, match="n <= 30"):
        deal_probability("transpositions", list(range(31)))


@pytest.mark.slow
def test_backward_count_of_the_identity_at_eighteen_is_the_involutions():
    # about a minute of CPU: the general method against the closed form, I(18) = 997,313,824 (OEIS A000085)
    assert backward_count(make_shuffle("naive").program(18), 18, list(range(18)))[0] == 997313824
