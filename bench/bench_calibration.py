"""Write ``bench/results/calibration.md``: false-alarm rates of every battery test on ideal sources.

Every entry of the ``smoke``, ``validation`` and ``small`` batteries (and,
with ``--full``, ``standard``) runs on independent ideal sources
(:func:`rnglab.generators.ideal_source`: numpy's unbiased integers in
``[0, R)``) of each resolution rnglab serves; a p-value within 1e-3 of 0 or 1
(the "unusual" grade) is a false alarm, nominally 0.2 % of them. The table
gives the observed rate with its 95 % Clopper-Pearson interval, pooled over
the battery's entries, and names every entry that raised an alarm.

Usage: ``python bench/bench_calibration.py [--full] [--jobs N]`` or ``python bench/run.py calibration``.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor

from common import markdown_table, write_fragment

from rnglab.empirical.battery import get_battery
from rnglab.empirical.calibration import RESOLUTIONS, UNUSUAL, calibrate, out_of_line, rate_interval

#: Replications per resolution: enough for the cheap batteries to see a rate of a few percent at once.
REPLICATIONS = {"smoke": 100, "validation": 100, "small": 2}
FULL = {**REPLICATIONS, "standard": 1}


def one(job: tuple[str, str, int]):
    battery, resolution, replications = job
    started = time.perf_counter()
    calibration = calibrate(get_battery(battery), RESOLUTIONS[resolution], replications)
    print(f"{battery} R={resolution}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return resolution, calibration


def summary(battery: str, results: list) -> str:
    rows, flagged = [], []
    for resolution, calibration in results:
        alarms = calibration.alarms()
        trials = sum(len(row) for row in calibration.pvalues)
        low, high = rate_interval(sum(alarms), trials)
        rows.append([resolution, len(calibration.labels), len(calibration.pvalues[0]), trials, sum(alarms),
                     f"{100 * sum(alarms) / trials:.2f} %", f"[{100 * low:.2f}, {100 * high:.2f}] %",
                     "**yes**" if out_of_line(sum(alarms), trials) else "no"])
        flagged += [f"`{label}` at R = {resolution}: {count} of {len(row)}"
                    for label, count, row in zip(calibration.labels, alarms, calibration.pvalues) if count]
    table = markdown_table(["R", "entries", "replications", "p-values", "alarms", "observed rate",
                            "95 % interval", "out of line"], rows)
    where = "; ".join(flagged) if flagged else "none"
    return f"### `{battery}`\n\n{table}\n\nEntries that raised an alarm: {where}.\n"


def main(flags: list[str] = ()) -> None:
    plan = FULL if "--full" in flags else REPLICATIONS
    jobs = next((int(f.split("=")[1]) for f in flags if f.startswith("--jobs=")), 1)
    work = [(battery, resolution, count) for battery, count in plan.items() for resolution in RESOLUTIONS]
    started = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        done = list(pool.map(one, work))
    sections = []
    for battery in plan:
        sections.append(summary(battery, [result for (b, _, _), result in zip(work, done) if b == battery]))
    body = (f"Written by `python bench/bench_calibration.py{' --full' if '--full' in flags else ''}` "
            f"({time.perf_counter() - started:.0f} s). Ideal sources: numpy's unbiased integers in [0, R), "
            f"independent seeds 0, 1, ...; an alarm is a p-value with min(p, 1 - p) < {UNUSUAL:g} (the "
            "\"unusual\" grade), nominally 0.2 % of the p-values. \"Out of line\": more alarms than the "
            "nominal rate gives with probability 1e-3 (binomial upper tail). Battery sizes as in "
            "`rnglab/data/batteries.toml`.\n\n" + "\n".join(sections))
    print(write_fragment("calibration", "Calibration: false alarms on ideal sources of each resolution", body))


if __name__ == "__main__":
    main(sys.argv[1:])
