"""Cost of reading a test in doubling stages with its tally, against the test at once on the same samples.

Issue 14's model (PractRand's): a run until it fails reads the stream's first ``T`` bytes at stages where ``T``
doubles, and looks at every test's result at each stage. Each entry of ``small`` and ``standard`` whose test has a
:class:`~rnglab.empirical.stattests.base.Tally` is run on PCG64 at its battery size ``n``: (a) the test at once on
``n`` samples, the reference; (b) its tally extended at the :data:`STAGES` doublings ``n / 2^k .. n`` that its
validity rules accept, with the result taken at each; (c) the test at once at each of those sizes, every stage from
the stream's start (what a run until it fails did before tallies). Best of :data:`REPEAT`, taken alternately;
ratio = stages' time / once's time (reading everything again at each stage costs about 2).
"""

from __future__ import annotations

import time

from common import markdown_table, write_fragment

from rnglab.empirical.battery import get_battery
from rnglab.empirical.stattests.base import get_test
from rnglab.generators.catalog import as_generator

#: Doublings before the battery's size (stages n / 2^STAGES .. n).
STAGES = 7
REPEAT = 3


def label(battery: str, entry) -> str:
    options = [f"{key}={value}" for key, value in entry.options.items()]
    return " ".join([battery, entry.test, *options] + ([f"low={entry.bits.low}"] if entry.bits else []))


def stage_sizes(entry) -> list[int]:
    """The sizes ``n / 2^k`` (``k = STAGES .. 0``) that the entry's tally accepts."""
    tally, sizes = get_test(entry.test).tally(entry.view(as_generator("pcg64").make(1)), **entry.options), []
    for k in range(STAGES, -1, -1):
        try:
            tally.check(entry.n >> k)
            sizes.append(entry.n >> k)
        except ValueError:
            continue
    return sizes


def measure(entry, sizes: list[int]) -> tuple[float, float, float]:
    """Best seconds of (a) once, (b) the tally's stages, (c) every stage from the start."""
    test = get_test(entry.test)

    def once(n: int) -> None:
        test(entry.view(as_generator("pcg64").make(3)), n, **entry.options)

    def tallied() -> None:
        source = entry.view(as_generator("pcg64").make(3))
        tally = test.tally(source, **entry.options)
        for n in sizes:
            tally.extend(source, n).result()

    best = [float("inf")] * 3
    for _ in range(REPEAT):
        for index, work in enumerate((lambda: once(entry.n), tallied, lambda: [once(n) for n in sizes])):
            started = time.perf_counter()
            work()
            best[index] = min(best[index], time.perf_counter() - started)
    return best[0], best[1], best[2]


def main() -> None:
    rows, seen = [], set()
    for battery in ("small", "standard"):
        for entry in get_battery(battery).entries:
            key = (entry.test, repr(entry.options), entry.bits, entry.n)
            if get_test(entry.test).tally is None or key in seen:
                continue
            seen.add(key)
            sizes = stage_sizes(entry)
            once, tallied, again = measure(entry, sizes)
            rows.append([f"`{label(battery, entry)}`", entry.n, len(sizes), f"{once * 1e3:.1f}",
                         f"{tallied / once:.3f}", f"{again / once:.3f}"])
            print(rows[-1], flush=True)
    body = (f"Each entry with a tally, on PCG64 at its battery size n: the test at once (ms), then, as ratios to "
            f"it, its tally extended at the stages n / 2^k (k = {STAGES} .. 0, those its validity rules accept) "
            f"with the result taken at each, and the test at once at each stage from the stream's start (the "
            f"doublings before tallies). Best of {REPEAT}, alternately.\n\n"
            + markdown_table(["entry", "n", "stages", "once ms", "tally at the stages / once",
                              "each stage from the start / once"], rows))
    print(write_fragment("tally_stages", "Tallies read in doubling stages (issue 14)", body).read_text())


if __name__ == "__main__":
    main()
