"""C++ std::shuffle with std::mt19937 (issue 29): how many consecutive 52-card decks recover the state.

For random hidden seeds (seeded), one ``std::mt19937 engine(seed)`` deals decks of 52 in turn with libstdc++'s
``std::shuffle`` (``cpp-shuffle-mt19937``, bit-exact with g++ 12); the fewest whole decks from which
:func:`rnglab.recovery.linear_decks.recover_mt19937_decks` returns the true state (and its seed) is found by
bisection (the rank only grows with more decks), with the time of that recovery (library call, after the
symbolic model is built once per process) and the rank after 50 and 100 decks. Beside it, what CPython's
``random.shuffle`` hides (:func:`~rnglab.recovery.linear_decks.randbelow_alignment`), the reason it is not read.

Usage: ``python bench/run.py cpp_decks`` (``--quick``: 3 seeds instead of 10).
"""

from __future__ import annotations

import math
import random
import statistics
import time

from common import markdown_table, write_fragment

from rnglab.recovery import linear, linear_decks
from rnglab.shuffles.pipelines import as_pipeline

PIPELINE = as_pipeline("cpp-shuffle-mt19937")
MOST = 170


def recovered(decks, seed):
    try:
        found = linear_decks.recover_mt19937_decks(decks, PIPELINE.shuffle, PIPELINE.reducer)
    except linear.UnderdeterminedState as error:
        return False, error.rank
    return found.seeds == [seed] and found.states == [linear_decks.seeded_state(seed)], found.rank


def fewest_decks(seed):
    decks = linear_decks.deal_in_turn(linear_decks.seeded_state(seed), MOST, 52, PIPELINE.shuffle, PIPELINE.reducer)
    low, high = 100, MOST  # 100 never suffice (19968 unknowns, at most 213 equations a deck)
    ranks = {count: recovered(decks[:count], seed)[1] for count in (50, 100)}
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if recovered(decks[:middle], seed)[0] else (middle, high)
    start = time.perf_counter()
    ok, _ = recovered(decks[:high], seed)
    return high if ok else None, time.perf_counter() - start, ranks


def main(flags=()) -> None:
    seeds = random.Random(29).sample(range(2**32), 3 if "--quick" in flags else 10)
    start = time.perf_counter()
    linear.python_random_model().forms(MOST * 26)
    model_seconds = time.perf_counter() - start
    rows, needed = [], []
    for seed in seeds:
        count, seconds, ranks = fewest_decks(seed)
        needed.append(count)
        rows.append([seed, count or f"> {MOST}", f"{seconds:.1f}", ranks[50], ranks[100]])
        print(rows[-1], flush=True)
    expected, bits = linear_decks.randbelow_alignment(52)
    found = [n for n in needed if n]
    body = (f"{len(seeds)} random hidden seeds; each deals {MOST} decks of 52 in turn; \"decks\": the fewest whole "
            "consecutive decks from which the one state returned is the true one and its seed comes back "
            "(bisection; every state returned deals every deck again through the real pipeline). \"s\": that "
            f"recovery (equations, elimination, replay), after the model (the forms of {MOST * 26} MT19937 "
            f"outputs over 19968 unknowns) is built once: {model_seconds:.1f} s.\n\n"
            + markdown_table(["seed", "decks", "s", "rank after 50 decks", "rank after 100 decks"], rows)
            + f"\n\nDecks needed: median {statistics.median(found) if found else '-'}, most "
            f"{max(found) if found else '-'} (the information floor: 19937 / log2 52! = "
            f"{19937 / math.log2(math.factorial(52)):.1f} decks; each deck gives at most "
            f"{linear_decks.equations_per_deck(52)} equations, the shared top bits of its 26 draws).\n\n"
            f"CPython's random.shuffle of 52 cards, not read: _randbelow rejects {expected:.1f} words a deck on "
            f"average at hidden places, {bits:.1f} bits of alignment (against log2 52! = "
            f"{math.log2(math.factorial(52)):.1f} bits shown), so the words cannot be matched with the cards.\n")
    print(write_fragment("cpp_decks", "std::mt19937 from consecutive std::shuffle decks", body))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
