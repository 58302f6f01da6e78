"""The exact probability of one deal of the naive exchange: how far the backward count goes (issue 32).

For the identity (by the backward count, not its closed form), a two-cycle deal (cards 0 and 1
exchanged) and a random deal (``random.Random(n)``), the CPU seconds of
``rnglab.shuffles.deal_probability.backward_count`` and the most merged states at one level, beside
the law over all ``n!`` deals (``permutation_law``, the reference, ``n <= 10``) in the same run.
Goals of issue 32: any deal at n = 18 under 10 s; the identity and a two-cycle at n = 24 under a
minute. The identity's closed form (the involutions, any n) is timed at n = 52 and 1000. ``--full``
adds n = 16 and 18 (minutes; the random deal up to :data:`RANDOM_LIMIT`).
"""

from __future__ import annotations

import random
import time

from common import markdown_table, write_fragment

from rnglab.shuffles.algorithms import make_shuffle
from rnglab.shuffles.deal_probability import backward_count, deal_probability
from rnglab.shuffles.fairness import permutation_law

SIZES, FULL_SIZES = (8, 10, 12, 14), (16, 18)
#: Largest n for the random deal (its states grow about tenfold every two cards: 236,176 at n = 16).
RANDOM_LIMIT = 16
#: Largest n for the reference (the law over all n! deals).
LAW_LIMIT = 10


def cpu(function):
    """``(result, CPU seconds)`` of ``function()``."""
    started = time.process_time()
    result = function()
    return result, time.process_time() - started


def deals(n: int) -> dict:
    shuffled = list(range(n))
    random.Random(n).shuffle(shuffled)
    return {"identity": list(range(n)), "two-cycle": [1, 0] + list(range(2, n)), "random": shuffled}


def row(n: int) -> list:
    program = make_shuffle("naive").program(n)
    cells = [str(n)]
    for label, deal in deals(n).items():
        if label == "random" and n > RANDOM_LIMIT:
            cells.append("not run")
            continue
        (_, largest), seconds = cpu(lambda deal=deal: backward_count(program, n, deal))
        cells.append(f"{seconds:.2f} s, {largest:,} states")
    reference = f"{cpu(lambda: permutation_law(make_shuffle('naive'), n))[1]:.2f} s" if n <= LAW_LIMIT else "out of reach"
    return cells + [reference]


def main(flags: list[str] = ()) -> None:
    sizes = SIZES + (FULL_SIZES if "--full" in flags else ())
    rows = [row(n) for n in sizes]
    closed = [[str(n), f"{cpu(lambda n=n: deal_probability('naive', range(n)))[1] * 1000:.1f} ms"] for n in (52, 1000)]
    body = ("Exact count of the naive-exchange runs giving one deal, by undoing the steps with states merged "
            "by symmetry (`backward_count`), CPU seconds and the most states of one level; reference: the law "
            "over all n! deals (`permutation_law`) in the same run. Goals (issue 32): any deal at n = 18 "
            "under 10 s, identity and two-cycle at n = 24 under a minute.\n\n"
            + markdown_table(["n", "identity", "two-cycle", "random deal", "law over all deals"], rows)
            + "\n\nThe identity by its closed form (involutions, OEIS A000085), CPU time:\n\n"
            + markdown_table(["n", "closed form"], closed))
    print(write_fragment("deal_probability", "Shuffles: the exact probability of one deal", body))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
