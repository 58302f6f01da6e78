"""Rate of every uncapped entry of the ``small`` battery on PCG64, against generating the bytes it reads.

Issue 14's model (PractRand's): in a run until it fails, every test reads all the data of a stage, so the
cost of a byte is the sum over the entries of each one's cost per byte, and the run's rate is
``1 / sum_i (1 / rate_i)``. Each uncapped entry (``max_n`` unset) runs here on rnglab's PCG64 source at the
``n`` that reads about :data:`TARGET` bytes (at least the smallest ``n`` it accepts), timed with the
reading of its data; the reference is the same source generating as many outputs (``random_raw`` in calls
of 2^20), timed alternately with it, best of :data:`REPEAT`. ratio = entry time / generation time. The
entries capped by ``max_n`` read a fixed amount whatever the stage and are left out of the sum.
"""

from __future__ import annotations

import dataclasses
import os
import time

from common import markdown_table, write_fragment

from rnglab.empirical.battery import get_battery
from rnglab.empirical.until_fail import CountingSource
from rnglab.generators.catalog import as_generator

#: Bytes of the stream each entry reads (about).
TARGET = 48 * 2**20
REPEAT = 3
#: Outputs per call of the generation reference.
GENERATION_CHUNK = 2**20

#: MiB/s of each entry (by its label) measured with this benchmark on the code of commit 7efc7e4, before the
#: speed-ups, on 2026-11-24 at 10:42 (load average 1.1).
BEFORE = {
    'serial-correlation': 1524,
    'frequency d=256': 2109,
    'serial d=16 t=3': 2138,
    'serial-overlapping d=16 t=3': 1466,
    'gap alpha=0.0 beta=0.00390625 t=128 low=10': 1837,
    'poker d=32 k=32 low=8': 1817,
    'coupon d=16 low=6': 1398,
    'permutation t=5': 948,
    'runs-up': 1349,
    'max-of-t t=6 d=100000': 1074,
    'matrix-rank rows=64 columns=64': 387,
    'hamming-weight block_bits=32': 1260,
    'matrix-rank rows=32 columns=32 low=10': 736,
    'frequency d=256 low=8': 1959,
    'hamming-weight block_bits=32 low=1': 1418,
    'frequency d=16 low=8': 2007,
    'bcfn': 430,
    'bcfn low=8': 986,
    'bcfn low=1': 1171,
    'gap-16': 308,
    'gap-16 low=8': 842,
    'gap-16 low=1': 1410,
}


def label(entry) -> str:
    """The entry's test, options and bits, as the battery file writes them."""
    options = [f"{key}={value}" for key, value in entry.options.items()]
    if entry.bits is not None:
        options += [f"{key}={value}" for key, value in dataclasses.asdict(entry.bits).items() if value]
    return " ".join([entry.test, *options])


def outputs_read(entry, n: int) -> int:
    """Outputs of PCG64 the entry reads at size ``n`` (refused sizes raise ValueError)."""
    source = CountingSource(as_generator("pcg64").make(1))
    dataclasses.replace(entry, n=n, max_n=None).run(entry.view(source))
    return source.outputs_read


def sized(entry) -> tuple[int, int]:
    """``(n, outputs)``: the size reading about :data:`TARGET` bytes of 64-bit outputs, and the outputs it reads."""
    n = entry.n
    while True:  # the smallest n the test accepts, from the battery's n down
        try:
            probe = outputs_read(entry, max(n // 64, 1))
            break
        except ValueError:
            n *= 4
    n = max(round(max(n // 64, 1) * TARGET / 8 / probe), n // 64)
    return n, outputs_read(entry, n)


def generate(outputs: int) -> None:
    """The reference: PCG64 generating ``outputs`` raw outputs, 2^20 at a time."""
    source = as_generator("pcg64").make(2)
    for start in range(0, outputs, GENERATION_CHUNK):
        source.random_raw(min(GENERATION_CHUNK, outputs - start))


def measure(entry, n: int, outputs: int) -> tuple[float, float]:
    """Best seconds of the entry and of generating its outputs, taken alternately."""
    run = dataclasses.replace(entry, n=n, max_n=None)
    best = [float("inf"), float("inf")]
    for _ in range(REPEAT):
        for index, work in enumerate((lambda: run.run(run.view(as_generator("pcg64").make(3))),
                                      lambda: generate(outputs))):
            started = time.perf_counter()
            work()
            best[index] = min(best[index], time.perf_counter() - started)
    return best[0], best[1]


def main() -> None:
    load = os.getloadavg()[0]
    rows, entry_total, generation_total, before_total = [], 0.0, 0.0, 0.0
    for entry in get_battery("small").entries:
        if entry.max_n is not None:
            continue
        n, outputs = sized(entry)
        seconds, generation = measure(entry, n, outputs)
        mib = outputs * 8 / 2**20
        entry_total, generation_total = entry_total + seconds / mib, generation_total + generation / mib
        before = BEFORE.get(label(entry))
        before_total += 1 / before if before else 0.0
        rows.append([f"`{label(entry)}`", n, f"{mib:.0f}", f"{before:.0f}" if before else "not measured",
                     f"{mib / seconds:.0f}", f"{mib / generation:.0f}", f"{seconds / generation:.2f}"])
        print(rows[-1], flush=True)
    rows.append(["all of them on the same data", "", "", f"{1 / before_total:.1f}" if before_total else "not measured",
                 f"{1 / entry_total:.1f}", f"{1 / generation_total:.0f}", f"{entry_total / generation_total:.1f}"])
    body = ("Issue 14: in `--until-fail`, every uncapped entry of `small` reads the whole stage, so the stage costs "
            "the sum of the entries' costs per byte. Each entry on rnglab's PCG64 source at the n that reads about "
            f"{TARGET // 2**20} MiB (more when the test needs more: max-of-t's n >= 5 d), timed with the reading "
            "of its data, against PCG64 generating the same outputs (`random_raw`, 2^20 per call), alternately, "
            f"best of {REPEAT}. MiB/s = MiB of the stream consumed per second; ratio = entry time / generation "
            "time. The last row is the aggregate `1 / sum(1 / rate)` (the rate of a stage where every entry "
            "reads the same data). before (commit 7efc7e4): the same benchmark on the code before the speed-ups, "
            "measured 2026-11-24 10:42 (load average 1.1); at the start of the work (10:03, load average 1.5) it "
            "had measured 35.6 MiB/s in all, gap-16 184, bcfn 418, matrix-rank 64 x 64 360 MiB/s. "
            f"Load average when the run started: {load:.1f}.\n\n"
            + markdown_table(["entry", "n", "MiB read", "before (commit 7efc7e4) MiB/s", "MiB/s",
                              "generation MiB/s", "ratio"], rows))
    print(write_fragment("stattest_rates", "Rates of the small battery's entries (issue 14)", body).read_text())


if __name__ == "__main__":
    main()
