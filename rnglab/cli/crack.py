"""``rnglab crack``: recover the seed of a deal from a few visible cards, and predict the rest.

Examples::

    rnglab crack delphi --seeds ms-midnight --algo poker1999 --seen "7h 2c Qs Td 4d"
    rnglab crack msvc --seeds time-s --window "2026-11-22T10:00:00±12h" --seen "As Kd 7h 2c 9s"
    rnglab crack msvc --seeds 0..2^31-1 --seen "..."     # half of the 2^32 seeds: one of two machines
    rnglab crack java --outputs -1155869325,431529176     # a generator seen directly
    rnglab crack js-fisher-yates-v8 --seen "..."          # bottom cards of a V8 deal: GF(2) elimination
    rnglab crack python --outputs @words.txt              # 624 getrandbits(32) words (or random() floats)
    rnglab crack cpp-shuffle-mt19937 --method linear --seen @decks.txt   # ~130 whole std::shuffle decks, one a line
    rnglab crack java --outputs "4 5 2 5 4 1 ..." --bound 6 --predict 10   # dice: the lattice
    rnglab crack java --algo fisher-yates --seen "..." --positions 51,50,...  # no seed space: the lattice
    rnglab crack msvc --seeds 0..2^32-1 --seen "..." --cluster tcp://10.0.0.5:8786 --journal msvc.journal
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import click

from rnglab.cli.choices import MAX_SCALED_SEEDS
from rnglab.cli.cluster import exit_incomplete, held_journal, scale_options
from rnglab.cli.common import COUNT, GENERATOR, IntExpr, emit_json, format_table, json_option, lazy, progress
from rnglab.cli.crack_linear import linear_deal, linear_outputs, parse_phase, read_values
from rnglab.cli.crack_method import announce, choose, lattice_deal, lattice_outputs
from rnglab.cli.shuffle import deck_options, given_seeds, seed_space_options, shuffle_options

if TYPE_CHECKING:
    from rnglab.parallel.chunks import Failure
    from rnglab.recovery.crack import CrackResult
    from rnglab.recovery.seen_outputs import StateRecovery

expected_false_matches, make_plan, observe, search = lazy("recovery.crack", "expected_false_matches", "make_plan", "observe", "search")
check_chunk, check_device, run_search, search_identity = lazy("recovery.distributed", "check_chunk", "check_device", "run_search", "search_identity")
cluster_client = lazy("parallel.cluster", "cluster_client")
parse_outputs, recover_state = lazy("recovery.seen_outputs", "parse_outputs", "recover_state")


@click.command("crack")
@click.argument("generator", metavar="GEN", type=GENERATOR)
@shuffle_options
@seed_space_options(pipeline_fills=True)
@click.option("--seen", help="Cards seen, as names (\"As Kd 7h\", or \"Ace of Spades, ...\" as Deitel's program prints them) or 0-based indices.")
@click.option("--positions", help="Where the cards were seen (0-based, default 0,1,...,k-1).")
@deck_options(with_size=False)
@click.option("--outputs", help="Instead of cards: consecutive raw outputs V1,V2,... (java: nextInt() values).")
@click.option("--predict", type=COUNT, default=None, help="Outputs to predict with --outputs (default 10).")
@click.option("--bound", type=IntExpr(minimum=1), default=None,
              help="With --outputs: the values are draws reducer(output, N) below N (dice: 6).")
@click.option("--top-bits", type=IntExpr(minimum=1), default=None, metavar="K",
              help="With --outputs: the values are the top K bits of each output.")
@click.option("--method", type=click.Choice(["auto", "brute", "lattice", "linear"]), default="auto",
              show_default=True, help="Brute force over a seed space, lattice recovery of an LCG's state, or "
              "GF(2) elimination for a generator linear over GF(2) (MT19937, V8's Math.random, xorshift, WELL).")
@click.option("--cache-phase", default="0", show_default=True, metavar="P|any",
              help="With --method linear on js-fisher-yates-v8: Math.random() values of V8's 64-value block "
              "taken before the deal (0: a fresh node process; any: each of 0..63 tried).")
@scale_options(device=True)
@json_option
def crack_command(generator, seeds, shuffle, reducer, seen, positions, deck, outputs, predict, bound, top_bits,
                  method, cache_phase, scale, as_json) -> None:
    """Find every seed of generator GEN whose shuffle shows the cards seen, and print each predicted deck.

    The seeds come from a policy over a window of start times (--seeds POLICY
    --window W) or from ranges (--seeds A..B); a big range can be split into
    sub-ranges searched on different machines. With --outputs, GEN's state is
    recovered from consecutive outputs instead. Without a seed space, an LCG's
    whole state is recovered by lattice reduction, and a GF(2)-linear
    generator's (MT19937, V8's Math.random, xorshift, WELL) by elimination over
    GF(2), from outputs, from the bottom cards of js-fisher-yates-v8, or from
    consecutive whole decks of cpp-shuffle-mt19937, one a line (--method linear).

    With --cluster or --workers the seed space is cut into chunks run as dask
    tasks; with --journal each finished chunk is recorded, and the same command
    run again resumes where it stopped. The summary says which ranges, if any,
    were not covered.
    """
    if outputs is not None and (seen is not None or seeds is not None or scale.engaged):
        raise click.UsageError("--outputs recovers the state from outputs: --seen, --seeds and the "
                               "--cluster, --workers, --journal, --chunk, --device options do not apply")
    if (bound is not None or top_bits is not None) and outputs is None:
        raise click.UsageError("--bound and --top-bits describe --outputs")
    if seen is None and outputs is None:
        raise click.UsageError("give the cards seen with --seen (or outputs with --outputs)")
    if outputs is not None:
        outputs = read_values(outputs, "outputs")  # @PATH: the file's contents, for every method
    if method in ("lattice", "linear"):
        seeds = given_seeds(seeds)  # these search no seeds: a pipeline's policy fills none for them
    method, why = choose(method, generator, seeds=seeds, outputs=outputs, bound=bound, top_bits=top_bits)
    phase = parse_phase(cache_phase)
    if method != "linear" and cache_phase != "0":
        raise click.UsageError("--cache-phase describes a V8 deal read by --method linear")
    if method == "linear":
        if scale.engaged:
            raise click.UsageError("the linear recovery runs in one process: --cluster, --workers, --journal, "
                                   "--chunk and --device apply to a search over --seeds")
        if outputs is not None:
            linear_outputs(generator, outputs, 10 if predict is None else predict, why, as_json)
        elif predict is not None:
            raise click.UsageError("--predict applies to --outputs; with --seen the whole deck is predicted")
        else:
            linear_deal(generator, reducer, shuffle, seen, positions, deck, phase, why, as_json)
        return
    if method == "lattice" and outputs is not None:
        lattice_outputs(generator, reducer, outputs, bound, top_bits, 10 if predict is None else predict, why, as_json)
        return
    if outputs is not None:
        source = generator.make()
        recovery = recover_state(generator, parse_outputs(outputs, source), 10 if predict is None else predict)
        announce(method, why, as_json)
        if as_json:
            emit_json({**recovery.to_dict(), "method": "brute", "why": why})
        else:
            click.echo(_recovery_text(recovery, source.range_size if "-" in outputs else None))
        return
    if predict is not None:
        raise click.UsageError("--predict applies to --outputs; with --seen the whole deck is predicted")
    observation = observe(seen, positions, deck)
    if method == "lattice":
        if scale.engaged:
            raise click.UsageError("the lattice recovery runs in one process: --cluster, --workers, --journal, "
                                   "--chunk and --device apply to a search over --seeds")
        lattice_deal(generator, reducer, shuffle, observation, why, as_json)
        return
    if seeds is None:
        raise click.UsageError("say where the seeds come from: --seeds POLICY [--window W] or --seeds A..B")
    plan = make_plan(generator, seeds, observation, shuffle, reducer,
                     **({"max_seeds": MAX_SCALED_SEEDS} if scale.cluster or scale.workers or scale.journal else {}))
    plan_line = (lambda: None) if as_json else functools.partial(_plan_line, plan, method, why)
    result, failures = _scaled_search(plan, scale, plan_line) if scale.engaged else (_search(plan, plan_line), [])
    if as_json:
        emit_json({**result.to_dict(), "seeds_per_second": result.rate, "method": "brute", "why": why,
                   "failed": [f.to_dict() for f in failures]})
    else:
        click.echo(_result_text(result))
    _exit_incomplete(result, failures, scale)


def _plan_line(plan, method: str, why: str) -> None:
    """The method and the search's plan, on standard error once the options are checked."""
    announce(method, why, False)
    seeds, seen = plan.seeds, plan.observation
    click.echo(f"{seeds.label}: {seeds.size:,} seeds; {seen.size} cards seen ({' '.join(seen.names())}); "
               f"expected chance matches {expected_false_matches(seeds.size, seen.deck.size, seen.size):.3g}",
               err=True)


def _search(plan, plan_line) -> CrackResult:
    plan_line()
    with progress(plan.shuffle_count, "searching") as bar:
        return search(plan, on_progress=bar.update)


def _scaled_search(plan, scale, plan_line) -> tuple[CrackResult, list[Failure]]:
    """The search through rnglab.recovery.distributed (a cluster, a journal, the GPU), checked before any output."""
    check_chunk(plan, scale.chunk)
    with cluster_client(scale.cluster, scale.workers) as client:
        check_device(plan, scale.device)
        with held_journal(scale.journal, "rnglab crack", search_identity(plan)) as journal:
            plan_line()
            with progress(plan.shuffle_count, "searching") as bar:
                if journal:
                    bar.update(sum(b - a for a, b in journal.done))
                return run_search(plan, client, chunk=scale.chunk, journal=journal, device=scale.device,
                                  on_progress=bar.update)


def _exit_incomplete(result: CrackResult, failures: list[Failure], scale) -> None:
    """Say what was not covered and exit 1 (chunks failed) or 130 (interrupted); nothing when complete."""
    if not result.complete:
        exit_incomplete(failures, scale.journal, f"--seeds {result.resume_option()}", note=" (searched space)")


def _per_second(rate: float) -> str:
    """A rate as ``3,493`` or ``12.35 million``."""
    return f"{rate / 1e6:.2f} million" if rate >= 1e6 else f"{rate:,.0f}"


def _result_text(result: CrackResult) -> str:
    lines = [(f"{result.generator}, {result.algorithm} with {result.reducer}: searched {result.searched:,} seeds "
              f"in {result.seconds:.2f} s ({_per_second(result.rate)} shuffled per second, {result.method})"),
             f"cards seen: {' '.join(result.seen)} at positions {', '.join(map(str, result.positions))}",
             (f"expected chance matches: {result.expected_false_matches:.3g}; fewer than one needs "
              f"{result.cards_for_unique} cards"),
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

    lines = [(f"{recovery.generator}: {len(recovery.states)} state(s) consistent with {recovery.outputs} "
              f"(2^{recovery.hidden_bits} tried)")]
    for index, state in enumerate(recovery.states):
        seed = "" if recovery.seeds is None else f", seed {recovery.seeds[index]}"
        lines.append(f"state {state} (initial state {recovery.initial_states[index]}{seed})")
        lines.append("next outputs: " + " ".join(str(shown(v)) for v in recovery.predicted[index]))
    return "\n".join(lines)
