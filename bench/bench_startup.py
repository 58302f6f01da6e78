"""Start-up cost of the ``rnglab`` command: CPU seconds of each command run as a fresh process.

Goal (issue 12): ``rnglab --help`` and every ``rnglab CMD --help`` within 0.3 s of CPU;
``rnglab gen msvc -n 5`` and ``rnglab period --a 16807 --m 2^31-1`` within 0.5 s.
``python -c "import numpy"`` is measured in the same run as the reference. Each
command runs as ``python -m rnglab ...`` with ``PYTHONPATH`` set to this checkout, so
the rnglab measured is the one beside this script.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from common import markdown_table, write_fragment

CHECKOUT = Path(__file__).resolve().parent.parent
REPEAT = 5
HELP_GOAL, RUN_GOAL = 0.3, 0.5
COMMANDS = ["list", "gen", "stream", "period", "spectral", "test", "reduce", "seeds", "shuffle", "deal",
            "fairness", "reach", "crack", "report"]
CASES = ([(["--help"], HELP_GOAL)] + [([name, "--help"], HELP_GOAL) for name in COMMANDS]
         + [(["gen", "msvc", "-n", "5"], RUN_GOAL), (["period", "--a", "16807", "--m", "2^31-1"], RUN_GOAL)])


def cpu_seconds(arguments: list[str]) -> float:
    """Best user + system CPU time of ``python arguments`` over :data:`REPEAT` runs."""
    environment = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
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
    numpy = cpu_seconds(["-c", "import numpy"])
    rows = [['`python -c "import numpy"`', f"{numpy:.3f}", "1.00", "", ""]]
    for arguments, goal in CASES:
        seconds = cpu_seconds(["-m", "rnglab", *arguments])
        rows.append([f"`rnglab {' '.join(arguments)}`", f"{seconds:.3f}", f"{seconds / numpy:.2f}", f"{goal}",
                     "yes" if seconds <= goal else "no"])
    body = (f"CPU seconds (user + system, best of {REPEAT} fresh processes) of each command, and its ratio to "
            "importing numpy in the same run. `rnglab --help` and `CMD --help` import no library module "
            "(the group prints each command's summary from `rnglab.cli.COMMANDS`; commands import the library "
            "when they run). `gen` and `period` import `rnglab.generators` and numpy but not numba: "
            "kernels are compiled, and numba imported, on their first call (`rnglab.core.compiled`).\n\n"
            + markdown_table(["command", "CPU s", "ratio to numpy", "goal s", "met"], rows))
    print(write_fragment("startup", "Start-up: CPU time of rnglab commands", body).read_text())
