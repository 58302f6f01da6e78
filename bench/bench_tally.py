"""Tallies read in doubling stages against their tests at once, for every tallied entry of ``small`` and ``standard``.

Issue 14's run until it fails (PractRand's model) reads a stream at doubling stages; a test with a tally
(:class:`rnglab.empirical.stattests.base.Tally`) keeps its counts and reads only each stage's new data, with its
result taken after every stage. Each entry whose test has a tally runs on rnglab's PCG64 source at its battery
size ``n``: at once (the test's function), and as a tally extended to the sizes ``n / 2^k`` (rounded down) from
the smallest its rule accepts, its result taken after each, alternately, best of :data:`REPEAT`. The two must read the
same outputs; the ratio is the cost of the stages (their first sizes are small, where a call's fixed cost shows).
"""

from __future__ import annotations

import dataclasses
import os
import time

from common import markdown_table, write_fragment

from rnglab.empirical.battery import get_battery
from rnglab.empirical.stattests.base import get_test
from rnglab.empirical.until_fail import CountingSource
from rnglab.generators.catalog import as_generator
from rnglab.stream import BitSelection

REPEAT = 3

#: MiB/s at once of the entries measured with this benchmark's timing on the code of commit 19da7b0 (before the
#: tallies of serial ... gcd), 2026-11-24 13:36-13:38, alternately with the code after them (load average 0.7-4.4).
BEFORE = {
    "serial d=16 t=3": 2274, "serial-overlapping d=16 t=3": 1605, "matrix-rank rows=64 columns=64": 609,
    "hamming-weight block_bits=32": 1589, "matrix-rank rows=32 columns=32 low=10": 1299,
    "hamming-weight block_bits=32 low=1": 2506, "serial d=32 t=3": 2226, "serial-overlapping d=32 t=3": 1606,
    "hamming-weight block_bits=64": 2153, "hamming-independence block_bits=300": 273,
    "weight-distribution k=256 alpha=0.0 beta=0.125": 2375, "random-walk length=150": 69, "gcd": 110,
    "count-ones t=5": 263, "count-ones t=5 low=8": 1548, "float-frequency": 93,
}


def label(entry) -> str:
    """The entry's test, options and bits, as the battery file writes them."""
    options = [f"{key}={value}" for key, value in entry.options.items()]
    if entry.bits is not None:
        options += [f"{key}={value}" for key, value in dataclasses.asdict(entry.bits).items() if value]
    return " ".join([entry.test, *options])


def tallied_entries():
    """Each entry of ``small`` then ``standard`` whose test has a tally, once per test, options, bits and n."""
    seen, entries = set(), []
    for battery in ("small", "standard"):
        for entry in get_battery(battery).entries:
            key = (label(entry), entry.n)
            if get_test(entry.test).tally is not None and key not in seen:
                seen.add(key)
                entries.append(entry)
    return entries


def accepts(tally, n: int) -> bool:
    """Whether ``n`` samples meet the tally's validity rule."""
    try:
        tally.check(n)
    except ValueError:
        return False
    return True


def stages(entry) -> list[int]:
    """The sizes ``n / 2^k`` (rounded down) up to the entry's ``n``, each about twice the one before, from the
    smallest the tally's rule accepts (the rules hold from some size on)."""
    tally = get_test(entry.test).tally(as_generator("pcg64").make(1), selection=entry.bits or BitSelection(),
                                       **entry.options)
    return sorted(entry.n >> k for k in range(entry.n.bit_length()) if accepts(tally, entry.n >> k))


def at_once(entry) -> int:
    source = CountingSource(as_generator("pcg64").make(3))
    get_test(entry.test)(source, entry.n, selection=entry.bits or BitSelection(), **entry.options)
    return source.outputs_read


def in_stages(entry, sizes) -> int:
    source = CountingSource(as_generator("pcg64").make(3))
    tally = get_test(entry.test).tally(source, selection=entry.bits or BitSelection(), **entry.options)
    for size in sizes:
        tally.extend(source, size).result()
    return source.outputs_read


def measure(entry) -> tuple[float, float, int, int]:
    """Best seconds at once and in stages, taken alternately, the outputs read, and the number of stages."""
    sizes, best, outputs = stages(entry), [float("inf"), float("inf")], set()
    for _ in range(REPEAT):
        for index, work in enumerate((lambda: at_once(entry), lambda: in_stages(entry, sizes))):
            started = time.perf_counter()
            outputs.add(work())
            best[index] = min(best[index], time.perf_counter() - started)
    assert len(outputs) == 1, f"{label(entry)}: the stages read other outputs than the test at once"
    return best[0], best[1], outputs.pop(), len(sizes)


def main() -> None:
    load, rows = os.getloadavg()[0], []
    for entry in tallied_entries():
        once, staged, outputs, count = measure(entry)
        mib, before = outputs * 8 / 2**20, BEFORE.get(label(entry))
        rows.append([f"`{label(entry)}`", entry.n, f"{mib:.0f}", f"{before}" if before else "not measured",
                     f"{mib / once:.0f}", count, f"{mib / staged:.0f}", f"{staged / once:.2f}"])
        print(rows[-1], flush=True)
    body = ("Issue 14's run until it fails reads the stream at doubling stages; a test with a tally keeps its "
            "counts and reads only each stage's new data, its result taken after every stage. Each entry of "
            "`small` and `standard` whose test has a tally, on rnglab's PCG64 source at its battery size n: at "
            "once (the test's function), and as a tally extended to the sizes n / 2^k (rounded down), from the "
            f"smallest its rule accepts, its result taken after each; alternately, best of {REPEAT}. Both read the "
            "same outputs (checked). MiB/s = MiB of the stream read per second; stages / at once = the time in stages "
            "over the time at once (the first stages are small, where a call's fixed cost shows: a result costs "
            "0.1 to 2 ms). before (commit 19da7b0): the test at once before its tally (the same timing, taken "
            "alternately with the code after, 2026-11-24 13:36), where measured. "
            f"Load average when the run started: {load:.1f}.\n\n"
            + markdown_table(["entry", "n", "MiB read", "before (commit 19da7b0) at once MiB/s", "at once MiB/s",
                              "stages", "in stages MiB/s", "stages / at once"], rows))
    title = "Tallies in doubling stages against their tests at once (issue 14)"
    print(write_fragment("tally", title, body).read_text())


if __name__ == "__main__":
    main()
