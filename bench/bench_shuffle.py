"""Shuffles: batched Fisher-Yates lanes against numpy, and the exact position matrix.

(1) 10^6 Fisher-Yates shuffles of 52 cards, one LCG lane per seed (ranqd1,
m = 2^32, and MMIX, m = 2^64) with Lemire reduction
(``rnglab.shuffles.algorithms.shuffle_seeds``: deck by deck in one compiled pass), side
by side in the same run with numpy ``Generator.permuted`` on a (10^6, 52)
uint8 array (PCG64), each the best of REPEAT runs taken alternately. Goal:
ratio numpy time / rnglab time >= 1. drand48 (48-bit outputs, which the
compiled pass does not serve) shows the step-by-step path, one numpy pass per
swap over every deck.

(2) The exact position matrix of the naive exchange at n = 100
(``rnglab.shuffles.fairness.position_counts``, exact integers). Goal: under a second.
"""

from __future__ import annotations

import time

import numpy as np
from common import best_time, markdown_table, write_fragment

from rnglab.generators import make_source
from rnglab.shuffles.algorithms import shuffle_seeds
from rnglab.shuffles.fairness import position_counts

DECKS, CARDS, REPEAT = 10**6, 52, 3
#: Generator lanes timed, and the path each takes.
LANES = {"ranqd1": "compiled", "mmix": "compiled", "drand48": "step by step"}


def numpy_permuted():
    decks = np.tile(np.arange(CARDS, dtype=np.uint8), (DECKS, 1))
    generator = np.random.default_rng(1)
    return lambda: generator.permuted(decks, axis=1, out=decks)


def rnglab_lanes(name: str):
    generator, seeds = make_source(name), np.arange(1, DECKS + 1)
    shuffle_seeds(generator, seeds[:10], CARDS, "fisher-yates", "lemire")  # load the compiled kernels
    return lambda: shuffle_seeds(generator, seeds, CARDS, "fisher-yates", "lemire")


def main() -> None:
    runs = {"numpy": numpy_permuted(), **{name: rnglab_lanes(name) for name in LANES}}
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(REPEAT):
        best = {key: min(best[key], best_time(run, 1)) for key, run in runs.items()}
    reference = best["numpy"]
    rows = [[f"Fisher-Yates, {name} lanes, lemire ({path})", f"{best[name]:.3f}", f"{reference:.3f}",
             f"{reference / best[name]:.2f}"] for name, path in LANES.items()]
    started = time.perf_counter()
    position_counts("naive", 100)
    exact = time.perf_counter() - started
    body = ("10^6 shuffles of 52 cards: rnglab (one LCG lane per seed, bit-exact with shuffling deck by deck) "
            "against numpy `Generator.permuted(axis=1)` on a (10^6, 52) uint8 array in the same run, best of "
            f"{REPEAT} runs taken alternately. Ratio = numpy time / rnglab time (>= 1: rnglab at least as fast). "
            "Compiled: each deck shuffled whole by one numba pass (LCG step, reduction with its rejections, "
            "swap); step by step: one request for every lane per swap (drand48's 48-bit outputs).\n\n"
            + markdown_table(["what", "rnglab s", "numpy s", "ratio"], rows)
            + f"\n\nExact position matrix of the naive exchange, n = 100 (exact integers): {exact:.3f} s "
            "(goal < 1 s).\n")
    print(write_fragment("shuffle", "Shuffles: batched lanes and exact position matrices", body).read_text())


if __name__ == "__main__":
    main()
