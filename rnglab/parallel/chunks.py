"""Run one task over the chunks of integer ranges: on a dask cluster or here, resuming from a journal.

The work is the union of half-open ranges ``[first, stop)``; :func:`pieces_of`
cuts it into chunks of at most ``size`` units, and ``task(first, stop)`` maps a
chunk to a JSON-ready result, the same wherever it runs. :func:`run_chunks`
runs the chunks a journal has not recorded, on a ``dask.distributed`` client
(:func:`rnglab.parallel.cluster.cluster_client`), in worker processes of this
machine (``processes``), or one after another in this process, records each as
it finishes, and says which ranges were not covered.

On a cluster at most :data:`IN_FLIGHT` tasks per worker are submitted at a
time (the next as one finishes), so that 2^48 seeds do not become millions of
futures at once; each task is retried :data:`RETRIES` times (dask retries a
task whose worker died, and one that raised); a chunk that still fails is a
:class:`Failure`, and its range stays among the ranges not covered. Here and
in local processes a task that raises stops the run with its error, as any
function call does. Ctrl-C stops between chunks (here) or cancels the tasks in
flight (on a cluster, in local processes).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from rnglab.core.results import Result
from rnglab.parallel.cluster import worker_count
from rnglab.parallel.journal import Journal

#: Tasks submitted per worker at a time (the next is submitted as one finishes).
IN_FLIGHT = 2
#: Attempts after the first for a task that raised or whose worker died.
RETRIES = 3


@dataclass(frozen=True)
class Failure(Result):
    """A chunk ``[first, stop)`` that failed every attempt, and the last error."""

    first: int
    stop: int
    error: str


@dataclass
class Outcome:
    """What :func:`run_chunks` did.

    Attributes
    ----------
    records : list of (first, stop, result)
        Every finished chunk: the journal's first, then this run's as they completed.
    left : list of (first, stop)
        The ranges not covered (after Ctrl-C or failures), merged, in order.
    failures : list of Failure
    ran : int
        Units of the chunks finished in this run (the journal's excluded).
    seconds : float
        Wall time of this run.
    """

    records: list = field(default_factory=list)
    left: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    ran: int = 0
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        """True when every range was covered."""
        return not self.left

    def results(self) -> list:
        """The results of the finished chunks, in the order of their ranges."""
        return [value for _, _, value in sorted(self.records, key=lambda record: record[0])]


def merged(ranges) -> list[tuple[int, int]]:
    """Half-open ``ranges`` sorted and merged where they touch or overlap (empty ones dropped)."""
    out: list[list[int]] = []
    for first, stop in sorted((int(a), int(b)) for a, b in ranges if b > a):
        if out and first <= out[-1][1]:
            out[-1][1] = max(out[-1][1], stop)
        else:
            out.append([first, stop])
    return [tuple(r) for r in out]


def uncovered(ranges, done) -> list[tuple[int, int]]:
    """The parts of the half-open ``ranges`` outside every ``done`` range, merged, in order."""
    out, cuts = [], merged(done)
    for first, stop in ranges:
        at = first
        for a, b in cuts:
            if b <= at or a >= stop:
                continue
            if a > at:
                out.append((at, a))
            at = max(at, b)
        if at < stop:
            out.append((at, stop))
    return merged(out)


def pieces_of(ranges, size: int):
    """``ranges`` cut into chunks of at most ``size`` units, one at a time (2^48 seeds are millions of chunks)."""
    return ((start, min(stop, start + size)) for first, stop in ranges for start in range(first, stop, size))


def run_chunks(task: Callable[[int, int], object], ranges, size: int, client=None, *,
               journal: Journal | None = None, retries: int = RETRIES,
               arguments: Callable[[int, int], tuple] | None = None,
               on_progress: Callable[[int], None] | None = None, processes: int = 1) -> Outcome:
    """Run ``task`` over ``ranges`` cut into chunks of ``size``, on ``client``'s workers, in local processes or here.

    Parameters
    ----------
    task : callable
        ``task(first, stop) -> result`` (JSON-ready when journaled); picklable
        for a cluster (a module-level function, or a ``functools.partial`` of one).
    ranges : iterable of (first, stop)
        The work, half-open ranges.
    size : int
        Units per chunk.
    client : dask.distributed.Client, optional
        Where the chunks run; ``None``: here, one after another.
    journal : Journal, optional
        Chunks it records are not run again; each finished chunk is recorded.
    retries : int
        Attempts after the first, per chunk, on a cluster.
    arguments : callable, optional
        ``arguments(first, stop) -> tuple``: more arguments of ``task`` for one chunk,
        computed here as the chunk is handed out (the candidates it examines, say).
    on_progress : callable, optional
        Called with the units of each chunk as it finishes.
    processes : int
        Without a client: worker processes of this machine that run the chunks
        (:func:`_run_in_processes`); 1 (the default): here, one after another.

    Returns
    -------
    Outcome
    """
    ranges = merged(ranges)
    outcome = Outcome(records=list(journal.records) if journal else [])
    started = time.perf_counter()

    def finish(first, stop, value):
        if journal:
            journal.record(first, stop, value)
        outcome.records.append((first, stop, value))
        outcome.ran += stop - first
        if on_progress:
            on_progress(stop - first)

    pieces = pieces_of(uncovered(ranges, [(a, b) for a, b, _ in outcome.records]), size)
    pending = ((first, stop, *(arguments(first, stop) if arguments else ())) for first, stop in pieces)
    if client is None and processes > 1:
        _run_in_processes(task, pending, finish, processes)
    elif client is None:
        _run_here(task, pending, finish)
    else:
        _run_on_cluster(task, client, pending, retries, finish, outcome.failures)
    outcome.left = uncovered(ranges, [(a, b) for a, b, _ in outcome.records])
    outcome.seconds = time.perf_counter() - started
    return outcome


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system reports it): a default for ``processes``."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _run_here(task, pending, finish) -> None:
    """Chunks one after another in this process; Ctrl-C stops between chunks."""
    try:
        for first, stop, *more in pending:
            finish(first, stop, task(first, stop, *more))
    except KeyboardInterrupt:
        return


def _run_in_processes(task, pending, finish, processes: int) -> None:
    """Chunks in ``processes`` worker processes, ``IN_FLIGHT`` per process at a time, gathered as they complete.

    ``task`` (a module-level function, or a ``functools.partial`` of one), its
    arguments and its results are pickled. On Linux the workers are forked
    from this process (the default start method there): they inherit its
    modules and the compiled kernels it has loaded. A task that raises stops
    the run with its error; Ctrl-C cancels the chunks not started.
    """
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    queue, where = iter(pending), {}
    with ProcessPoolExecutor(processes) as pool:
        def submit() -> None:
            for first, stop, *more in queue:
                where[pool.submit(task, first, stop, *more)] = (first, stop)
                return

        for _ in range(IN_FLIGHT * processes):
            submit()
        try:
            while where:
                finished, _ = wait(where, return_when=FIRST_COMPLETED)
                for future in finished:
                    finish(*where.pop(future), future.result())
                    submit()
        except KeyboardInterrupt:
            pool.shutdown(cancel_futures=True)


def _run_on_cluster(task, client, pending, retries, finish, failures) -> None:
    """Chunks as tasks, ``IN_FLIGHT`` per worker at a time, gathered as they complete; Ctrl-C cancels the rest.

    A task that ends neither finished nor with an error (its result lost with its worker before it was read:
    seen once in CI, a worker killed under load) is submitted again, at most ``retries`` times, as dask does for
    a task whose worker died while it ran.
    """
    from distributed import as_completed

    queue, where, resubmitted = iter(pending), {}, Counter()

    def submit_chunk(chunk):  # the task's arguments travel with it: no scattered copy that dying workers could lose
        future = client.submit(task, *chunk, retries=retries, pure=False)
        where[future.key] = chunk
        return future

    def submit():
        return next((submit_chunk(chunk) for chunk in queue), None)

    window = [f for f in (submit() for _ in range(IN_FLIGHT * worker_count(client))) if f is not None]
    running = as_completed(window, loop=client.loop)
    try:
        for future in running:
            chunk = where.pop(future.key)
            first, stop = chunk[:2]
            if future.status == "finished":
                finish(first, stop, future.result())
            elif future.status != "error" and resubmitted[first] < retries:
                resubmitted[first] += 1
                running.add(submit_chunk(chunk))
                continue
            else:
                failures.append(Failure(first, stop, _error_text(future)))
            following = submit()
            if following is not None:
                running.add(following)
    except KeyboardInterrupt:
        client.cancel(list(running.futures))


def _error_text(future) -> str:
    try:
        error = future.exception(timeout=10)
    except Exception as problem:  # noqa: BLE001 - the scheduler itself lost the future: any error is the answer
        error = problem
    return f"{type(error).__name__}: {error}".splitlines()[0]
