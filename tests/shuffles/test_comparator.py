"""The JavaScript comparator shuffle: V8's sorts comparison for comparison, against node (tests/data/comparator)."""

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from rnglab.generators import make_source
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles.algorithms import make_shuffle, permutation_rank, shuffle, shuffle_decks
from rnglab.shuffles.comparator import coin_weights, comparator_deals, insertion_sort, timsort
from rnglab.shuffles.draws import ScriptedDraws
from rnglab.shuffles.fairness import exact_fairness, permutation_law

#: node v20 (V8 11.3): every path of comparator answers for n = 1..6, and 10^6 sorts of [0, 1, 2, 3]
#: with () => Math.random() - 0.5 (tests/data/comparator/make_reference.js).
REFERENCE = json.loads((Path(__file__).parents[1] / "data" / "comparator" / "reference.json").read_text())
LEAVES = [(int(n), leaf) for n, leaves in REFERENCE["trees"].items() for leaf in leaves]


def scripted(answers, pairs):
    """A comparator giving ``answers`` ('-' or '+') in order and logging its arguments in ``pairs``."""
    signs = iter(answers)
    return lambda x, y: pairs.append([x, y]) or (-1 if next(signs) == "-" else 1)


def test_timsort_asks_what_v8_asks_and_sorts_as_it_does_on_every_path():
    for n, leaf in LEAVES:
        pairs = []
        assert timsort(list(range(n)), scripted(leaf["answers"], pairs)) == leaf["array"] and pairs == leaf["pairs"]


@pytest.mark.parametrize("n", range(1, 7))
def test_exact_timsort_law_is_v8s_decision_tree_with_fair_coins(n):
    # TimSort asks comparefn < 0: Math.random() - 0.5 < 0 on 2^51 of its 2^52 values, a fair coin
    expected = {}
    for leaf in REFERENCE["trees"][str(n)]:
        expected[tuple(leaf["array"])] = expected.get(tuple(leaf["array"]), 0) + Fraction(1, 2 ** len(leaf["answers"]))
    deals = comparator_deals(make_shuffle("js-sort-timsort"), n)
    assert {deal: Fraction(w, deals.denominator) for deal, w in deals.weights.items()} == expected


def test_exact_law_fits_node_math_random_sorts():
    law, observed = permutation_law(make_shuffle("js-sort-timsort"), 4), REFERENCE["n4"]["counts"]
    ranks = permutation_rank(np.array([[int(c) for c in key] for key in observed]))
    expected = np.array([float(Fraction(int(law.counts[r]), law.denominator)) for r in ranks])
    result = stats.chisquare(list(observed.values()), expected * REFERENCE["n4"]["sorts"])
    assert result.pvalue > 0.001 and len(observed) == 24


def test_insertion_sort_law_by_hand():
    # element 1 passes a[0] with p = P(Math.random() - 0.5 > 0) = 1/2 - 2^-52; element 2 stops after k moves
    p = Fraction(2**51 - 1, 2**52)
    law = permutation_law(make_shuffle("js-sort-insertion"), 3)
    weights = comparator_deals(make_shuffle("js-sort-insertion"), 3)
    probability = {deal: Fraction(w, weights.denominator) for deal, w in weights.weights.items()}
    assert probability[(0, 1, 2)] == (1 - p) ** 2 and probability[(2, 1, 0)] == p ** 3
    assert probability[(1, 0, 2)] == p * (1 - p) and probability[(0, 2, 1)] == (1 - p) * p * (1 - p)
    assert sum(probability.values()) == 1 and law.denominator == 2 ** 156
    assert coin_weights(1) == (2**51 + 1, 2**51 - 1) and coin_weights(-1) == (2**51, 2**51)


def test_insertion_sort_moves_while_greater():
    assert insertion_sort([0, 1, 2, 3], lambda x, y: 1) == [3, 2, 1, 0]
    assert insertion_sort([0, 1, 2, 3], lambda x, y: 0) == [0, 1, 2, 3]


def test_each_comparison_draws_52_bits_from_the_source():
    # 32 + 20 bits per comparison (pieces of random_integers): v < 2^51 negative, v = 2^51 zero, above positive
    leaf = REFERENCE["trees"]["4"][11]
    pieces = [[0, 0] if a == "-" else [2**32 - 1, 2**20 - 1] for a in leaf["answers"]]
    decks = shuffle_decks(4, ScriptedDraws([[piece for pair in pieces for piece in pair]]), make_shuffle("js-sort-timsort"))
    assert decks[0].tolist() == leaf["array"]
    zero = shuffle_decks(3, ScriptedDraws([[2**31, 0] * 2]), make_shuffle("js-sort-insertion"))  # zero is not > 0: no move
    assert zero[0].tolist() == [0, 1, 2]


def test_runs_over_a_generator_and_is_found_unfair():
    deck = shuffle(52, make_source("msvc", seed=1), make_shuffle("js-sort-timsort"), REDUCERS["modulo"])
    assert sorted(deck.tolist()) == list(range(52))
    assert exact_fairness(make_shuffle("js-sort-timsort"), 6).tv_distance > Fraction(1, 5)


@pytest.mark.parametrize("algo,n", [("js-sort-insertion", 11), ("js-sort-timsort", 64)])
def test_decks_beyond_the_modelled_sort_are_refused(algo, n):
    with pytest.raises(ValueError, match="n must be in"):
        make_shuffle(algo).check(n)
