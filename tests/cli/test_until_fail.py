"""``rnglab test --until-fail`` (rnglab.cli.until_fail): a line per stage, the conclusion, the JSON, and the
inputs it refuses (too short to test, a stream whose producer stopped).

The stages themselves are tested in tests/empirical/test_until_fail.py.
"""

from __future__ import annotations

import json

import pytest
from cli_runs import run

from rnglab.generators import make_source


def test_cli_prints_a_line_per_stage_and_the_data_needed_to_fail(capsys):
    status, out, _ = run(["test", "randu", "--battery", "small", "--until-fail", "--max-bytes", "16MiB"], capsys)
    lines = out.splitlines()
    assert status == 1 and lines[-1].startswith("data needed to fail: ")
    assert sum("FAIL" in line for line in lines[1:-1]) == 1 and lines[1].split()[:2] == ["1023", "bytes"]  # 31-bit outputs


def test_cli_json_lists_every_stage(capsys):
    status, out, _ = run(["test", "pcg64", "--battery", "small", "--until-fail", "--max-bytes", "4MiB", "--json"],
                         capsys)
    data = json.loads(out)
    assert status == 0 and data["bytes_to_fail"] is None and data["stopped"] == "limit"
    assert [stage["bytes"] for stage in data["stages"]] == sorted(stage["bytes"] for stage in data["stages"])
    assert all({"bytes", "worst", "tests", "skipped"} <= set(stage) for stage in data["stages"])


def test_cli_reads_a_file_to_its_end(tmp_path, capsys):
    """A file shorter than the allowance is tested to its last whole word: a last stage on all of it."""
    from rnglab.streams.gateway import packed_words

    path = tmp_path / "pcg64.u32"
    path.write_bytes(packed_words(make_source("pcg64", 3), 3 * 2**18 + 1).astype("<u4").tobytes() + b"ab")
    status, out, _ = run(["test", str(path), "--format", "u32", "--battery", "small", "--until-fail", "--json"],
                         capsys)
    data = json.loads(out)
    assert status == 0 and data["stopped"] == "limit"
    assert [stage["bytes"] for stage in data["stages"]][-3:] == [2**20, 2**21, 3 * 2**20 + 4]



def test_cli_tests_a_file_of_one_mib_and_a_word_to_its_end_with_the_smoke_battery(tmp_path, capsys):
    """The smoke battery on 1 MiB + 4 bytes (the least input and one word): the last stage is on all of it, as
    PractRand's, and the run says it reached the input's end (the brief of issue #30 saw it lose that stage)."""
    from rnglab.streams.gateway import packed_words

    path = tmp_path / "pcg64.u32"
    path.write_bytes(packed_words(make_source("pcg64", 5), 2**18 + 1).astype("<u4").tobytes())
    status, out, _ = run(["test", str(path), "--format", "u32", "--battery", "smoke", "--until-fail", "--json"],
                         capsys)
    data = json.loads(out)
    assert status == 0 and data["stopped"] == "limit"
    assert [stage["bytes"] for stage in data["stages"]][-2:] == [2**20, 2**20 + 4]

def piped(data: bytes, monkeypatch):
    """Standard input as a pipe holding ``data`` (no size known in advance)."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


@pytest.mark.parametrize("data", [b"", b"abc", make_source("pcg64", 1).random_raw(512).astype("<u8").tobytes()],
                         ids=["empty", "3 bytes", "4 KiB of pcg64"])
def test_cli_refuses_a_stream_too_short_to_test(data, monkeypatch, capsys):
    """Issue #30 item 6: empty input, 3 bytes, 4 KiB of a good stream gave "no anomaly up to 0 bytes" and status 0."""
    piped(data, monkeypatch)
    status, out, err = run(["test", "-", "--format", "u32", "--until-fail"], capsys)
    assert status == 2 and "no anomaly" not in out and err == (
        f"Error: stdin holds {len(data):,} bytes; --until-fail needs at least 1,048,576 (1 MiB): below "
        f"1 MiB most tests of a battery are refused by their validity rules, and a stream that ends early (a "
        f"generator that crashed) is not a pass\n")


@pytest.mark.parametrize("path, size", [("/dev/null", 0), ("short", 4096)])
def test_cli_refuses_a_file_too_short_to_test_before_reading_it(path, size, tmp_path, capsys):
    if path == "short":
        path = tmp_path / "short.u32"
        path.write_bytes(bytes(size))
    status, out, err = run(["test", str(path), "--format", "u32", "--until-fail"], capsys)
    assert (status, out) == (2, "") and f"holds {size:,} bytes; --until-fail needs at least 1,048,576" in err


def test_cli_tests_a_short_stream_to_a_smaller_allowance(monkeypatch, capsys):
    """--max-bytes below 1 MiB is the data asked for: a stream that holds it is tested, one that does not is not."""
    piped(make_source("pcg64", 1).random_raw(1024).astype("<u8").tobytes(), monkeypatch)
    status, out, _ = run(["test", "-", "--format", "u64", "--until-fail", "--max-bytes", "8KiB"], capsys)
    assert status == 0 and out.splitlines()[-1].startswith("no anomaly up to 8 KiB (a limit was reached)")
    piped(make_source("pcg64", 1).random_raw(512).astype("<u8").tobytes(), monkeypatch)
    status, out, err = run(["test", "-", "--format", "u64", "--until-fail", "--max-bytes", "8KiB"], capsys)
    assert status == 2 and "no anomaly" not in out
    assert "holds 4,096 bytes; --until-fail needs at least 8,192 (8 KiB)" in err


def test_cli_a_short_stream_that_fails_is_a_fail(monkeypatch, capsys):
    """4 KiB of zeros FAIL within the data there is (six tests at the first KiB): status 1, not a refusal."""
    piped(bytes(4096), monkeypatch)
    status, out, _ = run(["test", "-", "--format", "u32", "--until-fail"], capsys)
    assert status == 1 and out.splitlines()[-1] == (
        "data needed to fail: 1 KiB (birthday-spacings d=2^30 t=2, collision, birthday-spacings d=2^20 t=3, "
        "hamming-weight, frequency low=8, linear-complexity low=1)")


def test_cli_a_stream_that_stops_before_the_allowance_is_not_a_pass(monkeypatch, capsys):
    """Its stages are reported, then one line and status 2 (was status 0: a crashed producer passed)."""
    piped(make_source("pcg64", 1).random_raw(2**18 + 3).astype("<u8").tobytes(), monkeypatch)
    status, out, err = run(["test", "-", "--format", "u64", "--until-fail"], capsys)
    assert status == 2 and out.splitlines()[-2].split()[:2] == ["2", "MiB"]
    assert err == ("Error: stdin ended after 2,097,176 bytes, before the 1 TiB of --max-bytes: its producer stopped, "
                   "so the run is not a pass (to test a finite stream, give it as a FILE or give --max-bytes)\n")


def test_a_producer_killed_mid_stream_ends_the_run_with_status_2():
    """A real pipe: the producer writes 2 MiB and is killed (SIGKILL); rnglab's status is 2, not 0."""
    import os
    import subprocess
    import sys

    producer = "import os, sys; sys.stdout.buffer.write(os.urandom(2**21)); sys.stdout.flush(); os.kill(os.getpid(), 9)"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ended = subprocess.run(["sh", "-c", '"$0" -c "$1" | "$0" -m rnglab test - --format u32 --until-fail',
                            sys.executable, producer], capture_output=True, text=True, timeout=300, check=False,
                           env={**os.environ, "PYTHONPATH": root, "RNGLAB_PROGRESS": "0"})
    assert ended.returncode == 2 and ended.stderr.splitlines()[-1].startswith(
        "Error: stdin ended after 2,097,152 bytes, before")  # the line before is the shell's: "Killed"
    assert "Traceback" not in ended.stderr and ended.stdout.splitlines()[-2].split()[:2] == ["2", "MiB"]


@pytest.mark.parametrize("args, message", [
    (["--until-fail", "--n", "1000"], "leave out --n"),
    (["--max-time", "1h"], "--max-time applies to --until-fail"),
    (["--until-fail", "--max-bytes", "1 TB"], "cannot parse"),
    (["--until-fail", "--max-time", "soon"], "a duration is a number and a unit"),
])
def test_cli_refuses_what_does_not_apply(args, message, capsys):
    status, out, err = run(["test", "pcg64", *args], capsys)
    assert status == 2 and out == "" and message in err


def test_cli_prints_a_header_a_line_per_stage_and_what_every_test_read(capsys):
    # The stages are sized in bytes, so the lines are the same on any machine but for the seconds and the rate.
    status, out, _ = run(["test", "pcg64", "--battery", "smoke", "--until-fail", "--max-bytes", "64KiB"], capsys)
    lines = out.splitlines()
    assert status == 0 and lines[0] == ("pcg64, battery smoke until it fails, on up to 64 KiB: data read, worst "
                                        "verdict, the tests that raised it")
    # the 32 KiB stage read 34.1 KiB before a tally learnt its consumption over the samples it holds
    assert [line.split("normal")[0].strip() for line in lines[1:-1]] == [
        "1.01 KiB", "2 KiB", "4 KiB", "8 KiB", "16 KiB", "32 KiB", "64 KiB"]
    assert lines[-1] == ("no anomaly up to 64 KiB (a limit was reached); every test below its cap read at least "
                         "216 bytes (fourier)")


def test_cli_interrupted_says_so_and_exits_130(monkeypatch, capsys):
    # Ctrl-C after the first stage: the stage done is reported, then why the run stopped, and status 130.
    from rnglab.empirical import until_fail

    real = until_fail.stages

    def first_then_interrupt(*args, **kwargs):
        yield next(real(*args, **kwargs))
        raise KeyboardInterrupt

    monkeypatch.setattr(until_fail, "stages", first_then_interrupt)
    status, out, _ = run(["test", "pcg64", "--battery", "smoke", "--until-fail", "--max-bytes", "64KiB"], capsys)
    lines = out.splitlines()
    assert status == 130 and len(lines) == 3 and lines[1].split()[:3] == ["1.01", "KiB", "normal"]
    assert lines[-1].startswith("no anomaly up to 1.01 KiB (interrupted); ")


@pytest.mark.slow
def test_cli_a_file_read_to_its_end_is_the_whole_input(tmp_path, capsys):
    # A file shorter than --max-bytes is tested to its last whole word, and the conclusion says it was all of it.
    from rnglab.streams.gateway import packed_words

    path = tmp_path / "pcg64.u32"
    path.write_bytes(packed_words(make_source("pcg64", 3), 2**19).astype("<u4").tobytes() + b"ab")
    status, out, _ = run(["test", str(path), "--format", "u32", "--battery", "smoke", "--until-fail",
                          "--max-bytes", "4MiB"], capsys)
    assert status == 0 and out.splitlines()[-1] == ("no anomaly up to 2 MiB (the whole input); every test below "
                                                    "its cap read at least 1.93 MiB (coupon)")


@pytest.mark.skipif(not hasattr(__import__("os"), "sched_setaffinity"), reason="no CPU affinity on this platform")
def test_cli_runs_the_tests_threads_on_one_cpu_and_gives_the_cpus_back(monkeypatch, capsys):
    """The battery's threads contend for Python's lock: a run until it fails keeps them on one CPU
    (rnglab.parallel.cpus), and the process has all its CPUs again after it."""
    import os

    from rnglab.empirical import until_fail

    real, seen = until_fail.stages, []

    def watched(*args, **kwargs):
        seen.append(os.sched_getaffinity(0))
        yield from real(*args, **kwargs)

    monkeypatch.setattr(until_fail, "stages", watched)
    before = os.sched_getaffinity(0)
    status, _, _ = run(["test", "pcg64", "--battery", "smoke", "--until-fail", "--max-bytes", "64KiB"], capsys)
    assert status == 0 and len(seen[0]) == 1 and seen[0] <= before and os.sched_getaffinity(0) == before
