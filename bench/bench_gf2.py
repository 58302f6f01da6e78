"""GF(2)-linear generators: random_raw throughput against a C loop, and the time of the GF(2) algebra.

Goal (issue 29): the equidistribution of MT19937 for v = 1..32 (Delta = 6750) under 60 s. The streams are
measured as bench_generators.py measures the LCGs: chunks of 2^20 values into one reused buffer, rnglab's
``random_raw(out=buffer)`` against a C loop (bench/c/xorshift_stream.c, the best of 5).
"""

from __future__ import annotations

import time

from common import C_SOURCES, best_time, compile_c, markdown_table, run_c, write_fragment

from rnglab.algebra.gf2_generators import equidistribution, gf2_period, linear_model
from rnglab.generators import as_generator, make_source

CHUNK, CHUNKS = 2**20, 8
STREAMS = ("xorshift128", "xoshiro256starstar", "v8")
ALGEBRA = ("xorshift128", "v8", "well512a", "mt19937", "mt19937_64")


def rnglab_seconds(source) -> float:
    """Seconds per value of ``random_raw(out=buffer)``, CHUNKS chunks of CHUNK values."""
    buffer = source.random_raw(CHUNK)  # compiles the kernel before timing
    return best_time(lambda: [source.random_raw(out=buffer) for _ in range(CHUNKS)]) / (CHUNK * CHUNKS)


def stream_rows(binary) -> list:
    rows = []
    for name in STREAMS:
        ours = rnglab_seconds(make_source(name))
        theirs = float(run_c(binary, name, CHUNK, CHUNKS).split()[0]) / (CHUNK * CHUNKS)
        rows.append([name, f"{ours * 1e9:.2f}", f"{theirs * 1e9:.2f}", f"{theirs / ours:.2f}"])
    return rows


def algebra_rows() -> list:
    rows = []
    for name in ALGEBRA:
        model = linear_model(as_generator(name))
        started = time.process_time()
        period = gf2_period(model)
        middle = time.process_time()
        spread = equidistribution(model, period)
        rows.append([name, period.degree, period.weight, f"{middle - started:.2f}", spread.defect,
                     f"{time.process_time() - middle:.2f}"])
    return rows


def main() -> None:
    binary = compile_c(C_SOURCES / "xorshift_stream.c")
    equidistribution(linear_model(as_generator("xorshift32")))  # compile the kernels outside the timings
    streams, algebra = stream_rows(binary), algebra_rows()
    body = ("Throughput of `random_raw` (chunks of 2^20 values into one reused buffer), ns per value; ratio = C "
            "time / rnglab time (>= 1: rnglab at least as fast).\n\n"
            + markdown_table(["generator", "rnglab ns/value", "C ns/value", "ratio"], streams)
            + "\n\nThe GF(2) algebra, CPU seconds: `gf2_period` (Berlekamp-Massey on 2k output bits, Rabin's "
            "irreducibility test by compiled squarings modulo the sparse polynomial, primitivity with the "
            "factors of 2^k - 1) and `equidistribution` (k(v) for v = 1..w by incremental weak Popov reduction "
            "of the dual lattice over GF(2)[z]). Goal: MT19937's equidistribution under 60 s.\n\n"
            + markdown_table(["generator", "degree k", "terms", "period s", "defect", "equidistribution s"],
                             algebra))
    print(write_fragment("gf2", "GF(2)-linear generators: streams and algebra", body).read_text())


if __name__ == "__main__":
    main()
