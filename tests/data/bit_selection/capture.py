"""Capture the statistics of the bit-selection cases as the keyword path computed them (issue #28).

Run at commit 7183508 of main (the last before the bit selection became a view of the stream, with the until-fail
stages at powers of two; the battery cases are the same as at 098e597), from the repository root:

    PYTHONPATH=. python tests/data/bit_selection/capture.py > tests/data/bit_selection/keyword_path.json

Every case runs a battery (its entries' sample sizes divided by ``scale``) with ``run_battery(...,
selection=...)``, or its stages until failure with ``stages(..., selection=...)``, the way the CLI's
``--drop-bits`` / ``--low-bits`` passed the selection as a keyword through every test. The statistics,
p-values and parameters are written with ``repr`` floats (exact), for
``tests/streams/test_selected_bits.py`` to compare with the wrapped source. The stages of the runs until
failure (cases 15 to 17) were captured again at 6cb4625 with the view itself, after the pacing fix of c24b7cf
(``stages_recaptured`` in the file).
"""

import dataclasses
import json
import sys

from rnglab.core.results import to_plain
from rnglab.empirical.battery import get_battery, run_battery
from rnglab.empirical.until_fail import stages
from rnglab.generators.catalog import make_source
from rnglab.streams.gateway import BitSelection

#: (generator, seed, selection, battery, scale[, tests]): the CLI's selections (--drop-bits r: drop = r; --low-bits k:
#: low = k) on a 32-bit, a 64-bit, a 15-bit and a non-power-of-two (MINSTD, 30 genuine bits) generator.
BATTERY_CASES = [
    ("mt19937", 5, {}, "small", 64),
    ("mt19937", 5, {"low": 8}, "smoke", 1),
    ("mt19937", 5, {"low": 1}, "smoke", 4, ["frequency", "fourier", "matrix-rank", "hamming-weight"]),
    ("mt19937", 5, {"drop": 8}, "small", 64),
    ("mt19937", 5, {"low": 13}, "smoke", 2),
    ("pcg64", 7, {"drop": 3}, "smoke", 1),
    ("pcg64", 7, {"low": 64}, "smoke", 2),
    ("pcg64", 7, {"low": 32}, "small", 64),
    ("minstd", 3, {}, "small", 64),
    ("minstd", 3, {"low": 8}, "smoke", 1),
    ("minstd", 3, {"drop": 1}, "smoke", 2),
    ("msvc", 9, {"low": 4}, "smoke", 4),
    ("msvc", 9, {"drop": 2}, "smoke", 4),
    ("mt19937", 11, {}, "smallcrush", 32),
    ("minstd", 11, {}, "smallcrush", 32),
]

#: (generator, seed, selection, battery, max_bytes) for runs until failure.
UNTIL_FAIL_CASES = [
    ("mt19937", 1, {"low": 8}, "small", 2**17),
    ("minstd", 1, {"low": 8}, "small", 2**16),
    ("minstd", 1, {}, "small", 2**16),
    ("randu", 1, {"drop": 20}, "small", 2**20),
]


def scaled(name: str, scale: int):
    battery = get_battery(name)
    entries = tuple(dataclasses.replace(e, n=min(e.n, max(e.n // scale, 100000))) for e in battery.entries
                    if scale == 1 or (e.test, e.options.get("d")) != ("max-of-t", 100000))  # needs n >= 500,000
    return dataclasses.replace(battery, entries=entries)


def row(result) -> list:
    return [result.test, result.statistic, result.pvalue, to_plain(result.params)]


def main() -> None:
    cases = []
    for generator, seed, selection, battery, scale, *tests in BATTERY_CASES:
        tests = tests[0] if tests else None
        result = run_battery(lambda s, g=generator: make_source(g, s), scaled(battery, scale), seed, tests=tests,
                             selection=BitSelection(**selection))
        cases.append({"kind": "battery", "generator": generator, "seed": seed, "selection": selection,
                      "battery": battery, "scale": scale, "tests": tests, "results": [row(r) for r in result.results],
                      "skipped": [list(s) for s in result.skipped], "result_selection": result.selection})
        print(generator, selection, battery, file=sys.stderr)
    for generator, seed, selection, battery, max_bytes in UNTIL_FAIL_CASES:
        done = stages(make_source(generator, seed), get_battery(battery), max_bytes=max_bytes,
                      selection=BitSelection(**selection))
        cases.append({"kind": "until-fail", "generator": generator, "seed": seed, "selection": selection,
                      "battery": battery, "max_bytes": max_bytes,
                      "stages": [{"bytes": s.bytes, "bytes_every": s.bytes_every, "worst": s.worst,
                                  "results": [row(r) for r in s.results], "skipped": [list(k) for k in s.skipped]}
                                 for s in done]})
        print(generator, selection, "until fail", file=sys.stderr)
    json.dump({"commit": "7183508", "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
