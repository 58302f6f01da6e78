"""Shuffles: batched Fisher-Yates lanes against numpy, and the exact position matrix.

(1) 10^6 Fisher-Yates shuffles of 52 cards, one LCG lane per seed (ranqd1,
m = 2^32, and MMIX, m = 2^64) with Lemire reduction
(``rnglab.shuffle.shuffle_seeds``), side by side in the same run with numpy
``Generator.permuted`` on a (10^6, 52) uint8 array (PCG64). Goal: ratio
numpy time / rnglab time >= 1.

(2) The exact position matrix of the naive exchange at n = 100
(``rnglab.fairness.position_counts``, exact integers). Goal: under a second.
"""

from __future__ import annotations

import time

import numpy as np

from common import best_time, markdown_table, write_fragment
from rnglab.fairness import position_counts
from rnglab.presets import make_source
from rnglab.shuffle import shuffle_seeds

DECKS, CARDS = 10**6, 52


def numpy_permuted() -> float:
    decks = np.tile(np.arange(CARDS, dtype=np.uint8), (DECKS, 1))
    generator = np.random.default_rng(1)
    return best_time(lambda: generator.permuted(decks, axis=1, out=decks), repeat=3)


def rnglab_lanes(name: str) -> float:
    generator, seeds = make_source(name), np.arange(1, DECKS + 1)
    return best_time(lambda: shuffle_seeds(generator, seeds, CARDS, "fisher-yates", "lemire"), repeat=3)


def main() -> None:
    shuffle_seeds(make_source("ranqd1"), np.arange(1, 11), CARDS)  # load the compiled kernels
    reference = numpy_permuted()
    rows = []
    for name in ("ranqd1", "mmix"):
        seconds = rnglab_lanes(name)
        rows.append([f"Fisher-Yates, {name} lanes, lemire", f"{seconds:.3f}", f"{reference:.3f}",
                     f"{reference / seconds:.2f}"])
    started = time.perf_counter()
    position_counts("naive", 100)
    exact = time.perf_counter() - started
    body = ("10^6 shuffles of 52 cards: rnglab (one LCG lane per seed, bit-exact with shuffling deck by deck) "
            "against numpy `Generator.permuted(axis=1)` on a (10^6, 52) uint8 array in the same run. "
            "Ratio = numpy time / rnglab time (>= 1: rnglab at least as fast).\n\n"
            + markdown_table(["what", "rnglab s", "numpy s", "ratio"], rows)
            + f"\n\nExact position matrix of the naive exchange, n = 100 (exact integers): {exact:.3f} s "
            "(goal < 1 s).\n")
    print(write_fragment("shuffle", "Shuffles: batched lanes and exact position matrices", body).read_text())


if __name__ == "__main__":
    main()
