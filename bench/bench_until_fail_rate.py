"""Run until it fails, like for like: throughput against PractRand, and MT19937 without the linear tests.

On PCG64 (seed 12345), PractRand up to 2 GiB and rnglab to its last stage below 4 GiB, in one run: rnglab's ``small`` battery until
it fails (every test below its cap reading all of each stage, as PractRand's
tests do), PractRand reading the same bits on its standard input
(``RNG_test stdin32 -tlmin 10``) and PractRand on its built-in SFC64 (no pipe,
no Python producer): bytes tested per second, start-up included, and the
ratio of the two on the same stream. Then MT19937 and CPython's ``random``
with ``small`` less its linear-complexity entry up to 512 MiB: what the tests
other than those of linear structure see. PractRand is the binary named by
``RNGLAB_PRACTRAND``; without it its figures say "not measured".
"""

from __future__ import annotations

import os
import subprocess
import time

from bench_until_fail import STAGE, practrand_run, practrand_version, rnglab_run, source_of
from common import write_fragment

from rnglab.params import human_bytes
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


def throughput(binary: str | None, limit: int) -> str:
    """rnglab and PractRand on PCG64 up to ``limit``, every test of each reading all the data, in one run."""
    load = os.getloadavg()[0]
    result, ours = rnglab_run("pcg64", 2 * limit)  # its stages are not powers of two: the last one below 2 limit
    last = result.stages[-1]
    line = (f"Throughput on PCG64 to about {human_bytes(limit)}, in one run (load average {load:.1f} when it started; "
            f"bytes tested per second, start-up included, every test below its cap reading all the data: at the "
            f"last stage the least read was {last.bytes_every / last.bytes:.3f} of it, {last.least_reader}): "
            f"rnglab {rate(last.bytes, ours)} ({human_bytes(last.bytes)} in {ours:.0f} s; each stage re-reads the "
            f"stream from its start)")
    if not binary:
        return line + ", PractRand not measured.\n"
    _, _, theirs, their_bytes = practrand_run(binary, "pcg64", limit)
    builtin = practrand_builtin_seconds(binary, limit)
    ratio = (last.bytes / ours) / (their_bytes / theirs)
    return (line + f", PractRand {practrand_version(binary)} reading `rnglab stream pcg64` {rate(their_bytes, theirs)} "
            f"({human_bytes(their_bytes)} in {theirs:.0f} s), PractRand on its built-in SFC64 (`RNG_test sfc64`, "
            f"no pipe) {rate(limit, builtin)} ({builtin:.0f} s); rnglab's rate / PractRand's on the same stream "
            f"{ratio:.2f}.\n")


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
    body += " ".join(without_linear_structure(name, 2**29) for name in ("mt19937", "python")) + "\n"
    write_fragment("until_fail_rate", "Run until it fails, like for like: throughput and MT19937", body)


if __name__ == "__main__":
    main()
