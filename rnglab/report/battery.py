"""Report section: how much output it takes the battery to expose each catalog generator (PractRand's question).

Each generator's stream runs the ``small`` battery at doubling sizes
(:func:`rnglab.empirical.until_fail.stages`, the run of ``rnglab test GEN
--until-fail``) until a test FAILs or the next stage would read more than a
cap; in the full report the generators run in worker processes, one per core
this process may use (:func:`rnglab.parallel.chunks.run_chunks`).
"""

from __future__ import annotations

import functools

from rnglab.core.params import human_bytes
from rnglab.empirical.battery import get_battery
from rnglab.empirical.until_fail import stages, summarise
from rnglab.empirical.verdicts import Thresholds
from rnglab.generators import catalog
from rnglab.pages import Mark
from rnglab.parallel.chunks import run_chunks, usable_cores
from rnglab.report.document import Section, Table

#: The battery of every run.
REPORT_BATTERY = "small"
#: Data a run may read: the full report (every catalog generator) and ``--quick`` (:data:`QUICK_GENERATORS`).
CAP, QUICK_CAP = 8 * 2**20, 512 * 2**10
#: The generators of a quick report: two that fail within 2 KiB, one at birthday spacings near 100 KiB, one by
#: linear complexity near 200 KiB (MT19937), two with no FAIL up to the cap.
QUICK_GENERATORS = ("randu", "drand48", "msvc", "mt19937", "pcg64", "mrg32k3a")


def section(context) -> Section:
    """Every catalog generator (quick: :data:`QUICK_GENERATORS`) until the battery FAILs, up to a cap."""
    from rnglab.plot.pvalues import data_to_fail_figure

    battery = get_battery(REPORT_BATTERY)
    names, cap = (list(QUICK_GENERATORS), QUICK_CAP) if context.quick else (list(catalog()), CAP)
    # quick: a second or so in one process, while the other sections run beside it; full: every core
    runs = expose_all(names, battery.name, context.seed, cap, 1 if context.quick else None)
    rows = [_row(run) for run in runs]
    table = Table(["generator", "data to fail", "tests that failed (worst grade of the last stage otherwise)",
                   "stages", "seconds"], rows)
    figure = context.add_figure(
        "battery-data-to-fail", data_to_fail_figure(runs, cap),
        f"Data read before the first FAIL of the {battery.name} battery, per generator (log scale); hatched grey "
        f"bars reached the cap of {human_bytes(cap)} without a FAIL: their data to fail, if any, lies beyond")
    failing = [run for run in runs if run.bytes_to_fail is not None]
    earliest = min(failing, key=lambda run: run.bytes_to_fail, default=None)
    summary = (f"{len(failing)} of {len(runs)} generators FAIL the {battery.name} battery within "
               f"{human_bytes(cap)}" + (f", the first after {human_bytes(earliest.bytes_to_fail)} "
                                        f"(`{earliest.generator}`)" if earliest else ""))
    seconds = sum(stage.seconds for run in runs for stage in run.stages)
    blocks = [_introduction(battery, context.seed, cap), table, figure,
              _scope(len(names), context.quick) + f" Total test time {seconds:.0f} s, summed over the runs."]
    return Section("Empirical test battery", blocks, summary)


def expose(names: tuple, battery: str, seed: int, cap: int, first: int, stop: int) -> list:
    """Run-until-fail of ``battery`` up to ``cap`` bytes on the catalog generators ``names[first:stop]``, at the
    report's seed: their :class:`~rnglab.empirical.until_fail.UntilFailResult` (a task of
    :func:`~rnglab.parallel.chunks.run_chunks`: names, not objects, cross to the worker processes)."""
    chosen, runs = get_battery(battery), []
    for name in names[first:stop]:
        entry = catalog()[name]
        source = entry.make(report_seed(entry, seed))
        runs.append(summarise(source, chosen, list(stages(source, chosen, max_bytes=cap))))
    return runs


def expose_all(names: list[str], battery: str, seed: int, cap: int, processes: int | None = None) -> list:
    """:func:`expose` on every name, in order, in ``processes`` worker processes (default: one per core this
    process may use); each run is seeded and independent, so the results do not depend on ``processes``."""
    processes = processes or usable_cores()
    task = functools.partial(expose, tuple(names), battery, seed, cap)
    outcome = run_chunks(task, [(0, len(names))], 1, processes=min(processes, len(names)))
    return [run for part in outcome.results() for run in part]


def report_seed(entry, seed: int) -> int | None:
    """The report's seed where the generator's library accepts it, else its default seed (Wichmann–Hill's
    seeds stop at 30268); ``None`` for the OS source, which takes none."""
    if not entry.seedable:
        return None
    try:
        return entry.check_seed(seed)
    except ValueError:
        return entry.default_seed


def _row(run) -> list:
    """A table row: the data to fail (a FAIL mark) or the data read without one, the tests, stages, seconds."""
    last = run.stages[-1] if run.stages else None
    tests = ", ".join(f"`{label}`" for label in last.worst_tests) if last else ""
    if run.bytes_to_fail is not None:
        data = Mark("fail", f"FAIL at {human_bytes(run.bytes_to_fail)}")
    else:
        data = f"no FAIL up to {human_bytes(last.bytes if last else 0)}"
        tests = f"{last.worst}: {tests}" if last and tests else "normal"
    return [f"`{run.generator}`", data, tests, len(run.stages), round(sum(s.seconds for s in run.stages), 2)]


def _introduction(battery, seed: int, cap: int) -> str:
    return (f"How much output does it take to expose each generator? PractRand's question, asked with the "
            f"{len(battery.entries)} tests of the `{battery.name}` battery: each generator's stream, built with seed {seed} (a "
            f"generator whose seeds stop below it, such as Wichmann–Hill's, uses its default seed), is tested "
            f"on its first KiB, then on its first 2 KiB, 4 KiB, ..., every entry with its sample size scaled to "
            f"the stage, until a test FAILs (p within {Thresholds().fail:g} of 0 or 1) or the next stage would "
            f"read more than {human_bytes(cap)}. **Data to fail** is the data read from the stream's start when the "
            f"first FAIL was raised: how much output an observer needs to tell the generator from random with these "
            f"tests. `no FAIL up to X` is not a certification: the generator is not shown to be good, only not "
            f"exposed by these tests within X bytes from this seed; more data, another battery (`standard`, "
            f"TestU01's BigCrush) or PractRand run to terabytes may expose it. The p-values of successive stages "
            f"are dependent (each stage reads the stream again from its start; `os`, which cannot be replayed, "
            f"reads new data at each stage). Reproduce a row with "
            f"`rnglab test GEN --battery {battery.name} --seed {seed} --until-fail --max-bytes "
            f"{human_bytes(cap).replace(' ', '')}` (without `--seed` for `os` and for a generator on its default seed).")


def _scope(generators: int, quick: bool) -> str:
    if quick:
        return (f"This quick report runs {generators} generators (two weak, two that fail later, two with no "
                f"FAIL) up to {human_bytes(QUICK_CAP)}; the full report runs every catalog generator up to "
                f"{human_bytes(CAP)}.")
    return f"Every catalog generator ({generators}), up to {human_bytes(CAP)} each."
