"""One battery run once per seed, in chunks of seeds (here or on a dask cluster), and the p-values across seeds.

A generator seeded with each of many seeds is many streams: a weak seeding
(nearby seeds giving correlated streams, a seed that starts a short cycle)
shows in the p-values of one test across the seeds, which should be uniform
on [0, 1] like the replications of a second-level test. Each seed's run is
:func:`rnglab.empirical.battery.run_battery` exactly as ``rnglab test GEN
--seed S`` runs it, so the p-value of seed ``S`` here is the p-value of that
command; the runs are independent, so the seeds are cut into chunks
(:func:`rnglab.parallel.chunks.run_chunks`), run anywhere, in any order, and
recorded in a journal to resume.

Across the seeds, each test's p-values are compared with U(0, 1) by
Anderson-Darling (:func:`rnglab.empirical.secondlevel.anderson_darling_uniform`),
in seed order, as TestU01 does for the ``N`` replications of a two-level test.

With ``until_fail`` each seed's stream runs the battery at doubling sizes
(:func:`rnglab.empirical.until_fail.stages`) until a FAIL or ``max_bytes``:
the data needed to fail, seed by seed (no time limit: a limit on time would
make a seed's result depend on the machine that ran it).

Reference: P. L'Ecuyer, R. Simard, TestU01, ACM TOMS 33(4), 2007, section 2.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from rnglab.core.results import Result
from rnglab.empirical.battery import Battery, result_labels, run_battery
from rnglab.empirical.secondlevel import anderson_darling_uniform
from rnglab.empirical.until_fail import stages
from rnglab.parallel.chunks import run_chunks
from rnglab.parallel.journal import Journal
from rnglab.streams.gateway import BitSelection

#: The journal's name for a battery over seeds.
KIND = "rnglab test --seeds"
#: The journal's name for runs until failure over seeds.
UNTIL_FAIL_KIND = "rnglab test --until-fail --seeds"


@dataclass(frozen=True)
class SeedRuns(Result):
    """What every run over seeds reports: the battery, the generator, what was not run, the time.

    Attributes
    ----------
    battery, generator : str
    left : tuple of (first, stop)
        Seeds not run (after Ctrl-C or failed chunks).
    failures : tuple of Failure
    seconds : float
    """

    battery: str
    generator: str
    left: tuple
    failures: tuple
    seconds: float

    @property
    def complete(self) -> bool:
        """True when every seed was run."""
        return not self.left


@dataclass(frozen=True)
class SeedsResult(SeedRuns):
    """A battery run once per seed: per test, the p-values in seed order and their uniformity.

    Besides those of :class:`SeedRuns`:

    Attributes
    ----------
    seeds : tuple of (first, stop)
        The seeds asked for (half-open ranges), complete or not.
    labels : tuple of str
        The battery's results, as :func:`~rnglab.empirical.battery.result_labels` names them.
    pvalues : tuple of tuple of float
        ``pvalues[i][j]``: test ``labels[i]`` on the ``j``-th seed run, in seed order.
    uniformity : tuple of (float, float)
        Per test, Anderson-Darling ``A^2`` of its p-values against U(0, 1) and the p-value
        (``nan`` below two seeds).
    runs : int
        Seeds run.
    """

    seeds: tuple
    labels: tuple
    pvalues: tuple
    uniformity: tuple
    runs: int


@dataclass(frozen=True)
class SeedsUntilFail(SeedRuns):
    """Runs until failure, one per seed.

    Besides those of :class:`SeedRuns`:

    Attributes
    ----------
    max_bytes : int
    rows : tuple of (seed, bytes_to_fail, bytes_read, worst)
        In seed order; ``bytes_to_fail`` is ``None`` for a seed that reached ``max_bytes``
        without a FAIL; ``worst``: the grade of its last stage.
    """

    max_bytes: int
    rows: tuple


def seeds_until_fail(factory: Callable, battery: Battery, max_bytes: int, first: int, stop: int) -> list:
    """For each seed of ``[first, stop)``: ``[seed, bytes_to_fail or None, bytes read, worst grade]`` (a task)."""
    rows = []
    for seed in range(first, stop):
        done = list(stages(factory(seed), battery, max_bytes=max_bytes))
        last = done[-1] if done else None
        rows.append([seed, last.worst_bytes if last and last.worst == "FAIL" else None, last.bytes if last else 0,
                     last.worst if last else "normal"])
    return rows


def until_fail_over_seeds(factory: Callable, generator: str, battery: Battery, ranges, max_bytes: int, *,
                          chunk: int = 1, client=None, journal: Journal | None = None,
                          on_progress: Callable[[int], None] | None = None) -> SeedsUntilFail:
    """Run ``battery`` until failure (or ``max_bytes``) on ``factory(seed)`` for every seed of ``ranges``, in chunks.

    The arguments are those of :func:`battery_over_seeds`; ``journal``: ``open_journal(path,
    UNTIL_FAIL_KIND, work_identity(...) | {"max_bytes": max_bytes})``.
    """
    task = functools.partial(seeds_until_fail, factory, battery, max_bytes)
    outcome = run_chunks(task, ranges, chunk, client, journal=journal, on_progress=on_progress)
    rows = tuple(tuple(row) for part in outcome.results() for row in _checked_rows(part))
    return SeedsUntilFail(battery=battery.name, generator=generator, left=tuple(outcome.left),
                          failures=tuple(outcome.failures), seconds=outcome.seconds, max_bytes=max_bytes, rows=rows)


def seeds_pvalues(factory: Callable, battery: Battery, first: int, stop: int) -> dict:
    """The battery on each seed of ``[first, stop)``: its result labels and, per seed, its p-values (a chunk's task).

    JSON-ready: ``{"labels": [...], "pvalues": [[p, ...] per seed]}``.
    """
    labels, pvalues = [], []
    for seed in range(first, stop):
        result = run_battery(factory, battery, seed)
        labels = result_labels(result.results)
        pvalues.append([float(r.pvalue) for r in result.results])
    return {"labels": labels, "pvalues": pvalues}


def work_identity(generator: str, battery: Battery, selection: BitSelection, ranges) -> dict:
    """What a journal records of the work, to refuse resuming other work (JSON-ready); ``selection``: the bits of
    each output the factory's sources read (:func:`~rnglab.streams.gateway.selected_source`)."""
    entries = [repr(entry) for entry in battery.entries]  # every field of each entry, whatever they are
    return {"generator": generator, "battery": battery.name, "entries": entries, "selection": str(selection),
            "seeds": [list(r) for r in ranges]}


def battery_over_seeds(factory: Callable, generator: str, battery: Battery, ranges, *, chunk: int = 1, client=None,
                       journal: Journal | None = None, on_progress: Callable[[int], None] | None = None) -> SeedsResult:
    """Run ``battery`` on ``factory(seed)`` for every seed of ``ranges``, in chunks, and test each test's p-values.

    Parameters
    ----------
    factory : callable
        ``factory(seed) -> Source`` (:meth:`~rnglab.generators.GeneratorSpec.make`, or a selection of
        its bits: :func:`~rnglab.streams.gateway.selected_source`); picklable for a cluster.
    generator : str
        Its name, for the result and the journal.
    battery : Battery
        Entries already selected (:func:`~rnglab.empirical.battery.select_entries`).
    ranges : iterable of (first, stop)
        Seeds, half-open ranges.
    chunk : int
        Seeds per task.
    client : dask.distributed.Client, optional
        Where the chunks run; ``None``: here.
    journal : Journal, optional
        ``open_journal(path, KIND, work_identity(...))``: its seeds are not run again.
    on_progress : callable, optional
        Called with the seeds of each chunk as it finishes.
    """
    ranges = [(int(a), int(b)) for a, b in ranges]
    task = functools.partial(seeds_pvalues, factory, battery)
    outcome = run_chunks(task, ranges, chunk, client, journal=journal, on_progress=on_progress)
    parts = [_checked(part) for part in outcome.results()]
    labels = next((part["labels"] for part in parts if part["labels"]), [])
    columns = tuple(zip(*[row for part in parts for row in part["pvalues"]])) or tuple(() for _ in labels)
    uniformity = tuple(anderson_darling_uniform(column) if len(column) > 1 else (float("nan"), float("nan"))
                       for column in columns)
    return SeedsResult(battery=battery.name, generator=generator, left=tuple(outcome.left),
                       failures=tuple(outcome.failures), seconds=outcome.seconds, seeds=tuple(ranges),
                       labels=tuple(labels), pvalues=columns, uniformity=uniformity,
                       runs=sum(len(part["pvalues"]) for part in parts))


def _checked(part) -> dict:
    """A chunk's result, as a journal recorded it (refused when malformed)."""
    if (not isinstance(part, dict) or not isinstance(part.get("labels"), list)
            or not isinstance(part.get("pvalues"), list)
            or not all(isinstance(row, list) and len(row) == len(part["labels"]) for row in part["pvalues"])):
        raise ValueError(f"a journal record of {KIND} holds labels and p-values per seed; got {str(part)[:40]}")
    return part



def _checked_rows(part) -> list:
    """A chunk's rows of a run until failure, as a journal recorded them (refused when malformed)."""
    if not isinstance(part, list) or not all(isinstance(row, list) and len(row) == 4 for row in part):
        raise ValueError(f"a journal record of {UNTIL_FAIL_KIND} holds one row per seed; got {str(part)[:40]}")
    return part
