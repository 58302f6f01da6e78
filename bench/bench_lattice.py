"""Lattice state recovery (issue 15): success rate over random hidden states and time per recovery.

Goals: Java ``Collections.shuffle`` of 52 from the bottom 10 cards in under 50 ms with at
least 95% success (12 cards: 100%); a 64-bit LCG (MMIX) with ``(x >> 33) % (i + 1)`` from
14 bottom cards in under 100 ms; Java ``nextInt(6)`` within 25 rolls; known top k bits:
Java k = 32, 16, 8, 4 from 2, 4, 7, 13 outputs, a 64-bit LCG k = 32, 16, 8 from 3, 5, 9.
Success: the hidden state is among the states returned (every one reproduces the observations;
"not unique": others do too, as the information bound allows). Time: the library call
(:func:`rnglab.recovery.dealt.recover_from_deal` or :func:`rnglab.recovery.lattice.solve`), not start-up.

Usage: ``python bench/run.py lattice`` (``--quick``: 20 states per case instead of 100).
"""

from __future__ import annotations

import random
import statistics
import time

from common import markdown_table, write_fragment

from rnglab.draws.bounded import draw_bounded_reference
from rnglab.generators import as_generator
from rnglab.recovery.clues import Clue
from rnglab.recovery.crack import observe
from rnglab.recovery.dealt import recover_from_deal
from rnglab.recovery.lattice import InsufficientObservations, solve, source_at
from rnglab.reduction.reducers import as_reducer
from rnglab.shuffles.algorithms import make_shuffle, shuffle

JAVA = as_generator("java")
MMIX = as_generator("mmix")
MMIX_TOP = as_generator("lcg:a=6364136223846793005,c=1442695040888963407,m=2^64,output=bits(33,31)")


def deal_case(spec, reducer, cards):
    """A random seeded state, its Fisher-Yates deal, the bottom ``cards`` seen: (call, truth)."""
    def make(rng):
        state = rng.randrange(spec.m)
        deck = shuffle(52, source_at(spec, state), make_shuffle("fisher-yates"), reducer)
        positions = list(range(51, 51 - cards, -1))
        seen = observe(" ".join(str(int(deck[p])) for p in positions), ",".join(map(str, positions)))
        return (lambda: recover_from_deal(spec, reducer, make_shuffle("fisher-yates"), seen).states), state
    return make


def draws_case(spec, reducer, bounds):
    def make(rng):
        state = rng.randrange(spec.m)
        source = source_at(spec, state)
        clues = [Clue.value(int(draw_bounded_reference(source, n, 1, reducer).values[0]), n) for n in bounds]
        return (lambda: solve(spec, reducer, clues).states), (spec.a * state + spec.c) % spec.m
    return make


def top_bits_case(spec, known, count):
    width = spec.output.width if spec.output.kind == "bits" else (spec.m - 1).bit_length()

    def make(rng):
        state = rng.randrange(spec.m)
        source = source_at(spec, state)
        clues = [Clue.top_bits(source.next_raw() >> (width - known), known, width) for _ in range(count)]
        return (lambda: solve(spec, spec.native_reducer, clues).states), (spec.a * state + spec.c) % spec.m
    return make


CASES = [
    ("Java Collections.shuffle(52), bottom 10 cards", "95%, < 50 ms", deal_case(JAVA, JAVA.native_reducer, 10)),
    ("Java Collections.shuffle(52), bottom 12 cards", "100%", deal_case(JAVA, JAVA.native_reducer, 12)),
    ("MMIX, (x >> 33) % (i + 1), bottom 14 cards", "95%, < 100 ms", deal_case(MMIX_TOP, as_reducer("modulo"), 14)),
    ("Java nextInt(6), 25 rolls", "95%", draws_case(JAVA, JAVA.native_reducer, [6] * 25)),
    ("Java nextInt(6), 20 rolls", "", draws_case(JAVA, JAVA.native_reducer, [6] * 20)),
    ("Java top 32 bits, 2 outputs", "95%", top_bits_case(JAVA, 32, 2)),
    ("Java top 16 bits, 4 outputs", "95%", top_bits_case(JAVA, 16, 4)),
    ("Java top 8 bits, 7 outputs", "95%", top_bits_case(JAVA, 8, 7)),
    ("Java top 4 bits, 13 outputs", "95%", top_bits_case(JAVA, 4, 13)),
    ("MMIX top 32 bits, 3 outputs", "95%", top_bits_case(MMIX, 32, 3)),
    ("MMIX top 16 bits, 5 outputs", "95%", top_bits_case(MMIX, 16, 5)),
    ("MMIX top 8 bits, 9 outputs", "95%", top_bits_case(MMIX, 8, 9)),
]
#: States tried for the slow limit cases.
LIMIT_TRIALS = 5


def measure(make, trials: int, seed: int) -> tuple[float, float, float, str]:
    """(success rate, median ms, worst ms, failures described) over ``trials`` random hidden states."""
    rng, found, times, failures = random.Random(seed), 0, [], {}
    for _ in range(trials):
        call, truth = make(rng)
        start = time.perf_counter()
        try:
            states = call()
        except InsufficientObservations:
            states = None
        times.append(time.perf_counter() - start)
        if states is not None and truth in states:
            found += 1
        kind = "refused" if states is None else "not found" if truth not in states else \
            "not unique" if len(states) > 1 else None
        if kind:
            failures[kind] = failures.get(kind, 0) + 1
    described = ", ".join(f"{count} {kind}" for kind, count in failures.items())
    return found / trials, 1000 * statistics.median(times), 1000 * max(times), described


def main(flags=()) -> None:
    trials = 20 if "--quick" in flags else 100
    top_bits_case(JAVA, 32, 2)(random.Random(0))[0]()  # compile the kernels once, outside the timings
    rows = []
    for index, (name, goal, make) in enumerate(CASES):
        rate, median, worst, failures = measure(make, LIMIT_TRIALS if goal == "(limit)" else trials, index)
        rows.append([name, goal, f"{100 * rate:.0f}%", f"{median:.1f}", f"{worst:.1f}", failures or "-"])
        print(rows[-1], flush=True)
    body = (f"{trials} random hidden states per case ({LIMIT_TRIALS} for the limit cases; seeded); success: the "
            "hidden state is among those returned; \"not unique\": other states reproduce the observations too.\n"
            "Times are the library call (lattice construction, exact LLL, enumeration, replay), not start-up.\n\n"
            + markdown_table(["case", "goal", "success", "median ms", "worst ms", "failures"], rows))
    print(write_fragment("lattice", "Lattice state recovery", body))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
