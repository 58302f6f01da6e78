"""A journal is held by one run at a time, and a chunk it records twice counts once (issue #27)."""

import json
import os
import subprocess
import sys

import pytest

from rnglab.cli import main
from rnglab.core.fileio import write_record
from rnglab.parallel.journal import open_journal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: The run of the issue: a battery of two tests over 16 seeds of PCG64, one chunk a seed.
OVER_SEEDS = ["test", "pcg64", "--tests", "frequency,serial", "--seeds", "0..15", "--json"]
#: What the clean run reports of the seeds' frequency p-values: A^2 2.139, p 0.078 (issue #27).
CLEAN_UNIFORMITY = (2.139, 0.078)


def _result(capsys, journal) -> dict:
    assert main([*OVER_SEEDS, "--journal", str(journal)]) == 0
    result = json.loads(capsys.readouterr().out)
    del result["seconds"]
    return result


def _holder(path) -> subprocess.Popen:
    """Another process that opens the journal ``path`` and holds it until its standard input closes."""
    program = ("import sys; from rnglab.parallel.journal import open_journal; "
               f"journal = open_journal({str(path)!r}, 'rnglab test', {{}}); print('held', flush=True); "
               "sys.stdin.read()")
    holder = subprocess.Popen([sys.executable, "-c", program], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "PYTHONPATH": ROOT})
    assert holder.stdout.readline() == "held\n"
    return holder


def test_a_second_run_is_refused_while_another_process_holds_the_journal(tmp_path):
    path = tmp_path / "j"
    holder = _holder(path)
    try:
        second = subprocess.run([sys.executable, "-m", "rnglab", *OVER_SEEDS, "--journal", str(path)],
                                check=False, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ROOT}, timeout=120)
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    assert second.returncode == 2 and second.stdout == ""
    assert second.stderr == (f"Error: journal {path} is held by another run (pid {holder.pid}); wait for it to end, "
                             "or give another file to --journal\n")
    assert path.read_text() == json.dumps({"journal": "rnglab test", "work": {}}) + "\n"  # nothing recorded


def test_a_journal_is_held_until_it_is_closed(tmp_path):
    path = tmp_path / "j"
    with open_journal(path, "rnglab test", {}), \
            pytest.raises(ValueError, match=f"held by another run \\(pid {os.getpid()}\\)"):
        open_journal(path, "rnglab test", {})
    with open_journal(path, "rnglab test", {}) as again:
        again.record(0, 4, [1])
    assert open_journal(path, "rnglab test", {}).records == [(0, 4, [1])]


def test_a_chunk_recorded_twice_counts_once(tmp_path, capsys):
    clean = _result(capsys, tmp_path / "clean")
    assert clean["runs"] == 16
    assert tuple(round(v, 3) for v in clean["uniformity"][0]) == CLEAN_UNIFORMITY
    lines = (tmp_path / "clean").read_text().splitlines(keepends=True)
    shared = tmp_path / "shared"  # what two runs sharing the journal wrote: every chunk twice, 33 lines
    shared.write_text(lines[0] + "".join(lines[1:]) + "".join(lines[1:]))
    assert _result(capsys, shared) == clean
    assert len(shared.read_text().splitlines()) == 33


@pytest.mark.parametrize(("second", "refusal"), [
    ((0, 4, [2]), r"records chunk \[0, 4\) twice with different results"),  # one chunk, two results
    ((2, 6, [1]), r"overlapping chunks at \[2, 4\)"),                        # seeds 2 and 3 counted twice
])
def test_records_that_cannot_be_counted_once_are_refused(tmp_path, second, refusal):
    path = tmp_path / "j"
    with open_journal(path, "rnglab test", {}) as journal:
        journal.record(0, 4, [1])
        journal.record(*second)
    with pytest.raises(ValueError, match=refusal):
        open_journal(path, "rnglab test", {})


def test_a_journal_that_is_not_a_regular_file_is_refused(capsys):
    assert main(["reach", "msvc", "--seeds", "0..10", "--journal", "/dev/null"]) == 2
    assert capsys.readouterr().err == ("Error: journal /dev/null is not a regular file; "
                                       "give a file to --journal\n")


def test_a_record_the_disk_refuses_is_one_error():
    handle = os.open("/dev/full", os.O_WRONLY)
    try:
        with pytest.raises(ValueError, match="^cannot write to /dev/full: No space left on device$"):
            write_record(handle, "{}", "/dev/full")
    finally:
        os.close(handle)
