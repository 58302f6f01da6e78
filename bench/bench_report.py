"""Time of ``rnglab report`` (``--quick`` and full), now against a reference commit, in the same run.

Goal (issue 18): the full report in 30 s and ``--quick`` in 5 s on this machine, warm caches. The
reference is a commit of this repository (``--before COMMIT``, default :data:`BEFORE`, main before
the run-until-fail battery section and the sections in worker processes), extracted with ``git
archive`` into a temporary folder; each tree runs ``python -m rnglab report`` as a fresh process
with ``PYTHONPATH`` set to it. Every tree runs each mode once first (numba compiles its kernels into
that tree's cache: the timed runs are warm), then the timed runs alternate between the two trees.
Reported: wall-clock seconds and CPU seconds (user + system of the process and its worker
processes), best of the runs, the ratio now / before, and the seconds of each section of the report
now (from ``--json``). One full run of each tree warms its caches first (numba compiles by type, not
by size: it compiles what ``--quick`` needs too).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from common import markdown_table, write_fragment

CHECKOUT = Path(__file__).resolve().parent.parent
#: The tree before the run-until-fail battery section and the sections in worker processes (main, 2026-11-24).
BEFORE = "7efc7e4"
#: Timed runs per tree and mode, after one warming run.
REPEAT = {"quick": 3, "full": 1}
GOALS = {"quick": 5.0, "full": 30.0}


def extract(commit: str) -> Path:
    """The tree of ``commit`` in a temporary folder (``git archive``; the worktree is not touched)."""
    archive = subprocess.run(["git", "-C", str(CHECKOUT), "archive", commit], check=True, capture_output=True).stdout
    folder = Path(tempfile.mkdtemp(prefix="rnglab-bench-report-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def run_report(tree: Path, mode: str, out: Path) -> tuple[float, float, dict]:
    """Wall seconds, CPU seconds and the ``--json`` result of one ``rnglab report`` run from ``tree``."""
    arguments = [sys.executable, "-m", "rnglab", "report", "--out", str(out), "--force", "--json"]
    arguments += ["--quick"] if mode == "quick" else []
    started = time.perf_counter()
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tree)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"rnglab report ({mode}) from {tree} failed")
    return wall, usage.ru_utime + usage.ru_stime, json.loads(output)


def measure(trees: dict[str, Path], mode: str, out: Path) -> dict:
    """Best wall and CPU seconds of each tree in ``mode`` (warm), and the last result of each."""
    best = {name: [float("inf"), float("inf"), None] for name in trees}
    for _ in range(REPEAT[mode]):
        for name, tree in trees.items():
            wall, cpu, result = run_report(tree, mode, out)
            best[name] = [min(best[name][0], wall), min(best[name][1], cpu), result]
    return best


def main(flags: list[str] | None = None) -> None:
    flags = flags or []
    before = next((f.split("=", 1)[1] for f in flags if f.startswith("--before=")), BEFORE)
    trees = {"before": extract(before), "now": CHECKOUT}
    out = Path(tempfile.mkdtemp(prefix="rnglab-bench-out-")) / "report"
    load = os.getloadavg()[0]
    rows, sections = [], {}
    for tree in trees.values():
        run_report(tree, "full", out)
    for mode in ("quick", "full"):
        best = measure(trees, mode, out)
        (wall_before, cpu_before, _), (wall_now, cpu_now, result) = best["before"], best["now"]
        rows.append([f"`rnglab report{' --quick' if mode == 'quick' else ''}`", f"{wall_before:.1f}",
                     f"{wall_now:.1f}", f"{wall_now / wall_before:.2f}", f"{cpu_before:.1f}", f"{cpu_now:.1f}",
                     f"{cpu_now / cpu_before:.2f}", f"{GOALS[mode]:g}", "yes" if wall_now <= GOALS[mode] else "no"])
        sections[mode] = result.get("section_seconds", {})
    section_rows = [[title, f"{sections['quick'].get(title, 0):.2f}", f"{sections['full'].get(title, 0):.2f}"]
                    for title in sections["full"]]
    body = (f"Before: commit `{before}`; now: this checkout. Wall-clock and CPU seconds (user + system of the "
            f"process and its workers), best of {REPEAT['quick']} (`--quick`) and {REPEAT['full']} (full) warm "
            f"runs taken alternately; load average when the run started: {load:.1f}, when it ended: "
            f"{os.getloadavg()[0]:.1f} (the 2 cores are shared: the CPU seconds and the ratios are the figures to "
            "compare).\n\n"
            + markdown_table(["command", "before wall s", "now wall s", "ratio", "before CPU s", "now CPU s",
                              "ratio", "goal wall s", "met"], rows)
            + "\n\nSeconds of each section now (one run of each mode; wall time in its worker process: the "
              "sections run side by side, one worker per core, so their sum exceeds the whole):\n\n"
            + markdown_table(["section", "--quick s", "full s"], section_rows) + "\n")
    print(write_fragment("report", "rnglab report: time before and now", body).read_text())


if __name__ == "__main__":
    main(sys.argv[1:])
