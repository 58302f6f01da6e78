"""Peak memory of each test of the ``small`` battery at a large sample size, against the interpreter's own.

Each test runs alone in a fresh interpreter on PCG64 with its ``small`` options
and ``n`` overridden (``rnglab test pcg64 --battery small --tests NAME --n N``);
the child reports its peak resident set size (``ru_maxrss``), and the same
interpreter with the imports done and numba's compiler loaded, no test run, is the reference, so the
difference is what the test's sample costs. Goal: every test under 1 GiB at any
``n`` where its work is streamed (Fourier, which transforms the whole sample,
needs memory in proportion to ``n`` and is listed with it; birthday spacings
and collision, which sort and count theirs, hold one block of 2^20 and 2^22 cells with the
``small`` battery's ``block``). The reference interpreter runs :data:`BASELINE_RUNS` times: the spread of
its peaks is the noise of one measurement, and a test whose peak lies within it is shown as ``< NOISE``
(at least 1 MiB, the table's unit), not as a difference of noise (it printed -0 and -1 MiB).
"""

from __future__ import annotations

import math
import subprocess
import sys

from common import markdown_table, write_fragment

from rnglab.empirical.battery import get_battery

#: Sample size of every row: 2^23 (the matrix-rank test then held 4.4 GB of matrices before they were streamed).
N = 2**23
#: Runs of the reference interpreter (no test): its least peak is the reference, the spread of its peaks the noise
#: (five runs of 2026-11-28: 168,040 to 170,864 KiB).
BASELINE_RUNS = 5
CHILD = """
import resource, sys
from rnglab.core.compiled import load_compiler
from rnglab.empirical.battery import get_battery, run_battery
from rnglab.generators import make_source
load_compiler()
if sys.argv[1] != "-":
    run_battery(lambda seed: make_source("pcg64", 1), get_battery("small"), tests=[sys.argv[1]], n=int(sys.argv[2]))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_kib(test: str, n: int) -> int:
    """Peak resident set size, in KiB, of a fresh interpreter that runs ``test`` at ``n`` (``-``: none)."""
    output = subprocess.run([sys.executable, "-c", CHILD, test, str(n)], capture_output=True, text=True, check=True)
    return int(output.stdout.split()[-1])


def sizes() -> dict:
    """Each test of the ``small`` battery once, with its sample size: :data:`N`, or the least ``max_n`` of its
    entries when smaller."""
    chosen: dict = {}
    for entry in get_battery("small").entries:
        chosen[entry.test] = min(chosen.get(entry.test, N), entry.max_n or N)
    return chosen


def noise_kib(baselines: list[int]) -> int:
    """The noise of one peak, in KiB: the spread of the reference's peaks, at least 1 MiB (the table's unit)."""
    return max(max(baselines) - min(baselines), 2**10)


def above_imports(peak: int, baseline: int, noise: int, n: int) -> list[str]:
    """The cells "above imports MiB" and "bytes per sample" of a test's ``peak`` (KiB) at sample size ``n``: the
    difference from ``baseline``, or ``< NOISE`` (MiB, and bytes per sample) where it is within ``noise``."""
    above = peak - baseline
    if above <= noise:
        return [f"< {math.ceil(noise / 2**10)}", f"< {noise * 2**10 / n:.1f}"]
    return [f"{above / 2**10:.0f}", f"{above * 2**10 / n:.1f}"]


def main() -> None:
    baselines = [peak_kib("-", 0) for _ in range(BASELINE_RUNS)]
    baseline, noise = min(baselines), noise_kib(baselines)
    rows = []
    for name, n in sizes().items():
        peak = peak_kib(name, n)
        rows.append([name, "2^23" if n == N else f"{n:,}", f"{peak / 2**10:.0f}",
                     *above_imports(peak, baseline, noise, n)])
    body = (f"Peak resident memory of one test of the `small` battery on PCG64 at n = 2^23 (or the entry's `max_n`, "
            f"below it: linear complexity's cost grows as n^2), in a fresh interpreter (imports and numba's compiler, "
            f"loaded on a test's first kernel, alone: {baseline / 2**10:.0f} to {max(baselines) / 2**10:.0f} MiB "
            f"in {BASELINE_RUNS} runs; a difference within that spread, the noise of one measurement, is shown as "
            f"`< {math.ceil(noise / 2**10)}`).\n\n"
            + markdown_table(["test", "n", "peak MiB", "above imports MiB", "bytes per sample"], rows))
    print(write_fragment("memory", "Battery memory at large n", body).read_text())


if __name__ == "__main__":
    main()
