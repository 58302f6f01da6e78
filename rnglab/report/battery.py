"""Report section: a battery of empirical tests on every catalog generator, as a table of verdicts."""

from __future__ import annotations

import os

from ..empirical.battery import get_battery, result_labels, run_battery
from ..empirical.verdicts import DEFAULT_WINDOW, Thresholds, format_pvalue, grade, is_suspect
from ..generators import catalog
from ..pages import Mark
from .document import Section, Table

#: Battery run by the full report (about a minute for the whole catalog) and by ``--quick``.
REPORT_BATTERY, QUICK_BATTERY = "small", "smoke"


def section(context) -> Section:
    """Every catalog generator through the report battery: one row per generator, one column per test."""
    battery = get_battery(QUICK_BATTERY if context.quick else REPORT_BATTERY)
    runs = dict(zip(catalog(), run_all(list(catalog()), battery.name, context.seed, parallel=not context.quick)))
    first = next(iter(runs.values())).results
    labels = result_labels(first)
    rows = [[f"`{name}`"] + [verdict_cell(r.pvalue) for r in result.results] + [_suspects(result)]
            for name, result in runs.items()]
    table = Table(["generator"] + labels + ["suspect"], rows)
    sizes = ", ".join(f"{label} n={r.params['n']}" for label, r in zip(labels, first))
    seconds = sum(result.seconds for result in runs.values())
    failing = [name for name, result in runs.items() if any(grade(r.pvalue) == "FAIL" for r in result.results)]
    summary = (f"battery `{battery.name}`: {len(failing)} of {len(runs)} generators FAIL at least one test"
               + (f" ({', '.join(failing)})" if failing else ""))
    return Section("Empirical test battery", [_introduction(battery, context.seed, len(labels)), table,
                                              f"Sample sizes: {sizes}. Total test time {seconds:.0f} s."], summary)


def run_one(name: str, battery: str, seed: int):
    """The battery on one catalog generator, at the report's seed (a function of names: it crosses processes)."""
    entry = catalog()[name]
    return run_battery(entry.make, get_battery(battery), report_seed(entry, seed))


def run_all(names: list[str], battery: str, seed: int, parallel: bool) -> list:
    """:func:`run_one` for every name, in order: the first here, the others in worker processes, one per core
    this process may use, when ``parallel`` and there is more than one (each run is independent and seeded: the
    results are the same). The first run loads (or compiles) the battery's kernels before the workers are
    forked, so that they inherit them instead of each loading them again."""
    workers = min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1,
                  len(names) - 1)
    if not parallel or workers < 2:
        return [run_one(name, battery, seed) for name in names]
    from concurrent.futures import ProcessPoolExecutor

    first = run_one(names[0], battery, seed)
    rest = names[1:]
    with ProcessPoolExecutor(workers) as pool:
        return [first, *pool.map(run_one, rest, [battery] * len(rest), [seed] * len(rest))]


def report_seed(entry, seed: int) -> int | None:
    """The report's seed where the generator's library accepts it, else its default seed (Wichmann–Hill's
    seeds stop at 30268); ``None`` for the OS source, which takes none."""
    if not entry.seedable:
        return None
    try:
        return entry.check_seed(seed)
    except ValueError:
        return entry.default_seed


def verdict_cell(pvalue: float, show_normal: bool = False) -> str | Mark:
    """A table cell: ``normal`` (or its p-value), else a marked grade with the p-value (``✖ FAIL (1 - eps)``):
    a warning for unusual to very suspicious, a failure for FAIL."""
    verdict = grade(pvalue)
    if verdict == "normal":
        return format_pvalue(pvalue) if show_normal else verdict
    return Mark("fail" if verdict == "FAIL" else "warn", f"{verdict} ({format_pvalue(pvalue)})")


def _suspects(result) -> str:
    return f"{sum(is_suspect(r.pvalue) for r in result.results)}/{len(result.results)}"


def _introduction(battery, seed: int, tests: int) -> str:
    low, high = DEFAULT_WINDOW
    levels = Thresholds()
    chance = 1 - (1 - (low + 1 - high)) ** tests
    return (f"Battery `{battery.name}`: {battery.description} Each generator is built with seed {seed} "
            f"(`os` excepted: it has no seed and is not reproducible; a generator whose seeds stop below it, "
            f"such as Wichmann–Hill's, uses its default seed) and the tests run in order on one "
            f"stream. A cell is the grade of the p-value p, from q = min(p, 1 - p): normal; unusual for "
            f"q < {levels.unusual:g}; suspicious for q < {levels.suspicious:g}; very suspicious for "
            f"q < {levels.very_suspicious:g}; FAIL for q < {levels.fail:g}; "
            f"the last column counts p-values outside [{low}, {high}]: with {tests} tests a perfect generator "
            f"has at least one in {chance:.0%} of rows. Reproduce a row with "
            f"`rnglab test GEN --battery {battery.name} --seed {seed}`.")
