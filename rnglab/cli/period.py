"""``rnglab period``: the exact period of an LCG (an MWC through its equivalent LCG) or an MRG, and optionally a walk."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import click

from rnglab.cli.common import COUNT, emit_json, generator_options, json_option, lazy, progress
from rnglab.cli.linear_period import is_gf2_linear, print_linear_period

if TYPE_CHECKING:
    from rnglab.algebra.mrg_period import CombinationPeriod
    from rnglab.algebra.mwc_period import MWCPeriod
    from rnglab.algebra.period import PeriodResult
    from rnglab.algebra.walk import WalkResult
    from rnglab.generators import LCG

period = lazy("algebra.period", "period")
mrg_period = lazy("algebra.mrg_period", "period")
mwc_period = lazy("algebra.mwc_period", "mwc_period")
default_max_steps, walk = lazy("algebra.walk", "default_max_steps", "walk")

#: Bit periods shown at the start and at the end of the list for m = 2^e.
FIRST_BITS, LAST_BITS = 8, 2


def _power(value: int) -> str:
    """``value``, followed by ``= 2^k`` when it is a power of two above 2."""
    if value > 2 and value & (value - 1) == 0:
        return f"{value} = 2^{value.bit_length() - 1}"
    return str(value)


def _factorization(result: PeriodResult) -> str:
    if result.factorization == ((result.m, 1),):
        return "(prime)"
    return "= " + " * ".join(f"{p}^{e}" if e > 1 else str(p) for p, e in result.factorization)


def _bit_lines(bits: tuple[int, ...]) -> list[str]:
    shown = list(enumerate(bits))
    if len(shown) > FIRST_BITS + LAST_BITS:
        shown = shown[:FIRST_BITS] + [None] + shown[-LAST_BITS:]
    return ["  ..." if item is None else f"  bit {item[0]:>3}: {_power(item[1])}" for item in shown]


def _period_lines(label: str, result: PeriodResult) -> list[str]:
    bound = "m" if result.c else "lambda(m)"
    lines = [
        f"generator  {label}: a = {result.a}, c = {result.c}, m = {result.m} {_factorization(result)}",
        f"seed       {result.seed} (the starting state)",
        f"period     {_power(result.period)}",
        f"tail       {result.tail}",
        f"maximum    {_power(result.max_period)} ({bound}); {result.summary}",
        "conditions",
    ]
    lines += [f"  [{'yes' if cond.holds else 'no '}] {cond.name}: {cond.explanation}" for cond in result.conditions]
    if result.bit_periods is not None:
        lines += ["bit periods (bit 0 = least significant bit of the state)"] + _bit_lines(result.bit_periods)
    return lines


def _mrg_lines(result: CombinationPeriod) -> list[str]:
    lines = [f"generator  {result.generator} ({result.rule}, {len(result.components)} component(s))",
             f"period     {'not computed' if result.period is None else result.period}"
             + ("" if result.period is None else f" (2^{math.log2(result.period):.2f})"),
             f"           {result.summary}"]
    if result.tail:
        lines.append(f"tail       {result.tail} (steps before the state enters its cycle)")
    for index, part in enumerate(result.components, 1):
        coefficients = ":".join(str(a) for a in part.a)
        lines += [f"component {index}: m = {part.m}, a = {coefficients}, state {part.state} (oldest first)",
                  f"  period   {'not computed' if part.period is None else part.period} "
                  f"(at most m^k - 1 = {part.max_period})" + (f", tail {part.tail}" if part.tail else ""),
                  f"  {part.summary}"]
        lines += [f"  [{'yes' if cond.holds else 'no '}] {cond.name}: {cond.explanation}" for cond in part.conditions]
    return lines


def _mwc_lines(result: MWCPeriod) -> list[str]:
    lines = [(f"multiply-with-carry a = {result.a}, b = {result.b}: the LCG above is its equivalent "
              f"(m = a b - 1, state t = c b + x, output x = t mod b)"),
             f"           period {'not computed' if result.period is None else result.period}: {result.summary}"]
    return lines + [f"  [{'yes' if cond.holds else 'no '}] {cond.name}: {cond.explanation}"
                    for cond in result.conditions]


def _period_of_mrg(generator, do_walk: bool, as_json: bool) -> None:
    if do_walk:
        raise ValueError("--walk steps LCGs; an MRG's period comes from its characteristic polynomial")
    result = mrg_period(generator.make())
    if as_json:
        emit_json(result.to_dict())
    else:
        click.echo("\n".join(_mrg_lines(result)))


def _walk_lines(result: WalkResult) -> list[str]:
    verdict = {True: "agrees with the algebra", False: "DISAGREES with the algebra",
               None: "no algebraic answer to compare with"}[result.agrees_with_algebra]
    return [f"walk       period {result.period}, tail {result.tail}: {verdict}",
            (f"           {result.steps} steps in {result.seconds:.2f} s "
             f"({result.steps_per_second:.3g} steps/s, {result.method})")]


def _walk(source: LCG, exact: PeriodResult, max_steps: int | None) -> WalkResult:
    limit = default_max_steps(source.m) if max_steps is None else max_steps
    expected = exact.period + exact.tail
    if expected > limit:
        raise ValueError(f"the walk needs about {expected} steps, more than --max-steps = {limit}; "
                         "raise --max-steps to walk anyway")
    with progress(expected, "walking the cycle") as bar:
        return walk(source, max_steps=limit, progress=bar.update)


@click.command("period")
@generator_options()
@click.option("--walk", "do_walk", is_flag=True,
              help="Also step the generator until its state repeats, and compare with the algebra.")
@click.option("--max-steps", type=COUNT, default=None,
              help="Longest walk allowed (default 2^36 for m <= 2^32 or m = 2^e <= 2^64, else 2^24).")
@json_option
def period_command(generator, do_walk: bool, max_steps: int | None, as_json: bool) -> None:
    """Exact period and tail of an LCG (GEN, or --a/--m/--c) from its seed, by number theory.

    Tells whether the period is the maximum for m and c, and why (Hull–Dobell's
    conditions for c != 0; the order of a and the seed for c = 0), and for
    m = 2^e the period of every bit of the state. With --walk, confirms the
    answer by stepping the generator around its cycle. For an MRG (mrg32k3a,
    mrg:m=...,a=...) the period m^k - 1 when its characteristic polynomial is
    primitive modulo the prime m (Knuth 3.2.2), with the conditions, else the
    exact period (and tail) of its state from the orders of x modulo the
    polynomial's factors; for a combination the lcm of its components' periods. For a multiply-with-carry
    generator (mwc-36969, mwc:a=...,b=2^32) its equivalent LCG's analysis and
    the order of b modulo m = a b - 1, with the safe-prime conditions. For a
    generator linear over GF(2) (v8, xorshift128, well512a, mt19937, ...) the
    characteristic polynomial's degree and weight, the period 2^k - 1 when it
    is primitive, and the equidistribution k(v) of the top v bits with the
    dimension defect (MT19937: about 6 s of CPU).
    """
    if is_gf2_linear(generator):
        if do_walk:
            raise ValueError("--walk steps LCGs; a GF(2)-linear generator's period comes from its characteristic "
                             "polynomial")
        print_linear_period(generator, as_json)
        return
    if generator.is_mrg:
        _period_of_mrg(generator, do_walk, as_json)
        return
    source = generator.lcg()                        # a clear error for generators that are not LCGs
    exact = period(source)
    walked = _walk(source, exact, max_steps) if do_walk else None
    carry = mwc_period(generator.carry) if generator.carry else None
    if as_json:
        emit_json({"generator": generator.name, **exact.to_dict(),
                   **({"walk": walked.to_dict()} if walked else {}), **({"mwc": carry.to_dict()} if carry else {})})
    else:
        click.echo("\n".join(_period_lines(generator.name, exact) + (_mwc_lines(carry) if carry else [])
                              + (_walk_lines(walked) if walked else [])))
    if walked is not None and walked.agrees_with_algebra is False:
        raise click.exceptions.Exit(1)
