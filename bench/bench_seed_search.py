"""The seed search per core: rnglab's kernel against a plain C program and a lock-step SIMD C program (issue #31).

Cases (five cards seen, as in ``bench_crack.py``): MSVC ``rand() % (i + 1)``
with Fisher-Yates, and the 1999 poker case (Delphi ``Random(51)``, the
exchange shuffle). References compiled here under a temporary folder:

* ``bench/c/crack_filter.c`` (``cc -O2``): rnglab's own filter in plain C,
  one seed at a time (four at a time for the one-card filter), stopping at the
  first card that differs;
* ``bench/c/crack_simd.c`` with ``-mavx512f`` (16 seeds a vector) where
  ``/proc/cpuinfo`` lists ``avx512f``, else ``-mavx2`` (8 seeds), else not run:
  seeds in lock step, ``%`` by a float reciprocal with an exact correction, a
  block abandoned when every seed is rejected.

rnglab runs :func:`rnglab.recovery.crack.matching_seeds` on one thread
(``NUMBA_NUM_THREADS=1``, set before numba is imported), so the seeding and
the check of the survivors count too. The runs alternate (rnglab, C, SIMD,
rnglab, ...) and each figure is the best of ``REPEAT`` CPU times (this
process's for rnglab, the child's for C): on a shared machine CPU time, not
wall time, is what the load changes least. Every program must find the same
seeds. Writes ``bench/results/seed_search.md``.

Usage: ``python bench/bench_seed_search.py [SEEDS]`` (default 2^22 seeds a run).
"""

from __future__ import annotations

import os

os.environ["NUMBA_NUM_THREADS"] = "1"  # before numba is imported: the per-core figure

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import C_SOURCES, compile_c, markdown_table, write_fragment

from rnglab.generators import as_generator
from rnglab.recovery.crack import make_plan, matching_seeds, observe
from rnglab.seeds.space import parse_seed_space
from rnglab.shuffles.algorithms import make_shuffle, shuffle

#: (label, generator, shuffle, the C programs' case name, true seed)
CASES = [
    ("MSVC, Fisher-Yates, rand() % (i+1)", "msvc", "fisher-yates", "msvc", 1_000_617),
    ("1999 poker: Delphi, exchange shuffle, Random(51)", "delphi", "poker1999", "poker1999", 1_000_123),
]
SEEN = 5
REPEAT = 5


def simd_flags() -> tuple[list[str], str] | None:
    """Compiler flags and a label for the widest vector unit the CPU lists, or ``None``."""
    flags = Path("/proc/cpuinfo").read_text().split() if Path("/proc/cpuinfo").exists() else []
    if "avx512f" in flags:
        return ["-mavx512f", "-mavx512vl", "-mavx512bw", "-DLANES=16"], "AVX-512, 16 seeds a vector"
    if "avx2" in flags:
        return ["-mavx2", "-DLANES=8"], "AVX2, 8 seeds a vector"
    return None


def compile_simd(flags: list[str]) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="rnglab-bench-"))
    binary = folder / "crack_simd"
    subprocess.run(["cc", "-O2", *flags, "-o", str(binary), str(C_SOURCES / "crack_simd.c")], check=True)
    return binary


def c_run(binary: Path, case: str, first: int, count: int, cards) -> tuple[float, list[int]]:
    """CPU seconds of one run of a C reference, and the seeds it found."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([str(binary), case, str(first), str(count), *map(str, cards)], check=True,
                         capture_output=True, text=True).stdout.split("\n")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
            sorted(int(line) for line in out if line.isdigit()))


def rnglab_run(plan, first: int, count: int) -> tuple[float, list[int]]:
    """CPU seconds of one rnglab search of ``[first, first + count)``, and the seeds it found."""
    started = time.process_time()
    found = matching_seeds(plan, first, first + count)
    return time.process_time() - started, sorted(int(s) for s in found)


def measure(case, count: int, programs: dict) -> list:
    label, name, algo_name, c_case, seed = case
    generator, algo = as_generator(name), make_shuffle(algo_name)
    first = max(0, seed - count // 2)
    space = parse_seed_space(f"{first}..{first + count - 1}")
    probe = make_plan(generator, space, observe("0"))
    cards = shuffle(52, probe.generator.make(seed), algo, probe.reducer)[:SEEN]
    plan = make_plan(generator, space, observe(" ".join(map(str, cards))), algo)
    matching_seeds(plan, first, first + 64)  # load (or compile) the kernel outside the timing
    best = {name: float("inf") for name in ["rnglab", *programs]}
    for _ in range(REPEAT):
        seconds, hits = rnglab_run(plan, first, count)
        best["rnglab"] = min(best["rnglab"], seconds)
        for name, binary in programs.items():
            seconds, theirs = c_run(binary, c_case, first, count, cards)
            best[name] = min(best[name], seconds)
            if theirs != hits:
                raise AssertionError(f"{name} found {theirs[:5]}, rnglab {hits[:5]}")
    if seed not in hits:
        raise AssertionError(f"the true seed {seed} was not found")
    rates = {name: count / seconds / 1e6 for name, seconds in best.items()}
    return [label, *(f"{rates[name]:.1f}" for name in best),
            *(f"{rates['rnglab'] / rates[name]:.2f}x" for name in programs)]


def main(count: int = 1 << 22) -> None:
    programs = {"plain C": compile_c(C_SOURCES / "crack_filter.c")}
    simd = simd_flags()
    if simd is not None:
        programs["SIMD C"] = compile_simd(simd[0])
    rows = [measure(case, count, programs) for case in CASES]
    headers = ["case", "rnglab (M seeds / CPU s)", *(f"{name} (M / CPU s)" for name in programs),
               *(f"rnglab / {name}" for name in programs)]
    table = markdown_table(headers, rows)
    print(table)
    body = (f"{count:,} seeds a run around a known seed, {SEEN} cards seen, best of {REPEAT} alternating runs, "
            f"CPU time, one thread (`NUMBA_NUM_THREADS=1`). SIMD reference: "
            f"{simd[1] if simd else 'not run (no AVX2 or AVX-512)'}. Goals (issue #31): rnglab at least 1.5x the plain "
            f"C program and at least 0.5x the SIMD one.\n\n{table}\n")
    print(write_fragment("seed_search", "Seed search per core against C (scalar and SIMD)", body))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 22)
