"""Run until it fails: doubling stages on one stream, the data needed to fail, limits and skipped entries."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from rnglab.empirical.battery import Battery, Entry, get_battery
from rnglab.empirical.stattests import TESTS
from rnglab.empirical.until_fail import CountingSource, Pacing, TallyStream, run_stage, stages, summarise
from rnglab.empirical.verdicts import Thresholds
from rnglab.generators import make_source
from rnglab.streams.gateway import BitSelection, select


def run(name: str, **limits):
    source = make_source(name, 12345)
    done = list(stages(source, get_battery("small"), **limits))
    return summarise(source, get_battery("small"), done)


@pytest.fixture(scope="module")
def pcg64_to_32_mib():
    """PCG64's run to 2^25 bytes (fixed work, the same every time): one run for the tests that read it."""
    return run("pcg64", max_bytes=2**25)


def test_counting_source_counts_what_a_test_reads():
    counting = CountingSource(make_source("minstd", 1))
    TESTS["serial"](counting, 5000, d=4, t=2)  # 2 outputs per pair
    assert counting.outputs_read == 10_000
    plain = make_source("minstd", 1)
    plain.random_raw(10_000)
    assert counting.random_raw(3).tolist() == plain.random_raw(3).tolist()


def test_randu_fails_and_the_run_stops_there():
    result = run("randu", max_bytes=2**24)
    assert result.stopped == "fail" and result.bytes_to_fail == result.stages[-1].worst_bytes
    assert 0.75 * result.stages[-1].bytes <= result.bytes_to_fail <= result.stages[-1].bytes <= 2**20
    assert all(stage.worst != "FAIL" for stage in result.stages[:-1])
    assert result.stages[-1].worst_tests


def test_pcg64_stays_normal_and_the_data_doubles():
    result = run("pcg64", max_bytes=2**24)
    assert result.stopped == "limit" and result.bytes_to_fail is None
    sizes = np.array([stage.bytes for stage in result.stages])
    assert sizes[0] >= 1024 and sizes[-1] <= 2**24 and np.all(np.diff(sizes) > 0)
    large = sizes[sizes >= 2**20]
    assert np.all((large[1:] / large[:-1] > 1.8) & (large[1:] / large[:-1] < 2.3))
    assert {stage.worst for stage in result.stages} <= {"normal", "unusual"}


def test_small_stages_skip_entries_with_the_rule_they_break():
    first = run("pcg64", max_bytes=2**12).stages[0]
    assert first.skipped and all(reason for _, reason in first.skipped)
    assert any("n >= 100000" in reason for test, reason in first.skipped if test == "runs-up")


def test_time_limit_stops_before_a_stage_that_would_pass_it():
    result = run("pcg64", max_seconds=0.5)
    assert result.stopped == "limit" and sum(stage.seconds for stage in result.stages) < 2.0


@pytest.mark.parametrize("name", ["randu", "pcg64"])
def test_worst_distance_curve_has_one_point_per_stage(name):
    result = run(name, max_bytes=2**20)
    curve = result.worst_distance
    assert [b for b, _ in curve] == [stage.bytes for stage in result.stages]
    assert all(0 <= q <= 0.5 for _, q in curve)


def test_figure_draws_every_stage_and_marks_the_failure():
    from rnglab.plot.pvalues import until_fail_figure

    result = run("randu", max_bytes=2**24)
    axes = until_fail_figure(result).axes[0]
    line = axes.get_lines()[0]
    assert list(line.get_xdata()) == [stage.bytes for stage in result.stages]
    assert any("FAIL at" in text.get_text() for text in axes.get_legend().get_texts())


def test_a_stream_read_once_is_tested_as_its_generator_by_the_tallies(tmp_path):
    """An input (here a file of pcg64's outputs) is read once, by every tally together: the same data at every
    stage as the generator's own run, so the same results."""
    from rnglab.empirical.battery import Battery, Entry
    from rnglab.generators.external import input_spec

    battery = Battery("two", "", (Entry("frequency", 10**5, {"d": 16}),
                                  Entry("frequency", 10**5, {"d": 256}, bits=BitSelection(low=8))))
    path = tmp_path / "pcg64.u64"
    path.write_bytes(make_source("pcg64", 6).random_raw(2**18).astype("<u8").tobytes())
    piped = list(stages(input_spec(str(path), "u64").make(None), battery, max_bytes=2**21))
    generated = list(stages(make_source("pcg64", 6), battery, max_bytes=2**21))
    assert len(piped) >= 5
    assert [(s.bytes, [r.statistic for r in s.results]) for s in piped] == \
        [(s.bytes, [r.statistic for r in s.results]) for s in generated]


def test_a_tally_whose_two_samples_outlast_the_input_is_skipped_and_the_others_test_it(tmp_path):
    """The core battery's 384 x 384 matrices of the low bit take 576 KiB of 32-bit words each: a 1 MiB input (the
    least a run accepts) holds one, and the probe's two ran past its end, which ended the run before its first
    stage (the CLI said "no anomaly up to 0 bytes"). The entry is skipped, with the rule, and the others test
    the input to its end."""
    from rnglab.empirical.until_fail import INPUT_UNDER_TWO_SAMPLES
    from rnglab.generators.external import input_spec

    battery = Battery("two", "", (Entry("frequency", 10**5, {"d": 16}),
                                  Entry("matrix-rank", 100, {"rows": 384, "columns": 384}, bits=BitSelection(low=1))))
    path = tmp_path / "pcg64.u32"
    path.write_bytes(make_source("pcg64", 6).random_raw(2**17).astype("<u8").tobytes())
    done = list(stages(input_spec(str(path), "u32").make(None), battery, max_bytes=2**20))
    assert done[-1].bytes == 2**20 and [r.test for r in done[-1].results] == ["frequency"]
    assert all(stage.skipped[-1] == ("matrix-rank", INPUT_UNDER_TWO_SAMPLES) for stage in done)


def test_tallies_that_end_their_stage_apart_do_not_wait_for_each_other(tmp_path, monkeypatch):
    """A gap test keeps a margin below the stage's end (its consumption varies), the frequency test reads to the end:
    far more apart than a window of 64 outputs. The gap test's reader rests once its stage is read, so the other goes
    on (it waited for ever); the results are those of the default window."""
    import threading

    from rnglab.empirical.battery import Battery
    from rnglab.empirical.shared_stream import SharedStream
    from rnglab.generators.external import input_spec

    battery = Battery("two", "", (Entry("gap", 10**5, {"alpha": 0.0, "beta": 1 / 16, "t": 32}),
                                  Entry("frequency", 10**5, {"d": 16})))
    path = tmp_path / "pcg64.u64"
    path.write_bytes(make_source("pcg64", 7).random_raw(2**18).astype("<u8").tobytes())

    def statistics():
        return [(s.bytes, [r.statistic for r in s.results])
                for s in stages(input_spec(str(path), "u64").make(None), battery, max_bytes=2**21)]

    expected = statistics()
    monkeypatch.setitem(SharedStream.__init__.__kwdefaults__, "window", 64)
    got = []
    run = threading.Thread(target=lambda: got.append(statistics()), daemon=True)
    run.start()
    run.join(timeout=60)
    assert not run.is_alive() and got == [expected] and len(expected) >= 5


def test_a_source_that_cannot_be_replayed_is_read_once_by_every_entry():
    """The OS source's copies would read new data: every entry reads the one stream, and the data of the stage is
    the most one entry read of it."""
    from rnglab.empirical.until_fail import TallyStream
    from rnglab.generators import OSEntropySource

    assert not OSEntropySource().replayable and make_source("pcg64", 1).replayable
    source, battery = OSEntropySource(), get_battery("smoke")
    tallies = TallyStream(source, {i: entry for i, entry in enumerate(battery.entries) if entry.incremental})
    stage, runs = run_stage(source, battery, Pacing(probe=2**13), Thresholds(), tallies)
    tallies.close()
    assert stage.bytes == 8 * max(run.read for run in runs.values()) > 0


def test_every_stage_of_a_generator_tests_the_stream_from_its_start():
    """PractRand's stages: the first 2^k bytes each time, so a stage's statistic is the entry's on a fresh copy."""
    from rnglab.empirical.battery import Battery, Entry

    battery = Battery("one", "", (Entry("frequency", 10**6, {"d": 16}),))
    done = list(stages(make_source("pcg64", 5), battery, max_bytes=2**18))
    assert len(done) >= 5
    for stage in done:
        n = stage.results[0].params["n"]
        assert stage.bytes == 8 * n
        assert stage.results[0].statistic == TESTS["frequency"](make_source("pcg64", 5), n, d=16).statistic


@pytest.mark.parametrize("name, practrand", [("randu", 2**11), ("drand48", 2**13), ("mmix", 2**14),
                                             ("delphi", 2**12), ("ranqd1", 2**12), ("java", 2**20)])
def test_power_of_two_lcgs_fail_within_practrand_s_data(name, practrand):
    """PractRand 0.94 and 0.95 fail them at these data on the same streams (bench/results/until_fail.md, `RNG_test stdin32`)."""
    result = run(name, max_bytes=2**21)
    assert result.stopped == "fail" and result.bytes_to_fail <= practrand


def test_java_seed_1_fails_within_practrand_s_mebibyte():
    """Issue #30 item 7: PractRand 0.95 fails java.util.Random's stream of seed 1 at 1 MiB; rnglab needed 1,066,176
    bytes (its stages were not powers of two); now its 1 MiB stage FAILs."""
    source = make_source("java", 1)
    result = summarise(source, get_battery("small"), list(stages(source, get_battery("small"), max_bytes=2**21)))
    assert result.stopped == "fail" and result.bytes_to_fail <= 2**20 == result.stages[-1].bytes


def test_pacing_sizes_learnt_entries_to_the_stage_and_the_others_to_the_hungriest():
    """Hand-computed: T = 2^20 outputs; serial t = 2 reads 2 outputs per sample, gap 256 (its battery n is 1,000),
    each seen at two sizes."""
    serial, gap, capped = Entry("serial", 500, {}), Entry("gap", 1000, {}), Entry("fourier", 10**9, {}, max_n=2**20)
    pacing = Pacing()
    assert pacing.size(0, serial) == 1  # before the first stage: the probe's size
    for size in (100, 200):
        pacing.learn(0, serial, size, 2 * size)
        pacing.learn(1, gap, size // 10, 256 * size // 10)
        pacing.learn(2, capped, size * 2**14, size * 2**11)  # a capped entry's consumption paces it, not the others
    pacing.target = 2**20
    assert pacing.scale == 2**20 / (1000 * 256)
    assert [pacing.size(i, e) for i, e in enumerate((serial, gap, capped))] == [2**19, 4096, 2**23]
    assert pacing.size(3, Entry("runs-up", 10**6, {})) == round(10**6 * 2**20 / 256_000)


def test_pacing_keeps_a_margin_for_an_entry_whose_consumption_varies():
    """Gap read 2,560 outputs for 10 gaps, then 5,000 for 20 (not 5,120 +- 1): at T = 2^20 outputs, r = 250, the
    largest n with 250 n + 4 * 250 sqrt(n) <= 2^20 is (sqrt(4 + 4194.304) - 2)^2 = 3943.1, less twice the error of
    the prediction, 120 / 5,000: 3753.8; serial read 2 a sample at two sizes (within one output: a whole output read
    for half of one); runs-up ran once."""
    serial, gap, runs = Entry("serial", 500, {}), Entry("gap", 1000, {}), Entry("runs-up", 10**6, {})
    pacing = Pacing()
    pacing.learn(0, serial, 100, 200)
    pacing.learn(0, serial, 1000, 2001)
    pacing.learn(1, gap, 10, 2560)
    pacing.learn(1, gap, 20, 5000)
    pacing.learn(2, runs, 10, 10)
    pacing.target = 2**20
    assert pacing.steady == {0}
    assert pacing.size(1, gap) == 3753 and pacing.error[1] == 120 / 5000
    assert pacing.size(0, serial) == int(2**20 / 2.001)
    assert pacing.size(2, runs) == 1_044_487  # (sqrt(4 + 2^20) - 2)^2 = 1,044,487.99: not yet seen steady


def test_a_tally_holding_more_samples_than_its_stage_learns_its_consumption_from_them():
    """A 128 x 128 matrix of PCG64's low bit takes 16,384 outputs (128 KiB): the tally holds the two samples of
    the probe while the first stages pace it at one, and its consumption is what it read over the samples it holds
    (it learnt twice that, over the paced one, never steady: 3 matrices at 4 MiB, too few to run); at 4 MiB it runs
    with the 32 matrices the stage holds."""
    entry = Entry("matrix-rank", 100, {"rows": 128, "columns": 128}, bits=BitSelection(low=1))
    last = list(stages(make_source("pcg64", 1), Battery("wide", "", (entry,)), max_bytes=2**22))[-1]
    assert last.bytes == 2**22 and last.skipped == ()
    assert last.results[0].params["n"] == 32


def test_stages_double_from_1_kib_and_the_last_is_the_allowance():
    from rnglab.empirical.until_fail import stage_bytes

    assert list(stage_bytes(1024, 3 * 2**12)) == [1024, 2048, 4096, 8192, 3 * 2**12]
    assert list(stage_bytes(1024, 2**13)) == [1024, 2048, 4096, 2**13]
    assert list(stage_bytes(1024, 512)) == [512]


def test_the_stages_examine_powers_of_two_and_then_the_whole_allowance():
    """PractRand's stages: ``--max-bytes 6 MiB`` examines 1, 2, 4 MiB then 6 MiB (was 1.07, 2.16, 4.37 MiB and
    stopped there, under the allowance); every test below its cap reads most of it (the gap tests keep a margin of
    four standard deviations of their random consumption, less twice the error of their last prediction: 28% at
    1 MiB for gap low=10, whose prediction at 512 KiB was 4.5% off; 25% when it learnt from its first stages
    twice its consumption, before a tally's consumption was learnt over the samples it holds)."""
    result = run("pcg64", max_bytes=6 * 2**20)
    sizes = [stage.bytes for stage in result.stages]
    assert sizes[-4:] == [2**20, 2**21, 2**22, 6 * 2**20] and sizes[0] == 1024
    assert all(stage.bytes_every >= 0.7 * stage.bytes for stage in result.stages[-4:])


def test_every_test_below_its_cap_reads_the_whole_stage(pcg64_to_32_mib):
    """PractRand's model: at 32 MiB of PCG64 every entry reads the stage, within 6% (the gap and coupon tests read a
    random number of outputs per sample and keep a margin so as not to read past the stage: 4.7% here); the
    maximum-of-t test, which needs n >= 500,000, runs too, its tally having counted from the stream's start."""
    result = pcg64_to_32_mib
    last = result.stages[-1]
    assert last.bytes == 2**25 and last.skipped == ()
    assert any(stage.skipped for stage in result.stages)  # the validity rules did skip the small stages
    assert last.bytes_every >= 0.94 * last.bytes


def test_an_entry_kept_at_its_cap_is_not_the_least_reader():
    """At 256 MiB of PCG64 the last line said "every test below its cap read at least 128 MiB (birthday-spacings
    d=2^30 t=2)": an entry kept from the stage before (held at its cap) was counted as below it."""
    from rnglab.empirical.battery import Battery

    battery = Battery("two", "", (Entry("frequency", 10**5, {"d": 16}), Entry("frequency", 10**5, {"d": 4},
                                                                                  max_n=2**12)))
    done = list(stages(make_source("pcg64", 5), battery, max_bytes=2**18))
    assert [s.results[1].params["n"] for s in done[-3:]] == [2**12] * 3
    assert all(s.bytes_every == s.bytes and s.least_reader == "frequency d=16" for s in done[-3:])


def test_a_capped_entry_keeps_its_result_on_the_same_prefix(pcg64_to_32_mib):
    """Fourier at its cap (2^22 bits) reads the same 512 KiB at every later stage: its result is reused, not rerun."""
    result = pcg64_to_32_mib
    fourier = [dict(zip(stage.labels, stage.results)).get("fourier") for stage in result.stages[-3:]]
    assert fourier[0].params["n"] == 2**22 and fourier[0] is fourier[1] is fourier[2]


def at_once(result, name: str, seed: int):
    """The test of ``result`` run at once on a fresh copy of the generator, with its ``small`` entry's options."""
    selection = BitSelection(result.params["drop"], result.params["keep"], result.params["low"])
    entry, = (entry for entry in get_battery("small").entries if entry.test == result.test and
              (entry.bits or BitSelection()) == selection and
              all(result.params.get(key) == value for key, value in entry.options.items()))
    return TESTS[result.test](select(make_source(name, seed), selection), result.params["n"], **entry.options)


def test_every_result_of_a_stage_is_its_test_at_once_on_the_stream_s_start():
    """The entries share one generation of the stream (threads), and the tallies go on from stage to stage reading
    only the new data: every result is still its test run at once on the stream's first samples."""
    result = run("pcg64", max_bytes=2**21)
    checked = 0
    for stage in result.stages[-4:]:
        for got in stage.results:
            expected = at_once(got, "pcg64", 12345)
            assert (got.statistic, got.pvalue) == pytest.approx((expected.statistic, expected.pvalue), rel=1e-12)
            checked += 1
    assert checked > 40


def test_the_whole_sample_tests_count_in_blocks_carried_from_stage_to_stage():
    """Birthday spacings and collision were re-read from the stream's start at every stage, up to 2^23 values held
    at once: they now count in blocks of 2^20 and 2^22 (a tally, carried on), and at 24 MiB of PCG64 (past the
    birthdays' first block), each has read the stage's data and equals its test at once on those samples."""
    blocked = [entry for entry in get_battery("small").entries if entry.test in ("birthday-spacings", "collision")]
    assert all(entry.incremental for entry in blocked)
    assert [entry.options["block"] for entry in blocked] == [2**20, 2**22, 2**20]
    last = run("pcg64", max_bytes=24 * 2**20).stages[-1]
    results = [got for got in last.results if got.test in ("birthday-spacings", "collision")]
    assert [got.params["n"] for got in results] == [3 * 2**19, 3 * 2**19, 2**20]  # 16, 16 and 24 bytes each
    for got in results:
        expected = at_once(got, "pcg64", 12345)
        assert (got.statistic, got.pvalue) == (expected.statistic, expected.pvalue)



def test_a_capped_tally_stops_at_its_cap_and_the_stream_holds_nothing_for_it(tmp_path, monkeypatch):
    """A tally with ``max_n`` (the core battery's birthday spacings and collision) counts the stream's first max_n
    samples, then keeps its result at every later stage, on an input read once too, and closes its reader: the
    stream, which keeps what follows a resting reader, holds nothing for it (at 2^21 bytes it held 2^18 words for
    it, the whole input past its cap, when it only rested)."""
    from rnglab.empirical import until_fail
    from rnglab.empirical.battery import Battery
    from rnglab.generators.external import input_spec

    capped = Entry("frequency", 10**5, {"d": 16}, max_n=2**14)
    battery = Battery("two", "", (capped, Entry("frequency", 10**5, {"d": 256})))
    path = tmp_path / "pcg64.u64"
    path.write_bytes(make_source("pcg64", 8).random_raw(2**18).astype("<u8").tobytes())
    streams = []
    monkeypatch.setattr(until_fail, "TallyStream", lambda *args: streams.append(TallyStream(*args)) or streams[-1])
    done = list(stages(input_spec(str(path), "u64").make(None), battery, max_bytes=2**21))
    first = [stage.results[0] for stage in done if stage.results and stage.results[0].params["n"] == 2**14]
    assert len(first) >= 3 and all(result is first[0] for result in first)
    assert first[0].statistic == TESTS["frequency"](make_source("pcg64", 8), 2**14, d=16).statistic
    assert done[-1].results[1].params["n"] > 2**17 and 0 not in streams[0].stream._positions


def test_the_battery_s_import_path_leaves_out_scipy_stats():
    """scipy.stats costs about 0.75 CPU s and 47 MiB to import (issue #30): a run of the battery reads its tails
    from rnglab.core.laws, and the test registry, the battery and the run until failure do not import it."""
    code = ("import sys, rnglab.empirical.until_fail, rnglab.empirical.stattests, rnglab.cli.until_fail; "
            "print(sorted(m for m in ('scipy.stats', 'scipy.optimize') if m in sys.modules))")
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "[]"
