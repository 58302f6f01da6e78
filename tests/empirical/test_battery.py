"""Batteries as data, the battery runner, and second-level tests."""

import inspect

import numpy as np
import pytest

from rnglab.empirical.battery import Battery, Entry, batteries, get_battery, result_labels, run_battery, select_entries
from rnglab.empirical.secondlevel import _anderson_darling_limit_cdf, anderson_darling_uniform, second_level
from rnglab.empirical.stattests import TESTS, EmpiricalResult, get_test
from rnglab.generators import make_source
from rnglab.streams.gateway import BitSelection, select


def pcg64(seed):
    return make_source("pcg64", seed)


def test_batteries_are_data_with_registered_tests_and_options():
    assert {"smoke", "small", "standard", "validation"} <= set(batteries())
    for battery in batteries().values():
        for entry in battery.entries:
            accepted = inspect.signature(TESTS[entry.test]).parameters
            assert set(entry.options) <= set(accepted), (battery.name, entry)


def test_small_battery_follows_smallcrush_where_it_can():
    # TestU01 user guide, bbattery_SmallCrush: BirthdaySpacings n=5e6 d=2^30 t=2; Collision n=5e6 d=2^16 t=2;
    # MaxOft n=2e6 d=1e5 t=6 (small's birthday spacings and collision count in blocks of 2^20 and 2^22, which smallcrush's do not)
    entries = {(e.test, e.n): e.options for e in get_battery("small").entries}
    assert entries[("birthday-spacings", 5_000_000)] == {"d": 2**30, "t": 2, "block": 2**20}
    assert entries[("collision", 5_000_000)] == {"d": 2**16, "t": 2, "block": 2**22}
    assert entries[("max-of-t", 2_000_000)] == {"t": 6, "d": 100_000}


def test_smoke_battery_on_pcg64_passes_and_is_deterministic():
    calls = []
    first = run_battery(pcg64, get_battery("smoke"), 5, on_progress=lambda done, total, name: calls.append((done, total)))
    again = run_battery(pcg64, get_battery("smoke"), 5)
    count = len(get_battery("smoke").entries)
    assert calls == [(i, count) for i in range(1, count + 1)]
    assert [r.pvalue for r in first.results] == [r.pvalue for r in again.results]
    assert sum(not 0.001 <= r.pvalue <= 0.999 for r in first.results) == 0
    assert first.battery == "smoke" and first.generator == "pcg64" and first.seed == 5


def test_smoke_battery_catches_randu():
    result = run_battery(lambda seed: make_source("randu", seed), get_battery("smoke"), 1)
    failed = {r.test for r in result.results if min(r.pvalue, 1 - r.pvalue) < 1e-10}
    assert {"birthday-spacings", "fourier"} <= failed


def test_entries_continue_one_stream():
    # two entries run on one stream equal the two tests called in turn on one source
    battery = Battery("two", "", (Entry("frequency", 1000, {"d": 4}), Entry("frequency", 1000, {"d": 4})))
    result = run_battery(pcg64, battery, 3)
    source = pcg64(3)
    expected = [TESTS["frequency"](source, 1000, d=4).pvalue for _ in range(2)]
    assert [r.pvalue for r in result.results] == expected


def test_select_entries_filters_and_overrides():
    smoke = get_battery("smoke")
    chosen = select_entries(smoke, ["fourier", "collision"], n=None, repeat=3)
    assert [e.test for e in chosen] == ["collision", "fourier"] and {e.repeat for e in chosen} == {3}
    assert select_entries(smoke, ["serial-overlapping"], n=5000) == (Entry("serial-overlapping", 5000, {}, 1),)


@pytest.mark.parametrize("call, message", [
    (lambda: get_battery("huge"), "unknown battery"),
    (lambda: select_entries(get_battery("smoke"), ["nope"]), "unknown test"),
    (lambda: select_entries(Battery("empty", "", ()), ["gap"]), "give the sample size"),
])
def test_bad_selections(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_result_labels_tell_repeated_tests_apart():
    results = [EmpiricalResult("collision", 0, 0.5, {"n": 10, "t": 2}),
               EmpiricalResult("birthday-spacings", 0, 0.5, {"n": 10, "d": 2**30, "t": 2}),
               EmpiricalResult("birthday-spacings", 0, 0.5, {"n": 20, "d": 2**20, "t": 3})]
    assert result_labels(results) == ["collision", "birthday-spacings d=2^30 t=2", "birthday-spacings d=2^20 t=3"]


def test_anderson_darling_limit_percentiles():
    # Upper 5% and 1% points of the limiting A^2 law: 2.492 and 3.878 (P. A. W. Lewis, Ann. Math. Stat.
    # 32, 1961; Marsaglia and Marsaglia 2004)
    assert 1 - _anderson_darling_limit_cdf(2.492) == pytest.approx(0.05, abs=2e-4)
    assert 1 - _anderson_darling_limit_cdf(3.878) == pytest.approx(0.01, abs=1e-4)


def test_anderson_darling_statistic_by_hand():
    # N = 2, u = 0.25, 0.75: A^2 = -2 - (1/2)[ln .25 + ln .25 + 3 (ln .75 + ln .75)]
    expected = -2 - 0.5 * (2 * np.log(0.25) + 6 * np.log(0.75))
    assert anderson_darling_uniform([0.75, 0.25])[0] == pytest.approx(expected)


def test_anderson_darling_pvalues_are_uniform():
    rng = np.random.default_rng(1)
    pvalues = np.array([anderson_darling_uniform(rng.random(20))[1] for _ in range(4000)])
    assert abs(np.mean(pvalues < 0.05) - 0.05) < 0.012 and abs(np.mean(pvalues < 0.5) - 0.5) < 0.03


def test_second_level_holds_the_pvalues_and_passes_pcg64():
    result = second_level(get_test("frequency"), pcg64(11), 2000, 30, d=8)
    source = pcg64(11)
    assert result.pvalues == tuple(TESTS["frequency"](source, 2000, d=8).pvalue for _ in range(30))
    assert result.params["replications"] == 30 and 0.001 < result.pvalue < 0.999
    assert 0 <= result.details["ks_pvalue"] <= 1


def test_second_level_catches_a_subtle_flaw():
    # MINSTD's collision counts at 3e5 balls are individually unremarkable (its lattice spreads the
    # points only a little too evenly at this size), but 20 of them pile up near p = 1
    result = second_level(get_test("collision"), make_source("minstd", 1), 300_000, 20, d=2**14, t=2)
    assert result.pvalue < 1e-3


def test_second_level_needs_two_replications():
    with pytest.raises(ValueError, match="at least 2 replications"):
        second_level(get_test("frequency"), pcg64(1), 100, 1)


def test_result_labels_name_an_entry_s_own_bits_among_others():
    results = [EmpiricalResult("gap", 0, 0.5, {"n": 10, "low": None}), EmpiricalResult("gap", 0, 0.5, {"n": 10, "low": 10}),
               EmpiricalResult("frequency", 0, 0.5, {"n": 10, "drop": 20, "keep": 10})]
    assert result_labels(results) == ["gap", "gap low=10", "frequency drop=20 keep=10"]
    same = [EmpiricalResult("gap", 0, 0.5, {"n": 10, "low": 8}), EmpiricalResult("poker", 0, 0.5, {"n": 10, "low": 8})]
    assert result_labels(same) == ["gap", "poker"]  # every entry reads the run's bits: nothing to tell apart


def test_small_battery_reads_low_bits_unless_the_user_chooses_the_bits():
    small = get_battery("small")
    own = {(e.test, e.bits.low) for e in small.entries if e.bits}
    assert own == {("gap", 10), ("poker", 8), ("coupon", 6), ("matrix-rank", 10), ("frequency", 8),
                   ("hamming-weight", 1), ("bcfn", 8), ("bcfn", 1), ("gap-16", 8), ("gap-16", 1),
                   ("linear-complexity", 1)}
    battery = Battery("two", "", (Entry("frequency", 1000, {"d": 4}), Entry("frequency", 1000, {"d": 4}, 1,
                                                                             BitSelection(low=2))))
    result = run_battery(lambda seed: make_source("pcg64", seed), battery, 1)
    assert [r.params["low"] for r in result.results] == [None, 2]
    result = run_battery(lambda seed: select(make_source("pcg64", seed), BitSelection(low=3)), battery, 1)
    assert [r.params["low"] for r in result.results] == [3]


def test_a_battery_skips_an_entry_refused_at_the_source_s_resolution():
    # runs-up needs n <= L^2: at 8 bits (L = 256) a battery skips it, says why, and runs the next entry.
    battery = Battery("two", "", (Entry("runs-up", 100_000, {}), Entry("frequency", 1000, {"d": 4})))
    result = run_battery(lambda seed: select(pcg64(seed), BitSelection(low=8)), battery, 1)
    assert [r.test for r in result.results] == ["frequency"]
    assert result.skipped == (("runs-up", ("the runs-up test needs n <= L^2 = 65536 values from a source of L = 256 "
                                          "levels (ties, 1 pair in L, bias the run counts); got n = 100000")),)


def test_max_n_caps_the_size_run_unless_the_user_gives_n():
    """The linear-complexity entry of `small` runs 140,000 bits, its n only pacing --until-fail; --n overrides."""
    entry = next(e for e in get_battery("small").entries if e.test == "linear-complexity")
    assert (entry.n, entry.max_n, entry.size) == (51_200_000, 140_000, 140_000)
    assert Entry("frequency", 50, {"d": 4}, max_n=100).size == 50
    small = select_entries(get_battery("small"), ["linear-complexity"])
    assert small[0].size == 140_000
    assert select_entries(get_battery("small"), ["linear-complexity"], n=1000)[0].size == 1000
    result = run_battery(lambda seed: make_source("pcg64", seed), Battery("one", "", (Entry(
        "frequency", 10**6, {"d": 4}, max_n=1000),)), 1)
    assert result.results[0].params["n"] == 1000
