"""Start-up cost of the ``rnglab`` command: CPU seconds of each command run as a fresh process.

Goals: ``rnglab --help`` and every ``rnglab CMD --help`` within 0.3 s of CPU (issue 12), and ``rnglab list``
(issue 31); ``rnglab gen msvc -n 5`` and ``rnglab period --a 16807 --m 2^31-1`` within 0.5 s (issue 12); a
command that deals, shuffles or searches seeds within 0.4 s (issue 31). ``python -c "import numpy"`` is
measured in the same run as the reference, and so is numba's first kernel of a process
(:func:`rnglab.core.compiled.load_compiler`), the floor of any command that runs one. Each command runs as
``python -m rnglab ...`` with ``PYTHONPATH`` set to this checkout, so the rnglab measured is the one beside
this script, once before it is timed: numba's cache and Python's bytecode cache are warm, as after a first
run (``PYTHONDONTWRITEBYTECODE`` is dropped from the environment: with it, every start compiles rnglab's
modules again).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from common import markdown_table, write_fragment

CHECKOUT = Path(__file__).resolve().parent.parent
REPEAT = 5
HELP_GOAL, RUN_GOAL, WORK_GOAL = 0.3, 0.5, 0.4
COMMANDS = ["list", "gen", "stream", "period", "spectral", "test", "reduce", "seeds", "shuffle", "deal",
            "fairness", "reach", "crack", "report"]
#: Commands that deal, shuffle or search seeds: one deck of msvc and of java, one of pcg64 (Lemire's draws on
#: R = 2^64), and a day of msvc seeds searched for the first five cards of seed 50000's deck.
WORK = [["deal", "msvc", "--seed", "1"], ["deal", "java", "--seed", "1"], ["shuffle", "pcg64", "--seed", "1"],
        ["crack", "msvc", "--seeds", "0..86399", "--seen", "Kc 8s 8c 6d Qh"]]
CASES = ([(["--help"], HELP_GOAL)] + [([name, "--help"], HELP_GOAL) for name in COMMANDS] + [(["list"], HELP_GOAL)]
         + [(["gen", "msvc", "-n", "5"], RUN_GOAL), (["period", "--a", "16807", "--m", "2^31-1"], RUN_GOAL)]
         + [(arguments, WORK_GOAL) for arguments in WORK])
#: numba imported and its first kernel called from its cache: what any process that runs a kernel pays.
FIRST_KERNEL = "from rnglab.core.compiled import load_compiler; load_compiler()"


def cpu_seconds(arguments: list[str]) -> float:
    """Best user + system CPU time of ``python arguments`` over :data:`REPEAT` runs, after one run untimed
    (numba's cache and the bytecode written)."""
    environment = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, *arguments], stdout=subprocess.DEVNULL, env=environment, check=True)
    best = float("inf")
    for _ in range(REPEAT):
        process = subprocess.Popen([sys.executable, *arguments], stdout=subprocess.DEVNULL, env=environment)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            raise RuntimeError(f"{arguments} exited with {process.returncode}")
        best = min(best, usage.ru_utime + usage.ru_stime)
    return best


def main() -> None:
    numpy, kernel = cpu_seconds(["-c", "import numpy"]), cpu_seconds(["-c", FIRST_KERNEL])
    rows = [['`python -c "import numpy"`', f"{numpy:.3f}", "1.00", "", ""],
            ["numba's first kernel (`load_compiler()`)", f"{kernel:.3f}", f"{kernel / numpy:.2f}", "", ""]]
    for arguments, goal in CASES:
        seconds = cpu_seconds(["-m", "rnglab", *arguments])
        rows.append([f"`rnglab {shlex.join(arguments)}`", f"{seconds:.3f}", f"{seconds / numpy:.2f}", f"{goal}",
                     "yes" if seconds <= goal else "no"])
    body = (f"CPU seconds (user + system, best of {REPEAT} fresh processes) of each command, and its ratio to "
            "importing numpy in the same run. `rnglab --help` and `CMD --help` import no library module "
            "(the group prints each command's summary from `rnglab.cli.COMMANDS`; commands import the library "
            "when they run). No command here imports numba: kernels are compiled, and numba imported, on their "
            "first call (`rnglab.core.compiled`), and code that has a numpy path as well (the same values: the "
            "draws, the swaps, Lemire's 128-bit products, a small seed search's decks) takes it in a process "
            "where no kernel has run until its numpy work would have paid for numba's start-up "
            "(`rnglab.core.compiled.kernel_serves`, `NUMPY_WORK_LIMIT` values). A command that runs a kernel "
            "pays at least numba's first kernel, the second line: numba's import and the set-up of its "
            "compiler, which imports `scipy.linalg` to look for BLAS. Each command ran once untimed first: "
            "numba's cache and Python's bytecode are warm.\n\n"
            + markdown_table(["command", "CPU s", "ratio to numpy", "goal s", "met"], rows))
    print(write_fragment("startup", "Start-up: CPU time of rnglab commands", body).read_text())
