"""Report section: seed recovery beyond brute force, a Java deal's whole 48-bit state from its bottom cards."""

from __future__ import annotations

import time

import numpy as np

from rnglab.generators import as_generator
from rnglab.pages.numbers import Exact
from rnglab.recovery.crack import observe
from rnglab.recovery.dealt import recover_from_deal
from rnglab.report.document import Section, Table
from rnglab.shuffles.algorithms import make_shuffle, shuffle

#: Bottom cards the observer sees (the first dealt by ``deck.remove(size - 1)``).
SEEN = 12


def section(context) -> Section:
    """Shuffle with java.util.Random seeded from a 48-bit clock; recover the state from 12 cards by lattice reduction."""
    java, fisher_yates = as_generator("java"), make_shuffle("fisher-yates")
    seed = int(np.random.default_rng(context.seed).integers(0, 2**48))
    real = shuffle(52, java.make(seed), fisher_yates, java.native_reducer)
    positions = list(range(51, 51 - SEEN, -1))
    seen = observe(" ".join(str(int(real[p])) for p in positions), ",".join(map(str, positions)))
    start = time.perf_counter()
    result = recover_from_deal(java, java.native_reducer, fisher_yates, seen)
    seconds = time.perf_counter() - start
    names = seen.deck.names(real)
    rows = [[Exact(s), Exact(result.seeds[i]), " ".join(result.decks[i][:8]) + " ...", "yes" if result.decks[i] == names else "no"]
            for i, s in enumerate(result.states)]
    text = (f"A program seeds `java.util.Random` with a 48-bit value (`System.nanoTime()`; here {seed}, drawn "
            f"from the report seed) and deals with `Collections.shuffle` (Fisher-Yates from the end, "
            f"`nextInt(i)`). Brute force over 2^48 seeds takes months; an observer who sees the {SEEN} bottom cards, "
            f"**{' '.join(result.seen)}**, has {result.draws} exact draws ({result.information_bits:.1f} bits against "
            f"the state's 48), and lattice reduction (`rnglab crack java --seen ... --positions 51,50,...`) "
            f"recovers the state in {1000 * seconds:.0f} ms. Found: {len(result.states)} state(s); the last column "
            f"checks each predicted deck against the real one.")
    table = Table(["state", "seed (low 48 bits)", "predicted deck (position 0 first)", "whole deck = real deck"],
                  rows)
    summary = (f"the bottom {SEEN} cards of a Java deal give its 48-bit state by lattice reduction in "
               f"{1000 * seconds:.0f} ms")
    return Section("Seed recovery beyond brute force: a Java deal by lattice reduction", [text, table], summary)
