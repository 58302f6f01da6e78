"""``rnglab period`` for a generator linear over GF(2): characteristic polynomial, exact period, k(v) and the
dimension defect."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from rnglab.cli.common import emit_json, lazy

if TYPE_CHECKING:
    from rnglab.algebra.gf2_generators import Equidistribution, GF2Period

linear_model, gf2_period, equidistribution = lazy("algebra.gf2_generators", "linear_model", "gf2_period",
                                                  "equidistribution")

#: Resolutions v shown per line of the k(v) table.
PER_LINE = 8


def is_gf2_linear(generator) -> bool:
    """Whether ``rnglab period`` reads ``generator`` as a GF(2)-linear generator: a GF(2)-linear engine read one
    word an output (the algebra's model; CPython's ``random53`` floats take two words each)."""
    return generator.has_gf2_linear_engine and generator.words is None


def _exponent(value: int) -> str:
    return f"2^{value.bit_length()}" + (" - 1" if value & (value + 1) == 0 else "")


def _period_lines(result: GF2Period) -> list[str]:
    period = "not computed (the polynomial is not primitive)" if result.period is None else \
        f"{_exponent(result.period)} (the polynomial is primitive: every non-zero state on one cycle)"
    return [f"generator  {result.generator}: linear over GF(2), {result.state_size} bits of state",
            (f"polynomial degree {result.degree}, {result.weight} non-zero terms, "
             f"{'irreducible' if result.irreducible else 'reducible'}"),
            f"period     {period}"]


def _equidistribution_lines(result: Equidistribution) -> list[str]:
    lines = [f"equidistribution of the top v bits (k(v), bound floor({result.degree}/v)):"]
    for start in range(0, len(result.dimensions), PER_LINE):
        cells = [f"v={v + 1}: {d}/{b}" for v, (d, b) in
                 enumerate(zip(result.dimensions, result.bounds)) if start <= v < start + PER_LINE]
        lines.append("  " + "  ".join(cells))
    lines.append(f"dimension defect {result.defect}" + (" (maximally equidistributed)" if result.defect == 0 else ""))
    return lines


def print_linear_period(generator, as_json: bool) -> None:
    """Print the GF(2) structure of ``generator`` (its equidistribution when its outputs are linear)."""
    model = linear_model(generator)
    period = gf2_period(model)
    spread = equidistribution(model, period) if model.output_linear else None
    if as_json:
        emit_json({**period.to_dict(), "equidistribution": spread.to_dict() if spread else None})
        return
    lines = _period_lines(period)
    lines += _equidistribution_lines(spread) if spread else [
        "equidistribution: not defined (the output scrambler is not linear; the period is its engine's)"]
    click.echo("\n".join(lines))
