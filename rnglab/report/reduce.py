"""Report section: the exact bias of range reduction, its detection, and the low-bit trap."""

from __future__ import annotations

from rnglab.draws.bias import applicable_reducers, bias, count_array, empirical_bias, low_bit_periods
from rnglab.generators import make_source
from rnglab.pages.numbers import power
from rnglab.pages.tables import collapse
from rnglab.reduction.reducers import REDUCERS
from rnglab.report.document import Heading, Section, Table

#: (R, label) of the sources in the bias table.
SOURCES = ((32768, "RAND_MAX = 32767"), (2**32, "32-bit"))
BOUNDS = (52, 54, 10000)


def _ratio(ratio) -> str:
    """``max/min`` written so that tiny biases stay visible: ``1 + 1.21e-08``."""
    return "inf" if ratio is None else "1" if ratio == 1 else f"1 + {float(ratio - 1):.3g}"


def _bias_rows() -> list:
    rows = []
    for R, label in SOURCES:
        for n in BOUNDS:
            for reducer in applicable_reducers(R, n):
                result = bias(reducer, n, R)
                rows.append([label, n, f"`{reducer.name}`", str(result.max_prob), str(result.min_prob),
                             _ratio(result.ratio), f"{float(result.tv_distance):.3g}",
                             f"{float(result.expected_draws):.5f}", result.draws_to_detect or "never"])
    return rows


def _detection(context) -> str:
    """A paragraph: how often a chi-square test with the predicted number of draws flags modulo and Lemire."""
    n, R = 10000, 32768
    predicted = bias(REDUCERS["modulo"], n, R).draws_to_detect
    seeds = range(context.seed, context.seed + (10 if context.quick else 50))
    flagged = {name: sum(empirical_bias(make_source("msvc", seed=s), n, predicted, REDUCERS[name]).flagged
                         for s in seeds) for name in ("modulo", "lemire")}
    return (f"A chi-square test at level 0.01 needs {predicted} draws to flag `rand() % 10000` "
            f"on RAND_MAX = 32767 with power 0.9 (non-central chi-square). With exactly that many draws from "
            f"MSVC `rand()` seeded {seeds.start}..{seeds.stop - 1}, the test flagged `modulo` in "
            f"{flagged['modulo']} of {len(seeds)} runs and `lemire` in {flagged['lemire']}.")


def _low_bits() -> list:
    """A paragraph and a table: the periods of the low output bits of three power-of-two LCGs."""
    rows = []
    for name in ("glibc_type0", "ansic", "msvc"):
        result = low_bit_periods(make_source(name, seed=1), max_bits=4, samples=2**20)
        rows.append([f"`{name}`"] + [f"{o or '> 2^19'} / {p}" for o, p in zip(result.observed, result.predicted)]
                    + [" ".join(map(str, result.first_values["x % 2"][:12]))])
    return [("`x % 2^k` keeps the low k output bits, which for a power-of-two LCG "
            "repeat with period at most 2^(shift+k) (observed on 2^20 outputs / predicted from the per-bit "
            "periods of `rnglab.algebra.period.bit_periods`):"),
            Table(["generator", "x % 2", "x % 4", "x % 8", "x % 16", "first x % 2"], rows)]


def section(context) -> Section:
    """Bias of every reducer for n = 52, 54, 10000 on 15-bit and 32-bit sources, with a picture."""
    from rnglab.plot.bias import bias_heatmap

    probabilities = {}
    for reducer in applicable_reducers(32768, 52):
        counts = count_array(reducer, 52, 32768)
        probabilities[reducer.name] = counts / counts.sum()
    figure = context.add_figure("reduce-bias-52", bias_heatmap(probabilities, 52, 32768),
                                "Relative deviation n p_v - 1 of each output v of [0, 52) from uniform, exact, for "
                                "every reducer on a 15-bit source (RAND_MAX = 32767): white is exactly uniform")
    rows = _bias_rows()
    table = Table(["source", "n", "methods", "max p", "min p", "max/min", "TV distance", "draws/output",
                   "draws to detect (alpha 0.01, power 0.9)"], collapse(rows, column=2))
    text = ("Exact probabilities (conditional on acceptance) of the most and least likely outputs for every "
            "reduction method, from exact counts of the source values behind each output (closed forms; "
            "`float-multiply` by a binary search of the IEEE double computation C performs). `modulo` favours "
            "the smallest outputs; `float-multiply` and `multiply-shift` favour as many outputs, spread out. "
            "Unbiased methods pay in expected draws per output. Methods that agree in every column share a row "
            "(as `rnglab reduce` shows them).")
    modulo = next(row for row in rows if row[:3] == [SOURCES[0][1], 52, "`modulo`"])
    summary = f"`rand() % 52` on RAND_MAX = 32767 is biased (max/min {modulo[5]}), detectable after {power(modulo[-1])} draws"
    return Section("Range reduction", [text, table, figure, Heading("Detection"), _detection(context),
                                       Heading("The low-bit trap"), *_low_bits()], summary)
