"""Shared helpers for rnglab's benchmarks: compile a C reference, time best-of-k, write a fragment.

Benchmarks compare rnglab side by side with a reference in the same run and
report ratios (this machine is shared and noisy): each timing is the best of
several repetitions, taken alternately for rnglab and the reference.
"""

from __future__ import annotations

import os
import platform
import subprocess
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
C_SOURCES = Path(__file__).resolve().parent / "c"


def compile_c(source: str | Path, name: str | None = None, flags: tuple[str, ...] = ("-O2",)) -> Path:
    """Compile a C file (a path, or source text) with ``cc FLAGS`` (``-O2``) into a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="rnglab-bench-"))
    if isinstance(source, str) and "\n" in source:
        path = folder / f"{name or 'reference'}.c"
        path.write_text(source)
    else:
        path = Path(source)
    binary = folder / path.stem
    subprocess.run(["cc", *flags, "-o", str(binary), str(path), "-lm"], check=True)
    return binary


def run_c(binary: Path, *args) -> str:
    """Run a compiled reference and return its standard output."""
    return subprocess.run([str(binary), *map(str, args)], check=True, capture_output=True, text=True).stdout


def best_time(function, repeat: int = 5, clock=time.perf_counter) -> float:
    """Best time of ``function()`` over ``repeat`` runs, in seconds: wall-clock, or ``clock=time.process_time``
    for CPU time (the measure for one thread on a shared machine)."""
    best = float("inf")
    for _ in range(repeat):
        started = clock()
        function()
        best = min(best, clock() - started)
    return best


#: How a benchmark times its runs, said in its fragment's first line unless it says otherwise.
BEST_OF_SEVERAL = "best of several runs, rnglab and the reference side by side"


def machine_line(how: str = BEST_OF_SEVERAL) -> str:
    """One line naming the machine and the date, and ``how`` the runs were timed, for the top of a fragment."""
    return (f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()} with {os.cpu_count()} cores, "
            f"Python {platform.python_version()}; {how}.")


def write_fragment(topic: str, title: str, body: str, how: str = BEST_OF_SEVERAL) -> Path:
    """Write ``bench/results/<topic>.md`` (assembled into ``bench/RESULTS.md`` by ``bench/run.py``); ``how``: how
    the runs were timed (:func:`machine_line`)."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{topic}.md"
    path.write_text(f"## {title}\n\n{machine_line(how)}\n\n{body.strip()}\n")
    return path


def markdown_table(headers, rows) -> str:
    """A Markdown pipe table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    return "\n".join(lines + ["| " + " | ".join(str(v) for v in row) + " |" for row in rows])


#: A Julian year in seconds, for durations projected far beyond a run.
YEAR = 365.25 * 86400


def duration(seconds: float) -> str:
    """A duration for a table: seconds below two minutes, minutes below two hours, hours below two days, days
    below two years, else years."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    if seconds < 2 * YEAR:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / YEAR:.2g} years"
