"""Shuffle algorithms: permutations, bit-exact batches, enumeration of every path."""

import itertools
import math
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from rnglab.generators import LCG
from rnglab.presets import make_source
from rnglab.shuffle import (SHUFFLES, ScriptedDraws, SourceDraws, inside_out_stream, shuffle, shuffle_decks,
                            shuffle_seeds, swap_count)


def every_path(algo, n, bounds):
    """Run ``algo`` on every sequence of choices (an ideal source), one lane per path."""
    choices = list(itertools.product(*[range(b) for b in bounds]))
    return Counter(map(tuple, shuffle_decks(n, ScriptedDraws(choices), algo).tolist()))


@settings(max_examples=30, deadline=None)
@given(algo=st.sampled_from(list(SHUFFLES)), n=st.integers(1, 12), seed=st.integers(1, 2**31 - 2),
       reduce=st.sampled_from(["modulo", "lemire", "float-multiply", "bitmask"]))
def test_every_shuffle_returns_a_permutation(algo, n, seed, reduce):
    deck = shuffle(n, make_source("minstd", seed=seed), algo, reduce, key_bits=8)
    assert sorted(deck.tolist()) == list(range(n))


@settings(max_examples=25, deadline=None)
@given(algo=st.sampled_from(list(SHUFFLES)), n=st.integers(2, 10),
       seeds=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=5),
       reduce=st.sampled_from(["modulo", "lemire", "threshold", "bitmask"]))
def test_batched_lanes_equal_one_at_a_time(algo, n, seeds, reduce):
    decks, draws = shuffle_seeds(make_source("msvc"), seeds, n, algo, reduce, key_bits=5)
    for seed, deck, used in zip(seeds, decks, draws):
        source = make_source("msvc", seed=seed)
        single = SourceDraws(source, reduce)
        assert shuffle_decks(n, single, algo, key_bits=5)[0].tolist() == deck.tolist()
        assert single.draws == used


def test_naive_three_cards_has_27_paths_with_weights_4_and_5():
    # Atwood 2007 / Robbins and Bolker 1981: 27 paths onto 6 deals, three deals get 5 paths, three get 4
    counts = every_path("naive", 3, [3, 3, 3])
    assert sum(counts.values()) == 27 and sorted(counts.values()) == [4, 4, 4, 5, 5, 5]


@pytest.mark.parametrize("algo", ["fisher-yates", "forward", "draw-remove"])
def test_uniform_algorithms_reach_every_deal_once(algo):
    bounds = [5, 4, 3, 2] if algo == "fisher-yates" else [5, 4, 3, 2, 1]
    counts = every_path(algo, 5, bounds)
    assert len(counts) == math.factorial(5) and set(counts.values()) == {1}


def test_sattolo_reaches_exactly_the_n_cycles():
    # Sattolo 1986: the (n-1)! cyclic permutations, each once
    counts = every_path("sattolo", 5, [4, 3, 2, 1])
    assert len(counts) == math.factorial(4)
    for deal in counts:
        position, length = deal[0], 1
        while position != 0:
            position, length = deal[position], length + 1
        assert length == 5


def test_poker1999_never_leaves_the_last_card_last():
    # Arkin et al. 1999: card 52 cannot stay in position 52 (checked on every path for n = 6)
    counts = every_path("poker1999", 6, [5] * 6)
    assert sum(counts.values()) == 5**6 and all(deal[-1] != 5 for deal in counts)


def test_unrank_turns_every_rank_into_a_different_deal():
    deals = shuffle_decks(4, ScriptedDraws([[r] for r in range(24)]), "unrank")
    assert len({tuple(d) for d in deals.tolist()}) == 24 and deals[0].tolist() == [0, 1, 2, 3]


def test_inside_out_stream_takes_items_of_unknown_number():
    items = inside_out_stream(iter("abcdef"), SourceDraws(make_source("pcg64", seed=3)))
    assert sorted(items) == list("abcdef")


def test_transposition_counts():
    assert swap_count(52, "touch") == 178 and swap_count(52) == 52 and swap_count(52, "half-nlogn") == 103


def test_zero_state_of_a_multiplicative_lcg_is_refused():
    with pytest.raises(ValueError, match="fixed point"):
        shuffle_seeds(LCG(a=16807, m=2**31 - 1), [0, 1], 5)
