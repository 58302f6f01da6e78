"""The exact probability of one deal of the naive exchange: how far the backward count goes (issue 32).

For the identity (by the backward count, not its closed form), a two-cycle deal (cards 0 and 1
exchanged; by the backward count, not its closed form) and a random deal (``random.Random(n)``), the
CPU seconds of ``rnglab.shuffles.deal_probability.backward_count`` and the most merged states at one
level, beside the law over all ``n!`` deals (``permutation_law``, the reference, ``n <= 10``) in the
same run. Goals of issue 32: any deal at n = 18 under 10 s; the identity and a two-cycle at n = 24
under a minute; the identity's closed form at any n up to 1000 under 1 s. Then the identity against
the two half rotations (the most likely deals for n = 4 .. 12, every deal counted by
``bench/naive_law_extremes.py``, whose committed output ``results/naive_law_extremes.jsonl`` is read
here), and the naive exchange's position matrix after 1, 2, 3 passes at n = 52 and 54. ``--full``
adds n = 20 and 24 to the first table, 19 to 24 to the rivals.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from common import markdown_table, write_fragment

from rnglab.shuffles.algorithms import NAIVE, make_shuffle
from rnglab.shuffles.deal_probability import backward_count, deal_probability, identity_against_rotations
from rnglab.shuffles.fairness import permutation_law
from rnglab.shuffles.passes import repeated_passes

SIZES, FULL_SIZES = (8, 10, 12, 14, 16, 18), (20, 24)
#: Largest n of the identity against the half rotations (issue 32: n = 10 to 24).
RIVALS_LIMIT = 24
#: Largest n for the reference (the law over all n! deals).
LAW_LIMIT = 10
#: OEIS A192053, n = 1..10 (https://oeis.org/A192053).
A192053 = [1, 2, 5, 15, 47, 159, 543, 1931, 6879, 25118]
EXTREMES = Path(__file__).resolve().parent / "results" / "naive_law_extremes.jsonl"


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
    for deal in deals(n).values():
        (_, largest), seconds = cpu(lambda deal=deal: backward_count(program, n, deal))
        cells.append(f"{seconds:.2f} s, {largest:,} states")
    reference = f"{cpu(lambda: permutation_law(make_shuffle('naive'), n))[1]:.2f} s" if n <= LAW_LIMIT else "out of reach"
    return cells + [reference]


def exhaustive_rows() -> list:
    rows = []
    for line in EXTREMES.read_text().splitlines():
        found = json.loads(line)
        n = found["n"]
        published = A192053[n - 1] if n <= len(A192053) else "not published"
        rows.append([n, published, found["largest"], len(found["most_likely"]), found["least"],
                     found["least_likely_deals"], f"{found['cpu_seconds']} s"])
    return rows


def rivals_rows(sizes) -> list:
    rows = []
    for n in sizes:
        result, seconds = cpu(lambda n=n: identity_against_rotations(n))
        rows.append([n, result.identity, result.rotations, f"{float(result.ratio):.4f}",
                     f"{seconds:.2f} s, {result.states:,} states"])
    return rows


def passes_rows() -> list:
    rows = []
    for n in (52, 54):
        for passes in (1, 2, 3):
            result, seconds = cpu(lambda n=n, passes=passes: repeated_passes(NAIVE, n, passes))
            rows.append([n, passes, *[f"card {e.card} at {e.position}: {float(e.relative_to_uniform) * 100:+.4g} %"
                                      for e in (result.largest, result.smallest)], f"{seconds:.2f} s"])
    return rows


def main(flags: list[str] = ()) -> None:
    sizes = SIZES + (FULL_SIZES if "--full" in flags else ())
    row(4)  # compile (or load) the kernels first: no row's time includes it
    rows = [row(n) for n in sizes]
    closed = [[str(n), f"{cpu(lambda n=n: deal_probability(NAIVE, range(n)))[1] * 1000:.1f} ms"] for n in (52, 1000)]
    body = ("Exact count of the naive-exchange runs giving one deal, by undoing the steps with states merged "
            "by symmetry and the states with two non-pivot positions in one cycle dropped (`backward_count`), "
            "CPU seconds and the most states of one level; reference: the law over all n! deals "
            "(`permutation_law`) in the same run. Goals (issue 32): any deal at n = 18 under 10 s, identity and "
            "two-cycle at n = 24 under a minute.\n\n"
            + markdown_table(["n", "identity", "two-cycle", "random deal", "law over all deals"], rows)
            + "\n\nThe identity by its closed form (involutions, OEIS A000085), CPU time:\n\n"
            + markdown_table(["n", "closed form"], closed)
            + "\n\nThe most and the least likely deals, every deal counted (the law over all n! deals, "
              "`bench/naive_law_extremes.py`; CPU seconds of its run):\n\n"
            + markdown_table(["n", "A192053", "largest count", "deals", "least count", "deals", "CPU"],
                             exhaustive_rows())
            + "\n\nThe identity against the two half rotations (blocks of floor(n/2) and ceil(n/2) cards, each "
              "cycled by one): a comparison with one candidate family beyond n = 12, not a search:\n\n"
            + markdown_table(["n", "identity I(n)", "half rotations", "identity / rotations", "backward count"],
                             rivals_rows(range(10, min(sizes[-1], RIVALS_LIMIT) + 1)))
            + "\n\nThe naive exchange's position matrix after K passes (the K-th power of the exact one-pass "
              "matrix), its most and least likely card and position against 1/n:\n\n"
            + markdown_table(["n", "passes", "most likely", "least likely", "CPU"], passes_rows()))
    print(write_fragment("deal_probability", "Shuffles: the exact probability of one deal", body))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
