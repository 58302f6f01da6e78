"""Stream throughput of LCG.random_raw against a C loop filling the same buffer.

Goals (issues 2 and 19): at least as fast as the C loop for a power-of-two LCG
(MSVC rand()), at least half its speed for MINSTD and for any modulus up to
2^63 that is neither a power of two nor at most 2^32 (the C loop then uses an
exact 128-bit product and remainder). numpy's own PCG64.random_raw is shown as
a second reference. Both sides fill chunks of 2^20 values: into one reused
buffer (rnglab: ``random_raw(out=buffer)``), and into a new buffer per chunk
that is dropped before the next one (rnglab: ``random_raw(CHUNK)``; C: malloc,
fill, free), so that each pair does the same work, page faults included.
A second C reference runs eight independent lanes (issue 31: the dependency chain of the sequential
loop is what rnglab's rows of lanes avoid), compiled with ``-O3 -march=native`` as numba compiles for
the host. Times are CPU times, the best of ``ROUNDS`` runs taken in turn (rnglab, C sequential, C lanes,
rnglab, ...): the machine is shared, and alternating spreads its load over both sides.
"""

from __future__ import annotations

import functools
import time

import numpy as np
from common import C_SOURCES, compile_c, markdown_table, run_c, write_fragment
from common import best_time as best_wall_or_cpu_time

from rnglab.generators import LCG, make_source

#: CPU time: the kernels run on one thread, and the machine is shared.
best_time = functools.partial(best_wall_or_cpu_time, clock=time.process_time)

CHUNK = 2**20
CHUNKS = 16
ROUNDS = 5
CASES = [("msvc", 214013, 2531011, 2**32), ("minstd", 16807, 0, 2**31 - 1)]
#: Moduli of the "wide" rows: an odd m near 2^40, and the largest primes below 2^62 and 2^63.
WIDE = [("odd m = 2^40 - 87", 25214903917, 11, 2**40 - 87),
        ("prime m = 2^62 - 57", 0x2545F4914F6CDD1D % (2**62 - 57), 1, 2**62 - 57),
        ("prime m = 2^63 - 25", 6364136223846793005, 1442695040888963407, 2**63 - 25)]


def per_value(seconds: float, chunks: int = CHUNKS) -> float:
    return seconds / (CHUNK * chunks)


def drop_each(source) -> None:
    """Draw CHUNKS new arrays, each dropped before the next is drawn (as the C side frees its buffer)."""
    for _ in range(CHUNKS):
        source.random_raw(CHUNK)


def rnglab_timer(source, fresh: bool):
    """A function timing one run of CHUNKS chunks of ``source``, CPU seconds a value (the kernels compiled first)."""
    buffer = source.random_raw(CHUNK)
    if fresh:
        return lambda: per_value(best_time(lambda: drop_each(source), repeat=1))
    return lambda: per_value(best_time(lambda: [source.random_raw(out=buffer) for _ in range(CHUNKS)], repeat=1))


def c_seconds(binary, kind, a, c, m, fresh: bool, lanes: int = 1) -> float:
    seconds, _ = run_c(binary, kind, a, c, m, CHUNK, CHUNKS, int(fresh), lanes).split()
    return per_value(float(seconds))


def best_alternating(timers: list, rounds: int = ROUNDS) -> list[float]:
    """The best of ``rounds`` results of each timer, the timers called in turn in every round."""
    best = [float("inf")] * len(timers)
    for _ in range(rounds):
        for k, timer in enumerate(timers):
            best[k] = min(best[k], timer())
    return best


def compared_alternately(source, binaries, kind, a, c, m, fresh: bool) -> tuple[float, float, float]:
    """rnglab's, the sequential C loop's and the eight-lane C loop's seconds a value, timed alternately."""
    binary, lanes_binary = binaries
    return best_alternating([rnglab_timer(source, fresh), lambda: c_seconds(binary, kind, a, c, m, fresh),
                             lambda: c_seconds(lanes_binary, kind, a, c, m, fresh, 8)])


def numpy_seconds() -> float:
    bit_generator = np.random.PCG64(1)
    return per_value(best_time(lambda: [bit_generator.random_raw(CHUNK) for _ in range(CHUNKS)]))


def before_seconds(source) -> float:
    """The path random_raw took before issue 19: numpy rows (long double to 2^62, Python integers beyond)."""
    chunks = 1 if source.m > 2**62 else 4
    return per_value(best_time(lambda: [source.random_states(CHUNK) for _ in range(chunks)], repeat=2), chunks)


def compared(ours: float, sequential: float, lanes: float) -> list[str]:
    return [f"{ours * 1e9:.2f}", f"{sequential * 1e9:.2f}", f"{sequential / ours:.2f}", f"{lanes * 1e9:.2f}",
            f"{lanes / ours:.2f}"]


def stream_rows(binaries) -> list:
    rows = []
    for name, a, c, m in CASES:
        for fresh in (False, True):
            timings = compared_alternately(make_source(name, 1), binaries, name, a, c, m, fresh)
            rows.append([name, "new array per chunk, freed" if fresh else "reused buffer", "", *compared(*timings)])
    for name, a, c, m in WIDE:
        source = LCG(a=a, c=c, m=m, seed=1)
        ours, sequential, lanes = compared_alternately(source, binaries, "wide", a, c, m, False)
        before = before_seconds(source)
        rows.append([name, "reused buffer", f"{before * 1e9:.1f} ({sequential / before:.2f})",
                     *compared(ours, sequential, lanes)])
    return rows


def main() -> None:
    binary = compile_c(C_SOURCES / "lcg_stream.c")
    lanes_binary = compile_c(C_SOURCES / "lcg_stream.c", flags=("-O3", "-march=native"))
    rows = stream_rows((binary, lanes_binary))
    pcg = numpy_seconds()
    rows.append(["(numpy PCG64.random_raw)", "new array per chunk, freed", "", f"{pcg * 1e9:.2f}", "", "", "", ""])
    body = (f"Throughput of `random_raw` in chunks of 2^20 values, CPU ns per value, the best of {ROUNDS} runs "
            "taken in turn (rnglab, C sequential, C 8 lanes, rnglab, ...); ratio = C time / rnglab time "
            "(>= 1: rnglab at least as fast), against a sequential C loop (`cc -O2`) and a C loop over eight "
            "independent lanes (`cc -O3 -march=native`; each lane advanced by the jump A^8, C_8, the same "
            "values in the same order). Goals: msvc >= 1, minstd and the wide moduli >= 0.5 against the "
            "sequential loop. Moduli up to 2^32 that are not powers of two (minstd) use Shoup's multiplication "
            "on 32-bit words, with no division (issue 31: the `%` by a run-time modulus cost 3x). Each row "
            "does the same work on both sides: filling one reused buffer (`random_raw(out=buffer)` against the "
            "C loop writing into one buffer), or a new array per chunk that is dropped before the next one "
            "(`random_raw(CHUNK)`, as numpy's `random_raw` does, against the C loop that mallocs, fills and "
            "frees a buffer per chunk). rnglab's compiled loop (numba, see `rnglab/generators/kernels.py`) "
            "takes the first 256 states by single steps, then advances them as 256 independent lanes by the "
            "jump A^256, C_256, the lanes held in the L1 cache: the power-of-two step is vector code, the "
            "others branch-free, and no lane waits for another, so it beats the sequential C loop (a "
            "dependency chain); against the eight-lane loop, the last column (msvc is the closest: its lanes are "
            "stored back to the L1 cache as their values are written, a second store a value that the C loop "
            "keeps in registers; issue 31: until then the "
            "first row of 16,384 states was built with numpy, in Python integers above 2^62, and the rows "
            "were stepped through the L2 cache: 1.75 ns a value for msvc, 9.25 for m = 2^63 - 25). The wide moduli (neither a power of two nor <= 2^32) use Shoup's precomputed-quotient "
            "multiplication (one 64x64 -> high-64 product from 32-bit halves, two wrapping products); the C "
            "loop uses `unsigned __int128` and its remainder. Column \"before\": the path `random_raw` took "
            "before issue 19 (numpy long-double rows to 2^62, Python integers beyond), timed in the same run, "
            "with its ratio to C.\n\n"
            + markdown_table(["generator", "buffer", "before ns/value (ratio)", "rnglab ns/value",
                              "C sequential ns/value", "ratio", "C 8 lanes ns/value", "ratio"], rows))
    print(write_fragment("generators", "Generators: random_raw throughput", body).read_text())


if __name__ == "__main__":
    main()
