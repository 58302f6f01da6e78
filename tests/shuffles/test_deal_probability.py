"""The exact probability of one deal (rnglab.shuffles.deal_probability) against brute force over every run."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.shuffles.algorithms import make_shuffle, permutation_rank
from rnglab.shuffles.deal_probability import (
    MAX_STATES,
    backward_count,
    block_rotations,
    deal_probability,
    identity_against_rotations,
    involutions,
    naive_identity_count,
    naive_transposition_count,
    transposition_deal_count,
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
            result = deal_probability(make_shuffle(name, **options), deal)
            assert result.count == counts[rank], (name, n, deal)
            assert result.paths == counts.sum()
            assert result.probability == Fraction(int(counts[rank]), int(counts.sum()))
            assert result.ratio_to_uniform == result.probability * math.factorial(n)


#: Deck sizes of the backward count checked on every deal against every run: 6 cards (720 deals) in the default
#: run, 7 (5,040 deals; 7^7 = 823,543 runs of the naive shuffle) under -m slow.
EVERY_DEAL_SIZES = [6, pytest.param(7, marks=pytest.mark.slow)]


@pytest.mark.parametrize("n", EVERY_DEAL_SIZES)
def test_naive_every_deal_equals_every_run(n):
    counts = every_run_counts("naive", n)
    program = make_shuffle("naive").program(n)
    for rank, deal in enumerate(itertools.permutations(range(n))):
        assert backward_count(program, n, list(deal))[0] == counts[rank], deal


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PROGRAMS[:8]), st.integers(1, 7), st.randoms(use_true_random=False))
def test_a_random_deal_equals_the_law_over_every_deal(program, n, random):
    name, options = program
    deal = list(range(n))
    random.shuffle(deal)
    law = permutation_law(make_shuffle(name, **options), n)
    assert deal_probability(make_shuffle(name, **options), deal).count == law.counts[permutation_rank(np.array([deal]))[0]]


def test_identity_runs_are_the_involutions():
    assert [involutions(n) for n in range(13)] == A000085
    for n in range(1, 8):
        assert naive_identity_count(n) == every_run_counts("naive", n)[0]
    for n in (8, 9):
        assert naive_identity_count(n) == permutation_law(make_shuffle("naive"), n).counts[0]
    program = make_shuffle("naive").program(12)
    assert backward_count(program, 12, list(range(12)))[0] == A000085[12]  # the general method agrees


def test_identity_closed_form_any_deck():
    result = deal_probability(make_shuffle("naive"), range(1000))
    assert result.method == "involutions" and result.count == involutions(1000)
    assert result.paths == 1000**1000
    # I(52) by the explicit sum over the number k of pairs, n! / ((n - 2k)! 2^k k!) (OEIS A000085), and its ratio
    identity = deal_probability(make_shuffle("naive"), range(52))
    assert identity.count == sum(math.factorial(52) // (math.factorial(52 - 2 * k) * 2**k * math.factorial(k))
                                 for k in range(27))
    assert identity.ratio_to_uniform == Fraction(identity.count * math.factorial(52), 52**52)


def test_most_likely_naive_deal_is_oeis_a192053():
    for n in range(1, 9):  # every deal's count, exhaustively (the law over all n! deals)
        assert int(np.max(np.asarray(permutation_law(make_shuffle("naive"), n).counts))) == A192053[n - 1]
    for n in range(1, 7):  # and from the one-deal count, deal by deal
        assert max(deal_probability(make_shuffle("naive"), d).count for d in itertools.permutations(range(n))) == A192053[n - 1]


def test_least_likely_naive_deal_is_the_rotation():
    # Shor: the rotation (position 0 holds card n-1, position p card p-1) has 2^(n-1) naive runs (answer to
    # "How asymptotically bad is naive shuffling?", cs.stackexchange.com; the least for small n, OEIS A192053
    # notes): the least of the law over all deals for n <= 8, and the backward count agrees beyond.
    for n in range(2, 9):
        assert int(np.min(np.asarray(permutation_law(make_shuffle("naive"), n).counts))) == 2 ** (n - 1)
    for n in (8, 12, 16):
        assert deal_probability(make_shuffle("naive"), [n - 1] + list(range(n - 1))).count == 2 ** (n - 1)


@pytest.mark.parametrize("deal, match", [([0, 0, 1], "permutation"), ([1, 2, 3], "permutation"), ([], "permutation")])
def test_not_a_permutation(deal, match):
    with pytest.raises(ValueError, match=match):
        deal_probability(make_shuffle("naive"), deal)


def test_refusals():
    with pytest.raises(ValueError, match="has none"):
        deal_probability(make_shuffle("sort-keys"), [0, 1, 2])
    with pytest.raises(ValueError, match="n <= 64"):
        deal_probability(make_shuffle("naive"), [1, 2, 0] + list(range(3, 65)))
    with pytest.raises(ValueError, match="states at one level"):
        backward_count(make_shuffle("naive").program(12), 12, [1, 0] + list(range(2, 12)), max_states=100)
    assert MAX_STATES >= 207680  # the random deal of 24 cards of bench/bench_deal_probability.py


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
            by_type = deal_probability(make_shuffle("transpositions", swaps=swaps), deal)
            assert by_type.method == "cycle types"
            assert by_type.count == backward_count(program, n, list(deal))[0]
    with pytest.raises(ValueError, match="n <= 30"):
        deal_probability(make_shuffle("transpositions"), list(range(31)))


def test_swaps_of_distinct_pivots_keep_few_states():
    # each cycle of an arrangement of the steps still to undo holds at most one position that is no step's pivot:
    # the states that break it are dropped (the old count needed 71,677 states at n = 18 and 4,902 at n = 14)
    assert backward_count(make_shuffle("naive").program(18), 18, list(range(18)), max_states=3000) == (997313824, 2510)


@pytest.mark.parametrize("n", EVERY_DEAL_SIZES)
def test_swaps_of_distinct_pivots_count_every_deal_as_every_run(n):
    for name in ("fisher-yates", "forward", "sattolo"):
        counts, program = every_run_counts(name, n), make_shuffle(name).program(n)
        for rank, deal in enumerate(itertools.permutations(range(n))):
            assert backward_count(program, n, list(deal))[0] == counts[rank], (name, deal)


def test_transposition_closed_form_against_every_run():
    for n in range(2, 8):
        counts = every_run_counts("naive", n)
        for a, b in itertools.combinations(range(n), 2):
            deal = list(range(n))
            deal[a], deal[b] = b, a
            expected = counts[permutation_rank(np.array([deal]))[0]]
            assert naive_transposition_count(n, a, b) == naive_transposition_count(n, b, a) == expected, (n, a, b)
            assert deal_probability(make_shuffle("naive"), deal).method == "transposition"


def test_transposition_closed_form_against_the_backward_count():
    for n, a, b in ((12, 0, 1), (12, 3, 11), (16, 5, 6), (18, 0, 1)):
        deal = list(range(n))
        deal[a], deal[b] = b, a
        assert backward_count(make_shuffle("naive").program(n), n, deal)[0] == naive_transposition_count(n, a, b)
    assert naive_transposition_count(18, 0, 1) == 589191200  # 2 I(16) + 48 I(15), by the backward count at n = 18


def test_three_exchanges_on_three_points():
    # the case table of the proof: the 8 fixed-point-free maps on positions x < y < z give (x y) 3 times,
    # (y z) 3 times, (x z) twice
    products = Counter()
    for jumps in itertools.product(range(3), repeat=3):
        if all(jump != i for i, jump in enumerate(jumps)):
            deck = [0, 1, 2]
            for i, jump in enumerate(jumps):
                deck[i], deck[jump] = deck[jump], deck[i]
            products[tuple(p for p in range(3) if deck[p] != p)] += 1
    assert products == {(0, 1): 3, (1, 2): 3, (0, 2): 2}


def test_two_half_rotations_are_the_most_likely_up_to_eleven():
    # exhaustive maxima: the law over all n! deals (n <= 10 here; n = 11, 12 in bench/results/naive_law_extremes.jsonl)
    for n in range(4, 11):
        law = permutation_law(make_shuffle("naive"), n)
        deal = block_rotations((n // 2, n - n // 2))
        assert law.counts[permutation_rank(np.array([deal]))[0]] == A192053[n - 1]
    assert block_rotations((2, 3)) == [1, 0, 3, 4, 2]


def test_identity_overtakes_the_half_rotations_at_eighteen():
    # Goldstein and Moews: the identity is the most likely deal from n = 18; the half rotations lead before
    below, at = identity_against_rotations(17), identity_against_rotations(18)
    assert below.identity == involutions(17) and below.ratio < 1
    assert (at.identity, at.rotations) == (997313824, 966771894) and at.ratio > 1
    assert identity_against_rotations(11).rotations == 91693  # the exhaustive maximum at n = 11
    assert identity_against_rotations(12).rotations == 340306  # and at n = 12 (bench/naive_law_extremes.py)


def test_command_line_transposition():
    from click.testing import CliRunner

    from rnglab.cli import rnglab

    shown = CliRunner().invoke(rnglab, ["fairness", "--n", "52", "--algo", "naive", "--deal",
                                        " ".join(map(str, [1, 0] + list(range(2, 52))))])
    assert shown.exit_code == 0, shown.output
    assert f"runs giving the deal: {2 * involutions(50) + 150 * involutions(49)} of {52**52}" in shown.output
    assert "closed form, 2 I(n-2)" in shown.output


def test_command_line_names_the_method_of_random_transpositions():
    from click.testing import CliRunner

    from rnglab.cli import rnglab

    shown = CliRunner().invoke(rnglab, ["fairness", "--n", "6", "--algo", "transpositions", "--deal", "identity"])
    assert shown.exit_code == 0, shown.output
    assert "method: law over cycle types (random transpositions)" in shown.output  # was "closed form (involutions)"


def test_the_law_without_a_table_of_deals_equals_the_law(monkeypatch):
    # bench/naive_law_extremes.py (the exhaustive maxima to n = 12) against permutation_law
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).parents[2] / "bench" / "naive_law_extremes.py"
    spec = importlib.util.spec_from_file_location("naive_law_extremes", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # numba's cache locates a kernel's module by its name
    spec.loader.exec_module(module)
    for n in range(1, 8):
        assert module.naive_law(n).tolist() == np.asarray(permutation_law(make_shuffle("naive"), n).counts).tolist()
    assert module.extremes(8)["largest"] == A192053[7] and module.extremes(8)["least"] == 2**7


def test_the_runs_of_the_rotation_are_the_two_families():
    # the proof in the module notes: the runs of R_n are (J', 0) and (n-1, J' + 1) for the runs J' of R_{n-1}
    def play(jumps):
        deck = list(range(len(jumps)))
        for i, jump in enumerate(jumps):
            deck[i], deck[jump] = deck[jump], deck[i]
        return deck

    runs = {1: {(0,)}}
    for n in range(2, 8):
        rotation = [n - 1] + list(range(n - 1))
        runs[n] = {jumps for jumps in itertools.product(range(n), repeat=n) if play(jumps) == rotation}
        assert runs[n] == {(*j, 0) for j in runs[n - 1]} | {(n - 1, *(k + 1 for k in j)) for j in runs[n - 1]}
        assert len(runs[n]) == 2 ** (n - 1)


def test_compiled_count_equals_the_python_count_it_replaced():
    # the count and the widest level of the Python backward count (commit dd54721, before the compiled kernel),
    # for random.Random(n)'s shuffle of n cards: the same orbits, merged the same way
    import random

    for n, expected in ((18, (10394484, 5096)),):
        deal = list(range(n))
        random.Random(n).shuffle(deal)
        assert backward_count(make_shuffle("naive").program(n), n, deal) == expected


def test_masses_beyond_64_bits_are_exact():
    # 30 random transpositions of 6 cards: counts near 6.8e43 (several 32-bit limbs), against the law over cycle
    # types (Python integers), one deal per cycle type
    program = make_shuffle("transpositions", swaps=30).program(6)
    for deal in ([0, 1, 2, 3, 4, 5], [1, 0, 2, 3, 4, 5], [1, 2, 0, 3, 4, 5], [1, 0, 3, 2, 4, 5], [1, 2, 3, 0, 4, 5],
                 [1, 2, 0, 4, 3, 5], [1, 0, 3, 2, 5, 4], [1, 2, 3, 4, 0, 5], [1, 2, 0, 4, 5, 3],
                 [1, 2, 3, 0, 5, 4], [1, 2, 3, 4, 5, 0]):
        count, _ = backward_count(program, 6, deal)
        assert count > 2**128
        assert count == transposition_deal_count(6, 30, deal), deal


def test_law_invariant_under_reversed_inverse():
    # bench/naive_law_extremes.py: the deal of the run J'_k = n-1-J_{n-1-k} is w pi^-1 w, w the reversal
    for n in range(3, 8):
        counts = np.asarray(permutation_law(make_shuffle("naive"), n).counts)
        deals = np.array(list(itertools.permutations(range(n))))
        mirrored = n - 1 - np.argsort(deals, axis=1)[:, ::-1]  # (w pi^-1 w)[p] = n-1 - pi^-1[n-1-p]
        assert (mirrored != deals).any()  # the map moves some deals
        assert (counts[permutation_rank(mirrored)] == counts).all()
    assert (counts[permutation_rank(np.argsort(deals, axis=1))] != counts).any()  # the inverse alone is no symmetry


def test_committed_extremes_are_the_half_rotations_and_the_rotation():
    # bench/results/naive_law_extremes.jsonl (every deal counted, n = 1 .. 12): A192053 to n = 10, every run counted
    # once (n^n), the most likely deals the half rotations from n = 4 and the least the rotation, alone, from n = 5
    from pathlib import Path

    path = Path(__file__).parents[2] / "bench" / "results" / "naive_law_extremes.jsonl"
    found = {line["n"]: line for line in map(json.loads, path.read_text().splitlines())}
    assert sorted(found) == list(range(1, 13))
    assert [found[n]["largest"] for n in range(1, 11)] == A192053
    assert [found[n]["largest"] for n in (11, 12)] == [91693, 340306]
    for n, line in found.items():
        assert line["runs"] == n**n
        if n >= 4:
            halves = {tuple(block_rotations((n // 2, n - n // 2))), tuple(block_rotations((n - n // 2, n // 2)))}
            assert {tuple(deal) for deal in line["most_likely"]} == halves
        if n >= 5:
            assert (line["least"], line["least_likely_deals"]) == (2 ** (n - 1), 1)
