"""MRGs: the compiled random_raw against a C loop, the seed search in batches, and the time of the exact period.

(1) Outputs per second of ``MRG.random_raw(10^7)`` for MRG32k3a, MRG31k3p and MRG63k3a
(L'Ecuyer 1999: moduli 2^63 - 6645 and 2^63 - 21129, written as an inline ``mrg:`` spec;
compiled since issue 20's second part, Python integers before), against
``bench/c/mrg_stream.c`` compiled with ``cc -O2`` filling an array the same way (64-bit
integer arithmetic with the constants known at compile time; Schrage's method for
MRG63k3a, as L'Ecuyer's code multiplies); the sums of the outputs are compared, so both
compute the same stream. Times are CPU seconds (this process's for rnglab, the child's for
C), best of 3, which a shared machine's load inflates less than wall time. For MRG63k3a the Python-integer one-step loop (the path before)
is timed on 10^5 outputs beside it.

(2) Seeds per second of ``rnglab crack`` (Fisher-Yates, Lemire, 6 cards seen) over an MRG or
combination seeded by a small seed space: the batch path (``MRGBatch``, one compiled
lane per seed) against the one-at-a-time path it replaced (one generator and one
shuffle per seed, ``rnglab.recovery.crack.deal``, the reference), on the same slice of seeds;
both must find the same seed.

(3) Time of ``rnglab.algebra.mrg_period.period`` (Knuth 3.2.2's primitivity test, factoring
p - 1 and (p^k - 1)/(p - 1)) for each MRG of the catalog.
"""

from __future__ import annotations

import math
import resource
import time

from common import C_SOURCES, compile_c, markdown_table, run_c, write_fragment

from rnglab.algebra.mrg_period import period
from rnglab.generators import as_generator, catalog
from rnglab.recovery.crack import deal, make_plan, observe, search
from rnglab.reduction.reducers import REDUCERS
from rnglab.seeds.space import parse_seed_space
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.cards import standard_deck

OUTPUTS = 10**7
MRG63K3A = ("mrg:m=9223372036854769163,a=0:1754669720:-3182104042"
            "/m=9223372036854754679,a=31387477935:0:-6199136374,seed=12345")
#: (C name, generator) of the stream rows.
STREAMS = [("mrg32k3a", "mrg32k3a"), ("mrg31k3p", "mrg31k3p"), ("mrg63k3a", MRG63K3A)]
#: (generator, true seed, seeds searched on the batch path, on the one-at-a-time path).
CRACKS = [("mrg32k3a", 777_777, 2**20, 2**11), ("lecuyer88", 123_456, 2**20, 2**11),
          ("wichmann-hill", 20_000, 30_268, 2**11)]


def cpu_seconds(function, children: bool = False, repeat: int = 3) -> float:
    """Least CPU time of ``function()`` over ``repeat`` runs: this process's, or its children's."""
    def used() -> float:
        if not children:
            return time.process_time()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    best = float("inf")
    for _ in range(repeat):
        started = used()
        function()
        best = min(best, used() - started)
    return best


def stream_row(binary, label: str, name: str) -> list:
    generator = as_generator(name)
    generator.make().random_raw(10)  # load or compile the kernel
    ours = cpu_seconds(lambda: generator.make().random_raw(OUTPUTS))
    reference = cpu_seconds(lambda: run_c(binary, label, OUTPUTS), children=True)
    same = int(run_c(binary, label, OUTPUTS)) == int(generator.make().random_raw(OUTPUTS).sum(dtype="uint64"))
    return [label, f"{OUTPUTS / ours / 1e6:.1f}", f"{OUTPUTS / reference / 1e6:.1f}", f"{reference / ours:.2f}",
            "yes" if same else "NO"]


def python_step_rate(name: str, outputs: int = 10**5) -> float:
    """Outputs per second of the Python-integer one-step reference (the path for m >= 2^62 before)."""
    source = as_generator(name).make()
    started = time.perf_counter()
    for _ in range(outputs):
        source.step()
    return outputs / (time.perf_counter() - started)


def crack_row(name: str, seed: int, batch_size: int, single_size: int) -> list:
    generator = as_generator(name)
    low, high = generator.seed_bounds()
    first = max(low, min(seed - batch_size // 2, high - batch_size + 1))
    seen = observe(" ".join(standard_deck().names(shuffle(52, generator.make(seed), make_shuffle("fisher-yates"), REDUCERS["lemire"])[:6])))
    batch = search(make_plan(as_generator(name), parse_seed_space(f"{first}..{first + batch_size - 1}"), seen))
    around = parse_seed_space(f"{seed - single_size // 2}..{seed + single_size // 2 - 1}")
    single, single_rate = one_at_a_time(make_plan(as_generator(name), around, seen), around)
    same = [c.seed for c in batch.candidates] == single == [seed]
    return [name, f"{batch.shuffled:,}", f"{batch.rate:,.0f}", f"{around.size:,}", f"{single_rate:,.0f}",
            f"{batch.rate / single_rate:.0f}x", "yes" if same else "NO"]


def one_at_a_time(plan, space) -> tuple[list[int], float]:
    """The seeds of ``space`` whose deal, one generator and one shuffle per seed (``deal``, the reference), shows
    the cards seen, and the seeds per second."""
    seen = plan.observation
    started = time.perf_counter()
    hits = [int(s) for s in space.seeds() if deal(plan, int(s))[list(seen.positions)].tolist() == list(seen.cards)]
    return hits, space.size / (time.perf_counter() - started)


def period_row(name: str) -> list:
    started = time.perf_counter()
    result = period(as_generator(name).make())
    return [name, f"2^{math.log2(result.period):.2f}", f"{(time.perf_counter() - started) * 1000:.0f} ms"]


def main() -> None:
    binary = compile_c(C_SOURCES / "mrg_stream.c")
    streams = [stream_row(binary, label, name) for label, name in STREAMS]
    before = f"{python_step_rate(MRG63K3A) / 1e6:.2f}"
    cracks = [crack_row(*case) for case in CRACKS]
    periods = [period_row(name) for name, entry in catalog().items() if entry.is_mrg]
    body = (markdown_table(["generator", "rnglab M/CPU s", "C M/CPU s", "rnglab / C", "same stream"], streams)
            + f"\n\nMRG63k3a on the Python-integer path (before: m >= 2^62 was not compiled): {before} M/s.\n\n"
            + markdown_table(["generator", "seeds (batch)", "seeds/s batch", "seeds (one at a time)",
                              "seeds/s one at a time", "speed-up", "same seed found"], cracks)
            + "\n\n" + markdown_table(["generator", "period", "time of the exact period"], periods))
    print(body)
    write_fragment("mrg", "Multiple recursive generators", body)


if __name__ == "__main__":
    main()
