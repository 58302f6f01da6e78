"""Work rates measured on the development machine, and the limit of an exact computation, in one place.

rnglab budgets work by its size, never by the clock (the same inputs give the same output on any machine): a
computation whose estimated size exceeds a limit is refused up front, with what fits. These rates turn a size into
the seconds said in those refusals. Each was measured on a loaded machine with 2 shared cores (CPU time unless
said otherwise); the measurement is written beside it. Re-measure them together when the kernels change.
"""

#: Seconds of exact work (estimated before it starts) beyond which an exact computation is refused: the exact
#: deal enumeration (:mod:`rnglab.shuffles.paths`), the transposition law and the exact position matrix
#: (:mod:`rnglab.shuffles.fairness`).
EXACT_SECONDS = 60

#: Seconds per path, and per value drawn, of the exact enumeration of a shuffle function
#: (:func:`rnglab.shuffles.paths.path_seconds`: the call, its instrumented draws, the tally). Fitted to the CPU time
#: of Python functions on a loaded 2-core machine: 65,536 paths of 1 draw 0.61 s, 4,096 paths of 41 draws 0.28 s,
#: the naive exchange at n = 6 (46,656 paths of 6 draws) 0.84 s, Fisher-Yates by ``randint`` at n = 8 (40,320 of 7)
#: 0.95 s; estimated 0.64 s, 0.34 s, 0.88 s, 0.83 s. The limit, :data:`EXACT_SECONDS`, fits the naive exchange at
#: n = 7 and Fisher-Yates at n = 9, not at n = 8 and 10.
PATH_SECONDS = (8e-6, 1.8e-6)

#: Seconds per cell update of the position DP on packed columns: a constant and a term per 64-bit word of the
#: final denominator (fitted to the CPU time of naive at n = 200, 300, 400: 0.51 s, 2.65 s, 7.8 s; estimated
#: 0.52 s, 2.6 s, 7.8 s; the wall time on a shared machine is longer). The naive exchange has a path of its own:
#: :data:`EVEN_SWAP_SECONDS`.
MATRIX_CELL_SECONDS = (1.1e-8, 2.2e-9)

#: Seconds per cell and 64-bit word of the final denominator, and per cell and squared word, of the position matrix
#: of a program of swaps with every position on equal weights (the naive exchange: one shared column update a step,
#: then ``n`` products of a column by a factor of up to the denominator's size). Fitted to the CPU time of naive at
#: n = 200, 400, 700 on a loaded 2-core machine: 0.16 s, 1.56 s, 11.2 s (estimated 0.15 s, 1.56 s, 11.3 s).
EVEN_SWAP_SECONDS = (1.38e-7, 7.9e-10)

#: Seconds per 64-bit word of a cell update when a draw's values have unequal weights (a biased reducer: no
#: equal-weight row sums), with the constant of :data:`MATRIX_CELL_SECONDS` (naive through modulo, CPU time on a
#: loaded 2-core machine: n = 150, 200, 250 on 2^64 values 3.9 s, 13.4 s, 33.5 s, estimated 4.1 s, 12.9 s, 31.4 s;
#: on 2^15 values 0.61 s and 5.0 s for n = 150, 250, estimated 1.0 s and 7.5 s).
UNEQUAL_WORD_SECONDS = 8e-9

#: Seconds per update of the transposition law's dynamic program over cycle types, and per 64-bit word of its
#: integers (n = 30: about 0.25 s per swap, so about 240 swaps in a minute).
TRANSPOSITION_UPDATE_SECONDS = (1.5e-6, 1e-9)

#: Seconds per card of a deck shuffled by a batched swap program (about 1.5 million decks of 52 per second) and by
#: the deck-at-a-time path (about 240 decks of 52 per second).
SECONDS_PER_CARD = {"batched": 1.3e-8, "deck at a time": 8e-5}

#: CPU seconds per n^2 of one unrank deal: its Lehmer digits (n divisions of an n log n-bit rank) and its removals
#: from the list in order are both O(n^2); measured 6.7 s at n = 32,000 and 19.8 s at 64,000 (after dividing by
#: each radix instead of by a factorial per digit: n = 30,000 took 115 s before).
UNRANK_SECONDS_PER_SQUARE = 6e-9

#: CPU seconds one core takes to try one seed of a card game: the cost per seed of the audit's brute-force time
#: (:func:`rnglab.audit.attack.brute_force_bits`). The fastest seed search per core in bench/results/seed_search.md
#: (2,097,152 seeds a run, 5 cards of 52 seen, CPU time, one thread), rounded: the SIMD C reference on the 1999
#: poker case, 39.9 M seeds per CPU second in the run of 2026-11-28 this was set from (rnglab's kernel then: 30.8 M
#: on MSVC's Fisher-Yates, 12.0 M on the poker case); the later run in that file, at load ~10, read 43.4 M for it
#: (2.3e-8 s, 0.12 bits below this) and 34.9 M / 22.3 M for rnglab's kernel. One cost
#: for every pipeline, the attacker's: the search rejects nearly every seed at the first card it follows, and a
#: pipeline rnglab searches more slowly (a comparator sort dealt in Python, a user's function) is no slower for an
#: attacker who writes it in C. A GPU, or a better filter, is faster still.
SEED_TRY_SECONDS = 2.5e-8

#: CPU seconds per seed, at most, for generators seeded one by one (a generator per seed): measured at n = 52 on
#: 2^14 seeds: python 30 us, pcg64 33 us, mt19937 0.58 ms (its seeding); batched LCGs 0.8 us.
SOURCE_SEED_SECONDS = 6e-4

#: Values per second of the slowest bounded draw (msvc with ``modulo``), for the chi-square on drawn values.
SLOWEST_DRAW_RATE = 25e6

#: Values per second a battery reads (the standard battery: 8.3e8 values in about 41 s).
BATTERY_VALUES_PER_SECOND = 20_000_000


def check_work(seconds: float, limit: float, what: str, fit: str, error: type[ValueError] = ValueError) -> None:
    """Refuse work whose time, estimated from its size (``seconds``, at these rates), exceeds ``limit``.

    The refusal is one line, ``error("WHAT would take about S s (limit L s): FIT")``, with ``fit`` saying what
    would fit; the same request is accepted or refused alike on any machine, under any load.
    """
    if seconds > limit:
        raise error(f"{what} would take about {seconds:.3g} s (limit {limit} s): {fit}")
