"""The questions an opponent asks (rnglab.audit.attack): how tables collide and when the stream repeats
(repeatability), whether the state is recovered (unpredictability: lattice, GF(2), seed search), and the crack
command printed for a real deal, run as printed."""

import math

import pytest

from rnglab.audit import from_pipeline, from_table
from rnglab.audit.attack import demo_seed, lattice_applies, repeatability, unpredictability
from rnglab.audit.target import AUDIT_SEED
from rnglab.cli import main

#: A day of time(0) seeds, pinned: the default window ends now, and which seeds it holds changes what is counted.
PINNED_DAY = "2026-11-24T01:12:22Z±12h"


def test_java_tables_collide_over_its_2_to_48_states():
    # new Random() seeds from the clock and a counter, but the state has 48 bits: 1,000 tables collide with
    # probability 1 - exp(-C(1000, 2) / 2^48) (the birthday bound, Poisson form).
    result = repeatability(from_pipeline("java-collections"))
    assert result.value == pytest.approx(-math.expm1(-math.comb(1000, 2) / 2**48), rel=1e-9)
    assert result.grade == "warn"


def test_time_seeded_tables_collide_as_the_birthday_problem_says():
    # 1,000 tables over 86,400 equally likely seconds: 1 - exp(-C(1000, 2) / 86400) (k > 200: Poisson form).
    result = repeatability(from_pipeline("deitel-msvc"))
    assert result.value == pytest.approx(-math.expm1(-math.comb(1000, 2) / 86_400), rel=1e-9)


def test_deitel_draws_a_row_and_a_column_per_card_at_least():
    # 104 rand() calls per deal at least (rand() % 4, rand() % 13 per try), not 52
    facts = dict(map(tuple, repeatability(from_pipeline("deitel-msvc")).facts))
    per_day = from_pipeline("deitel-msvc").games_per_day * 104
    assert facts["draws a day (games x draws per game, at least)"] == f"2^{math.log2(per_day):.2f}" == "2^23.31"
    assert facts["days before the stream repeats"] == f"{2**32 // per_day:,}"


def test_cpythons_2_to_19968_seeds_reach_at_most_mt19937s_2_to_19937_minus_1_states():
    # 2^19968 seeds map into MT19937's 2^19937 - 1 non-zero states: no more streams (so no more deals) than
    # states; the seed search, and the chance that two tables start alike, are over the states.
    from rnglab.audit.attack import state_distribution, unpredictability
    from rnglab.audit.structure import distinct_states, reachability

    target = from_pipeline("python3-shuffle")
    assert distinct_states(target, 2**19968) == 2**19937 - 1 and distinct_states(target, 2**64) == 2**64
    reach = dict(reachability(target).facts)
    assert reach["seeds accepted"] == "2^19968"
    assert reach["distinct starting states (at most the generator's states)"] == "2^19937 - 1"
    assert state_distribution(target).seeds == 2**19937 - 1
    repeat = dict(repeatability(target).facts)
    assert (repeat["seeds accepted"], repeat["distinct starting states"]) == ("2^19968", "2^19937 - 1")
    search = dict(unpredictability(target).facts)
    assert (search["seeds accepted"], search["distinct starting states to search"]) == ("2^19968", "2^19937 - 1")
    java = dict(repeatability(from_pipeline("java-collections")).facts)     # Java: 2^64 seeds, 2^48 states
    assert (java["seeds accepted"], java["distinct starting states"]) == ("2^64", "2^48")


@pytest.mark.parametrize(("pipeline", "window"), [("c-naive-msvc", PINNED_DAY), ("python3-shuffle", "1d"),
                                                ("deitel-msvc", PINNED_DAY)])
def test_the_printed_crack_command_finds_the_seed_of_its_deal(pipeline, window, capsys):
    # The audit's attack on a real deal: the command, run as printed, lists the seed the deal was dealt from.
    import shlex

    from rnglab.audit.attack import demo_seed, demonstration

    target = from_pipeline(pipeline, window)
    shown = demonstration(target, demo_seed(target))
    words = shlex.split(shown["command"])
    assert words[:3] == ["rnglab", "crack", target.generator.name] and "--seen" in words
    assert main(words[1:]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] == [str(shown["seed"])]]
    assert rows and rows[0][1:1 + target.cards_seen] == shown["seen"].split()


def test_mt19937_fails_unpredictability_by_gf2_elimination_whatever_its_seeds():
    # Issue 29: the audit said "Unpredictability: pass, every seed tried in 2^19899 years" for random.shuffle;
    # MT19937's outputs are linear over GF(2) (tempering is invertible), so 624 outputs give its state.
    from rnglab.audit.attack import unpredictability

    result = unpredictability(from_pipeline("python3-shuffle"))
    facts, measured = dict(result.facts), dict(result.measured)
    assert result.grade == "fail"
    assert result.headline == "state recovered from 624 consecutive 32-bit outputs by GF(2) elimination"
    assert facts["GF(2) recovery of the state"] == "applies: every output bit is an XOR of state bits"
    assert facts["GF(2) attack run on a hidden state"] == ("state recovered from 624 consecutive 32-bit outputs "
                                                           "(seed 20261124): rank 19968 of 19968 state bits, "
                                                           "one state fits")
    assert measured["GF(2) elimination, one recovery"].endswith(" ms")   # a measurement, apart from the facts
    assert any("Gaussian elimination" in note and "without trying seeds" in note for note in result.notes)


def test_js_fisher_yates_v8_fails_from_the_bottom_cards_of_one_deal():
    # V8's Math.random deal of seed 20261124: its 30 bottom cards leave rank 113 of 128, and of the 2^15 states
    # the equations leave one gives every draw; the figures are exact (the time is measured apart).
    from rnglab.audit.attack import unpredictability

    result = unpredictability(from_pipeline("js-fisher-yates-v8"))
    assert result.grade == "fail"
    assert result.headline == "state recovered from the 30 bottom cards of one deal by GF(2) elimination"
    assert dict(result.facts)["GF(2) attack run on a hidden state"] == (
        "state recovered from the 30 bottom cards of one deal (seed 20261124): rank 113 of 128 state bits, the 2^15 "
        "states of the equations checked against every draw: one state fits")


def test_the_printed_crack_command_of_a_v8_deal_recovers_its_seed_by_elimination(capsys):
    # js-fisher-yates-v8 is seeded from the OS: no seed space to search; the printed command reads the bottom cards.
    import shlex

    from rnglab.audit.attack import demo_seed, demonstration

    target = from_pipeline("js-fisher-yates-v8")
    shown = demonstration(target, demo_seed(target))
    words = shlex.split(shown["command"])
    assert words[:3] == ["rnglab", "crack", "v8"] and words[-3:] == ["linear", "--seen", shown["seen"]]
    assert shown["searched"] == "no seed (GF(2) elimination from the 30 bottom cards, dealt from the end)"
    assert main(words[1:]) == 0
    out = capsys.readouterr().out.splitlines()
    deal = shuffle_deck(target, shown["seed"])
    assert f"seed {shown['seed']} (node --random_seed={shown['seed']})" in out[2]
    assert shown["seen"] == " ".join(target.deck.names(deal[::-1][:30]))
    assert out[3] == "deck: " + " ".join(target.deck.names(deal))


def shuffle_deck(target, seed):
    from rnglab.shuffles.algorithms import shuffle

    return [int(c) for c in shuffle(target.n, target.generator.make(seed), target.shuffle, target.reducer)]


@pytest.mark.parametrize("table, grade", [
    # 1,000 tables: PCG64 from 128 OS bits collide with chance 1.5e-33, Java's 2^48 states 1.8e-9 (above 10^-9,
    # a warning), time(0) over a day 0.997 (a failure)
    ({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates"}, "pass"),
    ({"generator": "java", "seeding": "os", "shuffle": "fisher-yates"}, "warn"),
    ({"generator": "msvc", "seeding": "time-s", "window": PINNED_DAY, "shuffle": "fisher-yates"}, "fail"),
])
def test_repeatability_is_graded_by_the_chance_that_two_tables_share_a_seed(table, grade):
    assert repeatability(from_table(table)).grade == grade


def test_a_day_s_draws_beyond_the_period_fail_whatever_the_collisions():
    # One table (no collision possible) of an LCG of period 2^16: 100,000 games x 51 draws a day exceed it.
    found = repeatability(from_table({"generator": "lcg:a=5,c=1,m=2^16", "seeding": "os", "shuffle": "fisher-yates",
                                      "tables": 1}))
    facts = dict(found.facts)
    assert (found.grade, found.value) == ("fail", 0.0)
    assert (facts["period"], facts["draws a day (games x draws per game, at least)"],
            facts["days before the stream repeats"]) == ("65,536", "2^22.28", "0")
    assert found.notes == ["a day's draws exceed the period: the stream repeats within a day"]


@pytest.mark.parametrize("generator, applies", [("msvc", True), ("mmix", True), ("lcg:a=5,m=2^128", True),
                                                ("lcg:a=5,m=2^130", False), ("pcg64", False), ("mt19937", False)])
def test_lattice_recovery_applies_to_an_lcg_of_modulus_up_to_2_to_the_128(generator, applies):
    assert lattice_applies(from_table({"generator": generator, "seeding": "os", "shuffle": "fisher-yates"})) is applies


@pytest.mark.slow
def test_an_lcg_fails_unpredictability_by_lattice_whatever_its_search_time():
    # MMIX from a 64-bit OS seed: trying 2^64 seeds takes one core years (above the 2^25 s of a warning), but its
    # state follows from a few outputs by lattice reduction: a failure.
    found = unpredictability(from_table({"generator": "mmix", "seeding": "os", "shuffle": "fisher-yates"}))
    facts = dict(found.facts)
    assert found.grade == "fail" and found.value > 25 and found.headline.startswith("every seed tried in ")
    assert facts["lattice recovery from outputs"] == "applies: an LCG with m = 2^64 <= 2^128"
    assert facts["seeds accepted"] == facts["distinct starting states to search"] == "2^64"
    assert any(note.startswith("an LCG's state is recoverable from a few outputs by lattice reduction")
               for note in found.notes)


def test_the_demonstration_deals_from_the_middle_seed_of_the_policy():
    # The pinned day is the seeds [1795439542, 1795525942): its middle one; an OS policy deals from AUDIT_SEED.
    assert demo_seed(from_pipeline("deitel-msvc", PINNED_DAY)) == 1795439542 + 43_200
    assert demo_seed(from_pipeline("java-collections")) == AUDIT_SEED


@pytest.mark.parametrize("generator, reason", [
    ("mt19937", "applies: every output bit is an XOR of state bits"),
    ("xoroshiro128plus", ("does not apply as rnglab runs it: the engine is linear over GF(2), but its +, ++ or "
                          "** output is not (rnglab.recovery.linear refuses it); attacks on the scrambled outputs "
                          "are not run")),
    ("pcg64", "does not apply: the outputs are not linear over GF(2)"),
])
def test_the_gf2_fact_gives_the_reason_the_attack_applies_or_not(generator, reason):
    # The fact the unpredictability section shows for "GF(2) recovery of the state" (its grade: linear_applies).
    from rnglab.audit.attack import _gf2_applies, linear_applies

    target = from_table({"generator": generator, "seeding": "os", "shuffle": "fisher-yates"})
    assert _gf2_applies(target) == reason and linear_applies(target) is (generator == "mt19937")


def test_the_brute_force_time_is_the_states_at_a_fixed_cost_per_seed(monkeypatch):
    # Deitel on MSVC over a pinned day: 86,400 time(0) seeds at 2.5e-8 s each (rates.SEED_TRY_SECONDS, the fastest
    # seed search per core in bench/results/seed_search.md): 0.00216 s on one core, log2 = -8.855. It was once the
    # rate of a timed search (a cold kernel compiled first, 52 s): under a clock 1,000 times slower, the same.
    import time

    real = time.perf_counter
    monkeypatch.setattr(time, "perf_counter", lambda: 1000 * real())
    found = unpredictability(from_pipeline("deitel-msvc", PINNED_DAY))
    assert found.value == math.log2(86_400) + math.log2(2.5e-8) == pytest.approx(-8.8548, abs=1e-4)
    assert found.grade == "fail" and found.headline == "every seed tried in 0.00216 s on one core"
    assert found.measured == []


@pytest.mark.parametrize(("states", "grade"), [(2**68, "pass"), (2**67, "warn"), (2**51, "warn"), (2**50, "fail")])
def test_the_unpredictability_thresholds_in_states(states, grade):
    # 2^42 s and 2^25 s at 2.5e-8 s a seed: pass from 2^67.25 states, warn from 2^50.25, fail below
    from rnglab.audit.attack import brute_force_bits
    from rnglab.audit.grades import RULES

    assert 42 - math.log2(2.5e-8) == pytest.approx(67.2535, abs=1e-4)
    assert RULES["unpredictability"].grade(brute_force_bits(states)) == grade


def test_pcg64_warns_by_the_published_attack_not_by_its_2_to_128_seeds():
    # numpy's OS-seeded PCG64: 2^128 SeedSequence states are 2^102.7 s of brute force (a pass by that count); the
    # published attack takes at most 20,000 CPU hours from 512 bytes of output (Bouillaguet, Martinez and
    # Sauvage, ToSC 2020(3)): 7.2e7 s = 2^26.10 s, above a year (2^25 s), so a warning.
    found = unpredictability(from_table({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates"}))
    facts = dict(found.facts)
    assert found.value == pytest.approx(math.log2(20_000 * 3600)) == pytest.approx(26.1015, abs=1e-4)
    assert found.grade == "warn"
    assert found.headline == "a published attack recovers the state in at most 20,000 CPU hours"
    assert facts["published attack (not run by rnglab)"].startswith(
        "the state from 512 bytes of consecutive raw outputs in at most 20,000 CPU hours (C. Bouillaguet")
    assert any(note.startswith("the published attack needs 512 bytes") for note in found.notes)


@pytest.mark.parametrize(("generator", "grade"), [("mrg32k3a", "warn"), ("os", "pass")])
def test_only_a_cryptographic_source_passes_unpredictability(generator, grade, monkeypatch):
    # MRG32k3a has no attack rnglab runs or knows of; with 2^100 states its brute force would pass (2^74.7 s), but
    # it is not designed against prediction: it warns. The OS's source passes at the same count.
    from rnglab.audit import attack

    monkeypatch.setattr(attack, "distinct_states", lambda target, accepted: 2**100)
    found = unpredictability(from_table({"generator": generator, "seeding": "os", "shuffle": "fisher-yates"}))
    assert found.value == pytest.approx(100 + math.log2(2.5e-8)) and found.grade == grade
    not_cryptographic = [note for note in found.notes if "not a cryptographic generator" in note]
    assert len(not_cryptographic) == (grade == "warn")
