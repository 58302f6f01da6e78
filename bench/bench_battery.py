"""Cost of the Marsaglia/TestU01/NIST tests and of the ``small`` battery against generating their samples.

For each test at the ``small`` battery's sample size, on numpy's PCG64 (a fast
source) and on MSVC's 15-bit ``rand()`` (an LCG whose outputs must be joined
into wider fields): the time of the test, the time to generate the same raw
outputs (``random_raw``, the reference, in the same run) and their ratio.
Goal: every test costs at most 5x the generation of its samples; the whole
``small`` battery on a fast source in about a minute. A second table times,
alone, the step that keeps a test above 5x (the FFT, the sorts, the GF(2)
elimination), so the reader can tell the inherent cost from overhead.
"""

from __future__ import annotations

import os
import subprocess

import numpy as np
import scipy.fft
from common import best_time, markdown_table, write_fragment

from rnglab.empirical.battery import get_battery, run_battery
from rnglab.empirical.stattests.matrix_rank import gf2_ranks
from rnglab.empirical.until_fail import CountingSource
from rnglab.generators import make_source
from rnglab.generators.base import Source
from rnglab.streams.gateway import bit_fields, bits

MINE = ("birthday-spacings", "collision", "fourier", "matrix-rank", "hamming-weight")
GENERATORS = ("pcg64", "msvc")
CHUNK = 2**16
REPEAT = 5


def outputs_read(name: str, entry) -> int:
    """Raw outputs one run of ``entry`` reads from generator ``name``."""
    source = CountingSource(make_source(name, 1))
    entry.run(entry.view(source))
    return source.outputs_read


def alternate(first, second, rounds: int = REPEAT) -> tuple[float, float]:
    """Best times of ``first()`` and ``second()``, run alternately ``rounds`` times (a burst of load hits both)."""
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        best = [min(b, best_time(run, 1)) for b, run in zip(best, (first, second))]
    return best[0], best[1]


def test_row(name: str, entry) -> list:
    count = outputs_read(name, entry)
    entry.run(entry.view(make_source(name, 1)))  # compile (or load) numba kernels first
    test_seconds, generate_seconds = alternate(lambda: entry.run(entry.view(make_source(name, 1))),
                                               lambda: make_source(name, 1).random_raw(count))
    return [entry.test, name, f"{entry.size:,}", f"{count:,}", f"{count / test_seconds / 1e6:.1f}",
            f"{test_seconds:.3f}", f"{generate_seconds:.3f}", f"{test_seconds / generate_seconds:.1f}"]


def generate_in_chunks(source: Source, count: int) -> None:
    """Generate ``count`` raw outputs in chunks of ``CHUNK``, keeping none."""
    for _ in range(count // CHUNK):
        source.random_raw(CHUNK)


def battery_row(name: str) -> list:
    count = sum(outputs_read(name, entry) for entry in get_battery("small").entries)
    battery_seconds, generate_seconds = alternate(lambda: run_battery(lambda seed: make_source(name, seed), get_battery("small"), 1),
                                                  lambda: generate_in_chunks(make_source(name, 1), count), rounds=3)
    return ["**small battery**", name, "", f"{count:,}", f"{count / battery_seconds / 1e6:.1f}",
            f"{battery_seconds:.1f}", f"{generate_seconds:.2f}", f"{battery_seconds / generate_seconds:.1f}"]


def smallcrush_row() -> list:
    """The ``small`` battery on MINSTD against TestU01's SmallCrush on its own MINSTD, best of 3 alternately.

    SmallCrush runs ``tests/data/testu01/smallcrush.c --minstd`` (``ulcg_CreateLCG(2^31 - 1, 16807, 0,
    12345)``, as TestU01's examples/bat1.c), compiled against TestU01 1.2.3 and named by the environment
    variable ``RNGLAB_SMALLCRUSH``; without it the row says "not measured".
    """
    binary = os.environ.get("RNGLAB_SMALLCRUSH")
    if not binary:
        return ["**small battery** / SmallCrush", "minstd", "not measured", "not measured", "not measured"]
    battery_seconds, smallcrush_seconds = alternate(
        lambda: run_battery(lambda seed: make_source("minstd", seed), get_battery("small"), 12345),
        lambda: subprocess.run([binary, "--minstd"], check=True, capture_output=True), rounds=3)
    return ["**small battery** / SmallCrush", "minstd", f"{battery_seconds:.1f}", f"{smallcrush_seconds:.1f}",
            f"{battery_seconds / smallcrush_seconds:.2f}"]


def floor_rows() -> list:
    """The step each test above 5x cannot avoid, timed alone on its input, against generating the sample."""
    pcg64 = make_source("pcg64", 1)
    signs = bits(pcg64, 2**22).astype(np.float64)
    birthdays = pcg64.random_raw(5_000_000) >> np.uint64(4)
    spacings = np.diff(np.sort(birthdays))
    matrices = bit_fields(pcg64, 20_000 * 64, 64).reshape(20_000, 64)
    gf2_ranks(matrices[:1], 64)  # compile (or load) the kernel first
    steps = [
        ("fourier", "pcg64", "real FFT of 2^22 float64 signs (`scipy.fft.rfft`)", lambda: scipy.fft.rfft(signs),
         lambda: make_source("pcg64", 1).random_raw(2**22 // 64)),
        ("birthday-spacings", "pcg64", "two sorts of 5 10^6 uint64 (birthdays, then spacings)",
         lambda: (np.sort(birthdays), np.sort(spacings)), lambda: make_source("pcg64", 1).random_raw(10_000_000)),
        ("matrix-rank", "pcg64", "GF(2) elimination of 20 000 matrices 64 x 64 (`gf2_ranks`)",
         lambda: gf2_ranks(matrices, 64), lambda: make_source("pcg64", 1).random_raw(20_000 * 64)),
    ]
    rows = []
    for test, generator, step, run, generate in steps:
        step_seconds, generate_seconds = alternate(run, generate)
        rows.append([test, generator, step, f"{step_seconds:.3f}", f"{generate_seconds:.3f}",
                     f"{step_seconds / generate_seconds:.1f}"])
    return rows


def main() -> None:
    load = os.getloadavg()[0]
    entries = [e for e in get_battery("small").entries if e.test in MINE]
    rows = [test_row(name, entry) for entry in entries for name in GENERATORS]
    rows.append(battery_row("pcg64"))
    body = ("Each test at the `small` battery's sample size n; outputs = raw outputs it reads; "
            f"test = its time; generation = `random_raw` of the same number of outputs (the reference); each "
            f"the best of {REPEAT} runs taken alternately; ratio = test / generation (goal <= 5). The `small` "
            f"battery row runs all {len(get_battery('small').entries)} entries (best of 3), with the tests of "
            "issue 4 part 1, and generates its outputs in chunks of 2^16 (larger arrays are slowed by page "
            f"faults on this machine). Load average when the run started: {load:.1f} (the "
            "machine is shared: absolute times are inflated, the ratios are side by side).\n\n"
            + markdown_table(["test", "generator", "n", "outputs", "M outputs/s", "test s", "generation s",
                              "ratio"], rows)
            + "\n\nThe `small` battery against TestU01 1.2.3's SmallCrush on the same generator, MINSTD "
            "(SmallCrush with its built-in `ulcg_CreateLCG`, driver `tests/data/testu01/smallcrush.c`; "
            "wall-clock, best of 3 taken alternately; goal: ratio <= 1.0).\n\n"
            + markdown_table(["run", "generator", "rnglab s", "SmallCrush s", "ratio"], [smallcrush_row()])
            + "\n\nWhere a test stays above 5x, most of its time goes to one step it cannot do without. "
            "This table times that step alone, on an input of the test's size, against generating the test's "
            "sample: the Fourier test transforms 64 bits per PCG64 output with an O(n log n) FFT; birthday "
            "spacings sorts n birthdays and then their n - 1 spacings (numpy's vectorised sort); the rank of a "
            "64 x 64 matrix takes 64 dependent pivot steps (about 2 000 word operations) for 64 outputs.\n\n"
            + markdown_table(["test", "generator", "step", "step s", "generation s", "ratio"], floor_rows()))
    print(write_fragment("battery", "Battery: test cost against sample generation", body).read_text())


if __name__ == "__main__":
    main()
