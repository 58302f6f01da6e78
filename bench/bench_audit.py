"""Time of ``rnglab audit`` on every named pipeline, section by section (issue 18: under a minute each).

The time was once asserted in the test suite (``tests/audit/test_run.py``), where a cold numba cache or a loaded
machine failed it; the tests now check the findings, and the time is measured here. Each pipeline is audited
once in this process after one warming audit of every pipeline (numba's kernels compiled, or loaded from its
cache), so the figures are warm. Reported: wall-clock and CPU seconds of the whole audit (this process's CPU: a
user's function runs in its child, and numba's threads count), each section's wall seconds (the audit's own
``seconds``), and whether the minute holds (on a shared machine the wall clock includes other programs' load).

Usage: ``python bench/bench_audit.py [PIPELINE ...]`` (default: every named pipeline). Writes
``bench/results/audit.md``.
"""

from __future__ import annotations

import sys
import time

from common import markdown_table, write_fragment

from rnglab.audit import RULES, audit, from_pipeline
from rnglab.shuffles.pipelines import pipelines

#: The goal of issue 18, seconds of wall clock for one audit of a named pipeline.
GOAL = 60.0


def timed_audit(name: str) -> tuple[float, float, dict]:
    """Wall and CPU seconds of one audit of pipeline ``name``, and its sections' seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = audit(from_pipeline(name))
    return time.perf_counter() - wall, time.process_time() - cpu, result.seconds


def main(arguments: list[str] | None = None) -> None:
    names = [name for name in (arguments or []) if not name.startswith("--")] or list(pipelines())
    for name in names:
        audit(from_pipeline(name))  # warm: kernels compiled or loaded
    rows = []
    for name in names:
        wall, cpu, seconds = timed_audit(name)
        rows.append([name, f"{wall:.1f}", f"{cpu:.1f}", *(f"{seconds[q]:.1f}" for q in RULES),
                     "yes" if wall < GOAL else "no"])
    body = (f"`rnglab audit PIPELINE` on each named pipeline, warm (after one audit of each), one run; seconds. "
            f"Goal (issue 18): under {GOAL:.0f} s of wall clock each.\n\n"
            + markdown_table(["pipeline", "wall s", "CPU s", *RULES, f"< {GOAL:.0f} s"], rows) + "\n")
    print(write_fragment("audit", "rnglab audit: time per named pipeline", body).read_text())


if __name__ == "__main__":
    main(sys.argv[1:])
