"""Report section: seed recovery in the 1999 online-poker case, on a fresh random deal."""

from __future__ import annotations

import numpy as np

from rnglab.generators import as_generator
from rnglab.pages.numbers import Exact
from rnglab.recovery.crack import crack, observe
from rnglab.report.document import Section, Table
from rnglab.seeds.policies import DAY, HOUR, MINUTE, SECOND
from rnglab.seeds.space import parse_seed_space
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.cards import standard_deck

#: Cards the observer sees: five for the search, the sixth to settle any tie.
SEEN = 5
#: Half-width of the window searched in a quick report (milliseconds).
QUICK_HALF_WINDOW = 10 * MINUTE


def clock(ms: int) -> str:
    """Milliseconds since midnight as ``HH:MM:SS.mmm``."""
    return f"{ms // HOUR:02d}:{ms // MINUTE % 60:02d}:{ms // SECOND % 60:02d}.{ms % SECOND:03d}"


def search_space(seed: int, quick: bool):
    """The whole day, or (quick) a window of 20 minutes around the deal's true time."""
    if not quick:
        return parse_seed_space("ms-midnight")
    return parse_seed_space("ms-midnight", f"2026-11-22T{clock(seed)}±{QUICK_HALF_WINDOW // SECOND}s")


def section(context) -> Section:
    """Deal with Delphi's Random seeded by Randomize; recover the seed from five cards; predict the deck."""
    deck = standard_deck()
    seed = int(np.random.default_rng(context.seed).integers(0, DAY))
    delphi, poker = as_generator("delphi"), make_shuffle("poker1999")
    real = shuffle(52, delphi.make(seed), poker, delphi.native_reducer)
    space = search_space(seed, context.quick)
    crack(delphi, parse_seed_space("fixed"), observe("Ac"), algo=poker)  # load the kernel first
    result = crack(delphi, space, observe(" ".join(deck.names(real[:SEEN]))), algo=poker)
    sixth = [c for c in result.candidates if c.deck[SEEN] == deck.label(int(real[SEEN]))]
    rows = [[Exact(c.seed), clock(c.seed), " ".join(c.deck[:SEEN + 1]), "yes" if c.deck == deck.names(real) else "no"]
            for c in result.candidates]
    text = (f"A server shuffles with Delphi's `Random` (RandSeed := RandSeed * 134775813 + 1 mod 2^32), seeded "
            f"by `Randomize` with the milliseconds since midnight, and the 1999 exchange shuffle "
            f"(`card[ctr] <-> card[Random(51) + 1]`; Arkin et al., *How we learned to cheat at online poker*, "
            f"1999). The deal of this report was seeded at {clock(seed)} (seed {seed}, drawn from the report "
            f"seed). An observer sees the first {SEEN} cards, **{' '.join(deck.names(real[:SEEN]))}**, and tries "
            f"every seed of {space.label} ({result.searched:,} seeds) in {result.seconds:.1f} s "
            f"({result.rate / 1e6:.1f} million seeds per second, {result.method} search).\n\n"
            f"Before the search, {result.expected_false_matches:.3g} chance matches are expected "
            f"(seeds / (52 x 51 x ... x {52 - SEEN + 1})); {result.cards_for_unique} cards bring that below one. "
            f"Found: {result.candidate_count} seed(s); the sixth card, {deck.label(int(real[SEEN]))}, leaves "
            f"{len(sixth)}. Each candidate's deck is the library's shuffle of that seed; "
            f"the last column checks it against the real deck.")
    blocks = [text]
    if context.quick:
        blocks.append("This quick report searches 20 minutes around the true time; the whole day (86,400,000 seeds) "
                      "is timed by `bench/bench_crack.py` (see `bench/RESULTS.md`).")
    blocks.append(Table(["seed", "time of day", f"first {SEEN + 1} cards predicted", "whole deck = real deck"], rows))
    found = sum(row[-1] == "yes" for row in rows)
    summary = (f"{SEEN} cards of a 1999 poker deal give its seed in {result.seconds:.1f} s "
               f"({found} candidate{'s' if found != 1 else ''} predicting the whole deck)")
    return Section("Seed recovery: the 1999 online-poker shuffle", blocks, summary)
