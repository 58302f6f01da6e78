"""``rnglab fairness``: exact or empirical fairness of a shuffle.

Three modes:

* no generator (or ``--exact``): exact, under an ideal uniform source
  (with ``--reducer NAME --range R``: through that reducer from an ideal
  source of ``R`` values);
* ``GEN --seeds POLICY|A..B``: exact over every seed of a seed space;
* ``GEN`` alone: empirical, ``--shuffles`` decks from one seeded stream,
  dealt one after another as a program deals them.

With ``--deal "3 1 2 ..."`` (or ``identity``), only that deal's exact probability
(:mod:`rnglab.shuffles.deal_probability`): the runs that give it, over all runs, and its ratio to
``1/n!``; for any shuffle given as a program of steps, beyond the ``n <= 10`` of the whole law.

With ``--function FILE.py:FUNCTION`` the shuffle is the user's own Python
function (:mod:`rnglab.shuffles.userfunc`, run in a child process with limits,
:mod:`rnglab.shuffles.sandbox`): exact by enumerating every path of its random
answers (no GEN, ``n <= 10``), or empirical with GEN.

Work is estimated before it starts: exact work beyond
:data:`~rnglab.shuffles.fairness.EXACT_SECONDS` and shuffling beyond
:data:`~rnglab.shuffles.fairness.EMPIRICAL_SECONDS` are refused with the estimate and
what fits; the chi-square needs at least 5 n shuffles.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

import click

from rnglab.cli.common import (
    IntExpr,
    emit_json,
    force_option,
    generator_options,
    json_option,
    lazy,
    plot_option,
    progress,
)
from rnglab.cli.outputs import save_plot
from rnglab.cli.progress import with_progress
from rnglab.cli.shuffle import seed_space_options, shuffle_options

if TYPE_CHECKING:
    from rnglab.shuffles.fairness import EmpiricalFairness, ExactFairness

position_heatmap = lazy("plot.shuffle", "position_heatmap")
check_seed_space = lazy("seeds.space", "check_seed_space")
check_size = lazy("shuffles.algorithms", "check_size")
empirical_fairness, exact_fairness, seed_space_law = lazy("shuffles.fairness", "empirical_fairness", "exact_fairness", "seed_space_law")
seed_space_tally = lazy("shuffles.reach", "seed_space_tally")
deal_probability = lazy("shuffles.deal_probability", "deal_probability")
repeated_passes = lazy("shuffles.passes", "repeated_passes")
deck_for, parse_cards = lazy("shuffles.cards", "deck_for", "parse_cards")
load_function, function_fairness, function_position_counts = lazy("shuffles.userfunc", "load_function", "function_fairness", "function_position_counts")

#: Shuffles of the empirical mode by default.
SHUFFLES = 100_000


@click.command("fairness")
@generator_options(required=False)
@shuffle_options
@click.option("--n", "n", type=IntExpr(minimum=1), required=True, help="Deck size.")
@click.option("--exact", is_flag=True, help="Exact, under an ideal source (the default without GEN).")
@seed_space_options(pipeline_fills=True)
@click.option("--shuffles", type=IntExpr(minimum=1), default=None,
              help=f"Empirical mode (GEN without --seeds): number of shuffles (default {SHUFFLES:,}; at least 5 n, "
                   "5 expected per cell of the chi-square).")
@click.option("--range", "range_size", type=IntExpr(minimum=2), default=None,
              help="Exact mode with --reducer: an ideal source of R values (e.g. 32768 for RAND_MAX 32767); "
                   "every bound the shuffle draws below must be <= R.")
@click.option("--function", "function_spec", default=None, metavar="FILE.py:FUNCTION",
              help="Your own shuffle(items, rng) in a Python file, instead of --algo: path/to/file.py:function, "
                   "run in a child process; exact without GEN (every path of its random answers, n <= 10), "
                   "empirical with GEN.")
@click.option("--random-bits", type=IntExpr(minimum=1), default=None,
              help="--function, exact: rng.random() is j / 2^K, j uniform below 2^K (default 8; 1 to 16).")
@click.option("--deal", "deal_text", default=None, metavar="CARDS|identity",
              help="Exact mode: only this deal's probability (the runs that give it, its ratio to 1/n!): every card "
                   "once, positions 0 .. n-1, as 0-based numbers (card names for n = 52, 54), or 'identity'.")
@click.option("--passes", type=IntExpr(minimum=1), default=None, metavar="K",
              help="Exact mode: the position matrix after K independent passes of --algo (its most and least likely "
                   "card and position against 1/n), for any shuffle with an exact position matrix.")
@json_option
@plot_option
@force_option
def fairness_command(generator, shuffle, reducer, n, exact, seeds, shuffles, range_size, function_spec, random_bits,
                     deal_text, passes, as_json, plot_path, force) -> None:
    """Fairness of shuffle --algo on N cards: deal probabilities, TV distance, position matrix.

    --function FILE.py:FUNCTION examines your own Python shuffle(items, rng) instead of --algo.
    Exact work estimated above a minute, or shuffling above an hour, is refused with what fits.
    """
    n = shuffle.check(check_size(n, 1000))
    if deal_text is not None:
        _check_deal_options(generator, seeds, shuffles, reducer, range_size, function_spec, random_bits, plot_path,
                            passes)
        result = deal_probability(shuffle, _parse_deal(deal_text, n))
        emit_json(result) if as_json else _show_deal(result)
        return
    if passes is not None:
        _check_passes_options(generator, seeds, shuffles, function_spec, random_bits, deal_text)
        result = repeated_passes(shuffle, n, passes, reduce=reducer, range_size=range_size)
        if plot_path:
            matrix = [[float(c / result.denominator) for c in row] for row in result.counts]
            save_plot(position_heatmap(matrix, f"{shuffle}, n = {n}: {passes} passes, exact"), plot_path, force)
        emit_json(result) if as_json else _show_passes(result)
        return
    if function_spec is not None:
        _check_function_options(generator, reducer, exact, seeds, range_size, random_bits)
        label, function = function_spec, load_function(function_spec)
        result, matrix = (_exact_function(function, label, n, random_bits) if generator is None else
                          _empirical_function(function, label, generator, reducer, n, shuffles or SHUFFLES))
    elif random_bits is not None:
        raise ValueError("--random-bits applies to --function (the resolution of rng.random() in the enumeration)")
    elif generator is None or (exact and seeds is None):
        if generator is not None:
            raise ValueError("exact fairness under a generator needs --seeds POLICY or A..B")
        if seeds is not None or shuffles is not None:
            raise ValueError(f"{'--seeds' if seeds is not None else '--shuffles'} needs a generator GEN "
                             "(without one, fairness is exact under an ideal source)")
        result, matrix = _exact(shuffle, n, reducer, range_size)
    elif range_size is not None:
        raise ValueError("--range sets the ideal source of the exact mode (no GEN); GEN has its own range")
    elif seeds is not None:
        if shuffles is not None:
            raise ValueError("--shuffles applies to the empirical mode; --seeds computes the law over every seed")
        result, matrix = _over_seeds(generator, shuffle, reducer or generator.native_reducer, n, seeds)
    else:
        result, matrix = _empirical(generator, shuffle, reducer or generator.native_reducer, n, shuffles or SHUFFLES)
    if plot_path:
        save_plot(position_heatmap(matrix, f"{shuffle}, n = {n}: {result.source}"), plot_path, force)
    if as_json:
        emit_json(result)
        return
    _show(result)


def _exact(shuffle, n, reducer, range_size):
    if (reducer is None) != (range_size is None):
        raise ValueError("exact fairness through a reducer needs both --reducer NAME and --range R "
                         "(the ideal source's number of values, e.g. 32768 for RAND_MAX 32767)")
    result = with_progress("exact law", lambda callback: exact_fairness(
        shuffle, n, reducer=reducer, range_size=range_size, progress=callback))
    return result, result.position_matrix


def _check_deal_options(generator, seeds, shuffles, reducer, range_size, function_spec, random_bits,
                        plot_path, passes) -> None:
    """Refuse, in one line, what does not apply to --deal (exact, under an ideal source, of --algo, one pass)."""
    given = {"GEN": generator, "--seeds": seeds, "--shuffles": shuffles, "--reducer": reducer, "--range": range_size,
             "--function": function_spec, "--random-bits": random_bits, "--plot": plot_path, "--passes": passes}
    misplaced = [name for name, value in given.items() if value is not None]
    if misplaced:
        raise ValueError(f"--deal is exact under an ideal source for --algo: {misplaced[0]} does not apply to it")


def _check_passes_options(generator, seeds, shuffles, function_spec, random_bits, deal_text) -> None:
    """Refuse, in one line, what does not apply to --passes (exact position matrix of --algo, ideal source)."""
    given = {"GEN": generator, "--seeds": seeds, "--shuffles": shuffles, "--function": function_spec,
             "--random-bits": random_bits, "--deal": deal_text}
    misplaced = [name for name, value in given.items() if value is not None]
    if misplaced:
        raise ValueError(f"--passes is the exact position matrix of --algo under an ideal source: {misplaced[0]} "
                         "does not apply to it")


def _show_passes(result) -> None:
    passes = f"{result.passes} independent passes" if result.passes > 1 else "one pass"
    click.echo(f"{result.algo} on n = {result.n}, {passes} (exact; {result.source}): P(card i at position j)")
    for label, entry in (("most likely", result.largest), ("least likely", result.smallest)):
        click.echo(f"{label}: card {entry.card} at position {entry.position}, {_fraction(entry.probability)}, "
                   f"{float(entry.relative_to_uniform) * 100:+.4g} % against 1/n")
    click.echo(f"largest |P(card i at j) - 1/n|: {float(result.position_max_deviation):.6g}")


def _parse_deal(text: str, n: int) -> list[int]:
    """``identity``, or the n cards at positions 0 .. n-1 (0-based numbers; names for the decks of 52 and 54)."""
    if text.strip().lower() == "identity":
        return list(range(n))
    cards = parse_cards(text, deck_for(n))
    if len(cards) != n:
        raise ValueError(f"a deal lists all n = {n} cards, each once; got {len(cards)}")
    return cards


def _show_deal(result) -> None:
    from rnglab.shuffles.deal_probability import deal_text

    click.echo(f"{result.algo} on n = {result.n} (exact; ideal source): deal {deal_text(result.deal)}")
    click.echo(f"runs giving the deal: {result.count} of {result.paths}")
    click.echo(f"probability: {_fraction(result.probability)}")
    click.echo(f"ratio to 1/n!: {_fraction(result.ratio_to_uniform)}")
    how = {"involutions": "closed form (the runs are the involutions)",
           "transposition": "closed form, 2 I(n-2) + (3n - 5 - |b - a|) I(n-3) (I: involutions)",
           "cycle types": "law over cycle types (random transpositions)"}.get(result.method)
    if how is None:
        how = f"backward count over orbits, at most {result.largest_level:,} states at one level"
    click.echo(f"method: {how}")


def _check_function_options(generator, reducer, exact, seeds, range_size, random_bits) -> None:
    """Refuse, in one line, the options that do not apply to --function (or to its mode)."""
    given = click.get_current_context().get_parameter_source
    misplaced = [f"--{name.replace('_', '-')}" for name in ("algo", "swaps", "key_bits")
                 if given(name) is not click.core.ParameterSource.DEFAULT]
    misplaced += ["--seeds"] * (seeds is not None) + ["--range"] * (range_size is not None)
    if misplaced:
        raise ValueError(f"--function is the shuffle: {misplaced[0]} does not apply to it")
    if generator is not None and (exact or random_bits is not None):
        raise ValueError("with GEN, --function is tested empirically: --exact and --random-bits apply without GEN")
    if generator is None and reducer is not None:
        raise ValueError("--function without GEN is exact under an ideal source: --reducer applies with GEN")
    from rnglab.shuffles.paths import MAX_RANDOM_BITS

    if random_bits is not None and random_bits > MAX_RANDOM_BITS:
        raise ValueError(f"--random-bits must be in [1, {MAX_RANDOM_BITS}] for the enumeration; got {random_bits}")


def _exact_function(function, label, n, random_bits):
    from rnglab.shuffles.paths import BeyondEnumeration

    with progress(1000, "enumerating paths") as bar:
        def covered(fraction):
            bar.update(int(fraction * 1000) - bar.pos)

        try:
            result = function_fairness(function, n, label=label, progress=covered,
                                       **({} if random_bits is None else {"random_bits": random_bits}))
        except BeyondEnumeration as beyond:
            raise ValueError(f"{beyond}: use a smaller --n, fewer --random-bits, or GEN for the empirical "
                             "test") from None
    return result, result.position_matrix


def _empirical_function(function, label, generator, reducer, n, shuffles):
    from rnglab.shuffles.fairness import check_chi_square_size, position_chi_square

    check_chi_square_size(shuffles, n)
    source, reducer = generator.make(), reducer or generator.native_reducer
    with progress(shuffles, "shuffling") as bar:
        counts = function_position_counts(function, n, source, reducer, shuffles, label=label, progress=bar.update)
    result = position_chi_square(counts, label, f"{generator.name} seed {source.seed}, {reducer.name}")
    return result, counts / shuffles


def _over_seeds(generator, shuffle, reducer, n, seeds):
    if n > 20:
        raise ValueError(f"the exact law over a seed space is computed for n <= 20; got {n}")
    from rnglab.cli.reach import announce_dealing
    from rnglab.shuffles.reach import MAX_SEEDS, check_enumerable

    check_seed_space(generator, seeds)
    check_enumerable(generator, seeds, instead="")
    announce_dealing(generator, seeds.size)
    tally = seed_space_tally(generator, seeds.seeds(MAX_SEEDS), n, shuffle, reducer)
    result = seed_space_law(tally, f"{generator.name}, {reducer.name}, {seeds.label}", shuffle.name)
    return result, result.position_matrix


def _empirical(generator, shuffle, reducer, n, shuffles):
    import numpy as np

    source = generator.make()
    with progress(shuffles, "shuffling") as bar:
        result = empirical_fairness(source, n, shuffle, shuffles, reducer,
                                    label=f"{generator.name} seed {source.seed}, {reducer.name}", progress=bar.update)
    return result, np.array(result.counts) / result.shuffles


def _show(result) -> None:
    from rnglab.shuffles.fairness import EmpiricalFairness

    if isinstance(result, EmpiricalFairness):
        _show_empirical(result)
    else:
        _show_exact(result)
    if result.shuffles_to_detect:
        covers = f" ({result.detect_source})" if isinstance(result, EmpiricalFairness) else ""
        click.echo(f"shuffles for the position chi-square to see the exact bias{covers} (alpha 0.001, power 0.9): "
                   f"{result.shuffles_to_detect}")


def _show_exact(result: ExactFairness) -> None:
    click.echo(f"{result.algo} on n = {result.n} (exact; {result.source})")
    if result.tv_distance is not None:
        click.echo(f"total variation distance to uniform: {_fraction(result.tv_distance)}")
        for label, likely in (("most likely", result.most_likely), ("least likely", result.least_likely)):
            click.echo(f"{label}: {likely.perm} with probability {_fraction(likely.prob)}")
        click.echo(f"deals reachable: {result.reachable} of {result.n_factorial}")
    if result.position_max_deviation is not None:
        click.echo(f"largest |P(card i at j) - 1/n|: {float(result.position_max_deviation):.6g}")


def _show_empirical(result: EmpiricalFairness) -> None:
    click.echo(f"{result.algo} on n = {result.n} (empirical; {result.source})")
    click.echo(f"largest |P(card i at j) - 1/n|: {result.position_max_deviation:.6g}")
    click.echo(f"chi-square {result.statistic:.6g} on {result.df} df over {result.shuffles} shuffles: "
               f"p = {result.pvalue:.4g}; largest |standardised residual| {result.max_abs_residual:.3g}")


def _fraction(value: Fraction) -> str:
    """An exact probability for a person: the fraction when it is short, with its decimal value."""
    text = f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)
    try:
        decimal = f"{float(value):.6g}" if float(value) or not value else None
    except OverflowError:
        decimal = None
    if decimal is None:  # beyond a float's range (the naive exchange's 1000^1000 runs): decimal arithmetic
        decimal = f"{Decimal(int(value.numerator)) / Decimal(int(value.denominator)):.6g}"
    return f"{text} = {decimal}" if len(text) <= 40 else f"{decimal} (exact fraction in --json)"
