"""The options of chunked work (rnglab.cli.cluster): ``--cluster``/``--workers`` into one :class:`Scale`, the journal
held for a run, and how an incomplete run ends (which chunks failed, how to go on, status 1 or 130).

The chunked work itself is tested in tests/parallel/.
"""

from types import SimpleNamespace

import click
import pytest
from cli_runs import run
from click.testing import CliRunner

from rnglab.cli.cluster import Scale, exit_incomplete, held_journal, scale_options


def test_any_option_engages_the_parallel_layer():
    assert not Scale().engaged
    assert all(scale.engaged for scale in (Scale(workers=2), Scale(cluster="tcp://h:8786"), Scale(journal="j"),
                                           Scale(chunk=10), Scale(device="gpu")))


@pytest.mark.parametrize("args, message", [
    (["crack", "msvc", "--seeds", "0..9", "--seen", "As", "--cluster", "tcp://localhost:1", "--workers", "2"],
     "Error: give --cluster (an existing scheduler) or --workers (local processes), not both\n"),
    (["reach", "msvc", "--seeds", "0..9", "--workers", "0"],
     "Error: Invalid value for '--workers': must be >= 1; got 0\n"),
    (["crack", "msvc", "--seeds", "0..9", "--seen", "As", "--chunk", "0"],
     "Error: Invalid value for '--chunk': must be >= 1; got 0\n"),
    (["crack", "msvc", "--seeds", "0..9", "--seen", "As", "--device", "tpu"],
     "Error: Invalid value for '--device': 'tpu' is not one of 'cpu', 'gpu'.\n"),
])
def test_the_options_are_refused_before_any_work(args, message, capsys):
    assert run(args, capsys) == (2, "", message)


def test_each_command_takes_the_options_that_fit_it():
    @click.command()
    @scale_options(journal=False, chunk=None)
    def plain(scale):
        click.echo(repr(scale))

    @click.command()
    @scale_options(chunk="CANDIDATES", device=True)
    def full(scale):
        click.echo(repr(scale))

    assert [p.name for p in plain.params] == ["cluster", "workers"]
    assert [p.name for p in full.params] == ["cluster", "workers", "journal", "chunk", "device"]
    assert next(p for p in full.params if p.name == "chunk").metavar == "CANDIDATES"
    result = CliRunner().invoke(full, ["--chunk", "7", "--journal", "j.jsonl", "--device", "gpu"])
    assert result.output == "Scale(cluster=None, workers=None, journal='j.jsonl', chunk=7, device='gpu')\n"


def test_failed_chunks_are_named_and_the_run_exits_1(capsys):
    failures = [SimpleNamespace(first=0, stop=100, error="worker died"), SimpleNamespace(first=300, stop=400,
                                                                                        error="timeout")]
    with pytest.raises(click.exceptions.Exit) as ended:
        exit_incomplete(failures, None, "--seeds 0..99,300..399", note=" (searched space)")
    assert ended.value.exit_code == 1
    assert capsys.readouterr().err.splitlines() == [
        "Failed: seeds 0..99 (searched space) after every retry: worker died",
        "Failed: seeds 300..399 (searched space) after every retry: timeout",
        "Incomplete: resume with --seeds 0..99,300..399"]


def test_an_interrupted_run_with_a_journal_is_run_again_and_exits_130(capsys):
    with pytest.raises(click.exceptions.Exit) as ended:
        exit_incomplete([], "run.jsonl", "--seeds 40..99")
    assert ended.value.exit_code == 130
    assert capsys.readouterr().err == "Interrupted: run the same command (journal run.jsonl)\n"


def test_a_journal_is_held_for_the_block_and_says_what_it_holds(tmp_path, capsys):
    path = str(tmp_path / "j.jsonl")
    with held_journal(None, "rnglab test", {}) as none:
        assert none is None
    with held_journal(path, "rnglab test", {"seeds": [0, 10]}) as journal:
        journal.record(0, 4, [1])
        journal.record(4, 6, [2])
    assert capsys.readouterr().err == ""                           # a new journal holds nothing yet
    with held_journal(path, "rnglab test", {"seeds": [0, 10]}, "run") as again:
        assert again.done == [(0, 4), (4, 6)]
    assert journal.handle is None and again.handle is None          # closed when the block ended
    assert capsys.readouterr().err == f"journal {path}: 2 chunks already run\n"


def test_cluster_and_workers_are_refused_before_the_command_runs():
    # The command never starts (the library's cluster_client refuses the pair too, but only once work starts).
    @click.command()
    @scale_options()
    def command(scale):
        pytest.fail("the command ran")

    result = CliRunner().invoke(command, ["--cluster", "tcp://localhost:1", "--workers", "2"])
    assert result.exit_code == 2 and result.output.splitlines()[-1] == (
        "Error: give --cluster (an existing scheduler) or --workers (local processes), not both")
