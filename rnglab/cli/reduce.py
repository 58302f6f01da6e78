"""``rnglab reduce``: the exact bias of range reduction methods, and a chi-square check on real draws."""

from __future__ import annotations

from fractions import Fraction

import click

from rnglab.cli.choices import REDUCER_NAMES
from rnglab.cli.common import (
    COUNT,
    IntExpr,
    emit_json,
    force_option,
    format_table,
    generator_options,
    json_option,
    lazy,
    plot_option,
)
from rnglab.cli.humanize import fraction, integer
from rnglab.cli.outputs import save_plot
from rnglab.core.fileio import check_writable
from rnglab.pages.tables import collapse

applicable_reducers, bias, check_samples, count_array, empirical_bias = lazy(
    "draws.bias", "applicable_reducers", "bias", "check_samples", "count_array", "empirical_bias")
as_reducer = lazy("reduction.reducers", "as_reducer")
approximate = lazy("reduction.counts", "approximate")
check_bound = lazy("reduction.maps", "check_bound")


def _range_and_reducers(generator, range_size, n, reducer_name):
    """The source's range and the reducers ``--reducer`` names (``all``: every one that serves ``n``), resolved."""
    if generator is not None and range_size is not None:
        raise click.UsageError("give either a generator GEN or --range, not both")
    if generator is None and range_size is None:
        raise click.UsageError("name a generator GEN (see 'rnglab list') or give --range R")
    R = generator.make().range_size if generator is not None else range_size
    check_bound(n, R)
    if reducer_name == "all":
        return R, applicable_reducers(R, n)
    if reducer_name not in REDUCER_NAMES:
        raise ValueError(f"unknown reducer {reducer_name!r}; choose from {', '.join(REDUCER_NAMES)} or all")
    return R, [as_reducer(reducer_name)]


def _plot(reducers, n, R, plot_path, force):
    from rnglab.plot.bias import bias_heatmap
    from rnglab.reduction.counts import ARRAY_LIMIT

    if n > ARRAY_LIMIT:
        raise ValueError(f"--plot draws one cell per output and needs n <= 2^25; got n = {n}")
    check_writable(plot_path, force)
    probabilities = {}
    for reducer in reducers:
        counts = count_array(reducer, n, R)
        probabilities[reducer.name] = (counts / counts.sum()).astype(float)  # Python integers when R is large
    return save_plot(bias_heatmap(probabilities, n, R), plot_path, force)


@click.command("reduce")
@generator_options(required=False)
@click.option("--range", "range_size", type=IntExpr(minimum=1), help="Analyse a source of R equally likely values.")
@click.option("--n", "n", type=IntExpr(), required=True, help="The bound: outputs in [0, n).")
@click.option("--reducer", "reducer_name", default="all", show_default=True, metavar="NAME",
              help=f"One of {', '.join(REDUCER_NAMES)}, or all.")
@click.option("--exact", is_flag=True, help="Exact analysis only (no draws, even with --samples).")
@click.option("--samples", type=COUNT, help="Also draw this many values from GEN per reducer and chi-square test them.")
@click.option("--alpha", type=float, default=0.01, show_default=True, help="Significance level for detection.")
@click.option("--power", type=float, default=0.9, show_default=True, help="Power for the draws-to-detect figure.")
@json_option
@plot_option
@force_option
def reduce_command(generator, range_size, n, reducer_name, exact, samples, alpha, power, as_json, plot_path, force):
    """Exact bias of rand()-style range reduction against unbiased methods.

    For each method: the most and least likely outputs' probabilities (exact
    fractions), their ratio, the total variation distance from uniform, the
    expected draws per output and the draws a chi-square test needs to see the
    bias. With --samples, values are drawn from GEN (seeded with --seed) and
    tested.
    """
    if not (0 < alpha < 1 and 0 < power < 1):
        raise ValueError(f"--alpha and --power must be in (0, 1); got {alpha} and {power}")
    R, reducers = _range_and_reducers(generator, range_size, n, reducer_name)
    if samples is not None and not exact and generator is None:
        raise click.UsageError("--samples draws from a generator: name one (GEN) instead of --range")
    if samples is not None and not exact:  # refused before the exact analysis, which can take seconds
        if samples < n:
            raise ValueError(f"--samples must be at least n = {n} for the chi-square test; got {samples}")
        check_samples(n, samples)
    results = [bias(reducer, n, R, alpha=alpha, power=power).to_dict() for reducer in reducers]
    if samples is not None and not exact:
        for row, reducer in zip(results, reducers):
            row["empirical"] = empirical_bias(generator.make(), n, samples, reducer, alpha=alpha,
                                              power=power).to_dict()
    figure = _plot(reducers, n, R, plot_path, force) if plot_path else None
    if as_json:
        emit_json({"n": n, "range": R, "generator": generator.name if generator else None,
                   "methods": results, "plot": figure})
        return
    _show(results, n, R, generator)


def _show(results, n, R, generator) -> None:
    source = f"{generator.name} (R = {integer(R)})" if generator else f"R = {integer(R)}"
    click.echo(f"Range reduction to [0, {integer(n)}) from {source}; probabilities conditional on acceptance "
               "(long fractions as decimals: exact ones in --json).\n")
    headers = ["method", "unbiased", "max p", "min p", "max/min", "TV distance", "draws/output", "draws to detect"]
    rows = [[r["method"], "yes" if r["unbiased"] else "no", fraction(r["max_prob"], Fraction(1, n)),
             fraction(r["min_prob"], Fraction(1, n)), fraction(r["ratio"], 1) if r["ratio"] else "inf", approximate(Fraction(r["tv_distance"]), 3),
             approximate(Fraction(r["expected_draws"]), 6),
             integer(r["draws_to_detect"]) if r["draws_to_detect"] else "never"] for r in results]
    click.echo(format_table(headers, collapse(rows)))
    for r in results:
        if r["favoured"]:
            click.echo(f"{r['method']}: favoured outputs: {r['favoured_description']}")
    tested = [r for r in results if "empirical" in r]
    if tested:
        click.echo("\nChi-square on drawn values (seed {}):".format(tested[0]["empirical"]["seed"]))
        click.echo(format_table(["method", "samples", "draws", "statistic", "p-value", "flagged"],
                                [[r["method"], r["empirical"]["samples"], r["empirical"]["draws"],
                                  r["empirical"]["statistic"], r["empirical"]["pvalue"],
                                  "yes" if r["empirical"]["flagged"] else "no"] for r in tested]))

