"""Seed recovery: seeds searched per second, rnglab against a C brute force of the same scenario.

Scenario 1, the 1999 online-poker case: Delphi ``Random`` (134775813, 1, 2^32),
``Randomize`` = milliseconds since midnight, the off-by-one exchange shuffle
with ``Random(51) = (RandSeed * 51) >> 32``, five cards seen.
Scenario 2: MSVC ``rand()`` and Fisher-Yates with ``rand() % (i + 1)``, five cards seen.

Two C references (``cc -O2``, one thread, the generators' constants written
in). The naive one (``bench/c/crack_brute.c``) shuffles a whole deck per seed
and compares the first cards: the program an attacker writes first. The
same-algorithm one (``bench/c/crack_filter.c``) runs rnglab's own filter
(one card followed to the end, 4 seeds at a time, for the 1999 shuffle; every
seen card with rejection at the first final position that misfits, for
Fisher-Yates) and checks the survivors on a whole deck. rnglab
(``rnglab.recovery.crack.crack``) follows only the observed cards and runs on
every core. All search the same slice of seeds in the same run and must find
the same seeds. rnglab is timed twice, on every core and on one
thread (``numba.set_num_threads(1)``): the second, against the single-threaded
C programs, is the per-core comparison, taken in CPU seconds (this process's
for rnglab, the child's for C), which a shared machine's load does not
inflate as it does wall time. (On this machine's two virtual cores,
two threads each run about 20 % slower than one thread alone.)

Before issue 19 (commit ecfcf3e, one kernel per reducer reading the
generator's fields at run time; the same slices on one thread, measured
2026-11-24 beside this version): 11.0 and 12.0 million seeds per CPU second
(1999 poker, MSVC Fisher-Yates), against 16.0 and 17.4 for the same-algorithm
C program: 0.69x and 0.69x per core.

By default scenario 1 searches the whole day (86,400,000 seeds) and scenario 2
a slice of 2^28 seeds, extrapolated to the 2^31 seeds that cover all 2^32
(seeds s and s + 2^31 deal the same deck); ``--full`` searches all 2^32.
"""

from __future__ import annotations

import resource
import sys
import time

import numba
import numpy as np
from common import C_SOURCES, compile_c, duration, markdown_table, run_c, write_fragment

from rnglab.generators import as_generator, make_source
from rnglab.recovery.crack import crack, observe
from rnglab.seeds.policies import DAY
from rnglab.seeds.space import parse_seed_space
from rnglab.shuffles.algorithms import make_shuffle, shuffle

#: (name, generator, shuffle, C scenario, true seed, slice compared with C)
SCENARIOS = [
    ("1999 poker: delphi, poker1999, Random(51)", "delphi", "poker1999", "poker1999", 43_012_345, 1 << 23),
    ("msvc, fisher-yates, rand() % (i+1)", "msvc", "fisher-yates", "msvc", 1_790_012_345, 1 << 24),
]
SEEN = 5
REPEAT = 3


def dealt(generator: str, algo: str, seed: int) -> np.ndarray:
    return shuffle(52, make_source(generator, seed), make_shuffle(algo), as_generator(generator).native_reducer)


def timed(function) -> tuple:
    """Run ``function``; return ``(result, wall seconds)``."""
    started = time.perf_counter()
    result = function()
    return result, time.perf_counter() - started


def on_threads(threads: int, function):
    """Run ``function`` with numba (and so rnglab's search) limited to ``threads`` threads."""
    every = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        return function()
    finally:
        numba.set_num_threads(every)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def c_search(binary, scenario, first, size, cards) -> tuple:
    """Rate of a C reference on a slice (per wall second, per CPU second), and the seeds it found."""
    cpu = children_cpu()
    output, wall = timed(lambda: run_c(binary, scenario, first, size, *cards))
    return (size / wall, size / (children_cpu() - cpu)), [int(line) for line in output.splitlines() if line.isdigit()]


def cpu_timed(function) -> tuple:
    """Run ``function``; return ``(result, (wall seconds, CPU seconds of this process))``."""
    cpu = time.process_time()
    result, wall = timed(function)
    return result, (wall, time.process_time() - cpu)


def compare_slice(binaries, generator, algo, scenario, seed, size):
    """Best rates of rnglab (every core, one thread) and the C references on the same slice (alternating),
    and the seeds each found."""
    cards = dealt(generator, algo, seed)[:SEEN]
    first = seed - size // 2
    space = parse_seed_space(f"{first}..{first + size - 1}")
    observation = observe(" ".join(str(c) for c in cards))
    search = lambda: [c.seed for c in crack(as_generator(generator), space, observation, algo=make_shuffle(algo)).candidates]
    every, one, naive, same = [], [], [], []
    for _ in range(REPEAT):
        found, wall = timed(search)
        every.append(((size / wall, 0.0), found))
        found, (wall, cpu) = on_threads(1, lambda: cpu_timed(search))
        one.append(((size / wall, size / cpu), found))
        naive.append(c_search(binaries[0], scenario, first, size, cards))
        same.append(c_search(binaries[1], scenario, first, size, cards))
    runs = (every, one, naive, same)
    best = [tuple(max(rates[k] for rates, _ in run) for k in (0, 1)) for run in runs]
    return best, [run[0][1] for run in runs]


def full_search(generator, algo, seed, space):
    """One timed search of a whole seed space; returns (seconds, seeds shuffled, candidates)."""
    observation = observe(" ".join(str(c) for c in dealt(generator, algo, seed)[:SEEN]))
    result = crack(as_generator(generator), space, observation, algo=make_shuffle(algo))
    return result.seconds, result.shuffled, [c.seed for c in result.candidates]


def limits_line(rate: float) -> str:
    """What a larger seed space would cost at this rate (computed, not asserted)."""
    spans = [(f"2^{bits}", 2**bits / rate) for bits in (32, 48, 64, 128)]
    return ", ".join(f"{name} seeds: {duration(seconds)}" for name, seconds in spans)




def main(argv: list[str] | None = None) -> None:
    full = "--full" in (argv if argv is not None else sys.argv[1:])
    binaries = compile_c(C_SOURCES / "crack_brute.c"), compile_c(C_SOURCES / "crack_filter.c")
    for _, generator, algo, *_ in SCENARIOS:  # compile (or load) the kernels before timing
        crack(as_generator(generator), parse_seed_space("0..9"), observe("Ac"), algo=make_shuffle(algo))
    rows, notes = [], []
    for label, generator, algo, scenario, seed, size in SCENARIOS:
        (every, one, naive, same), found = compare_slice(binaries, generator, algo, scenario, seed, size)
        agree = "yes" if all(f == found[0] for f in found) and seed in found[0] else f"NO: {found}"
        rows.append([label, f"{size:,}", f"{every[0] / 1e6:.1f}", f"{one[0] / 1e6:.1f} ({one[1] / 1e6:.1f})",
                     f"{naive[0] / 1e6:.1f} ({naive[1] / 1e6:.1f})", f"{same[0] / 1e6:.1f} ({same[1] / 1e6:.1f})",
                     f"{one[1] / naive[1]:.2f}", f"{one[1] / same[1]:.2f}", agree])
    seconds, shuffled, found = full_search("delphi", "poker1999", 43_012_345, parse_seed_space("ms-midnight"))
    notes.append(f"Scenario 1, the whole day ({DAY:,} seeds, 5 cards): {seconds:.1f} s "
                 f"({shuffled / seconds / 1e6:.1f} million seeds/s; goal < 30 s); candidates {found}. "
                 f"At this rate: {limits_line(shuffled / seconds)}.")
    middle = 1_790_012_345
    space = parse_seed_space("0..2^32-1" if full else f"{middle - 2**27}..{middle + 2**27 - 1}")
    seconds, shuffled, found = full_search("msvc", "fisher-yates", 1_790_012_345, space)
    rate = shuffled / seconds
    what = "all 2^32 seeds (2^31 shuffled)" if full else \
        f"a slice of 2^28 seeds in {seconds:.1f} s, extrapolated to the 2^31 shuffled for all 2^32"
    notes.append(f"Scenario 2, {what}: {2**31 / rate:.0f} s ({rate / 1e6:.1f} million seeds/s; goal < 600 s); "
                 f"candidates {found[:4]}. At this rate: {limits_line(rate)}.")
    body = (__doc__.split("\n\n", 1)[1].strip() + "\n\n"
            + markdown_table(["scenario", "seeds", "rnglab M/s", "rnglab 1 thread M/s (per CPU s)",
                              "C naive M/s (per CPU s)", "C same algorithm M/s (per CPU s)",
                              "per core / naive", "per core / same algorithm", "same seeds"], rows)
            + "\n\n" + "\n\n".join(notes) + "\n")
    print(write_fragment("crack", "Seed recovery: seeds searched per second", body).read_text())


if __name__ == "__main__":
    main()
