"""``rnglab list``: the generator catalog and what can be chosen."""

from __future__ import annotations

import click

from rnglab.cli.common import emit_json, format_table, json_option, lazy

catalog = lazy("generators", "catalog")
pipelines = lazy("shuffles.pipelines", "pipelines")


def catalog_rows() -> list[dict]:
    """One dictionary per catalog entry, with its parameters and conventions."""
    rows = []
    for entry in catalog().values():
        low, high = entry.output_range()
        rows.append({
            "name": entry.name, "kind": entry.kind, "a": entry.a, "c": entry.c, "m": entry.m,
            "b": entry.carry.b if entry.carry else None,
            "output": str(entry.output) if entry.is_lcg else None,
            "seeding": entry.seeding.name if entry.is_lcg else _seeding(entry),
            "components": [str(c) for c in entry.combination.components] if entry.is_mrg else None,
            "combine": entry.combination.rule if entry.is_mrg else None,
            "low": low, "high": high, "bounded": entry.native_reducer.name,
            "description": entry.description, "source": entry.citation,
        })
    return rows


def pipeline_rows() -> list[dict]:
    """One dictionary per named pipeline: its parts by name, its program and its sources."""
    return [{"name": p.name, "kind": "pipeline", "generator": p.generator.name, "seeding": p.seeding.name,
             "bounded": p.reducer.name, "algorithm": str(p.shuffle), "deck": p.deck.name, "description": p.program,
             "source": p.source, "reference": p.reference} for p in pipelines().values()]


def _seeding(entry) -> str | None:
    """The seeding named in the catalog for the other kinds (None for the OS source): for a GF(2)-linear
    generator its rule (:mod:`rnglab.generators.xorshift`: ``state``, ``splitmix64``, ``fmix64``,
    ``init_genrand64``)."""
    if entry.kind == "numpy":
        return "init_genrand" if entry.init_genrand else "seedsequence"
    if entry.is_mrg:
        return "every-value"
    if entry.kind == "linear":
        from rnglab.generators.xorshift import ALGORITHMS

        return ALGORITHMS[entry.algorithm].seeding
    return None


@click.command("list")
@json_option
def list_command(as_json: bool) -> None:
    """List the generator catalog (names usable as GEN in every command) and the named pipelines."""
    rows, named = catalog_rows(), pipeline_rows()
    if as_json:
        emit_json(rows + named)
        return
    click.echo(format_table(
        ["name", "kind", "a", "c", "m", "output", "range", "bounded"],
        [[r["name"], r["kind"], r["a"], r["c"], _power_form(r["m"]), r["output"], f"[{r['low']}, {r['high']}]",
          r["bounded"]] for r in rows]))
    click.echo("\nSources:\n" + "\n".join(f"  {r['name']}: {r['source']}" for r in rows))
    click.echo("\nMWCs t -> a (t mod b) + floor(t / b), output t mod b, listed as their LCG t -> a t mod (a b - 1):\n"
               + "\n".join(f"  {r['name']}: b = {_power_form(r['b'])}" for r in rows if r["b"]))
    click.echo("\nMRGs x_n = (a1 x_{n-1} + ... + ak x_{n-k}) mod m and their combinations:\n" + "\n".join(
        f"  {r['name']}: {r['combine']} of {'; '.join(r['components'])}" for r in rows if r["components"]))
    click.echo("\nAn LCG can also be written lcg:a=16807,m=2^31-1[,c=0][,seed=1][,output=bits(16,15)] "
               "or given with --a/--c/--m; an MRG mrg:m=2^31-1,a=271828183:-314159269[,seed=1].")
    click.echo("\nPipelines (a real program's shuffle; usable as GEN in shuffle, deal, fairness, reach and crack, "
               "where it sets the generator, reducer and algorithm):\n")
    click.echo(format_table(["name", "generator", "seeding", "reducer", "algorithm", "deck"],
                            [[r["name"], r["generator"], r["seeding"], r["bounded"], r["algorithm"], r["deck"]]
                             for r in named]))
    click.echo("\nPipeline sources (pinned by tests/data/pipelines/):\n" + "\n".join(
        f"  {r['name']}: {r['description']}. {r['source']}; reference {r['reference']}" for r in named))


def _power_form(m: int | None) -> str:
    """Write moduli near a power of two as 2^e, 2^e-k."""
    if m is None:
        return ""
    exponent = m.bit_length()
    for e in (exponent - 1, exponent):
        if abs(m - 2**e) < 1000:
            diff = m - 2**e
            return f"2^{e}" + (f"{diff:+d}" if diff else "")
    return str(m)
