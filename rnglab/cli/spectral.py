"""``rnglab spectral``: Knuth's spectral test of an LCG, the catalog, or a multiplier search."""

from __future__ import annotations

import functools
import sys

import click

from ..fileio import check_writable
from ..lattice import MAX_DIMENSION, spectral_test
from ..lattice_search import search_multipliers
from ..params import parse_int
from ..plot import save_figure
from ..report.spectral import catalog_results
from .common import (COUNT, IntExpr, emit_json, force_option, format_table,
                     generator_options, json_option, plot_option, progress)

#: Triples drawn for the 3-D picture.
PLOT_TRIPLES = 20_000


class IncrementExpr(IntExpr):
    """An increment: an integer expression, or ``odd`` (for ``--search``)."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value.strip().lower() == "odd":
            return "odd"
        return super().convert(value, param, ctx)


def parse_dims(text: str) -> list[int]:
    """Parse ``2..8`` or ``2,3,5`` (or a mix, ``2..4,8``) into a sorted list of dimensions."""
    dims = set()
    for part in text.split(","):
        low, _, high = part.partition("..")
        try:
            first, last = parse_int(low), parse_int(high or low)
        except ValueError as error:
            raise ValueError(f"--dims must look like 2..8 or 2,3,5; got {text!r} ({error})") from None
        if not 2 <= first <= last <= MAX_DIMENSION:
            raise ValueError(f"--dims must lie in [2, {MAX_DIMENSION}], low to high; got {text!r}")
        dims.update(range(first, last + 1))
    return sorted(dims)


def _with_progress(label: str, run):
    """Call ``run(callback)`` with a progress bar fed by ``callback(done, total)``."""
    state = {}

    def callback(done, total):
        if not sys.stderr.isatty():
            return
        if "bar" not in state:
            state["bar"] = progress(total, label).__enter__()
        state["bar"].update(done - state["bar"].pos)

    try:
        return run(callback)
    finally:
        if "bar" in state:
            state["bar"].__exit__(None, None, None)


def _dimension_rows(result):
    return [[d.t, d.nu2, d.nu, d.log2_nu, d.mu, d.S, d.planes, " ".join(map(str, d.witness))]
            for d in result.dims]


def _show_one(label, result) -> None:
    click.echo(f"{label}: a = {result.a}, m = {result.m}, lattice modulus {result.lattice_m} "
               f"({result.lattice_rule})")
    click.echo(format_table(["t", "nu^2", "nu", "log2 nu", "mu", "S", "planes", "witness"],
                            _dimension_rows(result)))
    if result.M is not None:
        click.echo(f"M_{max(d.t for d in result.dims if d.S is not None)} = {result.M:.6g}  "
                   f"({result.hermite})")


def _one_generator(generator, dims, lattice_m, planes_up_to, as_json, plot_path, force):
    a, c, m = generator.lcg_parameters()
    result = _with_progress("spectral test", lambda callback: spectral_test(
        a, m, c, dims, lattice_m=lattice_m, planes_up_to=planes_up_to, progress=callback))
    if plot_path:
        from ..plot.lattice import generator_figure

        states = generator.make().random_states(PLOT_TRIPLES + 2)
        save_figure(generator_figure(generator.name, result, states, m), plot_path, force)
    if as_json:
        emit_json(result)
    else:
        _show_one(generator.name, result)


def _catalog(dims, as_json, plot_path, force):
    results = _with_progress("catalog", lambda callback: catalog_results(dims, callback=callback))
    if plot_path:
        from ..plot.lattice import merits_figure

        save_figure(merits_figure(results), plot_path, force)
    if as_json:
        emit_json([{"name": name, **result.to_dict()} for name, result in results])
        return
    merit_dims = [d.t for d in results[0][1].dims if d.S is not None]
    click.echo(format_table(
        ["name", "a", "m", "lattice m", f"M_{max(merit_dims)}"] + [f"S_{t}" for t in merit_dims],
        [[name, r.a, r.m, r.lattice_m, r.M] + [d.S for d in r.dims if d.S is not None]
         for name, r in results]))
    click.echo("\nFigures of the state recurrence x -> a x + c (mod m), best M first; "
               "output functions that keep only some bits are not taken into account.")


def _search(m, c, dims, *, top, candidates, seed, as_json, plot_path, force):
    if m is None:
        raise click.UsageError("--search needs --m")
    if plot_path:
        check_writable(plot_path, force)
    if c not in (None, "odd", 0) and c % 2 == 0:
        raise ValueError(f"--c must be 0 or odd (or the word odd) for --search; got {c}")
    increment = "0" if c == 0 else "odd"
    result = _with_progress("candidates", lambda callback: search_multipliers(
        m, increment, dims, top, candidates, seed, progress=callback))
    if plot_path:
        from ..plot.lattice import merits_figure

        best = [(str(found.a), spectral_test(found.a, m, 0 if increment == "0" else 1, dims,
                                             planes_up_to=0)) for found in result.best[:6]]
        save_figure(merits_figure(best), plot_path, force)
    if as_json:
        emit_json(result)
        return
    click.echo(format_table(["rank", "a", "hex", "lattice m", f"M_{dims[-1]}"]
                            + [f"S_{t}" for t in result.dims],
                            [[rank, b.a, hex(b.a), b.lattice_m, b.M] + list(b.S)
                             for rank, b in enumerate(result.best, 1)]))
    click.echo(f"\n{result.examined} distinct candidates examined in {result.seconds:.2f} s "
               f"({result.per_second:.0f} per second); m = {m}, c {increment}, seed {result.seed}")


def _search_before_generator(command):
    """Route ``--search`` before the generator options are resolved: a search takes only
    ``--m`` (and ``--c``, ``--seed``), which the generator options would reject alone."""

    @functools.wraps(command)
    def wrapper(*args, search, gen=None, a=None, c=None, m=None, seed=None, **kwargs):
        if not search:
            return command(*args, gen=gen, a=a, c=c, m=m, seed=seed, **kwargs)
        if gen is not None or a is not None:
            raise click.UsageError("--search takes --m (and --c, --seed), not a generator")
        options = {key: kwargs[key] for key in ("top", "candidates", "as_json", "plot_path", "force")}
        return _search(m, c, parse_dims(kwargs["dims"]), seed=seed, **options)

    return wrapper


@click.command("spectral")
@click.option("--dims", default="2..8", show_default=True,
              help="Dimensions: a range 2..8, a list 2,3,5, or both (2..6,8).")
@click.option("--lattice-m", type=IntExpr(minimum=2),
              help="Use this lattice modulus instead of the rule (see the README).")
@click.option("--planes-up-to", type=COUNT, default=10, show_default=True,
              help="Count covering hyperplanes up to this dimension (their search grows fast).")
@click.option("--search", is_flag=True, help="Search for multipliers of modulus --m with the best M.")
@click.option("--top", type=IntExpr(minimum=1), default=10, show_default=True,
              help="With --search: how many multipliers to keep.")
@click.option("--candidates", type=IntExpr(minimum=1), default=10_000, show_default=True,
              help="With --search: how many candidates to draw.")
@json_option
@plot_option
@force_option
@_search_before_generator
@generator_options(required=False)
def spectral_command(generator, dims, lattice_m, planes_up_to, top, candidates,
                     as_json, plot_path, force) -> None:
    """Knuth's spectral test: exact lattice figures of an LCG in dimensions 2..8 (or --dims).

    With GEN (or --a/--m): a table, one row per dimension. With nothing: every LCG of the
    catalog, best M first. With --search --m M [--c odd|0] [--seed S]: random multipliers
    with the best M_T.
    """
    dims = parse_dims(dims)
    if plot_path:
        check_writable(plot_path, force)
    if generator is None:
        _catalog(dims, as_json, plot_path, force)
    elif generator.c == "odd":
        raise ValueError("--c odd is only meaningful with --search; give the increment itself")
    else:
        _one_generator(generator, dims, lattice_m, planes_up_to, as_json, plot_path, force)


# --c of the shared generator options also accepts the word "odd" here (for --search).
next(p for p in spectral_command.params if p.name == "c").type = IncrementExpr()
