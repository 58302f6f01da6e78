"""Reachable deals and the cycle of deals from one stream."""

import math

import numpy as np
import pytest

from rnglab.generators import LCG
from rnglab.presets import make_source
from rnglab.reach import (bits_for_every_deal, game_cycle, reach_bound, reachable_deals, seed_space, seed_space_size,
                          smallest_deck_exceeding)
from rnglab.fairness import seed_space_fairness
from rnglab.shuffle import shuffle, shuffle_seeds


def test_bounds_for_52_cards():
    assert bits_for_every_deal(52) == 226 and smallest_deck_exceeding(2**32) == 13
    assert smallest_deck_exceeding(math.factorial(12)) == 13


def test_distinct_deals_equal_a_set_of_one_at_a_time_deals():
    generator = make_source("msvc")
    result = reachable_deals(generator, np.arange(300), 5, "naive", "modulo")
    expected = {tuple(shuffle(5, make_source("msvc", seed=s), "naive", "modulo").tolist()) for s in range(300)}
    assert result.distinct == len(expected) and result.bound == 120


def test_zero_means_one_seeding_merges_two_seeds():
    result = reachable_deals(make_source("glibc_type0"), np.arange(64), 52, "fisher-yates", "modulo")
    assert result.distinct == 63 and result.n_factorial == math.factorial(52)


def test_game_cycle_of_a_small_lcg():
    generator = LCG(a=25173, c=13849, m=2**16, seed=1)
    cycle = game_cycle(generator, 52, "fisher-yates", "modulo")
    # 51 draws per game and a full period of 2^16: the start states cycle after 2^16 / gcd(2^16, 51) games
    assert cycle.games_period == 2**16 and cycle.tail == 0 and cycle.draws_per_game == 51


def test_seed_space_law_counts_every_seed():
    decks, _ = shuffle_seeds(make_source("msvc"), np.arange(1000), 4, "fisher-yates", "modulo")
    result = seed_space_fairness(decks, "msvc", "fisher-yates")
    assert result.paths == 1000 and result.reachable == 24 and result.tv_distance > 0


def test_seed_ranges_and_policies():
    seeds, label = seed_space("3..7")
    assert seeds.tolist() == [3, 4, 5, 6, 7]
    seeds, label = seed_space("time-s", "10s")
    assert 10 <= len(seeds) <= 11 and "time-s" in label


def test_bound_of_a_seed_space_too_large_to_enumerate():
    assert seed_space_size("0..2^32-1") == (2**32, "seeds 0..4294967295")
    result = reach_bound(make_source("minstd"), 2**32, 52, label="all")
    assert result.bound == 2**31 - 2 and result.distinct is None and not result.exact  # period m - 1 = 2^31 - 2
    with pytest.raises(ValueError, match="at most"):
        seed_space("0..2^32-1")
