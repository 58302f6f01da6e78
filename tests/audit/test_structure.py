"""The questions the audit answers exactly from the structure of a pipeline (rnglab.audit.structure):
reachability, scaling and the shuffle law, each graded at its thresholds; the seeds, states and periods they
count from."""

import json
import math
from pathlib import Path

import pytest

from rnglab.audit import from_pipeline, from_table, from_toml
from rnglab.audit.structure import drawn_bounds, os_seed_count, reachability, scaling, shuffle_law

DATA = Path(__file__).parents[1] / "data" / "audit"
#: A day of time(0) seeds, pinned: the default window ends now, and which seeds it holds changes what is counted.
PINNED_DAY = "2026-11-24T01:12:22Z±12h"


def test_deitel_draws_rows_below_4_and_columns_below_13():
    # Deitel's loop: row = rand() % 4, column = rand() % 13; 32768 % 13 = 8, so 13 is biased and 4 is not.
    assert drawn_bounds(from_pipeline("deitel-msvc")) == [4, 13]
    assert ["worst ratio max p / min p", "1.000396825 at bound 13"] in scaling(from_pipeline("deitel-msvc"),
                                                                                 32768).facts  # 2521 / 2520


def test_deitel_msvc_shuffle_law_is_that_of_its_rows_and_columns():
    # A row and a column per try, a taken slot drawn again: not the law of rand() % 52, % 51, ... (2^25.44)
    law = shuffle_law(from_pipeline("deitel-msvc"), 32768)
    assert law.headline == "position bias detectable after 2^27.43 shuffles"
    assert ["largest position deviation |P - 1/n|", "1.694e-05"] in law.facts


def test_deitel_glibc_shuffle_law_is_through_modulo_on_2_31_values_not_an_ideal_source():
    # R = 2^31 was above the old 2^24 limit: the law of an ideal source, called "exactly uniform". rand() % 13
    # gives 11 columns one raw value more than the other 2 (figures checked by an independent chain in
    # test_fairness.py).
    law = shuffle_law(from_pipeline("deitel-glibc"), 2**31)
    assert law.headline == "position bias detectable after 2^60.29 shuffles" and law.grade == "warn"
    assert ["source", "ideal source of 2147483648 values, modulo"] in law.facts
    assert ["largest position deviation |P - 1/n|", "3.553e-10"] in law.facts


@pytest.mark.parametrize("name,range_size,source", [
    ("java-collections", 2**32, "ideal source of 4294967296 values, java-nextint"),
    ("python3-shuffle", 2**32, "ideal source of 4294967296 values, python-randbelow"),
    ("numpy-shuffle", 2**32, "ideal source of 4294967296 values, bitmask")])
def test_rejecting_reducers_on_large_ranges_stay_exactly_uniform_through_the_reducer(name, range_size, source):
    law = shuffle_law(from_pipeline(name), range_size)
    assert (law.headline, law.grade) == ("position matrix exactly uniform", "pass") and ["source", source] in law.facts


def test_a_law_out_of_reach_through_the_reducer_says_it_is_an_ideal_sources():
    # float-multiply serves R <= 2^53: on 2^64 values the law is the ideal source's, and the finding says so
    law = shuffle_law(from_pipeline("python2-shuffle"), 2**64)
    assert law.headline == "no position bias through an ideal source: the reducer's bias is not included"
    assert law.grade == "warn" and "exactly uniform" not in json.dumps([law.headline, law.facts, law.caption])
    assert ["source", "through an ideal source: the reducer's bias is not included"] in law.facts
    assert dict(law.facts)["why not through the reducer"].startswith("float-multiply")


def test_a_function_beyond_the_enumeration_is_graded_from_its_calls():
    # random() at 8 bits on 5 cards: 2^32 paths, beyond the minute; the law comes from 20,000 calls on 52 cards.
    # The refusal is by size (rates.PATH_SECONDS: 15.2 us a path of 4 draws, 2^32 of them), at the first check
    # after 2 s of that work: 33 x 4,096 paths.
    from rnglab.audit.structure import shuffle_law

    target = from_toml(DATA / "user-python2.toml")
    law = shuffle_law(target, 2**64)
    assert law.grade == "warn" and law.headline == "no position bias seen in 20,000 shuffles (exact law out of reach)"
    facts = dict(law.facts)
    assert facts["why not exact"] == ("enumerating every path of shuffles.py:python2_shuffle (135168 paths covered "
                                      "3.15e-05 of the probability) would take about 6.53e+04 s (limit 60 s): about "
                                      "3947368 paths of 4 draws fit")
    assert facts["deck examined"] == "52 cards, 20,000 calls of the function (empirical)"
    assert "--" not in json.dumps(law.to_dict())  # no advice naming options of another command
    # the grade is stated with the number that decided it, the chi-square's p-value, never the rule's threshold
    assert law.number == ("p-value of the position chi-square over 20,000 calls on 52 cards "
                          "(not exact: a bias is reported when p < 0.001)")
    assert facts["position chi-square"].endswith(f"p = {law.value:.4g}") and 0.001 <= law.value <= 1


def test_reachability_fails_below_128_bits_of_seeding():
    # MMIX's 64-bit LCG from a 64-bit OS seed reaches at most 2^64 deals: below 128 bits, a failure.
    from rnglab.audit.structure import reachability

    result = reachability(from_table({"generator": "mmix", "seeding": "os", "shuffle": "fisher-yates"}))
    assert result.value == pytest.approx(64.0) and result.grade == "fail"


def test_cpython_seeded_from_the_os_reaches_every_deal():
    # random.seed() reads 19,968 bits from os.urandom: 2^19968 seeds (no float holds that), MT19937's period
    # 2^19937 - 1, so every one of the 52! deals is reachable.

    result = reachability(from_pipeline("python3-shuffle"))
    assert result.grade == "pass" and result.value == pytest.approx(math.log2(math.factorial(52)))
    assert ["seeds accepted", "2^19968"] in result.facts


def test_the_audit_bounds_reachable_deals_by_states_not_by_the_period():
    # x -> a x mod 2^64 (c = 0) has period lambda(2^64) = 2^62 (Knuth 3.2.1.2), but its states lie on many cycles:
    # 2^64 OS seeds start up to 2^64 different streams, not 2^62 (the bound the audit gave before).
    # MRG32k3a's state is two triples mod m1 = 2^32 - 209 and m2 = 2^32 - 22853: about 2^192 states, its period
    # (m1^3 - 1)(m2^3 - 1)/2 (L'Ecuyer, Operations Research 47(1), 1999).
    from rnglab.audit.structure import period_of, reachability, state_bits

    lcg = from_table({"generator": "lcg:a=6364136223846793005,m=2^64", "seeding": "os", "shuffle": "fisher-yates"})
    assert period_of(lcg) == 2**62 and reachability(lcg).value == pytest.approx(64.0)
    mrg = from_table({"generator": "mrg32k3a", "seeding": "os", "shuffle": "fisher-yates"})
    assert state_bits(mrg) == pytest.approx(3 * math.log2(2**32 - 209) + 3 * math.log2(2**32 - 22853))
    assert period_of(mrg) == ((2**32 - 209)**3 - 1) * ((2**32 - 22853)**3 - 1) // 2


def test_whether_reachability_counts_exactly_is_decided_by_seeds_not_by_a_clock(monkeypatch):
    # The audit timed a sample to decide whether to enumerate; on a loaded machine deitel-msvc's day was bounded
    # (2^16.40 = 86,400) instead of counted (86,399). Now the seeds decide: batched generators up to 2^20 seeds,
    # one generator object a seed (numpy's MT19937) up to 2^14; a clock 1,000 times slower changes nothing.
    import time

    from rnglab.audit.structure import enumerated_seeds

    real = time.process_time
    monkeypatch.setattr(time, "process_time", lambda: 1000 * real())
    naive = reachability(from_pipeline("c-naive-msvc", PINNED_DAY))
    assert ["seeds accepted", "86,400"] in naive.facts and any(f[0] == "distinct deals reached" for f in naive.facts)
    mt = from_pipeline("cpp-shuffle-mt19937", PINNED_DAY)
    assert enumerated_seeds(mt) == 2**14 and enumerated_seeds(from_pipeline("deitel-glibc")) == 2**20
    assert any(f[0] == "deals reachable (bound min(states, n!))" for f in reachability(mt).facts)


@pytest.mark.slow
def test_comparator_sort_law_is_graded_on_the_cards_it_reaches():
    # js-sort-v8 deals 52 cards; the comparator sort's exact law is enumerated up to 8 (it raised a ValueError)
    found = shuffle_law(from_pipeline("js-sort-v8"), 2**52)
    facts = dict(map(tuple, found.facts))
    assert facts["deck examined"] == "8 cards (the comparator sort is enumerated up to 8)"
    assert found.grade == "fail" and "detectable after" in found.headline


@pytest.mark.parametrize("name, range_size, grade, value, headline", [
    # python-randbelow rejects: every bound exact. MSVC's rand() % 13 on 2^15 values: 2^29.51 draws detect it,
    # below 2^40; glibc's on 2^31 values: 2^62.38, beyond any sample, a warning.
    ("python3-shuffle", 2**32, "pass", math.inf, "every bound exactly uniform"),
    ("deitel-glibc", 2**31, "warn", 62.37724343702339, "bias detectable after 2^62.38 draws"),
    ("deitel-msvc", 2**15, "fail", 29.51474696157955, "bias detectable after 2^29.51 draws"),
])
def test_scaling_is_graded_by_the_draws_that_detect_the_worst_bound(name, range_size, grade, value, headline):
    found = scaling(from_pipeline(name), range_size)
    assert (found.grade, found.headline) == (grade, headline) and found.value == pytest.approx(value, rel=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("name, range_size, grade", [("numpy-shuffle", 2**32, "pass"), ("deitel-glibc", 2**31, "warn"),
                                                      ("deitel-msvc", 2**15, "fail")])
def test_the_shuffle_law_is_graded_at_each_side_of_2_to_the_40(name, range_size, grade):
    # numpy's bitmask rejects: exactly uniform; Deitel's loop on glibc: 2^60.29 shuffles; on MSVC: 2^27.43.
    assert shuffle_law(from_pipeline(name), range_size).grade == grade


def test_reachability_warns_at_128_bits_of_os_seeding():
    # numpy's PCG64 from SeedSequence's 128 bits: 2^128 of the 52! deals, below every deal but at the 128-bit mark.
    result = reachability(from_table({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates"}))
    assert (result.grade, result.value, result.headline) == ("warn", 128.0, "2^128 of 2^225.58 deals reachable")
    assert any(note.startswith("128 bits is the security strength NIST SP 800-57") for note in result.notes)


def test_os_seeds_are_the_library_s_entropy_or_the_policy_s_64_bits():
    assert os_seed_count(from_table({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates"})) == 2**128
    assert os_seed_count(from_table({"generator": "mmix", "seeding": "os", "shuffle": "fisher-yates"})) == 2**64


def test_the_bounds_drawn_are_the_program_s():
    assert drawn_bounds(from_table({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates", "deck": "5"})) \
        == [2, 3, 4, 5]
    assert drawn_bounds(from_table({"generator": "pcg64", "seeding": "os", "shuffle": "draw-unused"})) == [52]
