"""Progress goes to standard error on a terminal only, never with --json or when piped (rnglab.cli.progress)."""

import os
import pty
import subprocess
import sys
from pathlib import Path

import click
import pytest

from rnglab.cli import progress as progress_module
from rnglab.cli.progress import counter, shown, with_progress

CHECKOUT = Path(__file__).resolve().parents[2]


def test_forced_on_and_off(monkeypatch):
    monkeypatch.setenv("RNGLAB_PROGRESS", "1")
    assert shown()
    monkeypatch.setenv("RNGLAB_PROGRESS", "0")
    assert not shown()


def test_json_hides_progress_even_when_forced(monkeypatch):
    monkeypatch.setenv("RNGLAB_PROGRESS", "1")
    with click.Context(click.Command("x"), obj=None) as context:
        context.params["as_json"] = True
        assert not shown()
        context.params["as_json"] = False
        assert shown()


def test_counter_shows_count_and_rate(monkeypatch, capsys):
    monkeypatch.setenv("RNGLAB_PROGRESS", "1")
    monkeypatch.setattr(progress_module.time, "monotonic", iter([0.0, 2.0, 2.05, 4.0]).__next__)
    with counter("states", "steps") as running:
        running.update(1000)   # t = 2 s: shown
        running.update(1000)   # t = 2.05 s: too soon, not redrawn
        assert running.count == 2000
    line = "states: 1,000 steps (500/s)"
    assert capsys.readouterr().err == f"\r{line}\r{' ' * len(line)}\r"


def test_with_progress_passes_the_result_and_is_silent_when_hidden(monkeypatch, capsys):
    monkeypatch.setenv("RNGLAB_PROGRESS", "0")

    def run(callback):
        for done in range(1, 4):
            callback(done, 3, f"step {done}")
        return 42

    assert with_progress("work", run) == 42
    assert capsys.readouterr().err == ""


def run_command(arguments, terminal: bool):
    """Run ``rnglab arguments``, standard error a pseudo-terminal or a pipe; return (stdout, stderr)."""
    environment = {**os.environ, "PYTHONPATH": str(CHECKOUT), "COLUMNS": "100"}
    environment.pop("RNGLAB_PROGRESS", None)
    if not terminal:
        done = subprocess.run([sys.executable, "-m", "rnglab", *arguments], env=environment, capture_output=True,
                              text=True, check=True)
        return done.stdout, done.stderr
    main, secondary = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "rnglab", *arguments], env=environment,
                               stdout=subprocess.PIPE, stderr=secondary, text=True)
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    stdout = process.stdout.read()
    assert process.wait() == 0
    os.close(main)
    return stdout, b"".join(chunks).decode()


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_battery_progress_on_a_terminal_only():
    arguments = ["test", "msvc", "--battery", "smoke"]
    stdout, stderr = run_command(arguments, terminal=True)
    assert "smoke battery" in stderr and "100%" in stderr
    piped_out, piped_err = run_command(arguments, terminal=False)
    assert piped_err == "" and piped_out.splitlines()[1:] == stdout.splitlines()[1:]  # line 0 has the time
    json_out, json_err = run_command([*arguments, "--json"], terminal=True)
    assert json_err == "" and json_out.lstrip().startswith("{")


def test_the_exact_transposition_law_reports_each_swap():
    from rnglab.shuffles.fairness import transposition_law

    calls = []
    law = transposition_law(4, 3, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    plain = transposition_law(4, 3)         # the callback changes nothing
    assert (law.counts, law.sizes, law.denominator) == (plain.counts, plain.sizes, plain.denominator)


def test_the_report_names_each_section_with_its_place(tmp_path):
    from rnglab.report import Section, build_report

    def first(context):
        return Section("First", ["one"])

    def second(context):
        return Section("Second", ["two"])

    calls = []
    build_report(tmp_path / "report", sections=[first, second], on_section=lambda *call: calls.append(call))
    module = first.__module__.rsplit(".", 1)[-1]
    assert calls == [(module, 0, 2), (module, 1, 2), ("", 2, 2)]
