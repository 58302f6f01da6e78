"""The default test suite on a cold start, and the hostile-input table: how long a fresh clone waits.

Issues 11 and 31 ask for the default suite (``python -m pytest``) within 2 minutes on a fresh clone,
where numba has compiled nothing yet; issue 28 asks that the layers redesign not make it slower (issue 31
measured 287 CPU s cold for 3,317 tests before it: CPU seconds a test are compared). The benchmark copies the committed tree (``git archive
HEAD``) into a temporary folder, so no numba cache exists there, and runs the suite twice
from it: cold, then warm (the kernels cached on disk by the first run). The reference is the
same suite warm: the difference is what compiling costs. The hostile-input table
(``tests/test_hostile.py``, 300 bad invocations in one worker process) is timed alone, warm.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import write_fragment

ROOT = Path(__file__).resolve().parent.parent


def fresh_tree() -> Path:
    """The committed tree in a new folder (no ``__pycache__``: numba's cache is cold)."""
    folder = Path(tempfile.mkdtemp(prefix="rnglab-suite-"))
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def timed_pytest(tree: Path, *arguments: str) -> tuple[float, float, str]:
    """Wall and CPU seconds (the children's user + system) of ``python -m pytest -q ARGUMENTS`` run in ``tree``
    (imported from there), and its last line."""
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    environment.pop("NUMBA_CACHE_DIR", None)  # numba caches in the copy's __pycache__, as on a fresh clone
    started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    finished = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *arguments], check=False,
                              cwd=tree, env=environment, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    summary = finished.stdout.strip().splitlines()[-1] if finished.stdout.strip() else finished.stderr[-200:]
    return time.perf_counter() - started, cpu, summary


def tests_run(summary: str) -> int:
    """The tests pytest ran (passed, failed, errors), from its summary line."""
    return sum(int(count) for count, kind in re.findall(r"(\d+) (passed|failed|errors?)", summary))


def main() -> None:
    tree = fresh_tree()
    load = os.getloadavg()[0]
    cold, cold_cpu, summary = timed_pytest(tree)
    warm, warm_cpu, _ = timed_pytest(tree)
    hostile, hostile_cpu, hostile_summary = timed_pytest(tree, "tests/test_hostile.py")
    load_after = os.getloadavg()[0]
    per_test = 1000 * cold_cpu / max(tests_run(summary), 1)
    body = f"""The default suite (`python -m pytest`, which deselects `slow` and `exhaustive`; pytest-xdist on every
core) run from a copy of the committed tree, first with no numba cache (a fresh clone), then again with
the kernels the first run cached; goal (issues 11 and 31): within 2 minutes cold on this 2-core machine.
CPU: user + system of pytest and its workers. Load average when the run started: {load:.1f}, when it ended: {load_after:.1f}
(other work on the machine inflates the wall time most). Before the layers redesign (issue 31's figures): 287 CPU s cold
for 3,317 tests, {1000 * 287 / 3317:.0f} CPU ms a test.

| run | wall s | CPU s | pytest's summary |
|---|---|---|---|
| default suite, cold (fresh clone) | {cold:.0f} | {cold_cpu:.0f} ({per_test:.0f} ms a test) | {summary} |
| default suite, warm (reference) | {warm:.0f} | {warm_cpu:.0f} | |
| compiling (cold - warm) | {cold - warm:.0f} | {cold_cpu - warm_cpu:.0f} | |
| hostile-input table alone, warm | {hostile:.1f} | {hostile_cpu:.1f} | {hostile_summary} |
"""
    print(write_fragment("suite", "Test suite: a fresh clone's wait", body).read_text())


if __name__ == "__main__":
    main()
