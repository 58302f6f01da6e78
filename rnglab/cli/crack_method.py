"""``rnglab crack --method``: choose brute force or lattice recovery, and run the lattice one.

Brute force tries every seed of a given space (``--seeds``), or every hidden
state bit of an output seen whole; the lattice recovers an LCG's state from
draws (``--bound``), top bits (``--top-bits``) or cards, whatever the state's size
(:mod:`rnglab.recovery.lattice`). :func:`choose` names the method and why.
"""

from __future__ import annotations

import click

from rnglab.cli.common import emit_json, lazy
from rnglab.core.params import parse_int

recover_from_outputs = lazy("recovery.lattice", "recover_from_outputs")
recover_from_deal = lazy("recovery.dealt", "recover_from_deal")


def choose(method: str, generator, *, seeds, outputs, bound, top_bits) -> tuple[str, str]:
    """``(method, why)``: ``brute``, ``lattice`` or ``linear`` for what was given (``--method auto`` decides).

    Without a seed space, a GF(2)-linear generator is recovered by elimination (brute force over its states is
    out of reach), an LCG by lattice reduction.
    """
    partial = bound is not None or top_bits is not None
    if method == "brute" and partial:
        raise click.UsageError("--bound and --top-bits are read by the lattice method: use --method auto or lattice")
    if method in ("lattice", "linear") and seeds is not None:
        raise click.UsageError(f"--seeds is a space to search by brute force; --method {method} needs none")
    if method == "linear" and (partial or not generator.is_gf2_linear):
        raise ValueError(f"--method linear needs a generator whose outputs are linear over GF(2) (MT19937, V8, "
                         f"xorshift, WELL) and whole outputs or cards; {generator.name}"
                         + (" is given --bound or --top-bits" if generator.is_gf2_linear else _not_linear(generator)))
    if outputs is not None and not (generator.is_lcg or generator.is_gf2_linear):
        raise ValueError(f"{generator.name}: no recovery from outputs: rnglab recovers an LCG's state (lattice) or a "
                         f"state linear over GF(2) (elimination), and {generator.name}{_not_linear(generator)}; "
                         "search its seeds from the cards instead: --seen CARDS --seeds POLICY")
    if method != "auto":
        return method, "chosen with --method"
    if partial:
        return "lattice", "partial outputs (draws or top bits) constrain the state linearly"
    if seeds is None and generator.is_gf2_linear:
        return "linear", (f"{generator.name}'s outputs are linear over GF(2): its state follows by elimination, "
                          "no seed tried")
    if outputs is not None:
        from rnglab.recovery.seen_outputs import MAX_HIDDEN_BITS

        if generator.output.kind == "state":
            return "lattice", "each output is the whole state: the lattice checks the outputs and predicts on"
        hidden = _hidden_bits(generator)
        if hidden is not None and hidden <= MAX_HIDDEN_BITS:
            return "brute", f"each output hides {hidden} state bits: 2^{hidden} states are tried"
        return "lattice", "the outputs hide too many state bits to try them all"
    if seeds is not None:
        return "brute", f"a seed space of {seeds.size:,} seeds was given"
    if generator.is_lcg:
        return "lattice", f"no seed space given: the {(generator.m - 1).bit_length()}-bit state of the LCG is recovered"
    raise click.UsageError("say where the seeds come from: --seeds POLICY [--window W] or --seeds A..B "
                           "(lattice recovery needs an LCG)")


def _not_linear(generator) -> str:
    """Why a generator's outputs are not linear over GF(2), after its name."""
    from rnglab.generators.xorshift import ALGORITHMS

    return f"'s {ALGORITHMS[generator.algorithm].output_rule}" if generator.kind == "linear" else \
        " is not linear over GF(2)"


def announce(method: str, why: str, as_json: bool) -> None:
    """Say on standard error which method runs and why (not with --json)."""
    if not as_json:
        click.echo(f"method: {method} ({why})", err=True)


def _hidden_bits(generator) -> int | None:
    if not generator.is_lcg or generator.m & (generator.m - 1) or generator.output.kind != "bits":
        return None
    return generator.m.bit_length() - 1 - generator.output.width


def lattice_outputs(generator, reducer, text: str, bound, top_bits, predict: int, why: str, as_json: bool) -> None:
    """Recover the state from draws below ``bound``, outputs' top bits, or whole outputs; print it."""
    from rnglab.recovery.clues import check_solvable
    from rnglab.recovery.seen_outputs import MAX_PREDICTED

    check_solvable(generator)
    if predict > MAX_PREDICTED:
        raise ValueError(f"at most {MAX_PREDICTED:,} values are predicted; got {predict:,}")
    clues = _clues(generator, text, bound, top_bits)
    recovery = recover_from_outputs(generator, reducer or generator.native_reducer, clues, predict)
    if _emitted(recovery, why, as_json):
        return
    lines = [(f"{recovery.generator}: {len(recovery.states)} state(s) from {recovery.observations} observations "
              f"({recovery.information_bits:.1f} bits against {recovery.state_bits:.0f} state bits; lattice)")]
    for index, state in enumerate(recovery.states):
        seed = "" if recovery.seeds is None else f", seed {recovery.seeds[index]}"
        lines.append(f"state {state} (initial state {recovery.initial_states[index]}{seed})")
        lines.append("next: " + " ".join(map(str, recovery.predicted[index])))
    if not recovery.complete:
        lines.append("enumeration cut short: other states may fit")
    click.echo("\n".join(lines))


def _clues(generator, text: str, bound, top_bits) -> list:
    """The observations: draws below ``bound``, top ``top_bits`` bits of outputs, or whole outputs."""
    from rnglab.recovery.clues import Clue

    if bound is not None and top_bits is not None:
        raise click.UsageError("give --bound (draws) or --top-bits (outputs), not both")
    values = [_parse_value(token) for token in text.replace(",", " ").split()]
    if not values:
        raise ValueError("give the outputs seen, e.g. --outputs \"4 5 2 5\"")
    width = generator.output.width if generator.output.kind == "bits" else (generator.m - 1).bit_length()
    if top_bits is not None and not 1 <= top_bits <= width:
        raise ValueError(f"--top-bits must be in [1, {width}] (the output's width); got {top_bits}")
    if bound is not None:
        return [Clue.value(v, bound) for v in values]
    if top_bits is not None:
        return [Clue.top_bits(v, top_bits, width) for v in values]
    return [Clue.value(v % (1 << width)) for v in values]


def _emitted(result, why: str, as_json: bool) -> bool:
    """Refuse a result with no state (contradictory observations), say the method, and emit JSON if asked."""
    if not result.states:
        raise ValueError("no state reproduces these observations: they contradict each other"
                         + ("" if result.complete else ", or the lattice needs more of them"))
    announce("lattice", why, as_json)
    if as_json:
        emit_json({**result.to_dict(), "method": "lattice", "why": why})
    return as_json


def _parse_value(token: str) -> int:
    value = parse_int(token)
    if value < 0:
        raise ValueError(f"observed values are non-negative; got {token}")
    return value


def lattice_deal(generator, reducer, shuffle, observation, why: str, as_json: bool) -> None:
    """Recover the state from the cards seen; print the states, seeds and predicted decks."""
    result = recover_from_deal(generator, reducer or generator.native_reducer, shuffle, observation)
    if _emitted(result, why, as_json):
        return
    lines = [(f"{result.generator}, {result.algorithm} with {result.reducer}: {len(result.states)} state(s) from "
              f"{result.draws} draws on {result.paths} path(s) ({result.information_bits:.1f} bits against "
              f"{result.state_bits:.0f} state bits; lattice)"),
             f"cards seen: {' '.join(result.seen)} at positions {', '.join(map(str, result.positions))}"]
    for index, state in enumerate(result.states):
        seed = "" if result.seeds is None else f", seed {result.seeds[index]}"
        lines.append(f"state {state}{seed}: {' '.join(result.decks[index])}")
    click.echo("\n".join(lines))
