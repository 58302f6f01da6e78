"""Reachable deals and the cycle of deals from one stream."""

import json
import math

import numpy as np
import pytest

from rnglab.cli import main
from rnglab.generators import LCG, as_generator, lcg_spec, make_source
from rnglab.parallel.journal import open_journal
from rnglab.reduction.reducers import REDUCERS, as_reducer
from rnglab.seeds.space import parse_seed_space, seed_range_space
from rnglab.shuffles.algorithms import make_shuffle, shuffle, shuffle_seeds
from rnglab.shuffles.fairness import seed_space_fairness
from rnglab.shuffles.reach import (
    KIND,
    ReachInterrupted,
    bits_for_every_deal,
    distinct_keys,
    game_cycle,
    journaled_keys,
    reach_bound,
    reach_identity,
    reachable_deals,
    recorded_keys,
    smallest_deck_exceeding,
    source_seconds,
    state_count,
)


def test_bounds_for_52_cards():
    assert bits_for_every_deal(52) == 226 and smallest_deck_exceeding(2**32) == 13
    assert smallest_deck_exceeding(math.factorial(12)) == 13


def test_distinct_deals_equal_a_set_of_one_at_a_time_deals():
    generator = make_source("msvc")
    result = reachable_deals(as_generator(generator), seed_range_space([(0, 300)]), 5, make_shuffle("naive"), REDUCERS["modulo"])
    expected = {tuple(shuffle(5, make_source("msvc", seed=s), make_shuffle("naive"), REDUCERS["modulo"]).tolist()) for s in range(300)}
    assert result.distinct == len(expected) and result.bound == 120


def test_zero_means_one_seeding_merges_two_seeds():
    result = reachable_deals(as_generator("glibc_type0"), seed_range_space([(0, 64)]), 52, make_shuffle("fisher-yates"), REDUCERS["modulo"])
    assert result.distinct == 63 and result.n_factorial == math.factorial(52)


def test_game_cycle_of_a_small_lcg():
    generator = LCG(a=25173, c=13849, m=2**16, seed=1)
    cycle = game_cycle(as_generator(generator), 52, make_shuffle("fisher-yates"), REDUCERS["modulo"])
    # 51 draws per game and a full period of 2^16: the start states cycle after 2^16 / gcd(2^16, 51) games
    assert cycle.games_period == 2**16 and cycle.tail == 0 and cycle.draws_per_game == 51


def test_seed_space_law_counts_every_seed():
    decks, _ = shuffle_seeds(make_source("msvc"), np.arange(1000), 4, make_shuffle("fisher-yates"), REDUCERS["modulo"])
    result = seed_space_fairness(decks, "msvc", "fisher-yates")
    assert result.paths == 1000 and result.reachable == 24 and result.tv_distance > 0


def test_seed_ranges_and_policies():
    space = parse_seed_space("3..7")
    assert space.seeds().tolist() == [3, 4, 5, 6, 7] and space.label == "seeds 3..7"
    space = parse_seed_space("time-s", "10s")
    assert space.size == 10 and "time-s" in space.label  # a relative window is whole seconds


def test_bound_of_a_seed_space_too_large_to_enumerate():
    result = reach_bound(as_generator("minstd"), parse_seed_space("1..2^31-2"), 52)
    assert result.bound == 2**31 - 2 and result.distinct is None and not result.exact  # period m - 1 = 2^31 - 2
    with pytest.raises(ValueError, match="at most"):
        reachable_deals(as_generator("msvc"), parse_seed_space("0..2^32-1"), 52)


def test_the_bound_counts_states_not_the_period():
    """x -> 5x mod 2^10 has period 256 at most, but its 1,023 nonzero states lie on many cycles: 719 deals."""
    result = reachable_deals(as_generator("lcg:a=5,m=1024"), parse_seed_space("1..1023"), 7, make_shuffle("fisher-yates"), REDUCERS["modulo"])
    assert (result.period, result.states, result.distinct) == (256, 1024, 719)
    assert result.distinct <= result.bound == 1023  # the old min(seeds, period, n!) said 256
    assert reach_bound(as_generator("mrg32k3a"), parse_seed_space("1..2^30"), 52).states == (2**32 - 209)**3 * (2**32 - 22853)**3


def test_seed_spaces_beyond_the_seeding_convention_are_refused():
    # Issue 21: reach msvc --seeds 0..2^64 --bound-only accepted 2^64 + 1 seeds for a 32-bit seed.
    with pytest.raises(ValueError, match=r"must be in \[0, 4294967295\]"):
        reach_bound(as_generator("msvc"), parse_seed_space("0..2^64"), 52)
    assert reach_bound(as_generator("java"), parse_seed_space("-3..3"), 52).seeds == 7  # Java seeds are signed longs


def test_numpy_and_python_sources_are_resolved_once():
    # Issue 11: reachable_deals(NumpySource(np.random.SFC64(1)), ...) failed with "unknown generator".
    from rnglab.generators import NumpySource
    space = seed_range_space([(0, 50)])
    result = reachable_deals(as_generator(NumpySource(np.random.SFC64(1))), space, 4)
    expected = {tuple(shuffle(4, NumpySource(np.random.SFC64(s)), make_shuffle("fisher-yates")).tolist()) for s in range(50)}
    assert result.distinct == len(expected)


@pytest.mark.parametrize("a, m, seed", [(18, 64, 24), (2, 8, 3)])
def test_game_cycle_through_state_zero(a, m, seed):
    # Issue 21.4: state 0 (c = 0) became index -1 and wrapped round the array: "period 2, 2 distinct deals".
    cycle = game_cycle(lcg_spec(a, m, seed=seed), 4, make_shuffle("fisher-yates"), REDUCERS["multiply-shift"])
    assert cycle.games_period == 1 and cycle.distinct_deals == 1


def test_game_cycle_memory_is_refused_up_front():
    with pytest.raises(ValueError, match="GiB"):
        game_cycle(lcg_spec(5, 2**22, 1), 1000)


def test_generators_that_are_not_lcgs_count_the_states_and_periods_their_sources_publish():
    # Matsumoto and Nishimura 1998: 2^19937 - 1 states on one cycle; O'Neill 2014: PCG64's 2^128;
    # glibc random(3): "period approximately 16 * ((2^31) - 1)" on 31 words of state.
    from rnglab.shuffles.reach import largest_period

    for name in ("mt19937", "python", "python_random53"):
        assert state_count(as_generator(name)) == largest_period(as_generator(name)) == 2**19937 - 1
    assert state_count(as_generator("pcg64")) == largest_period(as_generator("pcg64_uint32")) == 2**128
    assert (state_count(as_generator("glibc")), largest_period(as_generator("glibc"))) == (2**992, 16 * (2**31 - 1))
    assert state_count(as_generator("os")) is None and largest_period(as_generator("os")) is None


class InterruptAfter:
    """A progress callback that presses Ctrl-C once ``chunks`` chunks have finished (each recorded first)."""

    def __init__(self, chunks: int) -> None:
        self.left = chunks

    def __call__(self, seeds: int) -> None:
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt


def test_an_interrupted_count_holds_the_deals_of_the_seeds_dealt_and_resumes_from_its_journal(tmp_path):
    generator, space = as_generator("msvc"), seed_range_space([(0, 1000)])
    chosen, reducer = make_shuffle("naive"), as_reducer("modulo")
    identity = reach_identity(generator, space, 5, chosen, reducer)
    with open_journal(tmp_path / "reach.journal", KIND, identity) as journal, \
            pytest.raises(ReachInterrupted) as interrupted:
        reachable_deals(as_generator(generator), space, 5, chosen, reducer, chunk=300, journal=journal, progress=InterruptAfter(2))
    partial = interrupted.value.partial
    first_600 = {tuple(shuffle(5, make_source("msvc", seed=s), make_shuffle("naive"), REDUCERS["modulo"]).tolist()) for s in range(600)}
    assert (partial.dealt, partial.distinct, partial.exact) == (600, len(first_600), False)
    assert interrupted.value.left == [(600, 1000)]

    dealt = []
    resumed = reachable_deals(as_generator(generator), space, 5, chosen, reducer, chunk=300, progress=dealt.append,
                              journal=open_journal(tmp_path / "reach.journal", KIND, identity))
    whole = reachable_deals(as_generator(generator), space, 5, chosen, reducer)
    assert dealt == [300, 100] and resumed == whole and resumed.exact and resumed.dealt == 1000


def test_the_journal_keeps_long_decks_exactly(tmp_path):
    generator, chosen, reducer = as_generator("msvc"), make_shuffle("fisher-yates"), as_reducer("modulo")
    keys = distinct_keys(generator, 52, chosen, reducer, 10, 60)
    assert keys.dtype.itemsize == 52 and np.array_equal(recorded_keys(journaled_keys(generator, 52, chosen, reducer,
                                                                                     10, 60)), keys)
    assert np.array_equal(recorded_keys(journaled_keys(generator, 8, chosen, reducer, 10, 60)),
                          distinct_keys(generator, 8, chosen, reducer, 10, 60))  # ranks below 21 cards


def test_generators_seeded_one_by_one_deal_at_most_2_to_the_20_seeds_in_one_run():
    with pytest.raises(ValueError, match=r"python is dealt one generator per seed \(up to 0.6 ms each\): at most "
                                         r"1,048,576 seeds in one run; seeds 0..16777215 holds 16,777,216, up to "
                                         r"2.8 h"):
        reachable_deals(as_generator("python"), parse_seed_space("0..2^24-1"), 10)
    assert source_seconds(as_generator("python"), 2**20) == pytest.approx(629.1456)
    assert source_seconds(as_generator("msvc"), 2**24) is None


def test_a_seed_space_law_is_tallied_chunk_by_chunk_and_equals_the_law_of_all_decks_at_once(monkeypatch):
    # fairness over seeds held every seed's generator and deck at once: 4.65 GB for 2^20 python seeds at n = 5
    from rnglab.shuffles import reach as reach_module
    from rnglab.shuffles.fairness import seed_space_law

    generator, chosen, reducer = as_generator("python"), make_shuffle("fisher-yates"), as_reducer("python-randbelow")
    seeds = np.arange(3000, dtype=np.uint64)
    whole = seed_space_fairness(reach_module.seed_decks(generator, seeds, 5, chosen, reducer), "s", "fisher-yates")
    dealt = []
    original = reach_module.seed_decks
    monkeypatch.setattr(reach_module, "default_chunk", lambda generator: 1024)
    monkeypatch.setattr(reach_module, "seed_decks", lambda g, s, *rest: dealt.append(len(s)) or original(g, s, *rest))
    tally = reach_module.seed_space_tally(generator, seeds, 5, chosen, reducer)
    assert dealt == [1024, 1024, 952] and int(tally.counts.sum()) == 3000
    assert seed_space_law(tally, "s", "fisher-yates") == whole


def test_bound_only_says_the_deals_were_not_counted_and_gives_the_bound(capsys):
    # Issue 27: reach --bound-only printed an empty "distinct deals" cell.
    assert main(["reach", "--bound-only", "python", "--seeds", "time-s"]) == 0
    header, _, *lines = capsys.readouterr().out.splitlines()
    column = header.index("value")
    rows = {line[:column].strip(): line[column:] for line in lines}
    assert rows["distinct deals"] == "not counted (--bound-only); at most the bound, 86400"
    assert rows["fraction reached"] == f"at most {86400 / math.factorial(52):.4e} (the bound / 52!)"
    assert main(["reach", "--bound-only", "msvc", "--seeds", "0..999", "--n", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["distinct"] is None and data["dealt"] is None and not data["exact"] and data["bound"] == 120
