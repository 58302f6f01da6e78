"""MRGs: the compiled random_raw against a C loop, and the time of the exact period.

(1) Outputs per second of ``MRG.random_raw(10^7)`` for MRG32k3a and MRG31k3p, against
``bench/c/mrg_stream.c`` compiled with ``cc -O2`` filling an array the same way (64-bit
integer arithmetic, the coefficients known at compile time); the sums of the outputs are
compared, so both compute the same stream.

(2) Time of ``rnglab.algebra.mrg_period.period`` (Knuth 3.2.2's primitivity test, factoring
p - 1 and (p^k - 1)/(p - 1)) for each MRG of the catalog.
"""

from __future__ import annotations

import math
import time

from common import C_SOURCES, best_time, compile_c, markdown_table, run_c, write_fragment

from rnglab.algebra.mrg_period import period
from rnglab.generators import as_generator, catalog

OUTPUTS = 10**7


def stream_row(binary, name: str) -> list:
    generator = as_generator(name)
    generator.make().random_raw(10)  # load or compile the kernel
    ours = best_time(lambda: generator.make().random_raw(OUTPUTS), repeat=3)
    reference = best_time(lambda: run_c(binary, name, OUTPUTS), repeat=3)
    same = int(run_c(binary, name, OUTPUTS)) == int(generator.make().random_raw(OUTPUTS).sum(dtype="uint64"))
    return [name, f"{OUTPUTS / ours / 1e6:.1f}", f"{OUTPUTS / reference / 1e6:.1f}", f"{reference / ours:.2f}",
            "yes" if same else "NO"]


def period_row(name: str) -> list:
    started = time.perf_counter()
    result = period(as_generator(name).make())
    return [name, f"2^{math.log2(result.period):.2f}", f"{(time.perf_counter() - started) * 1000:.0f} ms"]


def main() -> None:
    binary = compile_c(C_SOURCES / "mrg_stream.c")
    streams = [stream_row(binary, name) for name in ("mrg32k3a", "mrg31k3p")]
    periods = [period_row(name) for name, entry in catalog().items() if entry.is_mrg]
    body = (markdown_table(["generator", "rnglab M/s", "C M/s", "rnglab / C", "same stream"], streams)
            + "\n\n" + markdown_table(["generator", "period", "time of the exact period"], periods))
    print(body)
    write_fragment("mrg", "Multiple recursive generators", body)


if __name__ == "__main__":
    main()
