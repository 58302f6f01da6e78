"""Run until it fails, like for like: throughput against PractRand, and MT19937 without the linear tests.

On PCG64 (seed 12345), in one run: rnglab's ``small`` battery until it fails
(every test below its cap reading all of each stage, as PractRand's tests do;
the tallied tests read each output once, as PractRand's), to its last stage
below 4 GiB, on one core and then on all of them; PractRand up to the power of
two nearest rnglab's last stage, reading the same bits on its standard input
(``RNG_test stdin32 -tlmin 10``), and on its built-in SFC64 (no pipe, no Python
producer): bytes
tested per second, start-up included, and the ratio of rnglab's rate on one
core to PractRand's (one thread) on the same stream. Then MT19937 and
CPython's ``random`` with ``small`` less its linear-complexity entry to its
last stage below 1 GiB: what the tests other than those of linear structure
see. PractRand is the binary named by ``RNGLAB_PRACTRAND``; without it its
figures say "not measured".
"""

from __future__ import annotations

import contextlib
import math
import os
import subprocess
import time

from bench_until_fail import STAGE, practrand_run, practrand_version, rnglab_run, source_of
from common import write_fragment

from rnglab.core.params import human_bytes
from rnglab.empirical.battery import Battery, get_battery
from rnglab.empirical.until_fail import stages, summarise
from rnglab.empirical.verdicts import GRADES


def practrand_builtin_seconds(binary: str, limit: int) -> float:
    """PractRand's seconds on its built-in SFC64 (no pipe, no producer) up to ``limit``."""
    tester = subprocess.run([binary, "sfc64", "-tlmin", "10", "-tlmax", str(limit.bit_length() - 1)],
                            capture_output=True, text=True, check=False)
    return float([m for m in map(STAGE.search, tester.stdout.splitlines()) if m][-1].group(2))


def rate(data: int, seconds: float) -> str:
    return human_bytes(int(data / seconds)) + "/s" if seconds else "not measured"


@contextlib.contextmanager
def one_core():
    """Run this process on one CPU only (its threads included), as PractRand's single thread does."""
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, cpus)


def throughput(binary: str | None, limit: int) -> str:
    """rnglab (on one core, then on all) on PCG64 to its last stage below ``2 limit``, and PractRand to the power
    of two nearest that stage, every test reading all the data."""
    load = os.getloadavg()[0]
    with one_core():
        result, ours = rnglab_run("pcg64", 2 * limit)  # its stages are not powers of two: the last one below 2 limit
    _, both = rnglab_run("pcg64", 2 * limit)
    last = result.stages[-1]
    limit = 2 ** round(math.log2(last.bytes))  # PractRand's nearest doubling
    line = (f"Throughput on PCG64 to about {human_bytes(limit)}, in one run (load average {load:.1f} when it started; "
            f"bytes tested per second, start-up included, every test below its cap reading all the data: at the "
            f"last stage the least read was {last.bytes_every / last.bytes:.3f} of it, {last.least_reader}): "
            f"rnglab on one core {rate(last.bytes, ours)} ({human_bytes(last.bytes)} in {ours:.0f} s; the tallied "
            f"tests read each output once, the others the stream's start again up to their caps), on the "
            f"{len(os.sched_getaffinity(0))} cores "
            f"{rate(last.bytes, both)} ({both:.0f} s)")
    if not binary:
        return line + ", PractRand not measured.\n"
    _, _, theirs, their_bytes = practrand_run(binary, "pcg64", limit)
    builtin = practrand_builtin_seconds(binary, limit)
    ratio = (last.bytes / ours) / (their_bytes / theirs)
    return (line + f"; PractRand {practrand_version(binary)} (one thread) reading `rnglab stream pcg64` "
            f"{rate(their_bytes, theirs)} ({human_bytes(their_bytes)} in {theirs:.0f} s), on its built-in SFC64 "
            f"(`RNG_test sfc64`, no pipe) {rate(limit, builtin)} ({builtin:.0f} s); rnglab's rate on one core / "
            f"PractRand's on the same stream {ratio:.2f}.\n")


def without_linear_structure(name: str, limit: int) -> str:
    """``small`` without its linear-complexity entry on ``name`` up to ``limit``: what the other tests see."""
    battery = get_battery("small")
    kept = Battery(battery.name, battery.description,
                   tuple(entry for entry in battery.entries if entry.test != "linear-complexity"))
    source = source_of(name)
    started = time.perf_counter()
    result = summarise(source, kept, list(stages(source, kept, max_bytes=limit)))
    seen = (f"FAIL at {human_bytes(result.bytes_to_fail)} ({', '.join(result.stages[-1].worst_tests)})"
            if result.bytes_to_fail else f"no FAIL up to {human_bytes(result.stages[-1].bytes)}")
    worst = max((stage.worst for stage in result.stages), key=GRADES.index)
    return (f"{name} with `small` less its linear-complexity entry: {seen}, worst verdict of any stage "
            f"{worst} ({time.perf_counter() - started:.0f} s).")


def main() -> None:
    binary = os.environ.get("RNGLAB_PRACTRAND")
    body = throughput(binary, 2**31) + "\n"
    body += " ".join(without_linear_structure(name, 2**30) for name in ("mt19937", "python")) + "\n"
    write_fragment("until_fail_rate", "Run until it fails, like for like: throughput and MT19937", body)


if __name__ == "__main__":
    main()
