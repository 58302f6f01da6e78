"""Write ``bench/results/validation.md``: the ``small`` battery on good and known-bad generators.

One row per generator (or bit selection), one column per test: the grade of
each p-value, with its p-value. The table is the
evidence that the battery catches what the literature says it should
(MINSTD: birthday spacings, collision, maximum-of-t, as TestU01's SmallCrush;
RANDU: the 3-dimensional tests; low bits of power-of-two LCGs: nearly
everything) and passes good generators. Usage: ``python bench/validation_table.py``
(about a minute on an idle machine).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import tomllib
from common import markdown_table

from rnglab.empirical.battery import get_battery, result_labels, run_battery
from rnglab.empirical.verdicts import format_pvalue, grade
from rnglab.generators import make_source
from rnglab.pages import Mark
from rnglab.streams.gateway import BitSelection, select

SEED = 12345
OUT = Path(__file__).resolve().parent / "results" / "validation.md"
#: SmallCrush's p-values on every catalog generator, fed by ``rnglab stream GEN --seed 12345``.
SMALLCRUSH = Path(__file__).resolve().parent.parent / "tests" / "data" / "testu01" / "smallcrush.toml"

#: (row label, generator, bit selection, why it is in the table, whose failures and why)
ROWS = [
    ("pcg64", "pcg64", BitSelection(), "good: numpy's default",
     "none expected: any verdict off normal is a false alarm (0.2 % per entry, bench/results/calibration.md)"),
    ("mt19937", "mt19937", BitSelection(), "good but F2-linear",
     ("the generator's, on linear complexity alone: its bits obey a linear recurrence of degree 19,937 "
      "(TestU01's Crush and BigCrush fail it only on LinearComp); none expected from the other tests")),
    ("minstd", "minstd", BitSelection(), "SmallCrush fails it on birthday spacings, collision, max-of-t",
     ("the generator's: its points lie on a lattice (birthday spacings; too few collisions) and max-of-t, "
      "as SmallCrush (examples/bat1.res)")),
    ("minstd_rand", "minstd_rand", BitSelection(), "Park-Miller-Stockmeyer multiplier, same modulus",
     "the generator's: lattice (birthday spacings, collision), max-of-t"),
    ("randu", "randu", BitSelection(), "triples on 15 planes",
     "the generator's: triples on 15 planes (3-D tests); bit k of its state has period 2^(k-1) (low-bit entries)"),
    ("ansic", "ansic", BitSelection(), "15 high bits of a 31-bit LCG",
     ("the generator's: lattice (birthday spacings, collision); its low output bits are state bits 16-25, "
      "periods 2^17 to 2^26 (low-bit entries)")),
    ("msvc", "msvc", BitSelection(), "MSVC rand(): 15 bits of a 32-bit LCG",
     "the generator's: as ansic (state bits 16-30 of a 2^32 LCG)"),
    ("msvc state", "lcg:a=214013,c=2531011,m=2^32", BitSelection(), "MSVC's full 32-bit state",
     "the generator's: state bit k has period 2^(k+1): every test of the low or whole bits"),
    ("java", "java", BitSelection(), "java.util.Random next(32): 32 of 48 bits",
     ("the generator's: lattice (birthday spacings); low output bits are state bits 16-25, periods 2^17 to "
      "2^26 (gap, poker, coupon, low 8, low 1), as SmallCrush's Gap, SimpPoker, CouponCollector")),
    ("ranqd1 low 8", "ranqd1", BitSelection(low=8), "low bits of a power-of-two LCG",
     "the generator's: bit k has period 2^(k+1), so the low 8 bits repeat every 256 outputs"),
    ("glibc_type0 low 8", "glibc_type0", BitSelection(low=8), "low bits of a power-of-two LCG",
     "the generator's: as ranqd1"),
]


def verdict_cell(pvalue: float) -> str | Mark:
    """A table cell: the p-value when normal, else a marked grade with the p-value (``✖ FAIL (1 - eps)``):
    a warning for unusual to very suspicious, a failure for FAIL."""
    verdict = grade(pvalue)
    if verdict == "normal":
        return format_pvalue(pvalue)
    return Mark("fail" if verdict == "FAIL" else "warn", f"{verdict} ({format_pvalue(pvalue)})")


def flagged(pvalues: dict) -> str:
    """The tests whose p-value is outside [0.001, 0.999], with FAIL (within 1e-10 of 0 or 1) in bold."""
    names = [f"**{name}**" if min(p, 1 - p) < 1e-10 else name for name, p in pvalues.items() if min(p, 1 - p) < 1e-3]
    return ", ".join(names) or "none"


def smallcrush_rows(battery) -> list:
    """Per catalog generator: SmallCrush's failures (smallcrush.toml) beside the battery's, same seed."""
    rows = []
    for generator, pvalues in tomllib.loads(SMALLCRUSH.read_text()).items():
        result = run_battery(lambda seed, generator=generator: make_source(generator, seed), battery, SEED)
        mine = dict(zip(result_labels(result.results), (r.pvalue for r in result.results)))
        rows.append([f"`{generator}`", flagged(pvalues), flagged(mine)])
        print(f"{generator}: {result.seconds:.0f} s", file=sys.stderr)
    return rows


def main() -> None:
    battery = get_battery(sys.argv[1] if len(sys.argv) > 1 else "small")
    table_rows, labels, total = [], None, 0.0
    for label, generator, selection, why, whose in ROWS:
        result = run_battery(lambda seed, g=generator, s=selection: select(make_source(g, seed), s), battery, SEED)
        labels = labels or result_labels(result.results)  # the first row reads every entry
        total += result.seconds
        ran = [i for i, entry in enumerate(battery.entries) if selection == BitSelection() or entry.bits is None]
        cells = dict(zip(ran, result.results))
        table_rows.append([f"`{label}`"] + [verdict_cell(cells[i].pvalue) if i in cells else ""
                                            for i in range(len(battery.entries))] + [why, whose])
        print(f"{label}: {result.seconds:.0f} s", file=sys.stderr)
    sizes = ", ".join(f"{label}: n={entry.size:,}" for label, entry in zip(labels, battery.entries))
    text = (f"## Validation: the `{battery.name}` battery on good and known-bad generators\n\n"
            f"Written by `python bench/validation_table.py` on {time.strftime('%Y-%m-%d')} (seed {SEED}, "
            f"{total:.0f} s of tests). Each cell is a p-value, in bold with its grade when it is not normal, "
            "graded from either end: unusual (< 1e-3), suspicious (< 1e-5), very suspicious (< 1e-7), "
            "FAIL (< 1e-10); `eps` is below 1e-300. "
            "Rows `low 8` read only the 8 least significant bits of each output (`--low-bits 8`), which leaves "
            "out the battery's own low-bit entries (empty cells). Entries marked `low=k` read the k least "
            "significant bits of each output, as SmallCrush's gap, poker and coupon collector do (its r).\n\n"
            f"Sample sizes: {sizes}.\n\n"
            + markdown_table(["generator"] + labels + ["why it is here", "whose failures, and why"], table_rows)
            + f"\n\nSmallCrush (TestU01 1.2.3, `tests/data/testu01/smallcrush.toml`, fed by `rnglab stream GEN "
            f"--seed {SEED}`) and the `{battery.name}` battery (seed {SEED}) on every catalog generator: the tests "
            "with a p-value outside [0.001, 0.999], in bold when within 1e-10 of 0 or 1 (FAIL).\n\n"
            + markdown_table(["generator", "SmallCrush", f"rnglab `{battery.name}`"], smallcrush_rows(battery))
            + "\n")
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
