"""Check that the ``small`` battery's results are unchanged, bit for bit, by a change to the tests or the stream.

Usage: ``python bench/stattest_equality.py record|check [--out PATH]``. ``record`` runs every entry of
``small`` (each on a fresh stream) on pcg64, minstd, randu and mt19937, seeds 1 and 2, at two sizes
(``n // 300 + 7`` and ``n // 3 + 13``, capped at the entry's ``max_n``: odd sizes that cross the chunk
boundaries of :func:`rnglab.streams.gateway.field_chunks`), and writes each statistic and p-value (``repr``, so
every bit) with a digest of the details, or the refusal's message; ``check`` runs the same and reports
every difference from the recorded file (exit status 1 when any). The committed reference
``bench/data/stattest_equality.json`` was recorded with the code of commit 7efc7e4, before the speed-ups of
``bench/bench_stattest_rates.py``. The details of the 28 gap and coupon results were recorded again when those
tests began to stop right after their n-th segment (their tallies, which must leave the stream where the test at
once leaves it): ``values_read`` no longer counts the values read past it; every statistic, p-value and other
detail was checked unchanged.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from rnglab.empirical.battery import get_battery
from rnglab.generators.catalog import as_generator

REFERENCE = Path(__file__).resolve().parent / "data" / "stattest_equality.json"
GENERATORS = ("pcg64", "minstd", "randu", "mt19937")
SEEDS = (1, 2)


def sizes(entry) -> list[int]:
    """The two sample sizes an entry is checked at."""
    cap = entry.max_n if entry.max_n is not None else 2**62
    return sorted({min(entry.n // 300 + 7, cap), min(entry.n // 3 + 13, cap)})


def _plain(value):
    """Details as JSON-able values (arrays as lists, floats as repr)."""
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, (np.integer,)):
        return int(value)
    return value if isinstance(value, (int, str, bool, type(None))) else repr(value)


def outcome(entry, generator: str, seed: int, n: int) -> dict:
    """One entry's full result at size ``n`` on a fresh stream of ``generator(seed)``."""
    sized = dataclasses.replace(entry, n=n, max_n=None)
    try:
        result = sized.run(sized.view(as_generator(generator).make(seed)))
    except ValueError as refusal:
        return {"refused": str(refusal)}
    details = json.dumps(_plain(result.details), sort_keys=True).encode()
    return {"statistic": repr(float(result.statistic)), "pvalue": repr(float(result.pvalue)),
            "details": hashlib.sha256(details).hexdigest()}


def outcomes() -> dict:
    """Every recorded case, keyed ``generator/seed/label/n``."""
    entries = get_battery("small").entries
    cases = {}
    for generator in GENERATORS:
        for seed in SEEDS:
            for index, entry in enumerate(entries):
                label = f"{index:02d} {entry.test} {entry.options} {entry.bits}"
                for n in sizes(entry):
                    cases[f"{generator}/{seed}/{label}/{n}"] = outcome(entry, generator, seed, n)
            print(f"{generator} seed {seed}: done", file=sys.stderr, flush=True)
    return cases


def main(arguments: list[str]) -> int:
    mode = arguments[0] if arguments else "check"
    path = Path(arguments[arguments.index("--out") + 1]) if "--out" in arguments else REFERENCE
    if mode == "record":
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(outcomes(), indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")
        return 0
    reference, now = json.loads(path.read_text()), outcomes()
    differences = [key for key in reference if reference[key] != now.get(key)]
    for key in differences:
        print(f"{key}: was {reference[key]}, now {now.get(key)}")
    print(f"{len(reference) - len(differences)} of {len(reference)} results identical")
    return 1 if differences or set(now) != set(reference) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
