"""rnglab audit: the grades of a broken and a sound pipeline, a user's TOML with their own function, the files."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from rnglab.audit import RULES, audit, from_pipeline, from_toml
from rnglab.audit.attack import repeatability
from rnglab.audit.grades import Rule, overall
from rnglab.audit.render import as_json
from rnglab.audit.structure import drawn_bounds, scaling, shuffle_law
from rnglab.cli import main
from rnglab.empirical.battery import get_battery
from rnglab.shuffles.pipelines import pipelines

DATA = Path(__file__).parents[1] / "data" / "audit"


def grades(result) -> dict:
    return {f.question: f.grade for f in result.findings}


def found(result, question):
    return next(f for f in result.findings if f.question == question)


#: A day of time(0) seeds, pinned: the default window ends now, and which seeds it holds changes what is counted.
#: This one holds seeds 1795518309 and 1795522823, which deal the same deck.
PINNED_DAY = "2026-11-24T01:12:22Z±12h"


@pytest.fixture(scope="module")
def broken():
    return audit(from_pipeline("deitel-msvc", PINNED_DAY))


@pytest.fixture(scope="module")
def sound():
    return audit(from_toml(DATA / "sound.toml"))


def test_a_rule_grades_by_its_thresholds():
    rule = Rule("x", "X", "bits", 42.0, 25.0, False, "")
    assert [rule.grade(v) for v in (42.0, 41.9, 25.0, 24.9)] == ["pass", "warn", "warn", "fail"]
    lower = Rule("y", "Y", "p", 1e-9, 1e-3, True, "")
    assert [lower.grade(v) for v in (1e-10, 1e-4, 0.5)] == ["pass", "warn", "fail"]
    assert overall([]) == "pass"


def test_every_question_has_a_rule(broken):
    assert [f.question for f in broken.findings] == list(RULES)


def test_deitel_msvc_fails_reachability_scaling_and_unpredictability(broken):
    assert grades(broken)["reachability"] == "fail"
    assert grades(broken)["scaling"] in ("warn", "fail")
    assert grades(broken)["unpredictability"] == "fail"
    assert broken.verdict == "fail"


def deitel_msvc_distinct_deals(first: int, stop: int) -> int:
    """Distinct deals of Deitel's loop on MSVC's rand() for the seeds [first, stop): written from the C alone."""
    state = np.arange(first, stop, dtype=np.uint64)
    grid = np.zeros((len(state), 52), dtype=np.uint8)

    def rand(lanes):
        state[lanes] = (state[lanes] * 214013 + 2531011) & 0xFFFFFFFF
        return ((state[lanes] >> 16) & 0x7FFF).astype(np.int64)

    for card in range(1, 53):  # do { row = rand() % 4; column = rand() % 13; } while (deck[row][column] != 0)
        lanes = np.arange(len(state))
        while len(lanes):
            cell = rand(lanes) % 4 * 13
            cell += rand(lanes) % 13
            free = grid[lanes, cell] == 0
            grid[lanes[free], cell[free]] = card
            lanes = lanes[~free]
    return len(np.unique(grid, axis=0))


def test_deitel_msvc_reaches_one_deal_per_second_of_a_day_less_one_pair(broken):
    # time(0) over a day gives 86,400 seeds, and MSVC's rand() deals a different deck from nearly each: in this day
    # seed 1795522823 is MSVC's state two calls after seed 1795518309, whose first two draws pick the same cell;
    # the second is drawn again, and from there both seeds deal alike (about 0.03 such pairs a day).
    reach = found(broken, "reachability")
    assert deitel_msvc_distinct_deals(1795439542, 1795525942) == 86_399
    assert reach.value == pytest.approx(math.log2(86_399), abs=1e-9)
    assert ["distinct deals reached", "86,399"] in reach.facts


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


def test_sound_pipeline_passes_all_but_reachability(sound):
    # numpy seeds PCG64 with 128 bits of OS entropy (SeedSequence): 2^128 of the 52! = 2^225.6 deals, a
    # warning, not a failure (no one can search 2^128 seeds to tell which).
    assert grades(sound) == {"reachability": "warn", "scaling": "pass", "shuffle": "pass",
                             "unpredictability": "pass", "repeatability": "pass", "raw": "pass"}
    assert found(sound, "reachability").value == pytest.approx(128.0)
    assert any("2^-97.58" in note for note in found(sound, "reachability").notes)


def test_named_sound_pipeline_is_graded_like_the_toml(sound):
    result = audit(from_pipeline("numpy-shuffle"))
    assert grades(result) == grades(sound)


def test_user_function_in_toml():
    result = audit(from_toml(DATA / "user-function.toml"))
    assert result.pipeline["shuffle"] == "user function shuffles.py:fisher_yates"
    assert grades(result)["shuffle"] == "pass"
    naive = audit(from_toml(DATA / "user-naive.toml"))
    assert grades(naive)["shuffle"] == "fail"
    assert ["deck examined", "5 cards (the function is enumerated up to 5)"] in found(naive, "shuffle").facts


def test_a_function_beyond_the_enumeration_is_graded_from_its_calls():
    # random() at 8 bits on 5 cards: 2^32 paths, beyond the minute; the law comes from 20,000 calls on 52 cards
    from rnglab.audit.structure import shuffle_law

    target = from_toml(DATA / "user-python2.toml")
    law = shuffle_law(target, 2**64)
    assert law.grade == "warn" and law.headline == "no position bias seen in 20,000 shuffles (exact law out of reach)"
    facts = dict(law.facts)
    assert facts["why not exact"].startswith("enumerating every path would take about")
    assert facts["deck examined"] == "52 cards, 20,000 calls of the function (empirical)"
    assert "--" not in json.dumps(law.to_dict())  # no advice naming options of another command
    # the grade is stated with the number that decided it, the chi-square's p-value, never the rule's threshold
    assert law.number == ("p-value of the position chi-square over 20,000 calls on 52 cards "
                          "(not exact: a bias is reported when p < 0.001)")
    assert facts["position chi-square"].endswith(f"p = {law.value:.4g}") and 0.001 <= law.value <= 1


def test_a_stated_grade_keeps_the_rule_and_names_its_number():
    from rnglab.audit.grades import RULES, finding

    graded = finding("shuffle", 14.3, "h", [])
    assert (graded.grade, graded.number) == ("fail", RULES["shuffle"].number)
    stated = finding("shuffle", 0.42, "h", [], stated=("warn", "a p-value"))
    assert (stated.grade, stated.value, stated.number, stated.rule) == ("warn", 0.42, "a p-value",
                                                                         RULES["shuffle"].text)


def test_cli_refuses_an_existing_report_before_any_work(tmp_path, capsys):
    (tmp_path / "report.md").write_text("kept")
    assert main(["audit", "deitel-msvc", "--out", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "report.md").read_text() == "kept"


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


@pytest.mark.slow
@pytest.mark.parametrize("name", list(pipelines()))
def test_every_named_pipeline_is_audited_within_a_minute(name):
    # Issue 18: an audit of a named pipeline takes under a minute at its default budget.
    result = audit(from_pipeline(name))
    assert [f.question for f in result.findings] == list(RULES)
    assert sum(result.seconds.values()) < 60


def test_reachability_fails_below_128_bits_of_seeding():
    # MMIX's 64-bit LCG from a 64-bit OS seed reaches at most 2^64 deals: below 128 bits, a failure.
    from rnglab.audit import from_table
    from rnglab.audit.structure import reachability

    result = reachability(from_table({"generator": "mmix", "seeding": "os", "shuffle": "fisher-yates"}))
    assert result.value == pytest.approx(64.0) and result.grade == "fail"


def test_run_until_fail_finds_randu_and_not_pcg64():
    from rnglab.audit import from_table
    from rnglab.audit.empirical import until_fail

    bad = until_fail(from_table({"generator": "randu", "seeding": "os", "shuffle": "fisher-yates"}), get_battery("smoke"), 2**26)
    assert bad.stopped == "fail" and bad.bytes_to_fail is not None
    good = until_fail(from_table({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates"}), get_battery("small"), 2**22)
    assert good.bytes_to_fail is None and good.stages


def test_the_unpredictability_section_projects_the_search_to_clusters(sound):
    measured = dict(found(sound, "unpredictability").measured)
    assert [label for label in measured if label.startswith("on ")] == [
        "on 100 cores (a dask cluster at 95% of the cores' summed rate)",
        "on 1,000 cores (a dask cluster at 95% of the cores' summed rate)"]


def test_a_cluster_projection_by_hand():
    # 2^40 seeds at 10^7 seeds/s per core on 100 cores at 85%: 2^40 / (100 * 10^7 * 0.85) = 1293.5 s.
    from rnglab.recovery.distributed import CLUSTER_EFFICIENCY, projected_seconds

    assert projected_seconds(2**40, 1e7, 100, efficiency=0.85) == pytest.approx(2**40 / 8.5e8)
    assert projected_seconds(2**40, 1e7, 100, efficiency=0.85) == pytest.approx(1293.5, abs=0.05)
    assert projected_seconds(2**40, 1e7, 100) == pytest.approx(2**40 / (1e9 * CLUSTER_EFFICIENCY))
    with pytest.raises(ValueError, match="cores >= 1"):
        projected_seconds(2**40, 1e7, 0)


def test_cpython_seeded_from_the_os_reaches_every_deal():
    # random.seed() reads 19,968 bits from os.urandom: 2^19968 seeds (no float holds that), MT19937's period
    # 2^19937 - 1, so every one of the 52! deals is reachable.
    from rnglab.audit.structure import reachability

    result = reachability(from_pipeline("python3-shuffle"))
    assert result.grade == "pass" and result.value == pytest.approx(math.log2(math.factorial(52)))
    assert ["seeds accepted", "2^19968"] in result.facts


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


def test_the_audit_bounds_reachable_deals_by_states_not_by_the_period():
    # x -> a x mod 2^64 (c = 0) has period lambda(2^64) = 2^62 (Knuth 3.2.1.2), but its states lie on many cycles:
    # 2^64 OS seeds start up to 2^64 different streams, not 2^62 (the bound the audit gave before).
    # MRG32k3a's state is two triples mod m1 = 2^32 - 209 and m2 = 2^32 - 22853: about 2^192 states, its period
    # (m1^3 - 1)(m2^3 - 1)/2 (L'Ecuyer, Operations Research 47(1), 1999).
    from rnglab.audit import from_table
    from rnglab.audit.structure import period_of, reachability, state_bits

    lcg = from_table({"generator": "lcg:a=6364136223846793005,m=2^64", "seeding": "os", "shuffle": "fisher-yates"})
    assert period_of(lcg) == 2**62 and reachability(lcg).value == pytest.approx(64.0)
    mrg = from_table({"generator": "mrg32k3a", "seeding": "os", "shuffle": "fisher-yates"})
    assert state_bits(mrg) == pytest.approx(3 * math.log2(2**32 - 209) + 3 * math.log2(2**32 - 22853))
    assert period_of(mrg) == ((2**32 - 209)**3 - 1) * ((2**32 - 22853)**3 - 1) // 2


def differing_paths(a, b, path: str = "") -> list[str]:
    """The JSON paths where ``a`` and ``b`` differ (findings named by their question: ``findings[raw].facts``)."""
    if isinstance(a, dict) and isinstance(b, dict) and set(a) == set(b):
        return [p for key in a for p in differing_paths(a[key], b[key], f"{path}.{key}" if path else key)]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        names = [item.get("question", i) if isinstance(item, dict) else i for i, item in enumerate(a)]
        return [p for name, x, y in zip(names, a, b) for p in differing_paths(x, y, f"{path}[{name}]")]
    return [] if a == b else [path]


def is_measured(path: str) -> bool:
    import re

    from rnglab.audit.run import MEASURED_FIELDS

    patterns = [re.escape(field).replace(r"\[\*\]", r"\[[^\]]+\]") for field in MEASURED_FIELDS]
    return any(re.match(f"{pattern}($|[.[])", path) for pattern in patterns)


def test_two_audits_differ_only_in_the_fields_documented_as_measurements(monkeypatch):
    # Issue 27: the audit budgeted run-until-fail and the seed search in seconds, so a loaded machine wrote other
    # findings ("no FAIL up to 2^23.78 bytes"). The second audit runs on a clock 1,000 times faster, as if the
    # machine were that much slower: only the measured fields may change.
    import time

    target = from_pipeline("java-collections")
    first = json.loads(as_json(audit(target, battery=get_battery("smoke"), until_fail_bytes=2**20)))
    real = time.perf_counter
    monkeypatch.setattr(time, "perf_counter", lambda: 1000 * real())
    second = json.loads(as_json(audit(target, battery=get_battery("smoke"), until_fail_bytes=2**20)))
    changed = differing_paths(first, second)
    assert changed and all(is_measured(path) for path in changed), changed
    assert {"findings[unpredictability].value", "findings[unpredictability].measured[0][1]"} <= set(changed)
    assert any(path.startswith("seconds.") for path in changed)
    assert first["measured_fields"] == ["seconds", "findings[*].measured", "findings[unpredictability].value",
                                        "findings[unpredictability].headline"]
    assert [f["grade"] for f in first["findings"]] == [f["grade"] for f in second["findings"]]


def test_the_measured_fields_are_recognised():
    assert is_measured("seconds.raw") and is_measured("findings[raw].measured[0][1]")
    assert not is_measured("findings[raw].facts[0][1]") and not is_measured("findings[unpredictability].grade")


def test_run_until_fail_is_budgeted_in_bytes():
    # The same stages on any machine: a stage that would read more than the budget is not started.
    from rnglab.audit import from_table
    from rnglab.audit.empirical import UNTIL_FAIL_BYTES, until_fail

    assert UNTIL_FAIL_BYTES == 2**25
    run = until_fail(from_table({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates"}), get_battery("smoke"), 2**20)
    assert run.stages[-1].bytes == 2**20  # the stages are powers of two, the last one the budget
    assert [s.bytes for s in run.stages] == [s.bytes for s in until_fail(
        from_table({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates"}), get_battery("smoke"), 2**20).stages]


def test_a_test_failed_by_the_battery_and_by_run_until_fail_counts_once():
    # CPython's MT19937 fails only the linear complexity of its lowest bit; run-until-fail fails the same test,
    # which the audit counted twice ("2 of 30"). Counted: the battery's 27, the scaled chi-square, the position
    # table; the GF(2)-linear failure is said in plain words.
    from rnglab.audit.empirical import raw_output

    raw = raw_output(from_pipeline("python3-shuffle"), get_battery("small"))
    facts = dict(raw.facts)
    assert raw.headline == ("1 of 29 tests FAIL; linear-complexity low=1: outputs linear over GF(2), about 624 of "
                            "them give the whole state (predictable)")
    assert facts["tests failed (FAIL)"] == "1 of 29"
    assert facts["battery"] == "small (27 tests, seed 20261124)"
    assert facts["tests counted"].startswith("29: the small battery's 27, the scaled chi-square and the position table")
    assert raw.table["rows"][-1][0].endswith("FAIL after 262,144 bytes on linear-complexity low=1")  # a 2^k stage
    [note] = [n for n in raw.notes if "GF(2)" in n]
    assert note.startswith("linear-complexity low=1 fails: python's outputs are linear over GF(2)")
    assert "about 624 consecutive outputs (19937 state bits, 32 bits an output)" in note


def test_the_linearity_note_is_only_for_failed_linearity_tests():
    from rnglab.audit.empirical import linearity_note

    target = from_pipeline("python3-shuffle")
    assert linearity_note(target, {"gap-16", "bcfn low=8"}) == []
    assert linearity_note(target, {"matrix-rank low=10", "linear-complexity low=1"})[0].startswith(
        "linear-complexity low=1 and matrix-rank low=10 fail: python's outputs are linear over GF(2)")
    # MSVC's rand() fails the linear complexity of its low bit, but an LCG is not linear over GF(2) (carries).
    [note] = linearity_note(from_pipeline("deitel-msvc"), {"linear-complexity low=1"})
    assert "linear recurrence over GF(2)" in note and note.endswith("msvc as a whole is not linear over GF(2)")


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


def test_the_cli_exits_1_on_a_failing_verdict_and_prints_the_crack_command(tmp_path, capsys):
    status = main(["audit", "java-collections", "--out", str(tmp_path / "a")])
    captured = capsys.readouterr()
    assert status == 1 and "JAVA-COLLECTIONS: FAIL" not in captured.out and "java-collections: FAIL" in captured.out
    assert "the verdict is fail (--fail-on fail): exit status 1" in captured.err
    assert "\n  rnglab crack java --algo fisher-yates --reducer java-nextint --deck 52 --seeds " in captured.out
    data = json.loads((tmp_path / "a" / "report.json").read_text())
    assert data["demonstration"]["command"] in captured.out


def test_fail_on_chooses_the_grades_that_exit_1():
    from rnglab.cli.audit import _exit_status

    assert [_exit_status(v, "fail", explain=False) for v in ("pass", "warn", "fail")] == [0, 0, 1]
    assert [_exit_status(v, "warn", explain=False) for v in ("pass", "warn", "fail")] == [0, 1, 1]
    assert [_exit_status(v, "never", explain=False) for v in ("pass", "warn", "fail")] == [0, 0, 0]


def test_the_help_states_the_exit_statuses():
    from click.testing import CliRunner

    from rnglab.cli import rnglab

    text = " ".join(CliRunner().invoke(rnglab, ["audit", "--help"]).output.split())
    assert "--fail-on [fail|warn|never]" in text
    assert "0 when the verdict is below the --fail-on grade (default: fail), 1 when it reaches it, 2 on bad input, " \
           "130 when interrupted" in text


def test_whether_reachability_counts_exactly_is_decided_by_seeds_not_by_a_clock(monkeypatch):
    # The audit timed a sample to decide whether to enumerate; on a loaded machine deitel-msvc's day was bounded
    # (2^16.40 = 86,400) instead of counted (86,399). Now the seeds decide: batched generators up to 2^20 seeds,
    # one generator object a seed (numpy's MT19937) up to 2^14; a clock 1,000 times slower changes nothing.
    import time

    from rnglab.audit.structure import enumerated_seeds, reachability

    real = time.process_time
    monkeypatch.setattr(time, "process_time", lambda: 1000 * real())
    naive = reachability(from_pipeline("c-naive-msvc", PINNED_DAY))
    assert ["seeds accepted", "86,400"] in naive.facts and any(f[0] == "distinct deals reached" for f in naive.facts)
    mt = from_pipeline("cpp-shuffle-mt19937", PINNED_DAY)
    assert enumerated_seeds(mt) == 2**14 and enumerated_seeds(from_pipeline("deitel-glibc")) == 2**20
    assert any(f[0] == "deals reachable (bound min(states, n!))" for f in reachability(mt).facts)


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


@pytest.mark.parametrize(("generator", "linear", "observed"), [
    ("mt19937", True, "624 consecutive 32-bit outputs"), ("python_random53", True, "624 consecutive random() values"),
    ("xorshift128", True, "4 consecutive outputs"), ("well512a", True, "16 consecutive outputs"),
    ("v8", True, "4 consecutive Math.random() values"), ("mt19937_64", True, None),
    ("xoshiro256starstar", False, None), ("pcg64", False, None)])
def test_gf2_linearity_is_a_property_of_the_generator(generator, linear, observed):
    from rnglab.audit import from_table
    from rnglab.audit.attack import linear_applies
    from rnglab.audit.gf2_attack import linear_attack, runs_gf2_attack

    target = from_table({"generator": generator, "seeding": "os", "shuffle": "fisher-yates"})
    assert linear_applies(target) is linear and runs_gf2_attack(target) is (observed is not None)
    if observed:
        attack = linear_attack(target)
        assert attack.observed == observed and attack.rank >= attack.unknowns - 4   # random(): 4 bits never seen
        assert attack.states == (16 if generator == "python_random53" else 1)


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


@pytest.mark.slow
def test_comparator_sort_law_is_graded_on_the_cards_it_reaches():
    # js-sort-v8 deals 52 cards; the comparator sort's exact law is enumerated up to 8 (it raised a ValueError)
    found = shuffle_law(from_pipeline("js-sort-v8"), 2**52)
    facts = dict(map(tuple, found.facts))
    assert facts["deck examined"] == "8 cards (the comparator sort is enumerated up to 8)"
    assert found.grade == "fail" and "detectable after" in found.headline
