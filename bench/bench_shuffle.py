"""Shuffles: batched Fisher-Yates lanes against numpy, and the exact position matrix.

(1) 10^6 Fisher-Yates shuffles of 52 cards, one LCG lane per seed (ranqd1,
m = 2^32, and MMIX, m = 2^64) with Lemire reduction
(``rnglab.shuffles.algorithms.shuffle_seeds``: deck by deck in one compiled pass), side
by side in the same run with numpy ``Generator.permuted`` on a (10^6, 52)
uint8 array (PCG64), each the best of REPEAT runs taken alternately. Goal:
ratio numpy time / rnglab time >= 1. drand48 (48-bit outputs, which the
compiled pass does not serve) shows the step-by-step path, one numpy pass per
swap over every deck.

(2) The exact position matrix of the naive exchange
(``rnglab.shuffles.fairness.position_counts``, exact integers). Goals: n = 100
under a second, n = 400 under 5 s (issues 19 and 31). Three exact methods in
the same run: the object-array DP that packed columns replaced (kept as the
reference of ``tests/shuffles/test_steps.py``, up to n = 200), the packed
columns' general update (``packed_position_counts``, every column a step
rewrites, up to n = 400) and the naive exchange's own path, one shared column
update a step (``even_swaps_position_counts``, which ``position_counts`` takes).
CPU seconds of this process beside wall seconds: on the shared 2-core machine
the wall time is several times the CPU time.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from common import best_time, markdown_table, write_fragment

from rnglab.generators import make_source
from rnglab.shuffles.algorithms import make_shuffle, shuffle_seeds
from rnglab.shuffles.fairness import ChoiceWeights, packed_position_counts, position_counts

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from rnglab.reduction.reducers import REDUCERS
from tests.shuffles.test_steps import reference_counts

DECKS, CARDS, REPEAT = 10**6, 52, 3
#: Deck sizes of the position matrix, and the largest ones the object-array DP and the general packed update run on.
MATRIX_SIZES, OBJECT_LIMIT, PACKED_LIMIT = (100, 200, 400, 1000), 200, 400
#: Generator lanes timed, and the path each takes.
LANES = {"ranqd1": "compiled", "mmix": "compiled", "drand48": "step by step"}


def numpy_permuted():
    decks = np.tile(np.arange(CARDS, dtype=np.uint8), (DECKS, 1))
    generator = np.random.default_rng(1)
    return lambda: generator.permuted(decks, axis=1, out=decks)


def rnglab_lanes(name: str):
    generator, seeds = make_source(name), np.arange(1, DECKS + 1)
    shuffle_seeds(generator, seeds[:10], CARDS, make_shuffle("fisher-yates"), REDUCERS["lemire"])  # load the compiled kernels
    return lambda: shuffle_seeds(generator, seeds, CARDS, make_shuffle("fisher-yates"), REDUCERS["lemire"])


def timed(function) -> tuple[float, float]:
    """CPU and wall seconds of ``function()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    function()
    return time.process_time() - cpu, time.perf_counter() - wall


def matrix_row(n: int) -> list:
    """CPU / wall seconds of the three exact methods for the position matrix of the naive exchange on ``n`` cards."""
    program, weigh = make_shuffle("naive").program(n), ChoiceWeights()
    shared = timed(lambda: position_counts(make_shuffle("naive"), n))
    packed = timed(lambda: packed_position_counts(program, n, weigh)) if n <= PACKED_LIMIT else None
    objects = timed(lambda: reference_counts(program, n, weigh)) if n <= OBJECT_LIMIT else None
    cells = [f"{t[0]:.2f} / {t[1]:.2f}" if t else "not measured (too slow)" for t in (objects, packed, shared)]
    return [n, *cells, f"{packed[0] / shared[0]:.0f}" if packed else ""]


def dense_fairness_row() -> str:
    """CPU seconds and peak memory of ``rnglab fairness --n 10 --algo naive`` (the law over all 10! deals).

    Run first, while this process is small: a child's peak resident size counts
    the pages it shares with the parent between fork and exec.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "rnglab", "fairness", "--n", "10", "--algo", "naive"], check=True,
                   capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return (f"`rnglab fairness --n 10 --algo naive` (exact law over all 10! deals): {cpu:.1f} s CPU, peak "
            f"{after.ru_maxrss / 2**20:.2f} GB (goal < 5 s, < 0.5 GB; issue 19 measured 25.5 s and 2.12 GB before).")


def main() -> None:
    dense = dense_fairness_row()
    runs = {"numpy": numpy_permuted(), **{name: rnglab_lanes(name) for name in LANES}}
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(REPEAT):
        best = {key: min(best[key], best_time(run, 1)) for key, run in runs.items()}
    reference = best["numpy"]
    rows = [[f"Fisher-Yates, {name} lanes, lemire ({path})", f"{best[name]:.3f}", f"{reference:.3f}",
             f"{reference / best[name]:.2f}"] for name, path in LANES.items()]
    matrix_rows = [matrix_row(n) for n in MATRIX_SIZES]
    body = ("10^6 shuffles of 52 cards: rnglab (one LCG lane per seed, bit-exact with shuffling deck by deck) "
            "against numpy `Generator.permuted(axis=1)` on a (10^6, 52) uint8 array in the same run, best of "
            f"{REPEAT} runs taken alternately. Ratio = numpy time / rnglab time (>= 1: rnglab at least as fast). "
            "Compiled: each deck shuffled whole by one numba pass (LCG step, reduction with its rejections, "
            "swap); step by step: one request for every lane per swap (drand48's 48-bit outputs).\n\n"
            + markdown_table(["what", "rnglab s", "numpy s", "ratio"], rows)
            + "\n\nExact position matrix of the naive exchange (exact integers), CPU s / wall s; goals: "
              "n = 100 < 1 s, n = 400 < 5 s:\n\n"
            + markdown_table(["n", "object arrays", "packed columns, general update", "shared column (naive)",
                              "packed / shared (CPU)"], matrix_rows)
            + f"\n\n{dense}\n")
    print(write_fragment("shuffle", "Shuffles: batched lanes and exact position matrices", body).read_text())


if __name__ == "__main__":
    main()
