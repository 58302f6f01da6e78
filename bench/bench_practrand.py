"""rnglab's run until it fails against PractRand's ``RNG_test stdin32``, on the same bytes, in CPU seconds.

Issue #30 item 2: per CPU second, on a good stream read from standard input, with PractRand's default reporting
(no ``-tlmin``). The stream (numpy's PCG64, seed 2026, little-endian 64-bit words) is written once to a file; each
run reads that file on its standard input, rnglab with ``rnglab test - --format u32 --until-fail --max-bytes SIZE``,
PractRand with ``RNG_test stdin32 -tlmax SIZE``, alternately, ``--repeat`` times each; the CPU time of a run is its
child's user + system time (``os.wait4``), so that the load of the shared machine does not count. Peak memory is
the child's maximum resident set size. An untimed run of rnglab on the first 32 MiB fills numba's cache first.
Per core, like for like: PractRand is single-threaded, and rnglab's battery runs its tests in threads on the
one CPU it starts on (:mod:`rnglab.parallel.cpus`: on both CPUs of this machine the same run took 15-24 CPU s
where on one it took 12-13).

PractRand is not part of rnglab: build it elsewhere (``make tools/RNG_test`` in a PractRand 0.94/0.95 checkout)
and give its ``RNG_test`` with ``--practrand PATH`` or the environment variable ``PRACTRAND_RNG_TEST``.

    python bench/bench_practrand.py --size 256MiB --repeat 2 --practrand /tmp/practrand/tools/RNG_test

runs both on standard input, then each on a built-in generator of its own (``--builtin-size``, default 4 GiB: also
the peak memory of a longer run), and writes bench/results/practrand.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from rnglab.core.params import human_bytes, parse_size

RESULTS = Path(__file__).resolve().parent / "results"
SEED = 2026


def write_stream(path: Path, size: int) -> None:
    """``size`` bytes of numpy's PCG64 (seed :data:`SEED`), as little-endian 64-bit words."""
    bit_generator = np.random.PCG64(SEED)
    with open(path, "wb") as handle:
        for start in range(0, size, 2**24):
            words = min(2**24, size - start) // 8
            handle.write(bit_generator.random_raw(words).astype("<u8").tobytes())


#: Bytes of the untimed run that fills numba's cache before the timed ones (every test of the battery runs by then).
WARM_UP = 2**25


def measured(command: list[str], stream: Path | None) -> tuple[float, int, str]:
    """Run ``command`` with ``stream`` (or nothing) on its standard input: its CPU seconds, peak RSS in KiB, and
    output."""
    with open(stream or os.devnull, "rb") as source, tempfile.TemporaryFile() as output:
        child = subprocess.Popen(command, stdin=source, stdout=output, stderr=subprocess.STDOUT,
                                 env={**os.environ, "RNGLAB_PROGRESS": "0"})
        _, status, usage = os.wait4(child.pid, 0)
        output.seek(0)
        text = output.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise RuntimeError(f"{command[0]} ended with status {os.waitstatus_to_exitcode(status)}:\n{text[-2000:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss, text


def commands(practrand: str, size: int) -> dict[str, list[str]]:
    """The runs on standard input compared, by label."""
    return {"rnglab": [sys.executable, "-m", "rnglab", "test", "-", "--format", "u32", "--until-fail", "--max-bytes",
                       str(size)],
            "PractRand": [practrand, "stdin32", "-tlmax", f"{size // 2**20}MB"]}


def builtin_commands(practrand: str, size: int) -> dict[str, list[str]]:
    """Each program on a fast good generator of its own, no pipe: rnglab's PCG64, PractRand's SFC64 (neither has
    the other's)."""
    return {"rnglab pcg64": [sys.executable, "-m", "rnglab", "test", "pcg64", "--until-fail", "--max-bytes",
                             str(size)],
            "PractRand sfc64": [practrand, "sfc64", "-tlmax", f"{size // 2**20}MB"]}


def run(practrand: str, size: int, repeat: int) -> dict[str, list[tuple[float, int, str]]]:
    """Alternate the two programs on the same file, ``repeat`` times each."""
    with tempfile.TemporaryDirectory() as folder:
        stream = Path(folder) / "pcg64.bin"
        write_stream(stream, size)
        runs: dict[str, list] = {name: [] for name in commands(practrand, size)}
        # numba's cache filled first (a kernel compiled in a timed run would count its CPU and memory)
        measured(commands(practrand, min(size, WARM_UP))["rnglab"], stream)
        for _ in range(repeat):
            for name, command in commands(practrand, size).items():
                runs[name].append(measured(command, stream))
    return runs


def run_builtin(practrand: str, size: int, repeat: int) -> dict[str, list[tuple[float, int, str]]]:
    """Alternate the two programs on their own generators, ``repeat`` times each."""
    runs: dict[str, list] = {name: [] for name in builtin_commands(practrand, size)}
    for _ in range(repeat):
        for name, command in builtin_commands(practrand, size).items():
            runs[name].append(measured(command, None))
    return runs


def table(runs: dict, size: int) -> tuple[str, dict]:
    """The markdown table of ``runs`` (best CPU time, rate, peak memory, last line) and the rates by label."""
    best = {name: min(seconds for seconds, _, _ in results) for name, results in runs.items()}
    memory = {name: max(rss for _, rss, _ in results) for name, results in runs.items()}
    rate = {name: size / seconds for name, seconds in best.items()}
    last = {name: results[-1][2].strip().splitlines()[-1] for name, results in runs.items()}
    rows = "\n".join(f"| {name} | {best[name]:.1f} | {human_bytes(int(rate[name]))}/s | {memory[name] / 1024:.0f} MiB "
                     f"| {last[name][:90]} |" for name in runs)
    return f"| program | CPU s | data per CPU second | peak RSS | last line |\n|---|---|---|---|---|\n{rows}\n", rate


def report(runs: dict, size: int, practrand: str) -> str:
    rows, rate = table(runs, size)
    return (f"# Run until it fails: rnglab against PractRand, per CPU second\n\n"
            f"{human_bytes(size)} of numpy's PCG64 (seed {SEED}) from a file on standard input; best of "
            f"{repeat_count(runs)} alternating runs each; CPU = user + system of the child process. PractRand: "
            f"`{Path(practrand).name} stdin32 -tlmax {size // 2**20}MB` (default reporting); rnglab: "
            f"`rnglab test - --format u32 --until-fail --max-bytes {size}` (its default battery, core, its tests' "
            "threads on one CPU; PractRand is single-threaded).\n\n"
            f"{rows}\n"
            f"rnglab / PractRand per CPU second: {rate['rnglab'] / rate['PractRand']:.3f} "
            "(goal of issue #30: at least 1.0).\n")


def builtin_report(runs: dict, size: int) -> str:
    rows, rate = table(runs, size)
    return (f"\nEach on a built-in generator, no pipe, {human_bytes(size)}, best of {repeat_count(runs)} "
            f"alternating runs: `rnglab test pcg64 --until-fail --max-bytes {size}` and `RNG_test sfc64 -tlmax "
            f"{size // 2**20}MB` (PractRand has no PCG64, rnglab no SFC64: each program's cost of generating is "
            "in its figure).\n\n"
            f"{rows}\nrnglab / PractRand per CPU second: "
            f"{rate['rnglab pcg64'] / rate['PractRand sfc64']:.3f}.\n")


def repeat_count(runs: dict) -> int:
    return min(len(results) for results in runs.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1GiB", help="data each program examines (default 1GiB)")
    parser.add_argument("--builtin-size", default="4GiB", help="data of the built-in generators' runs (default 4GiB)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--practrand", default=os.environ.get("PRACTRAND_RNG_TEST"), help="PractRand's RNG_test")
    arguments = parser.parse_args()
    if not arguments.practrand or not os.access(arguments.practrand, os.X_OK):
        sys.exit("give PractRand's RNG_test: --practrand PATH or PRACTRAND_RNG_TEST (build it outside rnglab)")
    size = parse_size(arguments.size)
    builtin = parse_size(arguments.builtin_size)
    text = report(run(arguments.practrand, size, arguments.repeat), size, arguments.practrand)
    text += builtin_report(run_builtin(arguments.practrand, builtin, arguments.repeat), builtin)
    (RESULTS / "practrand.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
