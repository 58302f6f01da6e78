"""Seed recovery: the compiled search agrees with the library's shuffles, finds the true seed, and no other."""

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.core import compiled
from rnglab.generators import as_generator, make_source
from rnglab.recovery.crack import (
    MAX_LISTED,
    cards_for_unique,
    compiled_kernel,
    crack,
    equivalent_seed_period,
    expand_residues,
    expected_false_matches,
    make_plan,
    matching_seeds,
    observe,
    residue_ranges,
    step_table,
    tracked_cards,
    usable_seeds,
)
from rnglab.recovery.seen_outputs import parse_outputs, recover_state
from rnglab.reduction.reducers import REDUCERS, as_reducer
from rnglab.seeds.policies import DAY
from rnglab.seeds.space import parse_seed_space, seed_range_space
from rnglab.shuffles import kernels as swap_kernels
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.cards import deck_for, standard_deck

DECK = standard_deck()
RNG = np.random.default_rng(20261122)


def reference_deal(generator, seed, algo, method, n=52):
    """The library's one-at-a-time shuffle: the reference every search must agree with."""
    reducer = as_generator(generator).native_reducer if method == "native" else REDUCERS[method]
    return shuffle(n, make_source(generator, seed), make_shuffle(algo), reducer)


def seen_cards(deck, k, positions=None):
    places = list(range(k)) if positions is None else positions
    return " ".join(DECK.names(deck[places]))


def search_around(generator, seed, algo, method, k, width=3000, positions=None):
    deck = reference_deal(generator, seed, algo, method)
    observation = observe(seen_cards(deck, k, positions), None if positions is None else
                          ",".join(map(str, positions)))
    space = parse_seed_space(f"{max(0, seed - width)}..{seed + width}")
    return crack(as_generator(generator), space, observation, algo=make_shuffle(algo),
                 reducer=None if method == "native" else REDUCERS[method]), observation


def assert_all_reproduce(result, observation, generator, algo, method):
    for candidate in result.candidates:
        deck = reference_deal(generator, candidate.seed, algo, method)
        assert list(deck[list(observation.positions)]) == list(observation.cards)
        assert DECK.names(deck) == candidate.deck


@pytest.mark.parametrize("generator, algo, method", [("msvc", "fisher-yates", "native"),
                                                     ("delphi", "poker1999", "native"), ("minstd", "naive", "lemire")])
def test_a_small_search_in_a_process_without_kernels_deals_by_numpy_the_same_seeds(generator, algo, method,
                                                                                   monkeypatch):
    # issue 31: a day of seeds searched in a new process loaded numba (0.5-0.9 CPU s) for a few ms of work; numpy
    # deals every deck instead (the batch path, so labelled) while that work is under NUMPY_WORK_LIMIT
    compiled_result, observation = search_around(generator, 777_777, algo, method, k=3)
    monkeypatch.setattr(compiled, "_started", False)
    monkeypatch.setattr(compiled, "_numpy_work", 0)
    numpy_result, _ = search_around(generator, 777_777, algo, method, k=3)
    assert (compiled_result.method, numpy_result.method) == ("compiled", "batch")
    assert numpy_result.candidates == compiled_result.candidates and 777_777 in [c.seed for c in numpy_result.candidates]
    assert numpy_result.shuffled == compiled_result.shuffled == 6001
    assert_all_reproduce(numpy_result, observation, generator, algo, method)


# -- the compiled kernel against the library's shuffles --------------------------------------------------

# Every reducer, every swap-program shuffle, and both kinds of modulus (2^e and m <= 2^32) appear.
COMBINATIONS = [
    ("delphi", "poker1999", "multiply-shift"),
    ("msvc", "fisher-yates", "modulo"),
    ("java", "fisher-yates", "java-nextint"),
    ("minstd", "forward", "float-multiply"),
    ("ansic", "inside-out", "threshold"),
    ("borland", "sattolo", "bitmask"),
    ("ranqd1", "naive", "lemire"),
    ("lrand48", "fisher-yates", "threshold-openbsd"),
    ("minstd_rand", "poker1999", "lemire"),
    ("glibc_type0", "forward", "bitmask"),
    ("mmix", "fisher-yates", "lemire"),  # 64-bit words: Lemire's method on a 128-bit product
]


#: The whole matrix compiles a kernel per reducer (about 10 s each on a cold cache): the default suite
#: runs two combinations (both filters, both moduli kinds), ``-m slow`` all of them.
MATRIX = [combination if combination[0] in ("msvc", "delphi") else pytest.param(*combination, marks=pytest.mark.slow)
          for combination in COMBINATIONS]


@pytest.mark.parametrize("generator, algo, method", MATRIX)
def test_kernel_deals_the_library_deck(generator, algo, method):
    source = make_source(generator)
    observation = observe("Ac")
    kernel = compiled_kernel(source, as_reducer(method), make_shuffle(algo), observation)
    for seed in RNG.integers(1, 2**31 - 1, size=5):
        state = np.uint64(source.seeding.to_state(int(seed)))
        ours = np.arange(52)[None, :]
        assert swap_kernels.deal_kernel(kernel["scalar"].reduce)(ours, np.array([state]), np.zeros(1, dtype=np.int64),
                                                       kernel["generator"], kernel["draws"], kernel["steps"])
        assert list(ours[0]) == list(reference_deal(generator, int(seed), algo, method))


@pytest.mark.parametrize("generator, algo, method", MATRIX)
def test_true_seed_is_found_and_every_candidate_reproduces(generator, algo, method):
    seed = int(RNG.integers(5000, 2**31 - 5000))
    result, observation = search_around(generator, seed, algo, method, k=4)
    assert result.method == "compiled" and result.complete
    assert seed in [c.seed for c in result.candidates]
    assert_all_reproduce(result, observation, generator, algo, method)


@pytest.mark.parametrize("combinations", [[c for c in COMBINATIONS if c[0] in ("msvc", "delphi")],
                                          pytest.param(COMBINATIONS, marks=pytest.mark.slow)])
@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.sampled_from([5, 9, 52]), first=st.integers(1, 2**31 - 100), size=st.integers(1, 13),
       seen=st.integers(1, 3))
def test_compiled_search_flags_exactly_the_seeds_whose_deal_shows_the_cards(combinations, data, n, first, size, seen):
    # Small decks and few cards: hits and misses both occur. Sizes that are not a multiple of the
    # one-card filter's four lanes, and slices smaller than a lane group, are covered.
    generator, algo, method = data.draw(st.sampled_from(combinations))
    deal = reference_deal(generator, first, algo, method, n)
    observation = observe(" ".join(map(str, deal[:seen])), deck=deck_for(str(n)))
    plan = make_plan(as_generator(generator), parse_seed_space(f"{first}..{first + size - 1}"), observation, make_shuffle(algo), REDUCERS[method])
    expected = [s for s in range(first, first + size)
                if list(reference_deal(generator, s, algo, method, n)[:seen]) == list(deal[:seen])]
    assert plan.method == "compiled" and matching_seeds(plan, first, first + size).tolist() == expected


def test_cards_at_chosen_positions():
    seed = int(RNG.integers(0, DAY))
    result, observation = search_around("delphi", seed, "poker1999", "multiply-shift", k=5,
                                        positions=[3, 17, 51, 0, 40])
    assert seed in [c.seed for c in result.candidates]
    assert_all_reproduce(result, observation, "delphi", "poker1999", "multiply-shift")


def test_step_table_marks_final_positions():
    fisher_yates = step_table(make_shuffle("fisher-yates").swap_program(4), 4)
    assert fisher_yates.tolist() == [[3, 0, 3], [2, 0, 2], [1, 0, 1]]
    poker = step_table(make_shuffle("poker1999").swap_program(4), 4)
    assert poker[:, 2].tolist() == [-1, -1, -1, 3]  # position 3 is only ever swapped at its own step


def test_filter_follows_every_card_only_where_positions_become_final_early():
    five = observe("Ac 2c 3c 4c 5c")
    assert tracked_cards(step_table(make_shuffle("fisher-yates").swap_program(52), 52), five) == 5
    assert tracked_cards(step_table(make_shuffle("poker1999").swap_program(52), 52), five) == 1


def test_shuffles_without_swap_program_use_the_batch_path():
    result, observation = search_around("msvc", 123456, "draw-remove", "modulo", k=4, width=500)
    assert result.method == "batch" and 123456 in [c.seed for c in result.candidates]
    assert_all_reproduce(result, observation, "msvc", "draw-remove", "modulo")


@pytest.mark.parametrize("generator, seed, first, found", [
    ("mt19937", 40, 0, [40]),
    ("python", -5, -25, [-5, 5]),  # random.seed(a) takes abs(a) (CPython's random_seed)
    ("python", 2**70, 2**70 - 20, [2**70]),
])
def test_other_sources_use_the_sources_path(generator, seed, first, found):
    seen = standard_deck().names(shuffle(52, make_source(generator, seed=seed), make_shuffle("fisher-yates"),
                                         as_generator(generator).native_reducer)[:3])
    result = crack(as_generator(generator), parse_seed_space(f"{first}..{first + 40}"), observe(" ".join(seen)))
    assert result.method == "sources" and [c.seed for c in result.candidates] == found


# -- the scenarios ---------------------------------------------------------------------------------------

def test_scenario_1999_poker_five_cards_then_six():
    # Arkin et al. 1999: Delphi Random, Randomize = ms since midnight, the off-by-one exchange shuffle
    seed = int(RNG.integers(0, DAY))
    deck = reference_deal("delphi", seed, "poker1999", "native")
    window = f"2026-11-22T{seed // 3_600_000:02d}:{seed // 60_000 % 60:02d}:{seed // 1000 % 60:02d}±5m"
    space = parse_seed_space("ms-midnight", window)
    five = crack(as_generator("delphi"), space, observe(seen_cards(deck, 5)), algo=make_shuffle("poker1999"))
    six = crack(as_generator("delphi"), space, observe(seen_cards(deck, 6)), algo=make_shuffle("poker1999"))
    assert space.size == 600_000 and five.reducer == "multiply-shift"
    assert seed in [c.seed for c in five.candidates]
    assert [c.seed for c in six.candidates] == [seed] and six.candidates[0].deck == DECK.names(deck)


def test_scenario_msvc_time_seconds_over_a_day():
    seed = int(RNG.integers(1_789_948_800, 1_790_035_200))  # 2026-09-21T00:00:00Z to T24:00:00Z
    deck = reference_deal("msvc", seed, "fisher-yates", "native")
    space = parse_seed_space("time-s", "2026-09-21T12:00:00±12h")
    result = crack(as_generator("msvc"), space, observe(seen_cards(deck, 5)), algo=make_shuffle("fisher-yates"))
    assert space.size == 86_400 and result.reducer == "modulo" and result.equivalence is None
    assert [c.seed for c in result.candidates] == [seed]


def test_msvc_seed_and_seed_plus_2_31_deal_the_same_deck():
    # rand() returns bits 16..30 of the state; bit 31 never reaches an output
    assert equivalent_seed_period(as_generator(make_source("msvc"))) == 2**31
    for seed in RNG.integers(0, 2**31, size=3):
        assert list(reference_deal("msvc", int(seed), "fisher-yates", "modulo")) == \
            list(reference_deal("msvc", int(seed) + 2**31, "fisher-yates", "modulo"))
    assert equivalent_seed_period(as_generator(make_source("delphi"))) is None  # Delphi reads the whole state


def test_equivalent_seeds_are_searched_once_and_all_reported():
    # an LCG whose outputs read bits 4..15 only: seeds s and s + 2^16 are the same generator
    generator = "lcg:a=214013,c=2531011,m=2^32,output=bits(4,12)"
    seed = 3 * 2**16 + int(RNG.integers(0, 2**16))
    deck = reference_deal(generator, seed, "fisher-yates", "modulo")
    result = crack(as_generator(generator), parse_seed_space(f"0..{2**18 - 1}"), observe(seen_cards(deck, 6)), reducer=REDUCERS["modulo"])
    assert result.shuffled == 2**16 and result.searched == 2**18
    assert result.equivalence == "seeds s and s + 65536 deal identical decks"
    assert [c.seed for c in result.candidates] == [seed % 2**16 + k * 2**16 for k in range(4)]


def test_residues_and_their_expansion():
    assert residue_ranges(seed_range_space([(10, 100)]), 16).ranges == ((0, 16),)
    assert residue_ranges(seed_range_space([(10, 20)]), 16).ranges == ((0, 4), (10, 16))
    assert residue_ranges(seed_range_space([(3, 5), (18, 21)]), 16).ranges == ((2, 5),)
    assert expand_residues([(12, 13)], seed_range_space([(10, 100)]), 16) == \
        [(12, 13), (28, 29), (44, 45), (60, 61), (76, 77), (92, 93)]
    assert expand_residues([(12, 13)], seed_range_space([(10, 100)]), None) == [(12, 13)]


def test_interrupted_folded_search_loses_no_seed():
    # Issue 21.5: Ctrl-C during a folded MSVC search (seeds s and s + 2^31 deal alike) told the user to resume
    # with the folded residues only, so a seed above 2^31 was never found again.
    residue = 2**22 + 40000
    hidden = 2**31 + residue
    deck = reference_deal("msvc", hidden, "fisher-yates", "modulo")
    calls = []

    def stop(done):
        calls.append(done)
        raise KeyboardInterrupt

    space = parse_seed_space(f"0..{2**32 - 1}")
    first = crack(as_generator("msvc"), space, observe(seen_cards(deck, 5)), on_progress=stop)
    assert not first.complete and first.shuffled == 2**22
    assert first.remaining == [[2**22, 2**31], [2**31 + 2**22, 2**32]]
    assert first.resume_option() == f"{2**22}..{2**31 - 1},{2**31 + 2**22}..{2**32 - 1}"
    resumed = parse_seed_space(first.resume_option())
    assert resumed.size + first.searched == 2**32
    plan = make_plan(as_generator("msvc"), resumed, observe(seen_cards(deck, 5)))
    assert plan.shuffle_count == 2**31 - 2**22  # each residue class is still shuffled once
    assert hidden in range(*resumed.ranges[1]) and hidden not in [c.seed for c in first.candidates]
    assert list(matching_seeds(plan, residue, residue + 1)) == [residue]
    assert expand_residues([(residue, residue + 1)], resumed, plan.period) == [(residue, residue + 1),
                                                                                (hidden, hidden + 1)]


def test_scenario_java_state_from_two_outputs():
    seed = int(RNG.integers(0, 2**48))
    source = make_source("java", seed)
    first, second, *later = (int(v) for v in source.random_raw(12))
    signed = [v - 2**32 if v >= 2**31 else v for v in (first, second)]
    recovery = recover_state(as_generator("java"), parse_outputs(",".join(map(str, signed)), make_source("java")))
    assert recovery.hidden_bits == 16
    index = recovery.seeds.index(seed)
    assert recovery.predicted[index] == later
    assert len(recovery.states) <= 2  # a wrong state survives the second output with probability about 2^-16


def test_java_state_from_reference_outputs():
    # tests/data/reference/java_reference.txt (JavaReference.java, java.util.Random(42).nextInt() x 5):
    # 3124862261 234785527 2934422497 205897768 1325939940 as unsigned words
    recovery = recover_state(as_generator("java"), parse_outputs("-1170105035,234785527", make_source("java")), predict=3)
    assert recovery.seeds == [42] and recovery.predicted == [[2934422497, 205897768, 1325939940]]


def test_state_recovery_needs_a_power_of_two_lcg_with_hidden_bits():
    with pytest.raises(ValueError, match="bits"):
        recover_state(as_generator("delphi"), [1, 2])
    with pytest.raises(ValueError, match="at least two"):
        parse_outputs("5", make_source("java"))


# -- how many cards, how many chance matches -------------------------------------------------------------

def test_expected_false_matches_hand_computed():
    # 86,400,000 / (52 * 51 * 50 * 49 * 48) = 86,400,000 / 311,875,200
    assert expected_false_matches(86_400_000, 52, 5) == pytest.approx(0.27703, rel=1e-4)
    assert cards_for_unique(86_400_000, 52) == 5 and cards_for_unique(2**32, 52) == 6
    assert cards_for_unique(math.factorial(5) * 2, 5) is None


def test_expected_false_matches_agree_with_observed_counts():
    trials, window, k = 12, 2**20, 3
    false_matches = 0
    for seed in RNG.integers(window, 2**31 - window, size=trials):
        deck = reference_deal("msvc", int(seed), "fisher-yates", "modulo")
        result = crack(as_generator("msvc"), seed_range_space([(int(seed) - window // 2, int(seed) + window // 2)]),
                       observe(seen_cards(deck, k)))
        false_matches += result.candidate_count - 1
    expected = trials * expected_false_matches(window, 52, k)
    assert abs(false_matches - expected) < 4 * math.sqrt(expected)


def test_many_candidates_are_counted_but_not_all_listed():
    result = crack(as_generator("msvc"), parse_seed_space("0..199999"), observe("As"))
    assert result.candidate_count > MAX_LISTED == len(result.candidates)


def test_interrupted_search_reports_what_is_left():
    def stop(_):
        raise KeyboardInterrupt

    space = parse_seed_space(f"0..{2**23 - 1}")
    result = crack(as_generator("msvc"), space, observe("As Kd 7h"), on_progress=stop)
    assert not result.complete and result.searched == 2**22 and result.remaining == [[2**22, 2**23]]


# -- bad input -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seen, positions, message", [
    ("As Zz", None, "unknown card"),
    ("As As", None, "twice"),
    (" ".join(str(i) for i in range(55)), None, "holds"),
    ("As Kd", "0", "one position per card"),
    ("As Kd", "3,3", "distinct"),
    ("As", "52", "distinct and in"),
    ("", None, "no cards"),
])
def test_bad_observations(seen, positions, message):
    with pytest.raises(ValueError, match=message):
        observe(seen, positions)


@pytest.mark.parametrize("call, message", [
    (lambda: parse_seed_space("ms-midnight", "2d"), "repeat every day"),
    (lambda: parse_seed_space("time-s", "0s"), "positive"),
    (lambda: parse_seed_space("0..9", "1d"), "applies to a seed policy"),
    (lambda: parse_seed_space("os", "1d"), "not enumerable"),
    (lambda: parse_seed_space("5..2"), "A <= B"),
    (lambda: parse_seed_space("12"), "give a range A..B"),
    (lambda: crack(as_generator("msvc"), parse_seed_space("0..2^33"), observe("As")), r"must be in \[0, 4294967295\]"),
    (lambda: crack(as_generator("ansic"), parse_seed_space("0..2^32-1"), observe("As")), r"must be in \[0, 2147483647\]"),
    (lambda: crack(as_generator("mmix"), parse_seed_space("0..2^40"), observe("As")), "split"),
    (lambda: crack(as_generator("msvc"), parse_seed_space("0..9"), observe("As"), reducer=REDUCERS["java-nextint"]), "32-bit words"),
])
def test_bad_searches(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# -- the big searches ------------------------------------------------------------------------------------

@pytest.mark.slow
def test_full_day_1999_poker():
    seed = int(RNG.integers(0, DAY))
    deck = reference_deal("delphi", seed, "poker1999", "native")
    result = crack(as_generator("delphi"), parse_seed_space("ms-midnight"), observe(seen_cards(deck, 6)), algo=make_shuffle("poker1999"))
    assert result.searched == DAY and [c.seed for c in result.candidates] == [seed]


@pytest.mark.exhaustive
def test_full_msvc_seed_space():
    seed = int(RNG.integers(0, 2**32))
    deck = reference_deal("msvc", seed, "fisher-yates", "native")
    result = crack(as_generator("msvc"), parse_seed_space("0..2^32-1"), observe(seen_cards(deck, 7)))
    assert result.searched == 2**32 and result.shuffled == 2**31
    assert [c.seed for c in result.candidates] == sorted({seed % 2**31, seed % 2**31 + 2**31})




#: A child process: is the modulo seed-search kernel in numba's disk cache before this generator's search?
CACHED_BEFORE = """
import sys
from rnglab.core.compiled import is_cached
from rnglab.generators import as_generator
from rnglab.recovery.crack import make_plan, matching_seeds, observe
from rnglab.recovery.search_kernels import search_kernel
from rnglab.reduction.reducers import REDUCERS
from rnglab.seeds.space import parse_seed_space
from rnglab.shuffles.algorithms import make_shuffle

plan = make_plan(as_generator(sys.argv[1]), parse_seed_space("0..99"), observe("As Kd"), make_shuffle("fisher-yates"),
                 REDUCERS["modulo"])
print(is_cached(search_kernel(plan.kernel["scalar"]).dispatcher()))
matching_seeds(plan, 0, 100)
"""


@pytest.mark.slow  # two processes, one compiling the kernel: about 30 CPU s
def test_one_search_kernel_per_reducer_is_cached_on_disk_for_every_generator(tmp_path):
    # before: one kernel per (generator, reducer), the generator's constants frozen into it
    root = str(Path(__file__).parents[2])
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    runs = [subprocess.run([sys.executable, "-c", CACHED_BEFORE, name], check=False, capture_output=True, text=True,
                           env=env, timeout=600) for name in ("msvc", "borland")]
    assert [run.stdout.split() for run in runs] == [["False"], ["True"]], [run.stderr[-500:] for run in runs]


def test_a_space_holding_the_fixed_point_seed_is_searched_without_it():
    # MINSTD's seed 0 is state 0, a fixed point (its offset 0 - low wraps round): both search paths now leave
    # it out before any work, instead of shuffling it and dropping it from the list afterwards.
    deck = reference_deal("minstd", 1234, "fisher-yates", "lemire")
    result = crack(as_generator("minstd"), parse_seed_space("0..2000"), observe(seen_cards(deck, 4)), reducer=REDUCERS["lemire"])
    assert result.method == "compiled" and [c.seed for c in result.candidates] == [1234]
    assert list(usable_seeds(as_generator("minstd"), np.arange(0, 4, dtype=np.uint64))) == [1, 2, 3]
    assert list(usable_seeds(as_generator("msvc"), np.arange(0, 2, dtype=np.uint64))) == [0, 1]
