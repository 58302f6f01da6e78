"""Seed search on a local dask cluster against today's threaded search, the overhead per task, and a projection.

Three scenarios, five cards seen: MSVC ``rand()`` with Fisher-Yates, Java
``Collections.shuffle`` (``java.util.Random``, ``nextInt(i + 1)`` from the top),
and the 1999 Delphi exchange shuffle. Each searches the same slice of seeds two
ways, in ``REPEAT`` pairs (ABBA order): ``crack`` in this process on every
core (numba threads, today's path), and ``run_search`` on a local cluster of 2
worker processes (127.0.0.1, one numba thread each, default chunk size), both
with the kernel already loaded and the cluster already started. The ratio is
the median over the pairs of cluster rate / threaded rate (wall clock, each
pair taken within seconds). The machine is shared with other programs: the
load average (1 minute) before and after each scenario is in the table, and
the CPU seconds each way (this process's threads plus the workers' processes)
show the work the cluster adds, whatever the load. A third timing, the threaded
search on one thread (a quarter of the slice), is the rate of one thread.

Overhead per task: ``TASKS`` tasks of one seed each (no work to speak of) on
the same cluster: wall time over tasks is what the scheduler, the transfers and
the client's bookkeeping cost per task, with 2 workers; CPU time over tasks is
the same cost in work, everywhere and in the client's process alone (which
holds the local cluster's scheduler): the scheduler's share sets the chunk of
the projection.
"""

from __future__ import annotations

import math
import os
import time

import numba
import numpy as np
from common import duration, markdown_table, write_fragment

from rnglab.generators import as_generator, make_source
from rnglab.parallel.cluster import cluster_client
from rnglab.recovery.crack import crack, make_plan, observe
from rnglab.recovery.distributed import run_search
from rnglab.seeds.space import parse_seed_space
from rnglab.shuffles.algorithms import make_shuffle, shuffle

#: (label, generator, shuffle, true seed, seeds searched)
SCENARIOS = [
    ("MSVC rand(), Fisher-Yates", "msvc", "fisher-yates", 1_790_012_345, 1 << 26),
    ("Java Collections.shuffle", "java", "fisher-yates", 123_456_789, 1 << 26),
    ("1999 Delphi exchange shuffle", "delphi", "poker1999", 43_012_345, 1 << 26),
]
SEEN = 5
REPEAT = 8
#: Share of the slice timed on one thread.
SINGLE_SHARE = 4
WORKERS = 2
TASKS = 400
#: Share of the work the scheduler may take, for the chunk size of the projection.
SCHEDULER_SHARE = 0.01
CORES = (100, 1000)
SPACES = (40, 48)


def plan_for(generator: str, algo: str, seed: int, size: int):
    cards = shuffle(52, make_source(generator, seed), make_shuffle(algo), as_generator(generator).native_reducer)[:SEEN]
    first = seed - size // 2
    return make_plan(as_generator(generator), parse_seed_space(f"{first}..{first + size - 1}"),
                     observe(" ".join(map(str, cards))), make_shuffle(algo))


def timed(function, client=None):
    """``function()``, its wall time, and the CPU time it took here and (with ``client``) on the workers."""
    cpu = _cpu(client)
    started = time.perf_counter()
    result = function()
    return result, time.perf_counter() - started, _cpu(client) - cpu


def _cpu(client) -> float:
    """CPU seconds of this process (every thread), plus those of the workers' processes."""
    return time.process_time() + (sum(client.run(time.process_time).values()) if client is not None else 0.0)


def one_thread(function):
    every = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        return function()
    finally:
        numba.set_num_threads(every)


class Measured:
    """Per repetition: rates (seeds a second), paired ratios, CPU seconds; the loads before and after."""

    def __init__(self, loads: list) -> None:
        self.threaded, self.clustered, self.single, self.ratios = [], [], [], []
        self.cpu_threaded, self.cpu_clustered, self.loads, self.agree = [], [], loads, True


def compare(client, label, generator, algo, seed, size) -> Measured:
    """Threaded and cluster runs in pairs (ABBA order), a one-thread run per pair, the candidates compared."""
    plan, part = plan_for(generator, algo, seed, size), plan_for(generator, algo, seed, size // SINGLE_SHARE)
    here = lambda: crack(as_generator(generator), plan.seeds, plan.observation, algo=make_shuffle(algo))
    there = lambda: run_search(plan, client)[0]
    alone = lambda: crack(as_generator(generator), part.seeds, part.observation, algo=make_shuffle(algo))
    measured = Measured(loads=[os.getloadavg()[0]])
    for repetition in range(REPEAT):
        if repetition % 2:
            theirs, cluster_wall, cluster_cpu = timed(there, client)
            mine, wall, cpu = timed(here, client)
        else:
            mine, wall, cpu = timed(here, client)
            theirs, cluster_wall, cluster_cpu = timed(there, client)
        measured.threaded.append(size / wall)
        measured.clustered.append(size / cluster_wall)
        measured.ratios.append(wall / cluster_wall)
        measured.cpu_threaded.append(cpu)
        measured.cpu_clustered.append(cluster_cpu)
        measured.agree &= (theirs.complete and theirs.candidates == mine.candidates
                           and seed in [c.seed for c in mine.candidates])
        _, wall, _ = one_thread(lambda: timed(alone))
        measured.single.append(size // SINGLE_SHARE / wall)
    measured.loads.append(os.getloadavg()[0])
    return measured


def task_overhead(client) -> tuple[float, float, float]:
    """Per task of (almost) no work on the cluster: wall seconds, CPU seconds of this process (the client and,
    in a local cluster, the scheduler), CPU seconds of everything (with the workers)."""
    plan = plan_for("msvc", "fisher-yates", 1_000_000, TASKS)
    here = time.process_time()
    (result, _), wall, cpu = timed(lambda: run_search(plan, client, chunk=1), client)
    assert result.complete
    return wall / TASKS, (time.process_time() - here) / TASKS, cpu / TASKS


def chunk_for(rate_per_core: float, overhead: float, scheduler: float, workers: int) -> int:
    """Seeds per task (a power of two) so that per-task costs stay below ``SCHEDULER_SHARE`` of the work.

    Two conditions on a task's duration ``T``: its own overhead ``o`` (CPU, everywhere) is at most 1%
    of it (``T >= o / 0.01``), and one scheduler serving ``W`` single-core workers, at ``s`` CPU
    seconds a task, is busy at most 1% of the time (``W s / T <= 0.01``, so ``T >= W s / 0.01``).
    """
    seconds = max(overhead, workers * scheduler) / SCHEDULER_SHARE
    return 1 << math.ceil(math.log2(seconds * rate_per_core))




def main() -> None:
    with cluster_client(workers=WORKERS) as client:
        for _, generator, algo, seed, _ in SCENARIOS:  # load the kernels here and on the workers
            run_search(plan_for(generator, algo, seed, 1 << 16), client)
            crack(as_generator(generator), parse_seed_space("0..9"), observe("Ac"), algo=make_shuffle(algo))
        threads = sorted(client.run(numba.get_num_threads).values())
        measured = [compare(client, *scenario) for scenario in SCENARIOS]
        latency, scheduler, overhead = (float(v) for v in np.median([task_overhead(client) for _ in range(3)],
                                                                     axis=0))
    rows, projection = [], []
    for (label, *_, size), m in zip(SCENARIOS, measured):
        threaded, clustered, single, ratio = (float(np.median(v)) for v in (m.threaded, m.clustered, m.single,
                                                                              m.ratios))
        per_cpu = size / float(np.median(m.cpu_clustered))
        rows.append([label, f"{size:,}", f"{threaded / 1e6:.2f}", f"{clustered / 1e6:.2f}",
                     f"{ratio:.2f} ({min(m.ratios):.2f}-{max(m.ratios):.2f})", f"{single / 1e6:.2f}",
                     f"{np.median(m.cpu_threaded):.1f} / {np.median(m.cpu_clustered):.1f}", f"{per_cpu / 1e6:.2f}",
                     "yes" if m.agree else "NO", " / ".join(f"{v:.1f}" for v in m.loads)])
        for cores in CORES:
            chunk = chunk_for(per_cpu, overhead, scheduler, cores)
            projection.append([label, f"{cores:,}", *[duration(2**bits / (per_cpu * cores * (1 - SCHEDULER_SHARE)))
                                                      for bits in SPACES], f"2^{chunk.bit_length() - 1}"])
    body = (__doc__.split("\n\n", 1)[1].strip() + "\n\n"
            + markdown_table(["scenario", "seeds", "threaded M/s", f"{WORKERS} workers M/s",
                              "ratio, median of pairs (range)", "one thread M/s", "CPU s threaded / cluster",
                              "cluster M per CPU-s", "same candidates", "load before / after"], rows)
            + f"\n\nnumba threads in each worker: {', '.join(map(str, threads))}."
            + f" Overhead per task on the local cluster ({WORKERS} workers, {TASKS} tasks of one seed, median "
              f"of 3): {latency * 1e3:.2f} ms of wall time, {overhead * 1e3:.2f} ms of CPU in all, of which "
              f"{scheduler * 1e3:.2f} ms in the client's process (client and scheduler).\n\n"
            + "Projection, on paper: the cluster's seeds per CPU-second (workers, client and scheduler together, "
              "which the load of other programs does not change) times the cores, less the 1% left to the "
              "scheduler; chunk: the seeds per task that keep the per-task costs below 1% of the work "
              "(`chunk_for`).\n\n"
            + markdown_table(["scenario", "cores", *[f"2^{b} seeds" for b in SPACES], "chunk"], projection) + "\n")
    print(write_fragment("cluster", "Seed search on a dask cluster: scaling and overhead", body).read_text())


if __name__ == "__main__":
    main()
