"""Report section: the exact probability of one deal of the naive exchange, its most likely deal, repeated passes."""

from __future__ import annotations

from rnglab.plot.shuffle import identity_against_rotations_plot
from rnglab.report.document import Heading, Section, Table
from rnglab.shuffles.algorithms import make_shuffle
from rnglab.shuffles.deal_probability import identity_against_rotations
from rnglab.shuffles.passes import repeated_passes

#: Deck sizes of the identity against the half rotations, issue 32's range (quick run: fewer; n = 24 takes about
#: 7 CPU seconds, the whole range about 20).
SIZES, SIZES_QUICK = range(10, 25), range(10, 15)


def _rivals_table(rows) -> Table:
    return Table(["n", "runs giving the identity, I(n)", "runs giving the two half rotations", "identity / rotations",
                  "states (backward count)"],
                 [[row.n, row.identity, row.rotations, f"{float(row.ratio):.4f}", row.states] for row in rows])


def _passes_table(n: int, passes) -> Table:
    rows = []
    for k in passes:
        result = repeated_passes(make_shuffle("naive"), n, k)
        rows.append([k, *[f"card {e.card} at {e.position}: {float(e.relative_to_uniform) * 100:+.3g} %"
                          for e in (result.largest, result.smallest)]])
    return Table(["passes", "most likely (card at position, against 1/n)", "least likely"], rows)


def section(context) -> Section:
    """The identity against the half rotations, and the naive exchange's position matrix after 1 to 3 passes."""
    rows = [identity_against_rotations(n) for n in (SIZES_QUICK if context.quick else SIZES)]
    n_passes = 12 if context.quick else 54
    lead = next((row.n for row in rows if row.ratio > 1), None)
    blocks = [
        ("The naive exchange (step i swaps card i with a uniform card J_i: n^n equally likely runs) counted exactly, "
         "one deal at a time (`rnglab fairness --algo naive --n N --deal \"...\"`): the runs that give the identity "
         "are the involutions J, I(n) of them, and the runs that exchange positions a and b number "
         "2 I(n-2) + (3n - 5 - |b - a|) I(n-3) (both proved in the API reference). Every deal counted for n <= 12 "
         "(the law over all n! deals) shows the most likely deal for n = 4 .. 12 to be two consecutive blocks of "
         "n/2 cards, each cycled by one; beyond, the table compares the identity with that family by the exact "
         "backward count. Goldstein and Moews proved the identity the most likely deal for every n >= 18."),
        _rivals_table(rows),
        context.add_figure("deals-identity-rotations", identity_against_rotations_plot(
            rows, "naive exchange: identity against the two half rotations, exact"),
            "n! times the exact probability of the identity and of the two half rotations under the naive exchange"),
        Heading(f"Repeated passes, n = {n_passes}"),
        (f"P(card i at position j) after K independent passes of the naive exchange on {n_passes} cards is the "
         "K-th power of the one-pass matrix, exactly (`rnglab fairness --algo naive --n N --passes K`); the most "
         "and the least likely cell against 1/n:"),
        _passes_table(n_passes, (1, 2, 3)),
    ]
    summary = (f"naive exchange: the identity overtakes the two half rotations at n = {lead}" if lead is not None else
               f"naive exchange: the two half rotations stay more likely than the identity to n = {rows[-1].n}")
    return Section("Shuffles: the probability of one deal", blocks, summary)
