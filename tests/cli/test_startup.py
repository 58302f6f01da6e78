"""Start-up: ``rnglab --help`` and ``rnglab CMD --help`` import no heavy dependency (issue 12), and a command
imports only the heavy libraries its work needs (issue 31).

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
#: The heavy libraries a command that runs kernels may or may not need. scipy itself is left out: numba's
#: first kernel of a process imports scipy.linalg (numba.np.arraymath's check for BLAS), whatever it runs.
WORK_HEAVY = ("numba", "scipy.special", "scipy.fft", "scipy.stats", "scipy.optimize", "matplotlib", "dask",
              "distributed")
LOADED = """
import sys
from rnglab.cli import main
try:
    main({argv!r})
except SystemExit:
    pass
print("heavy:" + ",".join(name for name in {heavy!r} if name in sys.modules), file=sys.stderr)
"""


def heavy_modules_loaded(argv: list[str], heavy: tuple[str, ...] = HEAVY) -> str:
    """Run ``rnglab argv`` in a fresh interpreter; the modules of ``heavy`` it imported, comma-separated."""
    environment = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    done = subprocess.run([sys.executable, "-c", LOADED.format(argv=argv, heavy=heavy)], env=environment,
                          capture_output=True, text=True, check=True)
    return done.stderr.splitlines()[-1].removeprefix("heavy:")  # the last line (the command may write to stderr)


@pytest.mark.parametrize("argv", [["--help"], ["spectral", "--help"], ["reduce", "--help"], ["fairness", "--help"]])
def test_help_imports_no_heavy_module(argv):
    assert heavy_modules_loaded(argv) == ""


@pytest.mark.parametrize("argv", [["list"], ["list", "--json"]])
def test_list_reads_the_catalog_without_building_generators(argv):
    # issue 31: list built every generator for its range, importing numba (1.5 s); the spec declares the range
    assert heavy_modules_loaded(argv) == ""


@pytest.mark.parametrize(("argv", "needed"), [
    (["gen", "msvc", "-n", "5"], ""),
    (["deal", "msvc", "--seed", "1"], ""),  # a few decks are swapped by numpy (shuffles.steps.swap)
    (["deal", "java", "--seed", "1"], ""),  # and a few draws mapped by numpy (core.compiled.kernel_serves)
    (["shuffle", "pcg64", "--seed", "1"], ""),  # Lemire's 128-bit products too (reduction.maps)
    (["crack", "msvc", "--seeds", "0..999", "--seen", "0,1,2,3,4"], ""),  # numpy deals a small search's decks
    (["test", "randu", "--battery", "smoke"], "numba,scipy.special,scipy.fft"),  # its p-values, its Fourier test
])
def test_a_command_imports_only_the_heavy_libraries_its_work_needs(argv, needed):
    # issue 31: crack imported scipy.stats and scipy.optimize (about 1.4 CPU s) through the fairness module's
    # chi-square and scipy.special and scipy.fft through the test registry's modules; a seed search needs none.
    # A deal ran numba's kernels (about 0.7 CPU s to load) for 51 swaps of one deck
    assert heavy_modules_loaded(argv, WORK_HEAVY) == needed


@pytest.mark.parametrize("name", list(COMMANDS))
def test_summary_is_the_first_line_of_the_command_help(name):
    command = rnglab.get_command(click.Context(rnglab), name)
    assert COMMANDS[name][1] == command.help.splitlines()[0]


def test_group_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out.split("Commands:")[1].split()
    assert len(COMMANDS) == 15
    assert all(name in listed for name in COMMANDS)
