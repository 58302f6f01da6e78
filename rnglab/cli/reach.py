"""``rnglab reach``: how many deals a seed space can ever reach; the cycle of deals from one stream."""

from __future__ import annotations

import click

from rnglab.cli.cluster import exit_incomplete, held_journal, scale_options
from rnglab.cli.common import emit_json, format_table, generator_options, json_option, lazy, progress
from rnglab.cli.humanize import integer
from rnglab.cli.shuffle import deck_options, seed_space_options, shuffle_options

check_size = lazy("shuffles.algorithms", "check_size")
cluster_client = lazy("parallel.cluster", "cluster_client")
bits_for_every_deal, game_cycle, reach_bound, reachable_deals, reach_identity, smallest_deck_exceeding, \
    source_seconds, check_enumerable = lazy("shuffles.reach", "bits_for_every_deal", "game_cycle", "reach_bound", "reachable_deals", "reach_identity",
        "smallest_deck_exceeding", "source_seconds", "check_enumerable")
#: Estimated work above which reach says, before it starts, how long it may take.
ANNOUNCED_SECONDS = 10


@click.command("reach")
@generator_options()
@shuffle_options
@seed_space_options(pipeline_fills=True)
@deck_options(with_deck=False)
@click.option("--bound-only", is_flag=True, help="Do not enumerate: give min(seeds, states, n!) only.")
@click.option("--games", is_flag=True, help="Deal game after game from GEN's seed: when do the deals repeat?")
@scale_options()
@json_option
def reach_command(generator, shuffle, reducer, seeds, n, bound_only, games, scale, as_json) -> None:
    """Distinct deals of N cards reachable from a seed space of generator GEN.

    With --cluster or --workers the seeds are cut into chunks (--chunk) counted
    on dask workers; the distinct deals of all chunks are merged (same count).
    With --journal each finished chunk's deals are recorded, and the same
    command run again resumes where it stopped; Ctrl-C prints the deals of the
    seeds dealt so far.
    """
    n = shuffle.check(check_size(n, 1000))
    reducer = reducer or generator.native_reducer
    if scale.engaged and (games or bound_only):
        raise click.UsageError("--cluster, --workers, --chunk and --journal spread the enumeration of --seeds: "
                               "--games and --bound-only run here")
    if games:
        if seeds is not None or bound_only:
            raise click.UsageError("--games deals from GEN's one seed (--seed): --seeds and --bound-only do not apply")
        _games(generator, n, shuffle, reducer, as_json)
        return
    if seeds is None:
        raise ValueError("give --seeds POLICY or A..B (or --games)")
    if bound_only:
        result = reach_bound(generator, seeds, n, shuffle, reducer)
    else:
        result = _count(generator, seeds, n, shuffle, reducer, scale)
    data = {**result.to_dict(), "smallest_deck_exceeding_seeds": smallest_deck_exceeding(result.seeds),
            "bits_for_every_deal": bits_for_every_deal(n)}
    if as_json:
        emit_json(data)
        return
    click.echo(format_table(["quantity", "value"], [
        ["seed space", data["seed_space"]], ["seeds", data["seeds"]], ["distinct deals", _distinct_cell(data)],
        [f"{n}!", f"{data['n_factorial']:.4e} (2^{data['log2_n_factorial']:.2f})"],
        ["fraction reached", f"{data['fraction']:.4e}" if data["distinct"] is not None
         else f"at most {data['fraction']:.4e} (the bound / {n}!)"],
        ["largest period", "unknown" if data["period"] is None else integer(data["period"])],
        ["states", "unknown" if data["states"] is None else integer(data["states"])],
        ["bound min(seeds, states, n!)", data["bound"]],
        ["smallest deck with n! > seeds", data["smallest_deck_exceeding_seeds"]],
        ["state bits to reach every deal", data["bits_for_every_deal"]]]))


def _distinct_cell(data: dict) -> str | int:
    """The distinct deals, or what is known of them when they were not counted (--bound-only): the bound."""
    if data["distinct"] is not None:
        return data["distinct"]
    return f"not counted (--bound-only); at most the bound, {integer(data['bound'])}"


def _count(generator, seeds, n, shuffle, reducer, scale):
    """Count the deals of every seed (on a cluster, resuming from a journal); on Ctrl-C say what the seeds dealt
    reach and how to go on, and exit 130."""
    from rnglab.shuffles.reach import KIND, ReachInterrupted

    identity = reach_identity(generator, seeds, n, shuffle, reducer)
    with cluster_client(scale.cluster, scale.workers) as client, \
            held_journal(scale.journal, KIND, identity, "dealt") as journal:
        check_enumerable(generator, seeds)
        announce_dealing(generator, seeds.size)
        try:
            with progress(seeds.size, "dealing") as bar:
                if journal:
                    bar.update(sum(b - a for a, b in journal.done))
                return reachable_deals(generator, seeds, n, shuffle, reducer, client=client, journal=journal,
                                       chunk=scale.chunk, progress=bar.update)
        except ReachInterrupted as interrupted:
            partial = interrupted.partial
            click.echo(f"dealt {partial.dealt:,} of {partial.seeds:,} seeds: {partial.distinct:,} distinct deals "
                       f"among them (the space reaches at least as many)", err=True)
            exit_incomplete([], scale.journal, "--journal FILE (this run kept none: the count starts over)")


def announce_dealing(generator, seeds: int) -> None:
    """Say on standard error how long dealing ``seeds`` seeds may take, where one generator per seed makes it
    :data:`ANNOUNCED_SECONDS` or more (:func:`~rnglab.shuffles.reach.source_seconds`)."""
    estimate = source_seconds(generator, seeds)
    if estimate is not None and estimate >= ANNOUNCED_SECONDS:
        shown = f"{estimate:.0f} s" if estimate < 120 else f"{estimate / 60:.0f} min"
        click.echo(f"dealing {seeds:,} seeds, one {generator.name} generator per seed: up to {shown} of CPU "
                   "(at most 0.6 ms a seed, measured)", err=True)


def _games(generator, n, shuffle, reducer, as_json) -> None:
    if not generator.is_lcg:
        raise ValueError("--games needs an LCG (every state becomes a batch lane)")
    result = game_cycle(generator, n, shuffle, reducer)
    if as_json:
        emit_json(result)
        return
    click.echo(f"{result.generator} seed {result.seed}, {shuffle}, {reducer.name}: after {result.tail} games the deals "
               f"repeat every {result.games_period} games; {result.distinct_deals} distinct deals per cycle "
               f"({result.draws_per_game:.3f} outputs per game)")
