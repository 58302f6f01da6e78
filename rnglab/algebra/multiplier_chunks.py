"""The multiplier search in chunks of candidates: on a dask cluster or here, resumable from a journal.

The candidates are drawn here exactly as :func:`rnglab.algebra.multipliers.search_multipliers`
draws them (same seed, same draws, each examined once), then cut into chunks;
each chunk keeps its own ``top`` best (:func:`best_of`) wherever it runs. The
order on multipliers, a larger ``M_T`` first and then a smaller ``a``, does not
depend on the order in which candidates are examined, so the ``top`` best of the
chunks' bests are the ``top`` best of the whole search: the same multipliers and
figures of merit as the search in one process.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np

from rnglab.algebra.multipliers import Multiplier, SearchResult, check_search, consider, draw_multiplier
from rnglab.parallel.chunks import Outcome, run_chunks
from rnglab.parallel.cluster import worker_count
from rnglab.parallel.journal import Journal

#: The journal's name for a multiplier search.
KIND = "rnglab spectral search"
#: Tasks per worker by default (a chunk of candidates per task: seconds of work for the default search).
TASKS_PER_WORKER = 8


def distinct_candidates(m: int, increment: str, candidates: int, seed: int) -> list[int]:
    """The ``candidates`` draws of the search with ``seed``, repeats removed, in the order first drawn."""
    rng = np.random.default_rng(seed)
    return list(dict.fromkeys(draw_multiplier(rng, m, increment) for _ in range(candidates)))


def best_of(m: int, increment: str, dims: tuple, top: int, first: int, stop: int, chosen: list[int]) -> list:
    """The ``top`` best of the candidates ``chosen`` (numbers ``first`` to ``stop - 1``): a chunk's task.

    JSON-ready: ``[[a, M, [S_t, ...], lattice_m], ...]``.
    """
    best: list = []
    for a in chosen:
        consider(a, m, increment, list(dims), top, best)
    return [[a, merit, list(merits), lattice_m] for merit, _, a, merits, lattice_m in best]


def search_identity(m: int, increment: str, dims, top: int, candidates: int, seed: int) -> dict:
    """What a journal records of a search, to refuse resuming another one (JSON-ready)."""
    return {"m": m, "increment": increment, "dims": sorted(set(dims)), "top": top, "candidates": candidates,
            "seed": seed}


def search_in_chunks(m: int, increment: str, dims, top: int, candidates: int, seed: int, *,
                     chunk: int | None = None, client=None, journal: Journal | None = None,
                     on_progress: Callable[[int], None] | None = None) -> tuple[SearchResult, Outcome]:
    """The search of :func:`~rnglab.algebra.multipliers.search_multipliers`, in chunks of ``chunk`` candidates.

    Parameters
    ----------
    m, increment, dims, top, candidates, seed
        As for :func:`~rnglab.algebra.multipliers.search_multipliers` (``seed`` required:
        a resumed search must draw the same candidates).
    chunk : int, optional
        Distinct candidates per task (default: :data:`TASKS_PER_WORKER` tasks per worker).
    client : dask.distributed.Client, optional
        Where the chunks run; ``None``: here.
    journal : Journal, optional
        ``open_journal(path, KIND, search_identity(...))``: its chunks are not examined again.
    on_progress : callable, optional
        Called with the candidates of each chunk as it finishes.

    Returns
    -------
    SearchResult, Outcome
        The best multipliers of the chunks finished (``examined``: their candidates), and
        what the chunks did (``left``: candidates not examined, by number).
    """
    dims = sorted(set(dims))
    check_search(m, increment, dims, top, candidates)
    chosen = distinct_candidates(m, increment, candidates, seed)
    task = functools.partial(best_of, m, increment, tuple(dims), top)
    size = chunk or max(1, -(-len(chosen) // (TASKS_PER_WORKER * worker_count(client))))
    outcome = run_chunks(task, [(0, len(chosen))], size, client, journal=journal,
                         arguments=lambda first, stop: (chosen[first:stop],), on_progress=on_progress)
    found = sorted((entry for part in outcome.results() for entry in part), key=lambda e: (-e[1], e[0]))[:top]
    examined = sum(stop - first for first, stop, _ in outcome.records)
    best = tuple(Multiplier(a=a, M=merit, S=tuple(merits), lattice_m=lattice_m)
                 for a, merit, merits, lattice_m in found)
    return SearchResult(m=m, increment=increment, dims=tuple(dims), seed=seed, top=top, examined=examined,
                        seconds=outcome.seconds,
                        per_second=outcome.ran / outcome.seconds if outcome.seconds > 0 else math.inf,
                        best=best), outcome
