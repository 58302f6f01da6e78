"""Range-reduction throughput against numpy's ``Generator.integers``, and the speed of the exact analysis.

Goal (issue 5): ``lemire`` at least 0.8x numpy's speed on the same source;
the exact analysis of R = 2^32 in under a second for any n.

Same source: for bounds below 2^32 numpy's ``integers`` draws 32-bit words,
two per PCG64 output (low half first), and applies Lemire's method to them;
rnglab is fed exactly those words (a PCG64 split into 32-bit halves, R = 2^32)
and its ``lemire`` is bit-exact with numpy (checked below). For a bound above
2^32 both read whole 64-bit PCG64 words. Every reducer is timed on the
32-bit source, each side by side with numpy in the same run; the count is
10^7 values per call by default (10^8 with ``--full``), best of 3.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from common import best_time, markdown_table, write_fragment

from rnglab.generators import NumpySource, Source
from rnglab.reduction.bias import applicable_methods, bias
from rnglab.reduction.draw import draw_bounded

SEED = 20261122


class PCG64Halves(Source):
    """PCG64's outputs split into 32-bit words, low half first (numpy's ``next_uint32`` order)."""

    name, low, high = "pcg64-32", 0, 2**32 - 1

    def __init__(self, seed: int):
        self.bit_generator, self.spare = np.random.PCG64(seed), np.empty(0, dtype=np.uint64)
        super().__init__()

    def _generate(self, size):
        fresh = self.bit_generator.random_raw(max(0, size - len(self.spare) + 1) // 2).view(np.uint32)
        pool = np.concatenate([self.spare, fresh]) if len(self.spare) else fresh.astype(np.uint64)
        self.spare = pool[size:]
        return pool[:size]

    @property
    def state(self):
        return {"generator": self.name, "bit_generator": self.bit_generator.state}


def pcg64_halves(seed: int) -> PCG64Halves:
    """A fresh 32-bit view of ``PCG64(seed)``."""
    return PCG64Halves(seed)


def check_bit_exact(count: int = 10**5) -> bool:
    """rnglab's lemire equals numpy's integers on the same words, for a 32-bit and a 64-bit bound."""
    small = draw_bounded(pcg64_halves(SEED), 52, count, "lemire").values
    large = draw_bounded(NumpySource.from_seed("PCG64", SEED), 10**12, count, "lemire").values
    return (np.array_equal(small, np.random.Generator(np.random.PCG64(SEED)).integers(0, 52, count))
            and np.array_equal(large, np.random.Generator(np.random.PCG64(SEED)).integers(
                0, 10**12, count, dtype=np.uint64)))


def throughput_rows(count: int, n: int) -> list:
    rows = []
    generator = np.random.Generator(np.random.PCG64(SEED))
    for method in applicable_methods(2**32, n):
        source = pcg64_halves(SEED)
        draw_bounded(source, n, 1000, method)  # compile kernels first
        ours = best_time(lambda: draw_bounded(source, n, count, method), repeat=3)
        theirs = best_time(lambda: generator.integers(0, n, count), repeat=3)
        rows.append([f"`{method}`", n, f"{ours / count * 1e9:.2f}", f"{theirs / count * 1e9:.2f}",
                     f"{theirs / ours:.2f}"])
    source = NumpySource.from_seed("PCG64", SEED)
    draw_bounded(source, 10**12, 1000, "lemire")
    ours = best_time(lambda: draw_bounded(source, 10**12, count, "lemire"), repeat=3)
    theirs = best_time(lambda: generator.integers(0, 10**12, count, dtype=np.uint64), repeat=3)
    rows.append(["`lemire` (64-bit words)", "10^12", f"{ours / count * 1e9:.2f}", f"{theirs / count * 1e9:.2f}",
                 f"{theirs / ours:.2f}"])
    return rows


def analysis_rows() -> list:
    rows = []
    for n in (52, 10000, 10**6, 2**31 + 1, 3_000_000_019):
        methods = [m for m in applicable_methods(2**32, n) if m != "float-multiply" or n <= 10**6]
        started = time.perf_counter()
        for method in methods:
            bias(method, n, 2**32)
        rows.append([n, len(methods), f"{time.perf_counter() - started:.3f}"])
    return rows


def main(argv: list[str] | None = None) -> None:
    count = 10**8 if "--full" in (argv or []) else 10**7
    exact = check_bit_exact()
    throughput = throughput_rows(count, 52)
    analysis = analysis_rows()
    body = (f"Reducers drawing {count:.0e} values in [0, 52) from PCG64, rnglab (`draw_bounded`, chunks of 2^15 "
            "draws mapped at once, the 128-bit products compiled with numba) against numpy's "
            "`Generator.integers` on the same words (see the script's docstring); ratio = numpy time / rnglab "
            "time (goal for `lemire`: >= 0.8). Only `lemire` computes what numpy computes (bit-exact with it: "
            f"{'yes' if exact else 'NO'}); the other rows show what each method costs on the same stream.\n\n"
            + markdown_table(["method", "n", "rnglab ns/value", "numpy ns/value", "ratio"], throughput)
            + "\n\nExact analysis (`rnglab.reduction.bias.bias`: counts, probabilities as fractions, TV distance, draws to "
            "detect) for R = 2^32, all applicable methods together (`float-multiply`, which needs O(n) "
            "work, only up to n = 10^6); goal: under a second per method for any n.\n\n"
            + markdown_table(["n", "methods", "seconds, all methods"], analysis))
    path = write_fragment("reduce", "Range reduction: throughput and exact analysis", body)
    print(path.read_text())


if __name__ == "__main__":
    main(sys.argv[1:])
