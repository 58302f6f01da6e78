"""Start-up: ``rnglab --help`` and ``rnglab CMD --help`` import no heavy dependency (issue 12).

The CPU cost itself is measured by ``bench/bench_startup.py``, not asserted here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from rnglab.cli import COMMANDS, main, rnglab

CHECKOUT = Path(__file__).resolve().parents[2]
HEAVY = ("matplotlib", "scipy", "numba")
LOADED = """
import sys
from rnglab.cli import main
try:
    main({argv!r})
except SystemExit:
    pass
print(",".join(name for name in {heavy!r} if name in sys.modules), file=sys.stderr)
"""


def heavy_modules_loaded(argv: list[str]) -> str:
    """Run ``rnglab argv`` in a fresh interpreter; the heavy modules it imported, comma-separated."""
    environment = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    done = subprocess.run([sys.executable, "-c", LOADED.format(argv=argv, heavy=HEAVY)], env=environment,
                          capture_output=True, text=True, check=True)
    return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""


@pytest.mark.parametrize("argv", [["--help"], ["spectral", "--help"], ["reduce", "--help"], ["fairness", "--help"]])
def test_help_imports_no_heavy_module(argv):
    assert heavy_modules_loaded(argv) == ""


@pytest.mark.parametrize("argv", [["list"], ["list", "--json"]])
def test_list_reads_the_catalog_without_building_generators(argv):
    # issue 31: list built every generator for its range, importing numba (1.5 s); the spec declares the range
    assert heavy_modules_loaded(argv) == ""


@pytest.mark.parametrize("name", list(COMMANDS))
def test_summary_is_the_first_line_of_the_command_help(name):
    command = rnglab.get_command(click.Context(rnglab), name)
    assert COMMANDS[name][1] == command.help.splitlines()[0]


def test_group_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out.split("Commands:")[1].split()
    assert len(COMMANDS) == 15
    assert all(name in listed for name in COMMANDS)
