"""Stream throughput of LCG.random_raw against a C loop filling the same buffer.

Goal (issue 2): at least as fast as the C loop for a power-of-two LCG (MSVC
rand()), at least half its speed for MINSTD. numpy's own PCG64.random_raw is
shown as a second reference. Both sides fill chunks of 2^20 values, twice: into
one reused buffer (rnglab: ``random_raw(out=buffer)``) and into a new buffer per
chunk (rnglab: ``random_raw(CHUNK)``, which returns a new array), so that each
pair does the same work, page faults included.
"""

from __future__ import annotations

import numpy as np
from common import C_SOURCES, best_time, compile_c, markdown_table, run_c, write_fragment

from rnglab.generators import make_source

CHUNK = 2**20
CHUNKS = 16
CASES = [("msvc", 214013, 2531011, 2**32), ("minstd", 16807, 0, 2**31 - 1)]


def rnglab_seconds(name: str, fresh: bool) -> float:
    source = make_source(name, 1)
    buffer = source.random_raw(CHUNK)  # also compiles the kernels before timing
    if fresh:
        return best_time(lambda: [source.random_raw(CHUNK) for _ in range(CHUNKS)]) / (CHUNK * CHUNKS)
    return best_time(lambda: [source.random_raw(out=buffer) for _ in range(CHUNKS)]) / (CHUNK * CHUNKS)


def c_seconds(binary, name, a, c, m, fresh: bool) -> float:
    seconds, _ = run_c(binary, name, a, c, m, CHUNK, CHUNKS, int(fresh)).split()
    return float(seconds) / (CHUNK * CHUNKS)


def numpy_seconds() -> float:
    bit_generator = np.random.PCG64(1)
    return best_time(lambda: [bit_generator.random_raw(CHUNK) for _ in range(CHUNKS)]) / (CHUNK * CHUNKS)


def main() -> None:
    binary = compile_c(C_SOURCES / "lcg_stream.c")
    rows = []
    for name, a, c, m in CASES:
        for fresh in (False, True):
            ours, theirs = rnglab_seconds(name, fresh), c_seconds(binary, name, a, c, m, fresh)
            rows.append([name, "new array per chunk" if fresh else "reused buffer", f"{ours * 1e9:.2f}",
                         f"{theirs * 1e9:.2f}", f"{theirs / ours:.2f}"])
    pcg = numpy_seconds()
    rows.append(["(numpy PCG64.random_raw)", "new array per chunk", f"{pcg * 1e9:.2f}", "", ""])
    body = ("Throughput of `random_raw` in chunks of 2^20 values, ns per value; ratio = C time / rnglab time "
            "(>= 1: rnglab at least as fast). Goals: msvc >= 1, minstd >= 0.5. Each row does the same work on "
            "both sides: filling one reused buffer (`random_raw(out=buffer)` against the C loop writing into "
            "one buffer), or returning a new array per chunk (`random_raw(CHUNK)`, as numpy's `random_raw` "
            "does, against the C loop filling a freshly allocated buffer), where first-touching the new pages "
            "costs more than the arithmetic. rnglab's compiled kernel (numba, interleaved lanes, see "
            "`rnglab/generators/kernels.py`) beats the sequential C loop because its lanes have no dependency "
            "chain.\n\n"
            + markdown_table(["generator", "buffer", "rnglab ns/value", "C ns/value", "ratio"], rows))
    print(write_fragment("generators", "Generators: random_raw throughput", body).read_text())


if __name__ == "__main__":
    main()
