"""Seed searches beyond one process: chunks as dask tasks, a journal to resume, retries, a GPU device.

A seed search is embarrassingly parallel: the seeds to shuffle (one per
equivalence class, :attr:`rnglab.seeds.crack.Plan.searched`) are cut into
independent chunks, each searched by :func:`search_chunk` wherever it runs, and
the hits of all chunks together are exactly the hits of one search in one
process (each chunk runs the same :func:`rnglab.seeds.crack.matching_seeds`).

:func:`run_search` runs the chunks on a ``dask.distributed`` client (an
existing scheduler, or a cluster of worker processes on this machine:
:func:`cluster_client`), or one after another in this process (with a journal
or the GPU alone). At most :data:`IN_FLIGHT` tasks per worker are submitted at
a time, so that 2^48 seeds do not become millions of futures at once; each task
is retried :data:`RETRIES` times (dask retries a task whose worker died, and one
that raised); a chunk that still fails is reported with its error and its range
stays in the ranges not covered.

Chunk size: :func:`task_chunk`. A task costs about 11 ms of scheduling,
transfer and bookkeeping on a loaded 2-core machine (``bench/results/cluster.md``),
so a task of a few seconds keeps that below 1% of the work.

dask is an optional dependency (``pip install "rnglab[cluster]"``), imported
only when a cluster is asked for.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import threading
import time
from dataclasses import dataclass
from typing import Callable

from ..results import Result
from .crack import CrackResult, Plan, expand_residues, matching_seeds, search_result
from .journal import Journal
from .space import seed_range_space

#: Seeds per task on each search path: a few seconds of one core (the compiled kernel shuffles
#: about 10 million seeds a second per core, the batch path some 10^5, the one-at-a-time path 10^3).
TASK_CHUNK = {"compiled": 1 << 25, "batch": 1 << 18, "one-at-a-time": 1 << 11}
#: Tasks per worker, at least: a smaller space is cut finer so that every worker has work.
TASKS_PER_WORKER = 4
#: Tasks submitted per worker at a time (the next is submitted as one finishes).
IN_FLIGHT = 2
#: Attempts after the first for a task that raised or whose worker died.
RETRIES = 3
#: Where dask's schedulers listen: tcp:// or tls://, a host name or address, a port.
ADDRESS = re.compile(r"(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):(\d{1,5})")
#: Most seeds a search spread over a cluster or kept in a journal shuffles (every 64-bit seed).
MAX_SCALED_SEEDS = 1 << 64
#: Devices that run the compiled kernel.
DEVICES = ("cpu", "gpu")
#: Seeds per second of a cluster of single-threaded workers, as a fraction of (cores x one core's rate): the
#: lowest of the ratios measured for three shuffles on a local cluster (bench/results/cluster.md: 0.85, 0.85, 1.10).
CLUSTER_EFFICIENCY = 0.85


def projected_seconds(seeds: int, rate_per_core: float, cores: int, efficiency: float = CLUSTER_EFFICIENCY) -> float:
    """Seconds a cluster of ``cores`` single-threaded workers needs to try ``seeds`` seeds, on paper.

    ``T = S / (c r e)``, with ``S`` seeds, ``c`` cores, ``r`` the rate of one core and ``e`` the
    cluster's efficiency (:data:`CLUSTER_EFFICIENCY`, measured). Valid for
    spaces large enough that every worker stays busy and each task is long
    against the scheduler's overhead (the benchmark's ``chunk_for``).
    """
    if seeds < 0 or rate_per_core <= 0 or cores < 1 or not 0 < efficiency <= 2:
        raise ValueError("seeds must be >= 0, the rate > 0, cores >= 1 and the efficiency in (0, 2]")
    return seeds / (cores * rate_per_core * efficiency)


@dataclass(frozen=True)
class Failure(Result):
    """A chunk ``[first, stop)`` (of the searched seeds) that failed every attempt, and the last error."""

    first: int
    stop: int
    error: str


def task_chunk(plan: Plan, workers: int) -> int:
    """Seeds per task: ``TASK_CHUNK[method]``, or less so that each worker gets ``TASKS_PER_WORKER`` tasks.

    The floor is 1/64 of ``TASK_CHUNK`` (a task of a tenth of a second at least).
    """
    ceiling = TASK_CHUNK[plan.method]
    share = -(-plan.shuffle_count // (TASKS_PER_WORKER * max(1, workers)))
    return max(1, min(ceiling, max(share, ceiling >> 6)))


def search_identity(plan: Plan) -> dict:
    """What a journal records of a search, to refuse resuming another one (JSON-ready)."""
    seen = plan.observation
    return {"generator": plan.generator.name, "algorithm": str(plan.shuffle), "reducer": plan.reducer.name,
            "deck": seen.deck.size, "positions": list(seen.positions), "cards": list(seen.cards),
            "seeds": [list(r) for r in plan.seeds.ranges], "searched": [list(r) for r in plan.searched.ranges]}


def search_chunk(plan: Plan, first: int, stop: int, device: str = "cpu") -> list[int]:
    """The hits in ``[first, stop)`` of the searched seeds (the task each worker runs)."""
    if device == "gpu":
        from ..shuffles.gpu import search_seeds_gpu

        return [int(s) for s in matching_seeds(plan, first, stop, search_seeds_gpu)]
    return [int(s) for s in matching_seeds(plan, first, stop)]


def check_device(plan: Plan, device: str) -> None:
    """Refuse the GPU for a search off the compiled path, or where no CUDA GPU is present."""
    if device not in DEVICES:
        raise ValueError(f"device must be one of {', '.join(DEVICES)}; got {device!r}")
    if device == "cpu":
        return
    if plan.method != "compiled":
        raise ValueError(f"--device gpu runs the compiled kernel only; this search takes the {plan.method} path")
    from ..shuffles.gpu import check_gpu

    check_gpu(plan.observation.deck.size)


def uncovered(ranges, done) -> list[tuple[int, int]]:
    """The parts of the half-open ``ranges`` outside every ``done`` range, merged, in order."""
    out, cuts = [], sorted(done)
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
    return [tuple(r) for r in seed_range_space(out).ranges]


def pieces_of(ranges, size: int):
    """``ranges`` cut into chunks of at most ``size`` seeds, one at a time (2^48 seeds are millions of chunks)."""
    return ((start, min(stop, start + size)) for first, stop in ranges for start in range(first, stop, size))


def run_search(plan: Plan, client=None, *, chunk: int | None = None, journal: Journal | None = None,
               device: str = "cpu", retries: int = RETRIES,
               on_progress: Callable[[int], None] | None = None) -> tuple[CrackResult, list[Failure]]:
    """Search ``plan`` chunk by chunk, on ``client``'s workers (or in this process), resuming from ``journal``.

    Parameters
    ----------
    plan : Plan
        From :func:`rnglab.seeds.crack.make_plan`.
    client : dask.distributed.Client, optional
        Where the chunks run (:func:`cluster_client`); ``None``: here, one after another.
    chunk : int, optional
        Seeds per task (default :func:`task_chunk`).
    journal : Journal, optional
        ``open_journal(path, search_identity(plan))`` (:mod:`rnglab.seeds.journal`):
        chunks it records are not searched again, and each finished chunk is recorded.
    device : str
        ``cpu`` or ``gpu`` (:func:`check_device`).
    retries : int
        Attempts after the first, per chunk, on a cluster.
    on_progress : callable, optional
        Called with the seeds of each chunk as it finishes.

    Returns
    -------
    CrackResult, list of Failure
        The result (``complete`` only when every seed was covered; ``remaining``:
        the ranges not covered, after Ctrl-C or failures) and the chunks that failed.
    """
    check_device(plan, device)
    done, found = (list(journal.done), list(journal.hits)) if journal else ([], [])
    size = chunk or task_chunk(plan, _worker_count(client))
    pending = pieces_of(uncovered(plan.searched.ranges, done), size)
    started, shuffled, failures = time.perf_counter(), 0, []

    def finish(first, stop, hits):
        nonlocal shuffled
        if journal:
            journal.record(first, stop, hits)
        done.append((first, stop))
        found.extend(hits)
        shuffled += stop - first
        if on_progress:
            on_progress(stop - first)

    run = _run_here if client is None else _run_on_cluster
    run(plan, client, pending, device, retries, finish, failures)
    left = uncovered(plan.searched.ranges, done)
    remaining = expand_residues(left, plan.seeds, plan.folding)
    return search_result(plan, found, shuffled, time.perf_counter() - started, remaining), failures


def _run_here(plan, client, pending, device, retries, finish, failures) -> None:
    """Chunks one after another in this process; Ctrl-C stops between chunks."""
    search_chunk(plan, 0, 0, device)  # load (or compile) the kernel outside the timing
    try:
        for first, stop in pending:
            finish(first, stop, search_chunk(plan, first, stop, device))
    except KeyboardInterrupt:
        return


def _run_on_cluster(plan, client, pending, device, retries, finish, failures) -> None:
    """Chunks as tasks, ``IN_FLIGHT`` per worker at a time, gathered as they complete; Ctrl-C cancels the rest."""
    from distributed import as_completed

    queue, where = iter(pending), {}

    def submit():  # the plan (a few kB) travels with each task: no scattered copy that dying workers could lose
        for first, stop in queue:
            future = client.submit(search_chunk, plan, first, stop, device, retries=retries, pure=False)
            where[future.key] = (first, stop)
            return future
        return None

    window = [f for f in (submit() for _ in range(IN_FLIGHT * max(1, _worker_count(client)))) if f is not None]
    running = as_completed(window, loop=client.loop)
    try:
        for future in running:
            first, stop = where.pop(future.key)
            if future.status == "finished":
                finish(first, stop, future.result())
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
    except Exception as problem:  # the scheduler itself lost the future
        error = problem
    return f"{type(error).__name__}: {error}".splitlines()[0]


def _worker_count(client) -> int:
    if client is None:
        return 1
    return max(1, len(client.scheduler_info(n_workers=-1)["workers"]))


def check_address(address: str) -> str:
    """Check a scheduler address, ``tcp://HOST:PORT`` (or ``tls://``), port in [1, 65535]."""
    match = ADDRESS.fullmatch(address.strip())
    if not match or not 1 <= int(match.group(3)) <= 65535:
        raise ValueError(f"a dask scheduler address is tcp://HOST:PORT with a port in [1, 65535]; got {address!r}")
    return address.strip()


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ValueError("--cluster and --workers need dask.distributed: pip install \"rnglab[cluster]\"") from None
    return distributed


@contextlib.contextmanager
def cluster_client(address: str | None = None, workers: int | None = None):
    """A dask client on the scheduler at ``address``, or on ``workers`` local worker processes; else ``None``.

    Local workers listen on 127.0.0.1 only, run one task at a time, and share the
    cores among their compiled kernels (``NUMBA_NUM_THREADS`` = cores / workers).
    The connection to a scheduler waits dask's ``distributed.comm.timeouts.connect``
    (30 s; ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s`` shortens it).

    Raises
    ------
    ValueError
        When dask is not installed, ``address`` is malformed or cannot be reached,
        or ``workers`` is below 1.
    """
    if address is None and workers is None:
        yield None
        return
    if address is not None and workers is not None:
        raise ValueError("give --cluster (an existing scheduler) or --workers (local processes), not both")
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        if address is not None:
            client = stack.enter_context(_connect(distributed, check_address(address)))
        else:
            client = stack.enter_context(_local_cluster(distributed, workers))
        yield client


def _connect(distributed, address: str):
    try:
        return distributed.Client(address, set_as_default=False)
    except (OSError, TimeoutError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ValueError(f"cannot reach the dask scheduler at {address}: {reason}") from None


@contextlib.contextmanager
def _local_cluster(distributed, workers: int):
    if workers < 1:
        raise ValueError(f"--workers must be at least 1; got {workers}")
    threads = max(1, (os.cpu_count() or 1) // workers)
    with _deaf_to_ctrl_c():  # worker processes inherit it: Ctrl-C stops the client, which then closes them
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                           dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL,
                                           env={"NUMBA_NUM_THREADS": str(threads)})
    with cluster, distributed.Client(cluster, set_as_default=False) as client:
        yield client


@contextlib.contextmanager
def _deaf_to_ctrl_c():
    """Ignore SIGINT while processes are started (a process started with SIGINT ignored keeps ignoring it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
