"""Data needed to fail: ``rnglab test --until-fail`` against PractRand's ``RNG_test`` on the same streams.

For every catalog generator but the OS source, and numpy's Philox and SFC64 as
further ideal sources (seed 12345), rnglab's ``small`` battery run until it
fails (library call) and PractRand reading the same bits (``rnglab stream GEN``,
numpy's raw 64-bit words for the two ideal ones) on its
standard input (``RNG_test stdin32 -tlmin 10``: 32-bit words, first report at
1 KiB), both up to the same limit, in the same run; then the throughput of
each on PCG64 up to the limit (bytes tested per second), and PractRand's rate on
its built-in SFC64 (no pipe, no Python producer). PractRand is the
binary named by the environment variable ``RNGLAB_PRACTRAND`` (built from its
sources outside the repository); without it those columns say "not measured".

``--full`` raises the limit from 64 MiB to 1 GiB.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import numpy as np
from common import markdown_table, write_fragment

from rnglab.params import human_bytes
from rnglab.empirical.battery import get_battery
from rnglab.empirical.until_fail import stages, summarise
from rnglab.generators import NumpySource, catalog, make_source

#: Every catalog generator but the OS entropy source (not reproducible).
GENERATORS = tuple(name for name in catalog() if name != "os")
#: numpy's other ideal bit generators, fed to PractRand by a producer writing their raw 64-bit words.
IDEAL = ("Philox", "SFC64")
SEED = 12345
PRODUCER = ("import sys, numpy as np\ngenerator = np.random.{}({})\n"
            "while True:\n    sys.stdout.buffer.write(generator.random_raw(2**16).astype('<u8').tobytes())\n")


def source_of(name: str):
    """A catalog generator, or numpy's ``Philox`` or ``SFC64`` seeded with SEED."""
    if name in IDEAL:
        return NumpySource(getattr(np.random, name)(SEED), name.lower())
    return make_source(name, SEED)


def producer(name: str) -> list[str]:
    """The command writing the stream of ``name``: ``rnglab stream``, or numpy's raw words for the ideal ones."""
    if name in IDEAL:
        return [sys.executable, "-c", PRODUCER.format(name, SEED)]
    return [sys.executable, "-m", "rnglab", "stream", name, "--seed", str(SEED)]
STAGE = re.compile(r"length= .*\(2\^(\d+) bytes\), time= ([\d.]+) seconds")


def rnglab_run(name: str, limit: int):
    source = source_of(name)
    started = time.perf_counter()
    result = summarise(source, get_battery("small"), list(stages(source, get_battery("small"), max_bytes=limit)))
    return result, time.perf_counter() - started


def practrand_run(binary: str, name: str, limit: int) -> tuple[int | None, str, float, int]:
    """PractRand on ``rnglab stream NAME``: (bytes at the first FAIL or None, the failing tests, seconds, bytes)."""
    stream = subprocess.Popen(producer(name), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    tester = subprocess.run([binary, "stdin32", "-tlmin", "10", "-tlmax", str(limit.bit_length() - 1)],
                            stdin=stream.stdout, capture_output=True, text=True, check=False)
    stream.kill()
    length, seconds, failing = 0, 0.0, []
    for line in tester.stdout.splitlines():
        match = STAGE.search(line)
        if match:
            if failing:
                break
            length, seconds = 2 ** int(match.group(1)), float(match.group(2))
        elif "FAIL" in line:
            failing.append(line.split()[0])
    return (length if failing else None), ", ".join(failing[:2]), seconds, length


def practrand_builtin_rate(binary: str, limit: int) -> str:
    """PractRand's own rate on its built-in SFC64 (no pipe, no producer): bytes tested per second up to ``limit``."""
    tester = subprocess.run([binary, "sfc64", "-tlmin", "10", "-tlmax", str(limit.bit_length() - 1)],
                            capture_output=True, text=True, check=False)
    stages = [STAGE.search(line) for line in tester.stdout.splitlines()]
    last = [m for m in stages if m][-1]
    return human_bytes(int(2 ** int(last.group(1)) / float(last.group(2)))) + "/s"


def main(flags: list[str]) -> None:
    limit = 2**30 if "--full" in flags else 2**26
    binary = os.environ.get("RNGLAB_PRACTRAND")
    rows, throughput = [], []
    for name in GENERATORS + IDEAL:
        result, seconds = rnglab_run(name, limit)
        ours = human_bytes(result.bytes_to_fail) if result.bytes_to_fail else f"none to {human_bytes(limit)}"
        tests = ", ".join(result.stages[-1].worst_tests[:2]) if result.bytes_to_fail else ""
        if binary:
            theirs, their_tests, their_seconds, their_bytes = practrand_run(binary, name, limit)
            shown = human_bytes(theirs) if theirs else f"none to {human_bytes(limit)}"
            ratio = f"{result.bytes_to_fail / theirs:.2g}" if theirs and result.bytes_to_fail else ""
        else:
            shown, their_tests, ratio, their_seconds, their_bytes = "not measured", "", "", 0.0, 0
        rows.append([name, shown, their_tests, ours, tests, ratio])
        if name == "pcg64":
            read = result.stages[-1].bytes if result.stages else 0
            throughput = [human_bytes(int(read / seconds)) + "/s",
                          human_bytes(int(their_bytes / their_seconds)) + "/s" if their_seconds else "not measured",
                          practrand_builtin_rate(binary, limit) if binary else "not measured"]
    body = (f"Seed {SEED}; both read the same bits (`rnglab stream GEN`, the genuine bits of each output packed) up "
            f"to {human_bytes(limit)}; PractRand 0.94 `RNG_test stdin32 -tlmin 10` (core tests, standard folding) "
            "reports at every doubling from 1 KiB; rnglab runs its `small` battery at doubling sizes "
            "(`rnglab test GEN --battery small --until-fail`), each stage on the stream from its start, as "
            "PractRand's reports cover everything read so far. Ratio = rnglab's data to fail / PractRand's "
            "(below 1: rnglab needs less).\n\n")
    body += markdown_table(["generator", "PractRand: data to fail", "its tests", "rnglab: data to fail",
                            "rnglab's tests", "ratio"], rows)
    body += ("\n\nThroughput on PCG64 up to the limit (bytes tested per second, rnglab's start-up included): "
             f"rnglab {throughput[0]}, PractRand reading `rnglab stream pcg64` {throughput[1]}, PractRand on its "
             f"built-in SFC64 (`RNG_test sfc64`, no pipe) {throughput[2]}.\n")
    write_fragment("until_fail", "Run until it fails: data needed to fail against PractRand", body)


if __name__ == "__main__":
    main(sys.argv[1:])
