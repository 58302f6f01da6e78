"""A user's shuffle function: what the exact enumeration and the empirical rng cost over plain calls.

(1) Exact: the naive exchange written in Python (``tests/userfunc/articles.py``),
n = 6, every one of its 6^6 = 46,656 paths enumerated
(``rnglab.shuffles.paths.enumerate_deals``: a replay per path), side by side with
the same number of plain calls of the function with CPython's ``random.Random``.
Ratio = enumeration / plain calls: the price of the instrumented rng and the replays.

(2) Empirical: 2,000 calls on 52 cards with an rng drawing from MSVC ``rand()``
through modulo (``rnglab.shuffles.userfunc.function_position_counts``), against
2,000 plain calls with ``random.Random``. Each timing is the best of REPEAT runs
taken alternately.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from common import best_time, markdown_table, write_fragment

from rnglab.generators import make_source
from rnglab.shuffles.paths import enumerate_deals
from rnglab.shuffles.userfunc import function_position_counts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from userfunc.articles import naive_exchange

from rnglab.reduction.reducers import REDUCERS

REPEAT, EXACT_N, CALLS, CARDS = 3, 6, 2000, 52


def plain_calls(count: int, n: int):
    rng = random.Random(1)
    return lambda: [naive_exchange(list(range(n)), rng) for _ in range(count)]


def main() -> None:
    paths = EXACT_N**EXACT_N
    runs = {"exact": lambda: enumerate_deals(naive_exchange, EXACT_N), "exact plain": plain_calls(paths, EXACT_N),
            "empirical": lambda: function_position_counts(naive_exchange, CARDS, make_source("msvc", seed=1),
                                                          REDUCERS["modulo"], CALLS),
            "empirical plain": plain_calls(CALLS, CARDS)}
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(REPEAT):
        best = {key: min(best[key], best_time(run, 1)) for key, run in runs.items()}
    rows = [[f"exact, naive exchange n = {EXACT_N}, {paths:,} paths enumerated", f"{best['exact']:.3f}",
             f"{best['exact plain']:.3f}", f"{best['exact'] / best['exact plain']:.1f}"],
            [f"empirical, {CALLS:,} calls on {CARDS} cards, msvc + modulo", f"{best['empirical']:.3f}",
             f"{best['empirical plain']:.3f}", f"{best['empirical'] / best['empirical plain']:.1f}"]]
    body = ("A user's shuffle function (`rnglab fairness --function`): the exact enumeration and the empirical "
            "rng against the same number of plain calls of the function with CPython's `random.Random`, in the "
            f"same run, best of {REPEAT}. Ratio = rnglab time / plain time (the cost of the instrumented rng).\n\n"
            + markdown_table(["what", "rnglab s", "random.Random s", "ratio"], rows) + "\n")
    print(write_fragment("userfunc", "A user's shuffle function: enumeration and empirical rng", body).read_text())


if __name__ == "__main__":
    main()
