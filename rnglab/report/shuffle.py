"""Report section: how fair shuffles are, exactly, and how many deals seed spaces reach."""

from __future__ import annotations

import math

import numpy as np

from rnglab.generators import catalog
from rnglab.plot.shuffle import position_heatmap
from rnglab.reduction.reducers import REDUCERS
from rnglab.report.document import Heading, Section, Table
from rnglab.seeds.space import seed_range_space
from rnglab.shuffles.algorithms import SHUFFLES, make_shuffle
from rnglab.shuffles.fairness import exact_fairness, position_probabilities
from rnglab.shuffles.reach import bits_for_every_deal, reachable_deals, smallest_deck_exceeding

#: Seeds enumerated per generator in the reachable-deal table (quick run: fewer).
REACH_SEEDS, REACH_SEEDS_QUICK = 2**16, 2**10


#: The mark of a shuffle whose exact law is not uniform at some size of the table.
NOT_UNIFORM = "not uniform"


def _tv_table(sizes) -> tuple[Table, int]:
    """The exact total variation distance of every shuffle at each size, and how many are not uniform: one
    count, the rows marked :data:`NOT_UNIFORM` (a distance above 0 at some size computed)."""
    rows = []
    for name in SHUFFLES:
        distances = [exact_fairness(make_shuffle(name), n, matrix=False).tv_distance for n in sizes]
        cells = ["not computed" if tv is None else f"{float(tv):.4g}" for tv in distances]
        law = NOT_UNIFORM if any(distances) else "uniform" if None not in distances else "uniform where computed"
        rows.append([f"`{name}`", law, *cells])
    return Table(["algorithm", "exact law", *[f"TV, n = {n}" for n in sizes]], rows), \
        sum(row[1] == NOT_UNIFORM for row in rows)


def _heatmaps(context, n: int) -> list:
    cases = [("naive", {}, "naive exchange"), ("transpositions", {}, "52 random transpositions"),
             ("poker1999", {}, "the 1999 poker shuffle"),
             ("fisher-yates", {"reducer": REDUCERS["modulo"], "range_size": 32768},
              "Fisher-Yates, rand() % (i+1), RAND_MAX 32767")]
    blocks = []
    for algo, through, title in cases:
        matrix = position_probabilities(make_shuffle(algo), n, **through)
        deviation = float(np.abs(matrix - 1 / n).max())
        blocks.append(context.add_figure(
            f"shuffle-{algo}-{n}", position_heatmap(matrix, f"{title}, n = {n}"),
            f"{title}: n P(card i at position j), exact; largest |P(card i at j) - 1/n| = {deviation:.3g} "
            f"(1/n = {1 / n:.3g})"))
    return blocks


def _reach_table(seeds: int, n: int) -> Table:
    """Distinct deals from the first ``seeds`` seeds of every catalog LCG, and the most its seed space allows."""
    rows = []
    for entry in catalog().values():
        if entry.kind != "lcg":
            continue
        result = reachable_deals(entry, seed_range_space([(1, seeds + 1)]), n)
        convention = entry.seeding
        space = entry.m if convention.low is None else min(entry.m, convention.high - convention.low + 1)
        space_bits = math.log2(space)
        rows.append([f"`{entry.name}`", convention.name, entry.native_reducer.name, result.distinct, seeds,
                     space, f"2^{min(space_bits, math.log2(math.factorial(n))) - math.log2(math.factorial(n)):.2f}",
                     smallest_deck_exceeding(space)])
    return Table(["generator", "seeding", "reducer", f"distinct deals from seeds 1..{seeds}", "seeds", "seed space",
                  f"largest fraction of {n}! reachable", "smallest n with n! > seed space"], rows)


def section(context) -> Section:
    """Exact fairness of every algorithm, position heatmaps at n = 52, and reachable deals."""
    sizes = (5, 6) if context.quick else (6, 7, 8, 9)
    n_heat = 12 if context.quick else 52
    seeds = REACH_SEEDS_QUICK if context.quick else REACH_SEEDS
    tv, biased = _tv_table(sizes)
    reach = _reach_table(seeds, 52)
    blocks = [
        ("Total variation distance to the uniform law over all n! deals, exactly, under an ideal uniform source "
        "(`rnglab fairness --algo NAME --n N`). Fisher-Yates, its forward form, inside-out, draw-and-remove, "
        "draw-until-unused, unranking and the tie-redrawing sort are exactly uniform; Sattolo reaches only "
        "the (n-1)! n-cycles; sort-keys uses 32-bit keys (ties keep the original order)."),
        tv,
        Heading(f"Position matrices, n = {n_heat}"),
        ("Colour: n · P(card i ends at position j), exact (dynamic program over the position matrix, exact "
        "integers); 1 (white) is fair, and the scale never goes below 0 (a card that never lands there)."),
        *_heatmaps(context, n_heat),
        Heading("Reachable deals"),
        (f"Every seed 1..{seeds} of each catalog LCG, seeded with its usual "
        "convention, shuffled by Fisher-Yates with the library's own reducer (`rnglab reach GEN --seeds A..B`). "
        f"A deal of 52 cards needs {bits_for_every_deal(52)} bits of state (log2 52! = 225.58): a generator "
        "seeded from 2^k seeds reaches at most a fraction 2^k / 52! of the deals."),
        reach,
    ]
    widest = max(row[5] for row in reach.rows)
    summary = (f"{biased} of {len(SHUFFLES)} shuffles are not uniform even on an ideal source (exact, n = "
               f"{sizes[0]} to {sizes[-1]}); "
               "no catalog LCG "
               f"reaches more than 2^{math.log2(widest) - math.log2(math.factorial(52)):.2f} of the 52! deals")
    return Section("Shuffles: exact fairness and reachable deals", blocks, summary)
