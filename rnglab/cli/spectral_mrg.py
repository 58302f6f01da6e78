"""``rnglab spectral`` for MRGs and combinations: options, their parsing, and the tables printed."""

from __future__ import annotations

import click

from rnglab.cli.choices import NORMALIZATIONS
from rnglab.cli.common import emit_json, format_table, lazy
from rnglab.cli.progress import with_progress
from rnglab.core.params import parse_int

mrg_spectral_test = lazy("algebra.mrg_spectral", "mrg_spectral_test")
search_mrg = lazy("algebra.mrg_search", "search_mrg")

#: Most lacunary lags one --lacunary list may name.
MAX_LAGS = 64

norm_option = click.option("--norm", type=click.Choice(NORMALIZATIONS), default=None,
                           help="MRGs: gamma_t of S_t: bestlat (default), laminated or rogers (see the guide 'The spectral test and periods').")
projections_option = click.option(
    "--projections", default=None, metavar="T2,T3,..",
    help="MRGs: LatMRG's M_{T,t2,t3,..}: also every {1,i2..is} with is <= ts (e.g. 20,10 for pairs to 20, triples to 10).")
lacunary_option = click.option(
    "--lacunary", default=None, metavar="LAGS|G:D",
    help="MRGs: outputs at these 1-based lags (1,2,5,9) or in groups of G every D steps (3:131072 is 1,2,3,D+1,..).")


order_option = click.option("--order", type=click.IntRange(1, 3), default=1, show_default=True,
                            help="Order k: 1 searches LCG multipliers, 2 or 3 MRG coefficients a_1..a_k.")
full_period_option = click.option("--full-period", is_flag=True,
                                  help="MRG search: keep only primitive polynomials (prime m, period m^k - 1).")


def _integers(text: str, option: str) -> list[int]:
    try:
        return [parse_int(part) for part in text.split(",")]
    except ValueError as error:
        raise ValueError(f"{option} must be integers separated by commas; got {text!r} ({error})") from None


def parse_lacunary(text: str, last: int) -> list[int]:
    """``1,2,5`` as given, or ``G:D``: groups of G successive lags every D, enough for dimension ``last``."""
    group, colon, spacing = text.partition(":")
    if not colon:
        lags = _integers(text, "--lacunary")
        if len(lags) > MAX_LAGS:
            raise ValueError(f"--lacunary names at most {MAX_LAGS} lags; got {len(lags)}")
        return lags
    size, step = _integers(group, "--lacunary")[0], _integers(spacing, "--lacunary")[0]
    if not 1 <= size <= step:
        raise ValueError(f"--lacunary G:D needs 1 <= G <= D; got {text!r}")
    return [1 + i % size + step * (i // size) for i in range(last)]


def check_lcg_options(norm, projections, lacunary) -> None:
    """Refuse the MRG options for an LCG of the catalog (its own path has its own constants)."""
    given = [name for name, value in (("--norm", norm), ("--projections", projections), ("--lacunary", lacunary))
             if value is not None]
    if given:
        raise ValueError(f"{', '.join(given)} apply to MRGs and combinations; write an LCG as "
                         "mrg:m=..,a=.. to use them")


def run_mrg(generator, dims, norm, projections, lacunary, planes_up_to, as_json) -> None:
    """Run and print the spectral test of an MRG or a combination."""
    bounds = _integers(projections, "--projections") if projections else []
    lags = parse_lacunary(lacunary, dims[-1]) if lacunary else None
    result = with_progress("spectral test", lambda callback: mrg_spectral_test(
        generator.combination, dims, norm=norm or "bestlat", lacunary=lags, projections=bounds,
        planes_up_to=planes_up_to, progress=callback))
    if as_json:
        emit_json(result)
    else:
        show(generator.name, result)


def _rows(figures_list, successive: bool):
    return [[len(f.coordinates) if successive else ",".join(map(str, f.coordinates)), f.nu2, f.S,
             "1 (filled)" if f.filled else "", f.planes, " ".join(map(str, f.witness))]
            for f in figures_list]


def show(name: str, result) -> None:
    """The tables of an :class:`~rnglab.algebra.mrg_spectral.MRGSpectralResult`."""
    click.echo(f"{name}: {result.source}")
    click.echo(f"m = {result.m}, k = {result.k}, a = " + ", ".join(map(str, result.a)))
    click.echo(f"normalisation {result.norm}: {result.norm_note}; S_t = nu_t / (gamma_t^(1/2) m^(k/t)), "
               f"nu_s / m for s <= k")
    if result.lacunary is not None:
        click.echo("lacunary lags: " + ", ".join(map(str, result.lacunary[:len(result.dims[-1].coordinates)])))
    headers = ["nu^2", "S", "S_t = 1", "planes", "witness"]
    click.echo(format_table(["t"] + headers, _rows(result.dims, True)))
    if any(f.filled for f in result.dims):
        click.echo(result.convention)
    last = len(result.dims[-1].coordinates)
    if result.M is not None:
        shown = [len(f.coordinates) for f in result.dims if not f.filled]
        click.echo(f"M_{last} = {result.M:.6g} (min S_t over t = " + ", ".join(map(str, shown[:3]))
                   + (f", ..., {last})" if len(shown) > 3 else ")"))
    if result.projections:
        click.echo("\n" + format_table(["coordinates"] + headers, _rows(result.projections, False)))
        click.echo(f"M over successive dimensions and {len(result.projections)} projections = "
                   f"{result.M_projections:.6g}")


def run_mrg_search(m, k, dims, top, candidates, seed, norm, full_period, as_json) -> None:
    """Run and print the MRG coefficient search."""
    result = with_progress("candidates", lambda callback: search_mrg(
        m, k, dims, top, candidates, seed, norm or "bestlat", full_period, progress=callback))
    if as_json:
        emit_json(result)
        return
    click.echo(format_table(["rank", "a_1..a_k", f"M_{dims[-1]}"] + [f"S_{t}" for t in result.dims],
                            [[rank, ":".join(map(str, b.a)), b.M] + list(b.S)
                             for rank, b in enumerate(result.best, 1)]))
    click.echo(f"\n{result.examined} distinct candidates examined in {result.seconds:.2f} s "
               f"({result.per_second:.0f} per second); m = {m}, k = {k}, normalisation {result.norm}"
               f"{', full period only' if full_period else ''}, seed {result.seed}")
