"""Seed searches beyond one process: the search as chunks (:mod:`rnglab.parallel`), a GPU device.

A seed search is embarrassingly parallel: the seeds to shuffle (one per
equivalence class, :attr:`rnglab.recovery.crack.Plan.searched`) are cut into
independent chunks, each searched by :func:`search_chunk` wherever it runs, and
the hits of all chunks together are exactly the hits of one search in one
process (each chunk runs the same :func:`rnglab.recovery.crack.matching_seeds`).

:func:`run_search` hands the chunks to :func:`rnglab.parallel.chunks.run_chunks`
(a dask client, or one after another in this process, with a journal), and
turns what it did into a :class:`~rnglab.recovery.crack.CrackResult`.

Chunk size: :func:`task_chunk`. A task costs about 9 ms of scheduling,
transfer and bookkeeping (wall time, and as much CPU) on a loaded 2-core machine
(``bench/results/cluster.md``), so a task of a few seconds keeps that below 1%
of the work; 8 tasks per worker at least keep the last task of one worker from
leaving the others idle for long.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from rnglab.parallel.chunks import RETRIES, Failure, run_chunks
from rnglab.parallel.cluster import worker_count
from rnglab.parallel.journal import Journal
from rnglab.recovery.crack import CrackResult, Plan, expand_residues, matching_seeds, one_run_limit, search_result

#: The journal's name for a seed search.
KIND = "rnglab crack"
#: Seeds per task on each search path: a few seconds of one core (the compiled kernel shuffles
#: about 10 million seeds a second per core, the batch path some 10^5, the sources path 4,000 to 60,000).
TASK_CHUNK = {"compiled": 1 << 25, "batch": 1 << 18, "sources": 1 << 14}
#: Tasks per worker, at least: a smaller space is cut finer so that every worker has work.
TASKS_PER_WORKER = 8
#: Most seeds a search spread over a cluster or kept in a journal shuffles (every 64-bit seed).
MAX_SCALED_SEEDS = 1 << 64
#: Devices that run the compiled kernel.
DEVICES = ("cpu", "gpu")
#: Seeds per second of a cluster of single-threaded workers, as a fraction of (cores x one core's rate): the
#: lowest of the CPU-time ratios, threaded search / local cluster, measured for three shuffles
#: (bench/results/cluster.md: 5.8/6.1, 7.1/7.1, 5.0/5.2; CPU time, which the load of other programs does not change).
CLUSTER_EFFICIENCY = 0.95


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
        from rnglab.recovery.gpu import search_seeds_gpu

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
    from rnglab.recovery.gpu import check_gpu

    check_gpu(plan.observation.deck.size)


def check_chunk(plan: Plan, chunk: int | None) -> None:
    """Refuse seeds per task beyond what one run searches on the plan's path."""
    if chunk is not None and chunk > one_run_limit(plan.method):
        raise ValueError(f"--chunk {chunk:,} seeds is more than one run searches on the {plan.method} path "
                         f"({one_run_limit(plan.method):,}); give a smaller --chunk")


def run_search(plan: Plan, client=None, *, chunk: int | None = None, journal: Journal | None = None,
               device: str = "cpu", retries: int = RETRIES,
               on_progress: Callable[[int], None] | None = None) -> tuple[CrackResult, list[Failure]]:
    """Search ``plan`` chunk by chunk, on ``client``'s workers (or in this process), resuming from ``journal``.

    Parameters
    ----------
    plan : Plan
        From :func:`rnglab.recovery.crack.make_plan`.
    client : dask.distributed.Client, optional
        Where the chunks run (:func:`rnglab.parallel.cluster.cluster_client`); ``None``: here.
    chunk : int, optional
        Seeds per task (default :func:`task_chunk`), at most one run's limit on the plan's
        path (:func:`~rnglab.recovery.crack.one_run_limit`): a space of any size is searched
        in chunks that one run could search.
    journal : Journal, optional
        ``open_journal(path, KIND, search_identity(plan))`` (:mod:`rnglab.parallel.journal`):
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
    check_chunk(plan, chunk)
    if client is None or getattr(client, "cluster", None) is not None:
        # load (or compile) the kernel outside the timing; local workers then load it from the shared disk cache
        # instead of each compiling it (a remote cluster's workers have their own)
        search_chunk(plan, 0, 0, device)
    task = functools.partial(search_chunk, plan, device=device)
    outcome = run_chunks(task, plan.searched.ranges, chunk or task_chunk(plan, worker_count(client)), client,
                         journal=journal, retries=retries, on_progress=on_progress)
    found = [seed for hits in outcome.results() for seed in _hits(hits)]
    remaining = expand_residues(outcome.left, plan.seeds, plan.folding)
    return search_result(plan, found, outcome.ran, outcome.seconds, remaining), outcome.failures


def _hits(result) -> list[int]:
    """A chunk's hits, as a journal recorded them (refused when they are not a list of seeds)."""
    if not isinstance(result, list) or not all(isinstance(seed, int) for seed in result):
        raise ValueError(f"a journal record of {KIND} holds a list of seeds; got {str(result)[:40]}")
    return result
