"""``rnglab crack``: recover the seed of a deal from a few visible cards, and predict the rest.

Examples::

    rnglab crack delphi --policy ms-midnight --algo poker1999 --seen "7h 2c Qs Td 4d"
    rnglab crack msvc --policy time-s --window "2026-11-22T10:00:00±12h" --seen "As Kd 7h 2c 9s"
    rnglab crack msvc --seeds 0..2^31-1 --seen "..."     # half of the 2^32 seeds: one of two machines
    rnglab crack java --outputs -1155869325,431529176     # a generator seen directly
"""

from __future__ import annotations

import click

from ..crack import (CrackResult, StateRecovery, expected_false_matches, make_plan, observe, parse_outputs,
                     parse_seed_range, policy_seeds, recover_state, search)
from ..presets import make_source
from .common import COUNT, emit_json, format_table, json_option, progress


@click.command("crack")
@click.argument("gen", metavar="GEN")
@click.option("--policy", "policy_name", help="Seed policy: fixed[:N], time-s, ms-midnight, ms-boot, pid-time.")
@click.option("--window", help="Start times: 1d, 90m, or 2026-11-22T10:00:00±60s (default: the policy's period).")
@click.option("--seeds", "seed_range", help="Seed range A..B, both included (e.g. 0..2^32-1); instead of --policy.")
@click.option("--algo", "algorithm_name", default="fisher-yates", show_default=True, help="Shuffle algorithm.")
@click.option("--reduce", "method", default="native", show_default=True,
              help="Range reducer, or 'native' for the generator's own bounded call.")
@click.option("--seen", help="Cards seen, as names (\"As Kd 7h\") or 0-based indices.")
@click.option("--positions", help="Where the cards were seen (0-based, default 0,1,...,k-1).")
@click.option("--deck", default="52", show_default=True, help="Deck: 52, 54 or a size.")
@click.option("--outputs", help="Instead of cards: consecutive raw outputs V1,V2,... (java: nextInt() values).")
@click.option("--predict", type=COUNT, default=10, show_default=True, help="Outputs to predict with --outputs.")
@json_option
def crack_command(gen, policy_name, window, seed_range, algorithm_name, method, seen, positions, deck, outputs,
                  predict, as_json) -> None:
    """Find every seed of generator GEN whose shuffle shows the cards seen, and print each predicted deck.

    The seeds come from a policy over a window of start times (--policy,
    --window) or from a range (--seeds A..B); a big range can be split into
    sub-ranges searched on different machines. With --outputs, GEN's state is
    recovered from consecutive outputs instead.
    """
    if outputs is not None:
        source = make_source(gen)
        recovery = recover_state(gen, parse_outputs(outputs, source), predict)
        if as_json:
            emit_json(recovery)
        else:
            click.echo(_recovery_text(recovery, source.range_size if "-" in outputs else None))
        return
    if seen is None:
        raise click.UsageError("give the cards seen with --seen (or outputs with --outputs)")
    seeds = _seed_space(policy_name, window, seed_range)
    observation = observe(seen, positions, deck)
    result = _search(gen, seeds, observation, algorithm_name, method, as_json)
    if as_json:
        emit_json({**result.to_dict(), "seeds_per_second": result.rate})
    else:
        click.echo(_result_text(result))
    if not result.complete:
        click.echo("Interrupted: resume with " + " ".join(f"--seeds {a}..{b - 1}" for a, b in result.remaining),
                   err=True)
        raise click.exceptions.Exit(130)


def _seed_space(policy_name, window, seed_range):
    if seed_range is not None:
        if policy_name is not None or window is not None:
            raise click.UsageError("give either --seeds or --policy/--window, not both")
        return parse_seed_range(seed_range)
    if policy_name is None:
        raise click.UsageError("say where the seeds come from: --policy NAME [--window W] or --seeds A..B")
    return policy_seeds(policy_name, window)


def _search(gen, seeds, observation, algorithm_name, method, as_json) -> CrackResult:
    plan = make_plan(gen, seeds, observation, algorithm_name, method)
    if not as_json:
        click.echo(f"{seeds.label}: {seeds.size:,} seeds; {observation.size} cards seen "
                   f"({' '.join(observation.names())}); expected chance matches "
                   f"{expected_false_matches(seeds.size, observation.deck.size, observation.size):.3g}", err=True)
    with progress(plan.shuffle_count, "searching") as bar:
        return search(plan, on_progress=bar.update)


def _result_text(result: CrackResult) -> str:
    lines = [f"{result.generator}, {result.algorithm} with {result.reducer}: searched {result.searched:,} seeds "
             f"in {result.seconds:.2f} s ({result.rate / 1e6:.2f} million shuffled per second, {result.method})",
             f"cards seen: {' '.join(result.seen)} at positions {', '.join(map(str, result.positions))}",
             f"expected chance matches: {result.expected_false_matches:.3g}; fewer than one needs "
             f"{result.cards_for_unique} cards",
             f"candidates: {result.candidate_count}" + (f" (first {len(result.candidates)} listed)"
                                                        if len(result.candidates) < result.candidate_count else "")]
    if result.equivalence:
        lines.append(f"equivalence used: {result.equivalence}")
    rows = [[c.seed, " ".join(c.deck)] for c in result.candidates]
    return "\n".join(lines) + ("\n\n" + format_table(["seed", "predicted deck (position 0 first)"], rows)
                               if rows else "")


def _recovery_text(recovery: StateRecovery, signed_range: int | None) -> str:
    """Describe the states found; outputs in signed form (Java's int) when they were given so."""
    def shown(value):
        return value - signed_range if signed_range and value >= signed_range // 2 else value

    lines = [f"{recovery.generator}: {len(recovery.states)} state(s) consistent with {recovery.outputs} "
             f"(2^{recovery.hidden_bits} tried)"]
    for index, state in enumerate(recovery.states):
        seed = "" if recovery.seeds is None else f", seed {recovery.seeds[index]}"
        lines.append(f"state {state} (initial state {recovery.initial_states[index]}{seed})")
        lines.append("next outputs: " + " ".join(str(shown(v)) for v in recovery.predicted[index]))
    return "\n".join(lines)
