"""``rnglab spectral``: Knuth's spectral test of an LCG or the catalog, and a multiplier search.

``rnglab spectral [GEN]`` runs the test (the ``test`` subcommand, the default);
``rnglab spectral search --m M`` searches for good multipliers.
"""

from __future__ import annotations

import click

from rnglab.cli.choices import MAX_DIMENSION
from rnglab.cli.cluster import exit_incomplete, held_journal, scale_options
from rnglab.cli.common import (
    COUNT,
    INT,
    IntExpr,
    emit_json,
    force_option,
    format_table,
    generator_options,
    json_option,
    lazy,
    plot_option,
)
from rnglab.cli.groups import DefaultCommandGroup
from rnglab.cli.outputs import save_plot
from rnglab.cli.progress import progress, with_progress
from rnglab.cli.spectral_mrg import (
    check_lcg_options,
    full_period_option,
    lacunary_option,
    norm_option,
    order_option,
    projections_option,
    run_mrg,
    run_mrg_search,
)
from rnglab.core.params import parse_int

search_multipliers = lazy("algebra.multipliers", "search_multipliers")
spectral_test = lazy("algebra.spectral", "spectral_test")
catalog_results = lazy("report.spectral", "catalog_results")

#: Triples drawn for the 3-D picture.
PLOT_TRIPLES = 20_000

#: Highest dimension run without --allow-slow. Measured with BKZ preprocessing (issue #20), on a
#: loaded two-core machine: MMIX (m = 2^64) t = 2..48 about 22 s in all (48 alone about 9 s),
#: MRG32k3a t = 4..48 about 20 s; time about doubles with each dimension beyond (MMIX 50: 32 s).
FAST_DIMENSION = 48

#: Highest --planes-up-to run without --allow-slow. Measured for MMIX on the same machine:
#: counting hyperplanes in dimension 12 took about 13 s, in 14 about 36 s.
FAST_PLANES = 12

#: Default --planes-up-to: well under a second per dimension.
DEFAULT_PLANES = 10

#: Most candidates a search examines without --allow-slow: from under a minute (10,000 a
#: second, m = 2^32, dimensions 2..8, bench/results/spectral.md) to 10 minutes (160 a second,
#: measured at 2,000 candidates on a loaded two-core machine).
FAST_CANDIDATES = 100_000

ALLOW_SLOW_HELP = "Run work beyond the limits that finish in seconds to minutes (see the guide 'The spectral test and periods')."


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


def check_test_work(dims: list[int], planes_up_to: int, allow_slow: bool) -> None:
    """Refuse, before starting, a spectral test that would take minutes or more, unless allowed."""
    if allow_slow:
        return
    if dims[-1] > FAST_DIMENSION:
        raise ValueError(f"dimensions above {FAST_DIMENSION} take minutes (about 9 s at 48 for a 64-bit "
                         f"modulus, doubling per dimension); pass --allow-slow to run them")
    if min(planes_up_to, dims[-1]) > FAST_PLANES:
        raise ValueError(f"counting hyperplanes above dimension {FAST_PLANES} takes from seconds to hours "
                         f"(about 36 s at 14 for a 64-bit modulus, about three times more per dimension); "
                         f"lower --planes-up-to or pass --allow-slow")


def check_search_work(candidates: int, allow_slow: bool) -> None:
    """Refuse, before starting, a search of more than :data:`FAST_CANDIDATES` candidates, unless allowed."""
    if candidates > FAST_CANDIDATES and not allow_slow:
        raise ValueError(f"--candidates above {FAST_CANDIDATES:,} can take hours (160 to 10,000 candidates "
                         f"a second for m = 2^32, dimensions 2..8); pass --allow-slow to run it")


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
    lcg = generator.lcg()
    a, c, m = lcg.a, lcg.c, lcg.m
    result = with_progress("spectral test", lambda callback: spectral_test(
        a, m, c, dims, lattice_m=lattice_m, planes_up_to=planes_up_to, progress=callback))
    if plot_path:
        from rnglab.plot.lattice import generator_figure

        states = lcg.random_states(PLOT_TRIPLES + 2)
        save_plot(generator_figure(generator.name, result, states, m), plot_path, force)
    if as_json:
        emit_json(result)
    else:
        _show_one(generator.name, result)


def _catalog(dims, as_json, plot_path, force):
    results = with_progress("catalog", lambda callback: catalog_results(dims, callback=callback))
    if plot_path:
        from rnglab.plot.lattice import merits_figure

        save_plot(merits_figure(results), plot_path, force)
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


class IncrementExpr(IntExpr):
    """An increment for the search: 0, or odd (an odd integer or the word ``odd``); even ones are refused."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value.strip().lower() == "odd":
            return "odd"
        increment = super().convert(value, param, ctx)
        if increment != 0 and increment % 2 == 0:
            self.fail(f"must be 0 or odd (or the word odd); got {increment}", param, ctx)
        return "0" if increment == 0 else "odd"


dims_option = click.option("--dims", default=None,
                           help="Dimensions: a range 2..8, a list 2,3,5, or both (2..6,8) [default: 2..8; "
                                "k+1..8 for a search of order k].")
allow_slow_option = click.option("--allow-slow", is_flag=True, help=ALLOW_SLOW_HELP)


@click.group("spectral", cls=DefaultCommandGroup, default="test")
def spectral_command() -> None:
    """Knuth's spectral test: 'rnglab spectral [GEN]' runs 'test'; 'rnglab spectral search --m M' searches multipliers."""


@spectral_command.command("test")
@dims_option
@norm_option
@projections_option
@lacunary_option
@click.option("--lattice-m", type=IntExpr(minimum=2),
              help="Use this lattice modulus instead of the rule (see the guide 'The spectral test and periods').")
@click.option("--planes-up-to", type=COUNT, default=DEFAULT_PLANES, show_default=True,
              help=f"Count covering hyperplanes up to this dimension (above {FAST_PLANES} needs --allow-slow).")
@allow_slow_option
@json_option
@plot_option
@force_option
@generator_options(required=False)
def test_command(generator, dims, norm, projections, lacunary, lattice_m, planes_up_to, allow_slow, as_json,
                 plot_path, force) -> None:
    """Exact lattice figures of an LCG, MRG or combination in dimensions 2..8 (or --dims; above 48 needs --allow-slow).

    With GEN (or --a/--m): a table, one row per dimension. With nothing: every LCG of the
    catalog, best M first. This is the default: 'rnglab spectral GEN' runs it. An MRG or a
    combination (mrg32k3a, mrg:m=..,a=a1:..:ak) takes --norm, --projections and --lacunary.
    """
    dims = parse_dims("2..8" if dims is None else dims)
    check_test_work(dims, planes_up_to if generator else 0, allow_slow)
    if generator is not None and generator.is_mrg:
        if lattice_m is not None or plot_path:
            raise ValueError("--lattice-m and --plot apply to LCGs only")
        run_mrg(generator, dims, norm, projections, lacunary, planes_up_to, as_json)
        return
    check_lcg_options(norm, projections, lacunary)
    if generator is None:
        _catalog(dims, as_json, plot_path, force)
    else:
        _one_generator(generator, dims, lattice_m, planes_up_to, as_json, plot_path, force)


def _search_in_chunks(m, increment, seed, dims, top, candidates, scale):
    """The search through rnglab.parallel (a cluster, a journal); exits 1 or 130 when incomplete."""
    import numpy as np

    from rnglab.algebra.multiplier_chunks import KIND, search_identity, search_in_chunks
    from rnglab.parallel.cluster import cluster_client

    if scale.journal and seed is None:
        raise click.UsageError("--journal needs --seed: a resumed search must draw the same candidates")
    seed = int(np.random.SeedSequence().entropy) if seed is None else seed
    identity = search_identity(m, increment, dims, top, candidates, seed)
    with (cluster_client(scale.cluster, scale.workers) as client,
          held_journal(scale.journal, KIND, identity, "examined") as journal,
          progress(candidates, "candidates") as bar):
        result, outcome = search_in_chunks(m, increment, dims, top, candidates, seed, chunk=scale.chunk,
                                           client=client, journal=journal, on_progress=bar.update)
    if not outcome.complete:
        exit_incomplete(outcome.failures, scale.journal, "--journal FILE (this run kept no journal)",
                        unit="candidates")
    return result


@spectral_command.command("search")
@click.option("--m", type=IntExpr(minimum=16), required=True, help="Modulus of the generators searched.")
@click.option("--c", "increment", type=IncrementExpr(), default=None,
              help="LCGs: increment odd (default; any odd c; full period needs a = 1 mod 4 for m = 2^e) or 0.")
@order_option
@full_period_option
@norm_option
@click.option("--seed", type=INT, help="Seed of the candidate draw (drawn and reported when absent).")
@dims_option
@click.option("--top", type=IntExpr(minimum=1), default=10, show_default=True,
              help="How many multipliers to keep.")
@click.option("--candidates", type=IntExpr(minimum=1), default=10_000, show_default=True,
              help=f"How many candidates to draw (above {FAST_CANDIDATES:,} needs --allow-slow).")
@allow_slow_option
@scale_options(chunk="CANDIDATES")
@json_option
@plot_option
@force_option
def search_command(m, increment, order, full_period, norm, seed, dims, top, candidates, allow_slow, scale, as_json,
                   plot_path, force) -> None:
    """Random multipliers a for modulus --m (or MRG coefficients, --order 2 or 3) with the best M_T = min S_t over --dims.

    With --cluster or --workers the distinct candidates are cut into chunks
    (--chunk) examined on dask workers; --journal FILE (with --seed) records each
    finished chunk, and the same command resumes. Same multipliers as one process.
    """
    # an MRG's t <= k are filled (S_t = 1): nothing to search there
    dims = parse_dims(f"{order + 1}..8" if dims is None else dims)
    check_search_work(candidates, allow_slow)
    if order > 1:
        given = [flag for flag, value in (("--c", increment), ("--plot", plot_path)) if value] + \
            (["--cluster/--workers/--journal"] if scale.engaged else [])
        if given:
            raise ValueError(f"{', '.join(given)} {'applies' if len(given) == 1 else 'apply'} to the LCG search "
                             "only (--order 1)")
        run_mrg_search(m, order, dims, top, candidates, seed, norm, full_period, as_json)
        return
    if full_period or norm is not None:
        raise ValueError("--full-period and --norm apply to the MRG search (--order 2 or 3)")
    increment = increment or "odd"
    if scale.engaged:
        result = _search_in_chunks(m, increment, seed, dims, top, candidates, scale)
    else:
        result = with_progress("candidates", lambda callback: search_multipliers(
            m, increment, dims, top, candidates, seed, progress=callback))
    if plot_path:
        from rnglab.plot.lattice import merits_figure

        best = [(str(found.a), spectral_test(found.a, m, 0 if increment == "0" else 1, dims,
                                             planes_up_to=0)) for found in result.best[:6]]
        save_plot(merits_figure(best), plot_path, force)
    if as_json:
        emit_json(result)
        return
    click.echo(format_table(["rank", "a", "hex", "lattice m", f"M_{dims[-1]}"]
                            + [f"S_{t}" for t in result.dims],
                            [[rank, b.a, hex(b.a), b.lattice_m, b.M] + list(b.S)
                             for rank, b in enumerate(result.best, 1)]))
    click.echo(f"\n{result.examined} distinct candidates examined in {result.seconds:.2f} s "
               f"({result.per_second:.0f} per second); m = {m}, c {increment}, seed {result.seed}")
