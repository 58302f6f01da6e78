"""Range-reduction throughput against numpy's ``Generator.integers``, and the speed of the exact analysis.

Goals (issue 19, item 6): the catalog ``pcg64`` source with ``lemire`` draws
exactly what ``numpy.random.Generator(PCG64(seed)).integers(0, n, size)``
draws (checked below, values and state) at >= 0.9x its speed; ``bitmask``
and ``java-nextint`` at >= 0.8x. Like numpy, the catalog source reads 32-bit
halves of each PCG64 output for n <= 2^32 (``rnglab.draws.words``) and
whole 64-bit words above.

Side by side in one run, per method on the catalog ``pcg64`` (n = 52): the
one-pass compiled map-and-compact (``rnglab.draws.compact``, what
``draw_bounded`` uses now), the same draws through the reducer's numpy map
and a separate compaction (before: ``compact_code`` cleared), and numpy.
For ``lemire`` a further "before" row reads whole 64-bit words for n = 52
(the catalog source before this change, not numpy's values). The count is
10^7 values per call by default (10^8 with ``--full``), best of 7, the three
calls of a row taken in turn.
"""

from __future__ import annotations

import dataclasses
import sys
import time

import numpy as np
from common import best_time, markdown_table, write_fragment

from rnglab.draws.bias import applicable_reducers, bias
from rnglab.draws.bounded import draw_bounded
from rnglab.generators import make_source
from rnglab.reduction.reducers import REDUCERS, as_reducer

SEED = 20261122


def check_bit_exact(count: int = 10**5) -> bool:
    """The catalog pcg64 with lemire equals numpy's integers, call after call, for 32- and 64-bit bounds."""
    source, generator = make_source("pcg64", seed=SEED), np.random.Generator(np.random.PCG64(SEED))
    for n, size in [(52, count), (10**12, count), (7, 3), (1, 2), (2**32, 5), (3_000_000_019, count)]:
        if not np.array_equal(draw_bounded(source, n, size, REDUCERS["lemire"]).values,
                              generator.integers(0, n, size, dtype=np.uint64)):
            return False
    return source.random_raw(4).tolist() == generator.bit_generator.random_raw(4).tolist()


def _interleaved(functions: list, count: int, repeat: int = 7) -> list[float]:
    """Best time of each function in nanoseconds per value, the functions called in turn ``repeat`` times
    (so that a change in the shared machine's load reaches every one alike)."""
    best = [float("inf")] * len(functions)
    for function in functions:
        function()  # compile kernels first
    for _ in range(repeat):
        for i, function in enumerate(functions):
            best[i] = min(best[i], best_time(function, repeat=1))
    return [seconds / count * 1e9 for seconds in best]


def _row(label, n, count, ours, before, generator, dtype=np.int64, shown=None) -> list:
    functions = [lambda: generator.integers(0, n, count, dtype=dtype), ours] + ([before] if before else [])
    theirs, now, *then = _interleaved(functions, count)
    return [label, shown or n, f"{now:.2f}", f"{then[0]:.2f}" if then else "", f"{theirs:.2f}", f"{theirs / now:.2f}",
            f"{theirs / then[0]:.2f}" if then else ""]


def throughput_rows(count: int, n: int) -> list:
    rows, generator = [], np.random.Generator(np.random.PCG64(SEED))
    source = make_source("pcg64", seed=SEED)
    for reducer in applicable_reducers(2**32, n):
        method = reducer.name
        separate = dataclasses.replace(reducer, compact_code=None) if reducer.compact_code is not None else None
        rows.append(_row(f"`{method}`", n, count, lambda r=reducer: draw_bounded(source, n, count, r),
                         None if separate is None else lambda r=separate: draw_bounded(source, n, count, r), generator))
    whole = make_source("pcg64", seed=SEED)
    whole.NARROW_HALVES = False  # the catalog source before: one whole 64-bit word per draw
    lemire_before = dataclasses.replace(as_reducer("lemire"), compact_code=None)
    rows.append(_row("`lemire`, whole 64-bit words (before)", n, count,
                     lambda: draw_bounded(whole, n, count, REDUCERS["lemire"]),
                     lambda: draw_bounded(whole, n, count, lemire_before), generator))
    rows.append(_row("`lemire` (64-bit words)", 10**12, count, lambda: draw_bounded(source, 10**12, count, REDUCERS["lemire"]),
                     lambda: draw_bounded(source, 10**12, count, lemire_before), generator, np.uint64, "10^12"))
    return rows


def analysis_rows() -> list:
    rows = []
    for n in (52, 10000, 10**6, 2**31 + 1, 3_000_000_019):
        methods = [r.name for r in applicable_reducers(2**32, n) if r.name != "float-multiply" or n <= 10**6]
        started = time.perf_counter()
        for method in methods:
            bias(REDUCERS[method], n, 2**32)
        rows.append([n, len(methods), f"{time.perf_counter() - started:.3f}"])
    return rows


def main(argv: list[str] | None = None) -> None:
    count = 10**8 if "--full" in (argv or []) else 10**7
    exact = check_bit_exact()
    throughput = throughput_rows(count, 52)
    analysis = analysis_rows()
    body = (f"Reducers drawing {count:.0e} values in [0, 52) from the catalog `pcg64` (32-bit halves of each "
            "output, as numpy reads them for n <= 2^32), rnglab (`draw_bounded`) against numpy's "
            "`Generator.integers` in the same run; ratio = numpy time / rnglab time (goals: `lemire` >= 0.9, "
            "`bitmask` and `java-nextint` >= 0.8). *now*: one compiled pass maps and compacts each chunk "
            "(`lemire`, `bitmask`, `java-nextint`); *before*: the reducer's numpy map and a separate compaction "
            "on the same draws. Only `lemire` computes what numpy computes (the catalog `pcg64` with it equals "
            f"numpy's values and state, call after call: {'yes' if exact else 'NO'}); the other rows show what "
            "each method costs on the same stream. The row \"whole 64-bit words\" is the catalog source before "
            "(one PCG64 step per draw, not numpy's values).\n\n"
            + markdown_table(["method", "n", "rnglab ns/value now", "before", "numpy ns/value", "ratio now",
                              "ratio before"], throughput)
            + "\n\nExact analysis (`rnglab.draws.bias.bias`: counts, probabilities as fractions, TV distance, draws to "
            "detect) for R = 2^32, all applicable methods together (`float-multiply`, which needs O(n) "
            "work, only up to n = 10^6); goal: under a second per method for any n.\n\n"
            + markdown_table(["n", "methods", "seconds, all methods"], analysis))
    path = write_fragment("reduce", "Range reduction: throughput and exact analysis", body)
    print(path.read_text())


if __name__ == "__main__":
    main(sys.argv[1:])
