"""Stream throughput of LCG.random_raw against a C loop filling the same buffer.

Goal (issue 2): at least as fast as the C loop for a power-of-two LCG (MSVC
rand()), at least half its speed for MINSTD. numpy's own PCG64.random_raw is
shown as a second reference. rnglab fills chunks of 2^20 values, as
``rnglab stream`` does; the C program fills one buffer of the same size.
"""

from __future__ import annotations

import numpy as np

from common import C_SOURCES, best_time, compile_c, markdown_table, run_c, write_fragment
from rnglab.presets import make_source

CHUNK = 2**20
CHUNKS = 16
CASES = [("msvc", 214013, 2531011, 2**32), ("minstd", 16807, 0, 2**31 - 1)]


def rnglab_seconds(name: str) -> float:
    source = make_source(name, 1)
    source.random_raw(CHUNK)  # compile the kernels before timing
    return best_time(lambda: [source.random_raw(CHUNK) for _ in range(CHUNKS)]) / (CHUNK * CHUNKS)


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
        ours = rnglab_seconds(name)
        reused, fresh = c_seconds(binary, name, a, c, m, False), c_seconds(binary, name, a, c, m, True)
        rows.append([name, f"{ours * 1e9:.2f}", f"{reused * 1e9:.2f}", f"{reused / ours:.2f}",
                     f"{fresh * 1e9:.2f}", f"{fresh / ours:.2f}"])
    pcg = numpy_seconds()
    rows.append(["(numpy PCG64.random_raw)", f"{pcg * 1e9:.2f}", "", "", "", ""])
    body = ("Throughput of `random_raw` in chunks of 2^20 values, ns per value; ratio = C time / rnglab time "
            "(>= 1: rnglab at least as fast). Goals: msvc >= 1, minstd >= 0.5. Like numpy's `random_raw`, "
            "rnglab returns a new array per call, whose pages the kernel must fault in; the C loop is shown "
            "both filling one reused buffer and filling a freshly allocated buffer per chunk (the same work "
            "as returning a new array). rnglab's compiled kernel itself (numba, interleaved lanes, see "
            "`rnglab/generators/kernels.py`) beats the sequential C loop, because the lanes have no "
            "dependency chain; the remaining cost is first-touching the new memory.\n\n"
            + markdown_table(["generator", "rnglab ns/value", "C, reused buffer", "ratio", "C, fresh buffer",
                              "ratio"], rows))
    print(write_fragment("generators", "Generators: random_raw throughput", body).read_text())


if __name__ == "__main__":
    main()
