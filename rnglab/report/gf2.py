"""Report section: the GF(2)-linear generators (MT19937, V8, xorshift, WELL), their algebra and their states recovered.

The counterpart of the spectral section for the second family: for every
catalog generator whose engine is linear over GF(2), the characteristic
polynomial (degree, number of terms), the exact period and the equidistribution
of the top bits (``k(v)`` against ``floor(k/v)``, the dimension defect), as
Matsumoto--Nishimura and Panneton--L'Ecuyer--Matsumoto tabulate them; then what
linearity costs a card game: a V8 deal's state from its bottom cards, CPython's
from 624 words, both by GF(2) elimination.
"""

from __future__ import annotations

import time

import numpy as np

from rnglab.algebra.gf2_generators import equidistribution, gf2_period, linear_model
from rnglab.generators import catalog
from rnglab.generators.xorshift import V8MathRandom
from rnglab.recovery import linear
from rnglab.report.document import Section, Table

#: Catalog entries that read an engine another entry already shows (CPython's MT19937 is ``mt19937``'s, Unity's
#: xorshift128 Marsaglia's ``xor128``, seeded otherwise).
SAME_ENGINE = {"python": "mt19937", "python_random53": "mt19937", "unity": "xorshift128"}
#: Largest state whose equidistribution the quick report computes (MT19937's takes seconds).
QUICK_STATE_BITS = 512
#: Bottom cards of the V8 deal the observer sees.
SEEN = 40


def algebra_rows(quick: bool) -> list:
    """One row per distinct GF(2)-linear engine of the catalog: k, terms, period, k(w), the defect."""
    rows = []
    for entry in catalog().values():
        if not entry.has_gf2_linear_engine or entry.name in SAME_ENGINE:
            continue
        model = linear_model(entry)
        period = gf2_period(model)
        if not model.output_linear:
            spread = ("scrambled output", "-")
        elif quick and model.state_size > QUICK_STATE_BITS:
            spread = ("not computed (quick)", "-")
        else:
            result = equidistribution(model, period)
            spread = (f"{result.dimensions[-1]} of {result.bounds[-1]}", result.defect)
        rows.append([f"`{entry.name}`", model.state_size, period.degree, period.weight,
                     "yes" if period.primitive else "no", period.period, model.width, *spread])
    return rows


def v8_recovery(seed: int) -> tuple[list, float, bool]:
    """A node deal (seed from the report's) read from its bottom cards: (row, seconds, whole deck predicted)."""
    real = linear.js_fisher_yates(V8MathRandom.seeded(seed), 52)
    start = time.perf_counter()
    found = linear.recover_v8_deal([real[p] for p in range(51, 51 - SEEN, -1)])
    seconds = time.perf_counter() - start
    decks = [linear.predict_v8_deal(words, phase) for phase, words in found.solutions]
    return found, seconds, decks == [real]


def section(context) -> Section:
    """The algebra table, the published anchors, and a V8 deal's state from its bottom cards."""
    rows = algebra_rows(context.quick)
    table = Table(["name", "state bits", "degree k", "terms", "primitive", "period", "output bits w",
                   "k(w) of floor(k/w)", "defect"], rows)
    seed = int(np.random.default_rng(context.seed).integers(1, 2**31))
    found, seconds, predicted = v8_recovery(seed)
    text = (
        "Generators whose every state bit is an XOR of earlier ones: the characteristic polynomial from 2k output "
        "bits (Berlekamp-Massey), its number of terms (few terms: linear-complexity tests fail sooner), the exact "
        "period from primitivity (the factors of 2^k - 1), and for generators with linear outputs the "
        "equidistribution of the top v bits: k(v), the most dimensions in which every v-bit tuple appears equally "
        "often over the period, against the bound floor(k/v); the dimension defect is the sum of the shortfalls "
        "over v = 1..w (0: maximally equidistributed). Published anchors: MT19937 has period 2^19937 - 1, "
        "k(32) = 623 and defect 6750 (Matsumoto and Nishimura 1998); WELL512a defect 0 (Panneton, L'Ecuyer and "
        "Matsumoto 2006). Scrambled outputs (xoroshiro and xoshiro's +, ++, **) are not linear: the period is the "
        "engine's. `rnglab period mt19937` prints a row.")
    meaning = (
        "What the failures mean for a card game. The battery's linear-complexity and matrix-rank tests fail these "
        "generators because every output bit is a fixed XOR of state bits: whoever sees enough outputs, or the "
        "cards they decide, writes equations whose solution is the whole state, and then every later card. "
        f"A node program dealing with `Math.floor(Math.random() * i)` (node --random_seed={seed}): from the "
        f"bottom {SEEN} cards, GF(2) elimination found {len(found.solutions)} state(s) (rank {found.rank} of "
        f"{found.unknowns}) in {1000 * seconds:.1f} ms, the seed came back as "
        f"{', '.join(str(seed) for seed in found.seeds)}, and the whole deck "
        f"was predicted {'exactly' if predicted else 'wrongly'}. The same elimination gives CPython's MT19937 from "
        "624 `getrandbits(32)` words or `random()` values, `std::mt19937_64` from 312 outputs, and "
        "`std::mt19937` from about 130 consecutive `std::shuffle` decks (`rnglab crack ... --method linear`); "
        "CPython's `random.shuffle` alone hides which word gave which card.")
    summary = (f"{len(rows)} GF(2)-linear engines; a V8 deal's state from its bottom {SEEN} cards in "
               f"{1000 * seconds:.1f} ms")
    return Section("GF(2)-linear generators: period, equidistribution, state recovery", [text, table, meaning],
                   summary)
