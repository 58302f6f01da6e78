"""``rnglab gen``: print a generator's outputs."""

from __future__ import annotations

import click

from rnglab.cli.common import COUNT, emit_json, generator_options, json_option
from rnglab.core.params import describe_int

#: Most outputs printed; 'rnglab stream' writes more.
MAX_PRINTED = 10**7


@click.command("gen")
@generator_options()
@click.option("-n", "count", type=COUNT, default=10, show_default=True, help="Number of outputs.")
@click.option("--uniform", is_flag=True,
              help="Print the doubles the reference implementation returns (MRGs and combinations).")
@json_option
def gen_command(generator, count: int, uniform: bool, as_json: bool) -> None:
    """Print the first outputs of generator GEN (after seeding it with --seed).

    The integer outputs z; with --uniform, for an MRG or a combination
    (mrg32k3a, wichmann-hill, ...), the doubles its reference implementation
    computes from them, bit for bit (printed as the shortest exact decimal).
    """
    if count > MAX_PRINTED:
        raise ValueError(f"-n must be at most 10^7 for printing; got {describe_int(count)} "
                         "(use 'rnglab stream' for bulk output)")
    if uniform and not generator.is_mrg:
        raise ValueError(f"--uniform prints the reference doubles of MRGs and combinations; {generator.name} is not one")
    source = generator.make()
    values = source.uniforms(count) if uniform else source.random_raw(count)
    if as_json:
        emit_json({"generator": generator.name, "seed": source.seed, "low": source.low,
                   "high": source.high, "values": values})
        return
    click.echo("\n".join(repr(float(v)) if uniform else str(int(v)) for v in values))
