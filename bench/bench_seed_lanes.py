"""Deals of many seeds of a generator seeded one by one: the sources path against one shuffle per seed and the runtime.

``rnglab reach`` and ``rnglab crack`` deal one deck per seed. For the
generators that are not a batch of compiled lanes (numpy's PCG64 and MT19937,
CPython's ``random``) each seed is its own generator; the sources path
(``rnglab.shuffles.draws.SourcesDraws``) reads each a block at a time and
reduces and shuffles all the seeds lane by lane, where the path before shuffled
one deck per seed with a Python call per draw (``shuffle``, the reference).
Seeds per second of Fisher-Yates on 52 cards with the generator's own bounded
draw, both in the same run on the same seeds, the decks compared; for CPython's
``random`` also the runtime itself (``random.Random(s).shuffle``, whose decks
the ``python`` generator deals bit for bit).
"""

from __future__ import annotations

import random
import time

import numpy as np
from common import markdown_table, write_fragment

from rnglab.generators import as_generator
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.reach import seed_decks

#: Seeds dealt on the sources path, and one at a time (the first of them).
SEEDS, REFERENCE_SEEDS = 2**14, 2**10
GENERATORS = ("python", "python_random53", "mt19937", "pcg64", "pcg64_uint32")


def rate(function, seeds: int) -> tuple[object, float]:
    """``function()``'s result and ``seeds`` per second of its wall time."""
    started = time.perf_counter()
    result = function()
    return result, seeds / (time.perf_counter() - started)


def cpython_rate(seeds: np.ndarray) -> tuple[np.ndarray, float]:
    """CPython's own ``random.Random(s).shuffle`` of 52 items for each seed, and its seeds per second."""
    def deal_all():
        decks = []
        for s in seeds.tolist():
            deck = list(range(52))
            random.Random(s).shuffle(deck)
            decks.append(deck)
        return np.array(decks)

    return rate(deal_all, len(seeds))


def row(name: str) -> list:
    generator, chosen = as_generator(name), make_shuffle("fisher-yates")
    reducer, seeds = generator.native_reducer, np.arange(1, SEEDS + 1, dtype=np.uint64)
    lanes, lanes_rate = rate(lambda: seed_decks(generator, seeds, 52, chosen, reducer), SEEDS)
    single, single_rate = rate(lambda: np.stack([shuffle(52, generator.make(int(s)), chosen, reducer)
                                                 for s in seeds[:REFERENCE_SEEDS]]), REFERENCE_SEEDS)
    same = np.array_equal(lanes[:REFERENCE_SEEDS], single)
    runtime = "-"
    if name == "python":
        decks, runtime_rate = cpython_rate(seeds)
        same = same and np.array_equal(decks, lanes)
        runtime = f"{runtime_rate:,.0f} ({lanes_rate / runtime_rate:.2f}x)"
    return [name, reducer.name, f"{lanes_rate:,.0f}", f"{single_rate:,.0f}", f"{lanes_rate / single_rate:.1f}x",
            runtime, "yes" if same else "NO"]


def main() -> None:
    rows = [row(name) for name in GENERATORS]
    body = (f"Fisher-Yates on 52 cards, {SEEDS:,} seeds on the sources path, the first {REFERENCE_SEEDS:,} one at "
            "a time; wall time on a shared machine.\n\n"
            + markdown_table(["generator", "reducer", "seeds/s sources path", "seeds/s one at a time", "speed-up",
                              "seeds/s CPython itself (sources / CPython)", "same decks"], rows))
    print(body)
    write_fragment("seed_lanes", "Deals of generators seeded one by one (reach, crack)", body)


if __name__ == "__main__":
    main()
