"""Tests for rnglab.seeds.policies: windows, seed spaces, exact seed laws, collisions, simultaneous tables."""

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.generators import as_generator
from rnglab.seeds.policies import (
    DAY,
    POLICIES,
    SeedDistribution,
    Window,
    collision_probability,
    parse_window,
    policy,
    policy_summary,
    shared_seed_pair,
    simultaneous_tables,
)

NOW = 1_795_341_600  # 2026-11-22T10:00:00Z, in seconds


def window(start_ms, stop_ms):
    return Window("test", start_ms, stop_ms, anchored=True)


@pytest.mark.parametrize("text, length", [("1d", DAY), ("90m", 5_400_000), ("3600s", 3_600_000), ("250ms", 250)])
def test_durations_end_now(text, length):
    parsed = parse_window(text, now=NOW)
    assert (parsed.stop_ms, parsed.duration_ms, parsed.anchored) == (NOW * 1000, length, False)


@pytest.mark.parametrize("text", ["2026-11-22T10:00:00±60s", "2026-11-22T10:00:00+-60s", "2026-11-22T10:00:00Z+-1m"])
def test_anchored_windows(text):
    parsed = parse_window(text)
    assert (parsed.start_ms, parsed.stop_ms) == ((NOW - 60) * 1000, (NOW + 60) * 1000)


def test_anchored_window_keeps_its_zone_for_times_of_day():
    parsed = parse_window("2026-11-22T10:00:00+01:00±1s")
    assert parsed.start_ms == (NOW - 3600 - 1) * 1000
    assert policy("ms-midnight").seeds(parsed)[0] == 10 * 3_600_000 - 1000


@pytest.mark.parametrize("text, message", [("", "got nothing"), ("-5m", "positive"), ("0s", "positive"),
                                           ("300y", "200 years"), ("5 parsecs", "a duration"),
                                           ("2026-22-11T10:00±1s", "cannot read the time")])
def test_bad_windows(text, message):
    with pytest.raises(ValueError, match=message):
        parse_window(text)


def test_windows_too_long_for_the_policy():
    with pytest.raises(ValueError, match="longer than 1d"):
        policy("ms-midnight").seeds(parse_window("2d", now=NOW))
    with pytest.raises(ValueError, match="49.7 days"):
        policy("ms-boot").count(parse_window("50d", now=NOW))
    with pytest.raises(ValueError, match="uptime"):
        policy("ms-boot").count(parse_window("2026-11-22T10:00:00±1s"))
    with pytest.raises(ValueError, match="1970 and 2106"):
        policy("time-s").count(window(-5000, 1000))
    with pytest.raises(ValueError, match="not enumerable"):
        policy("os").seeds(parse_window("1d", now=NOW))


def test_unknown_policy_lists_the_names():
    with pytest.raises(ValueError, match="choose from fixed, time-s"):
        policy("clock")
    assert policy("fixed:42").seeds(parse_window("1d", now=NOW)).tolist() == [42]


def test_seed_space_sizes():
    # a day: 86,400 seconds; 86,400,000 ms since midnight (Arkin et al. 1999); a year of seconds
    sizes = {name: [p.space_size(length) for length in (60_000, DAY, 365 * DAY)] for name, p in POLICIES.items()}
    assert sizes["time-s"] == [60, 86_400, 31_536_000]
    assert sizes["ms-midnight"] == [60_000, DAY, DAY]
    assert sizes["ms-boot"] == [60_000, DAY, 2**32]
    assert sizes["fixed"] == [1, 1, 1] and sizes["os"] == [2**64] * 3


def brute_force_seed_law(chosen, win):
    """Every (millisecond, pid) outcome of the window, counted per seed."""
    times = np.arange(win.start_ms, win.stop_ms, dtype=np.int64)
    if chosen.name != "pid-time":
        return Counter(chosen.seeds_at(times, win, None).tolist())
    seconds, milliseconds = np.unique(times // 1000, return_counts=True)
    seeds = (seconds[:, None] ^ np.arange(1, 2**15)[None, :]).ravel()
    weights = np.repeat(milliseconds, 2**15 - 1)
    values, inverse = np.unique(seeds, return_inverse=True)
    return Counter(dict(zip(values.tolist(), np.bincount(inverse, weights=weights).astype(int).tolist())))


@pytest.mark.parametrize("name", ["time-s", "ms-midnight", "pid-time"])
@pytest.mark.parametrize("start, stop", [(32767 * 1000 + 400, 32768 * 1000 + 300), (5_000_250, 5_003_000),
                                         (DAY - 700, DAY + 900)])
def test_seeds_and_distribution_match_brute_force(name, start, stop):
    chosen, win = policy(name), window(start, stop)
    law = brute_force_seed_law(chosen, win)
    assert sorted(chosen.seeds(win).tolist()) == sorted(law)
    assert chosen.count(win) == len(law)
    expected = Counter(law.values())
    assert dict(chosen.distribution(win).classes) == dict(expected)
    assert chosen.distribution(win).total == sum(law.values())


def test_ms_midnight_seeds_wrap_in_time_order():
    seeds = policy("ms-midnight").seeds(window(DAY - 2, DAY + 2)).tolist()
    assert seeds == [DAY - 2, DAY - 1, 0, 1]


def test_collision_exact_for_uniform_seeds():
    # birthday problem, 23 people, 365 days: 1 - 365!/(342! 365^23) = 0.507297... (Feller, vol. 1, II.3)
    result = collision_probability(SeedDistribution(((1, 365),), 365), 23)
    assert result.exact and abs(float(result.probability) - 0.5072972343) < 1e-9


def test_collision_exact_for_unequal_weights_by_enumeration():
    law = SeedDistribution(((1, 2), (3, 1)), 5)  # seeds with probabilities 1/5, 1/5, 3/5
    probabilities = [Fraction(1, 5), Fraction(1, 5), Fraction(3, 5)]
    for k in (2, 3):
        distinct = sum(np.prod([probabilities[i] for i in combo]) for combo in product(range(3), repeat=k)
                       if len(set(combo)) == k)
        assert collision_probability(law, k).probability == 1 - distinct
    assert collision_probability(law, 4).probability == 1


def test_collision_approximation_for_many_tables():
    result = collision_probability(policy("os").distribution(None), 10**6)
    assert not result.exact and abs(result.probability - 2.7105e-8) < 1e-11


def test_draw_is_seeded_and_inside_the_window():
    win = parse_window("2026-11-22T10:00:00±60s")
    for name in ("time-s", "ms-midnight", "pid-time"):
        chosen = policy(name)
        first = chosen.draw(np.random.default_rng(5), win, size=1000)
        assert np.array_equal(first, chosen.draw(np.random.default_rng(5), win, size=1000))
        assert set(first.tolist()) <= set(chosen.seeds(win).tolist())
    assert isinstance(policy("os").draw(np.random.default_rng(1), win), int)


def test_simultaneous_tables_share_seed_and_deal():
    demo = simultaneous_tables(policy("time-s"), parse_window("2026-11-22T10:00:00±60s"), 10, as_generator("msvc"),
                               seed=3)
    i, j = demo.pair
    assert demo.table_seeds[i] == demo.table_seeds[j]
    assert np.array_equal(*demo.first_outputs) and len(demo.first_outputs[0]) == 5
    assert abs(float(demo.collision.probability) - 0.31976) < 1e-5


def test_simultaneous_tables_with_os_seeds_do_not_collide():
    demo = simultaneous_tables(policy("os"), parse_window("1d", now=NOW), 10, as_generator("msvc"), seed=1,
                               max_trials=20)
    assert demo.pair is None and demo.first_outputs == []


def test_shared_seed_pair():
    assert shared_seed_pair(np.array([5, 3, 9, 3])) == (1, 3)
    assert shared_seed_pair(np.array([1, 2, 3])) is None


def test_seed_space_summary():
    space = policy_summary(policy("ms-midnight"), parse_window("2026-11-22T10:00:00±30m"), tables=2, seed=0)
    assert space.seeds == 3_600_000 and space.collision.probability == Fraction(1, 3_600_000)
    assert space.sizes["day"] == DAY


def vb_timer_hash(ms: int) -> int:
    # One millisecond at a time, from the rule itself: Timer = (float)(seconds + 0.001 * ms), the Single's
    # bits w, h = (w ^ w >> 16) & 0xFFFF (MSVBVM60 rtcGetTimer / rtcRandomize)
    import struct

    word = struct.unpack("<I", struct.pack("<f", (ms // 1000) - (ms % 1000) * -0.001))[0]
    return (word ^ (word >> 16)) & 0xFFFF


def test_vb_timer_hand_computed():
    # 00:00:01.000 is 1.0f = 0x3F800000, h = 0x3F80; 12:00:00.500 is 43200.5f = 0x4728C080, h = 0x4728 ^ 0xC080
    chosen = policy("vb-timer")
    times = np.array([1000, 43_200_500])
    assert chosen.seeds_at(times, window(0, DAY), None).tolist() == [0x3F80, 0x4728 ^ 0xC080]


@pytest.mark.parametrize("start, stop", [(5_000_250, 5_003_000), (DAY - 700, DAY + 900), (0, 2000)])
def test_vb_timer_matches_brute_force(start, stop):
    chosen, win = policy("vb-timer"), window(start, stop)
    law = Counter(vb_timer_hash(t % DAY) for t in range(start, stop))
    assert chosen.seeds(win).tolist() == sorted(law)
    assert dict(chosen.distribution(win).classes) == dict(Counter(law.values()))


def test_vb_timer_has_at_most_sixteen_bits():
    assert policy("vb-timer").space_size(DAY) <= 2**16


@pytest.mark.parametrize("name", ["guid-hash", "random-device"])
def test_thirty_two_bit_os_seeds_whatever_the_window(name):
    chosen = policy(name)
    assert chosen.space_size(60_000) == chosen.space_size(DAY) == 2**32
    assert chosen.distribution(window(0, 1000)).classes == ((1, 2**32),)
    assert chosen.draw(np.random.default_rng(0), window(0, 1000), 1000).max() < 2**32
    assert chosen.seed_ranges(window(0, 1000)) == [(0, 2**32)] and chosen.enumerable


@pytest.mark.parametrize(("first", "stop"), [(0, 50), (16_380, 16_390), (86_000, 86_400)])
def test_whole_seconds_hash_as_timer_words_do(first, stop):
    # The fast path (s + k * 0.001, hashed in 32 bits) against the definition, millisecond by millisecond.
    from rnglab.generators.vb import randomize_hash, second_hash_counts, timer_words

    ms = np.arange(first * 1000, stop * 1000, dtype=np.int64)
    expected = np.bincount(randomize_hash(timer_words(ms)).astype(np.int64), minlength=2**16)
    assert np.array_equal(second_hash_counts(first, stop), expected)


def test_a_tiny_collision_chance_keeps_its_digits():
    # 1,000 tables over 2^128 equally likely seeds: 1 - exp(-C(1000, 2) / 2^128) = 1.468e-33, not 1 - 1 = 0.
    chance = collision_probability(SeedDistribution(((1, 2**128),), 2**128), 1000).probability
    assert chance == pytest.approx(math.comb(1000, 2) / 2**128, rel=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-50, 50), st.integers(0, 12)), max_size=6))
def test_seed_ranges_merge_where_they_touch_and_refuse_overlaps(pieces):
    # brute force: the seeds as a set; ranges overlap exactly when the set is smaller than the sum of their lengths
    from rnglab.seeds.space import seed_range_space

    ranges = [(first, first + length) for first, length in pieces]
    seeds = set().union(*(range(a, b) for a, b in ranges))
    if len(seeds) < sum(b - a for a, b in ranges):
        with pytest.raises(ValueError, match="seed ranges overlap at"):
            seed_range_space(ranges)
        return
    space = seed_range_space(ranges)
    assert set().union(*(range(a, b) for a, b in space.ranges)) == seeds and space.size == len(seeds)
    assert all(b < c for (_, b), (c, _) in zip(space.ranges, space.ranges[1:]))  # disjoint, in order, not touching


def test_a_fixed_seed_takes_no_window():
    from rnglab.seeds.space import parse_seed_space

    with pytest.raises(ValueError, match="a fixed seed has no window: fixed:5 gives the same seed"):
        parse_seed_space("fixed:5", "1d")
    assert parse_seed_space("fixed:5").ranges == ((5, 6),)
