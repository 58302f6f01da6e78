"""``rnglab audit`` (rnglab.cli.audit): what it refuses before any section runs, one line and status 2.

The audit's sections, grades and report are tested in tests/audit/ (test_run.py for whole audits: a named pipeline
takes tens of seconds).
"""

import pytest

from rnglab.cli import main


def refusal(args, capsys) -> str:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and err.count("\n") == 1
    return err


def test_an_unknown_pipeline_lists_the_pipelines(tmp_path, capsys):
    err = refusal(["audit", "no-such-pipeline", "--out", str(tmp_path / "a")], capsys)
    assert "unknown pipeline 'no-such-pipeline'; choose from deitel-glibc, deitel-msvc," in err
    assert not (tmp_path / "a").exists()


def test_a_toml_with_unknown_keys_lists_the_keys(tmp_path, capsys):
    toml = tmp_path / "mine.toml"
    toml.write_text('generator = "msvc"\nbogus = 1\n')
    err = refusal(["audit", str(toml), "--out", str(tmp_path / "a")], capsys)
    assert "unknown keys bogus; the keys are generator, seeding, window, reducer, shuffle, function" in err


@pytest.mark.parametrize("option", ["--games-per-day", "--cards-seen", "--tables"])
def test_counts_start_at_one(option, tmp_path, capsys):
    err = refusal(["audit", "deitel-msvc", option, "0", "--out", str(tmp_path / "a")], capsys)
    assert f"Invalid value for '{option}': 0 is not in the range x>=1." in err
