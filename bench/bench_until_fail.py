"""Data needed to fail: ``rnglab test --until-fail`` against PractRand's ``RNG_test`` on the same streams.

For every catalog generator but the OS source, and numpy's Philox and SFC64 as
further ideal sources (seed 12345), rnglab's default battery (``core``) run until it
fails (library call), the same reading the generator's bits piped in
(``rnglab stream GEN | rnglab test - --format u32 --until-fail``: what a user
who pipes a stream in sees), and PractRand reading the same bits
(``rnglab stream GEN``, numpy's raw 64-bit words for the two ideal ones) on its
standard input (``RNG_test stdin32 -tlmin 10``: 32-bit words, first report at
1 KiB), all up to the same limit, in the same run (the throughput is
``bench_until_fail_rate.py``). PractRand is the
binary named by the environment variable ``RNGLAB_PRACTRAND`` (built from its
sources outside the repository); without it those columns say "not measured".

``--full`` raises the limit of the table from 64 MiB to 1 GiB.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import numpy as np
from common import markdown_table, write_fragment

from rnglab.core.params import human_bytes
from rnglab.empirical.battery import get_battery
from rnglab.empirical.until_fail import stages, summarise
from rnglab.generators import NumpySource, catalog, make_source

#: Every catalog generator but the OS entropy source (not reproducible).
GENERATORS = tuple(name for name in catalog() if name != "os")
#: numpy's other ideal bit generators, fed to PractRand by a producer writing their raw 64-bit words.
IDEAL = ("Philox", "SFC64")
SEED = 12345
#: The battery of a plain ``rnglab test GEN`` (and of the piped runs, which use the default).
BATTERY = "core"
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
    battery = get_battery(BATTERY)
    result = summarise(source, battery, list(stages(source, battery, max_bytes=limit)))
    return result, time.perf_counter() - started


def piped_run(name: str, limit: int) -> int | None:
    """rnglab reading ``producer(name)`` on its standard input: the data to fail, or None."""
    stream = subprocess.Popen(producer(name), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    tester = subprocess.run([sys.executable, "-m", "rnglab", "test", "-", "--format", "u32", "--until-fail",
                             "--max-bytes", str(limit), "--json"],
                            stdin=stream.stdout, capture_output=True, text=True, check=False)
    stream.kill()
    return json.loads(tester.stdout)["bytes_to_fail"]


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


def practrand_version(binary: str) -> str:
    """The version PractRand's ``RNG_test`` prints on its first line (``0.95-planet36``, ...)."""
    tester = subprocess.run([binary, "sfc64", "-tlmax", "10"], capture_output=True, text=True, check=False)
    match = re.search(r"PractRand version (\S+)", tester.stdout)
    return match.group(1) if match else "of unknown version"


def main(flags: list[str]) -> None:
    limit = 2**30 if "--full" in flags else 2**26
    binary = os.environ.get("RNGLAB_PRACTRAND")
    version = practrand_version(binary) if binary else ""
    rows = []
    for name in GENERATORS + IDEAL:
        result, _ = rnglab_run(name, limit)
        ours = human_bytes(result.bytes_to_fail) if result.bytes_to_fail else f"none to {human_bytes(limit)}"
        tests = ", ".join(result.stages[-1].worst_tests[:2]) if result.bytes_to_fail else ""
        if binary:
            theirs, their_tests, _, _ = practrand_run(binary, name, limit)
            shown = human_bytes(theirs) if theirs else f"none to {human_bytes(limit)}"
            ratio = f"{result.bytes_to_fail / theirs:.2g}" if theirs and result.bytes_to_fail else ""
        else:
            shown, their_tests, ratio = "not measured", "", ""
        piped = piped_run(name, limit)
        rows.append([name, shown, their_tests, ours, tests, ratio,
                     human_bytes(piped) if piped else f"none to {human_bytes(limit)}"])
    body = (f"Seed {SEED}; both read the same bits (`rnglab stream GEN`, the genuine bits of each output packed) up "
            f"to {human_bytes(limit)}; PractRand {version or 'not measured'} `RNG_test stdin32 -tlmin 10` (core "
            "tests, standard folding) reports at every doubling from 1 KiB; rnglab runs its default battery (`core`) "
            "at doubling sizes (`rnglab test GEN --until-fail`), each stage on the stream from its "
            "start, every test below its cap reading all of it, as PractRand's reports cover everything read so "
            "far by every test. Ratio = rnglab's data to fail / PractRand's (below 1: rnglab needs less). "
            "Piped: rnglab reading the same bits as PractRand on its standard input (`rnglab test - --format u32 "
            "--until-fail`).\n\n")
    body += markdown_table(["generator", "PractRand: data to fail", "its tests", "rnglab: data to fail",
                            "rnglab's tests", "ratio", "rnglab, piped"], rows)
    body += "\n"
    write_fragment("until_fail", "Run until it fails: data needed to fail against PractRand", body)


if __name__ == "__main__":
    main(sys.argv[1:])
