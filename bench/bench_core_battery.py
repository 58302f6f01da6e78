"""The default battery ``core`` against ``small``: the same data to fail, in less CPU time.

``core`` (rnglab/data/batteries.toml) is ``small`` less the SmallCrush-style
entries that never raised a failure of their own, with a binary rank of
384 x 384 matrices of the low bit (PractRand's BRank) that ``small`` has not.
This benchmark is the evidence: for every catalog generator but the OS source, numpy's Philox and
SFC64 (seed 12345, library call, as bench_until_fail.py), and every stream of
bench/c/defective_streams.c (seed 1, piped to ``rnglab test - --format u32
--until-fail --battery B``), both batteries run until they fail up to
64 MiB, side by side: the data to fail, the tests that raised it, and the CPU
time of the library runs (one process, so the figures are comparable). Writes
bench/results/core_battery.md.

    python bench/bench_core_battery.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from bench_defective_streams import KINDS
from bench_until_fail import GENERATORS, IDEAL, source_of
from common import C_SOURCES, compile_c, markdown_table, write_fragment

from rnglab.core.params import human_bytes
from rnglab.empirical.battery import get_battery
from rnglab.empirical.until_fail import stages, summarise

LIMIT = 2**26
BATTERIES = ("core", "small")


def library_run(name: str, battery_name: str) -> tuple[int | None, str, float]:
    """(data to fail or None, the tests that raised it, CPU seconds) of ``battery_name`` on generator ``name``."""
    source, battery = source_of(name), get_battery(battery_name)
    started = time.process_time()
    result = summarise(source, battery, list(stages(source, battery, max_bytes=LIMIT)))
    tests = ", ".join(result.stages[-1].worst_tests[:2]) if result.bytes_to_fail else ""
    return result.bytes_to_fail, tests, time.process_time() - started


def piped_run(stream, kind: str, battery_name: str) -> int | None:
    """The data to fail of ``rnglab test - --battery B --until-fail`` reading defective stream ``kind``."""
    with subprocess.Popen([str(stream), kind], stdout=subprocess.PIPE) as producer:
        tester = subprocess.run([sys.executable, "-m", "rnglab", "test", "-", "--format", "u32", "--until-fail",
                                 "--battery", battery_name, "--max-bytes", str(LIMIT), "--json"],
                                stdin=producer.stdout, capture_output=True, text=True, check=False)
        producer.stdout.close()
        producer.kill()
    return json.loads(tester.stdout)["bytes_to_fail"]


def earlier(ours: int | None, theirs: int | None) -> bool:
    """True when ``ours`` fails at less data than ``theirs`` (or fails where ``theirs`` does not)."""
    return ours is not None and (theirs is None or ours < theirs)


def shown(data: int | None) -> str:
    return human_bytes(data) if data else f"none to {human_bytes(LIMIT)}"


def main() -> None:
    for name in BATTERIES:  # compile every kernel before anything is timed
        library_run("pcg64", name)
    rows, seconds, same, sooner = [], dict.fromkeys(BATTERIES, 0.0), 0, 0
    for name in GENERATORS + IDEAL:
        runs = {battery: library_run(name, battery) for battery in BATTERIES}
        for battery in BATTERIES:
            seconds[battery] += runs[battery][2]
        same, sooner = same + (runs["core"][0] == runs["small"][0]), sooner + earlier(runs["core"][0], runs["small"][0])
        rows.append([name, *(f"{shown(runs[b][0])} ({runs[b][1]})" if runs[b][0] else shown(runs[b][0])
                             for b in BATTERIES)])
    stream = compile_c(C_SOURCES / "defective_streams.c")
    for kind in KINDS:
        data = {battery: piped_run(stream, kind, battery) for battery in BATTERIES}
        same, sooner = same + (data["core"] == data["small"]), sooner + earlier(data["core"], data["small"])
        rows.append([f"`{kind}` (piped)", *(shown(data[b]) for b in BATTERIES)])
    body = (f"Up to {human_bytes(LIMIT)}, until the first FAIL: every catalog generator but the OS source and numpy's "
            "Philox and SFC64 (seed 12345, library call), then the streams of bench/c/defective_streams.c (seed 1, "
            "piped to `rnglab test - --format u32 --until-fail --battery B`). "
            f"Same data to fail: {same} of {len(rows)}; core needs less on {sooner}, more on "
            f"{len(rows) - same - sooner}. CPU time of the library runs, every generator together: "
            f"core {seconds['core']:.1f} s, small {seconds['small']:.1f} s "
            f"(core / small {seconds['core'] / seconds['small']:.2f}).\n\n")
    body += markdown_table(["generator", "core: data to fail (its tests)", "small: data to fail (its tests)"], rows)
    write_fragment("core_battery", "The default battery core against small: data to fail and CPU time", body + "\n")


if __name__ == "__main__":
    main()
