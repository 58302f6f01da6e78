"""Where a run's threads compute: on the one CPU the run started on.

A run until it fails (:mod:`rnglab.empirical.until_fail`) has every test of
its battery read one stream in a thread of its own; the tests' kernels release
Python's lock, the code between their calls holds it. Spread over CPUs, the
threads hand the lock and the shared stream's window from CPU to CPU: on this
project's 2-CPU machine the core battery on 1 GiB of standard input took 15-24
CPU s and 16-19 s of wall time on both CPUs against 12-13 s of each on one
(``taskset -c 0``, alternated, 2026-11-29), as the CPU-to-CPU hand-offs of a
lock that many threads want cost more than the overlap gains (D. Beazley,
"Understanding the Python GIL", PyCon 2010). On a machine with many idle
cores the balance may differ: not measured.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def threads_on_one_cpu() -> Iterator[int | None]:
    """Run the threads started inside the block on one CPU: the one the calling thread runs on now.

    The calling thread's CPUs are set to that one for the block, and threads it
    starts inherit them (Linux ``sched_setaffinity``); its own are restored after.
    Where the platform has no CPU affinity, nothing changes.

    Yields
    ------
    int or None
        The CPU, or ``None`` when nothing was changed.
    """
    if not hasattr(os, "sched_setaffinity"):
        yield None
        return
    allowed = os.sched_getaffinity(0)
    cpu = _current_cpu(allowed)
    os.sched_setaffinity(0, {cpu})
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, allowed)


def _current_cpu(allowed: set[int]) -> int:
    """The CPU the calling thread runs on (glibc's ``sched_getcpu``), so that runs started side by side keep apart;
    the least allowed one where that is unknown."""
    try:
        cpu = ctypes.CDLL(None, use_errno=True).sched_getcpu()
    except (AttributeError, OSError):
        return min(allowed)
    return cpu if cpu in allowed else min(allowed)
