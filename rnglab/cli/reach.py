"""``rnglab reach``: how many deals a seed space can ever reach; the cycle of deals from one stream."""

from __future__ import annotations

import click

from ..generators import LCG
from ..reach import (bits_for_every_deal, game_cycle, reach_bound, reachable_deals, seed_space, seed_space_size,
                     smallest_deck_exceeding)
from ..shuffle import check_size
from .common import IntExpr, emit_json, format_table, generator_options, json_option, progress
from .shuffle import chosen_reducer, shuffle_options


@click.command("reach")
@generator_options()
@shuffle_options
@click.option("--seeds", "seeds_text", default=None, help="Seed space: a policy (time-s, ms-midnight, ...) or A..B.")
@click.option("--window", default=None, help="Start-time window for a seed policy (default 1h).")
@click.option("--n", "n", type=IntExpr(minimum=1), default=52, show_default=True, help="Deck size.")
@click.option("--bound-only", is_flag=True, help="Do not enumerate: give min(seeds, period, n!) only.")
@click.option("--games", is_flag=True, help="Deal game after game from GEN's seed: when do the deals repeat?")
@json_option
def reach_command(generator, algo, reduce, options, seeds_text, window, n, bound_only, games, as_json) -> None:
    """Distinct deals of N cards reachable from a seed space of generator GEN."""
    check_size(n, 1000)
    reduce = chosen_reducer(generator, reduce)
    if games:
        _games(generator, n, algo, reduce, options, as_json)
        return
    if seeds_text is None:
        raise ValueError("give --seeds POLICY or A..B (or --games)")
    result = _bound(generator, seeds_text, window, n, algo, reduce) if bound_only else \
        _enumerated(generator, seeds_text, window, n, algo, reduce, options)
    data = {**result.to_dict(), "smallest_deck_exceeding_seeds": smallest_deck_exceeding(result.seeds),
            "bits_for_every_deal": bits_for_every_deal(n)}
    if as_json:
        emit_json(data)
        return
    click.echo(format_table(["quantity", "value"], [
        ["seed space", data["seed_space"]], ["seeds", data["seeds"]], ["distinct deals", data["distinct"]],
        [f"{n}!", f"{data['n_factorial']:.4e} (2^{data['log2_n_factorial']:.2f})"],
        ["fraction reached", f"{data['fraction']:.4e}"], ["largest period", data["period"]],
        ["bound min(seeds, period, n!)", data["bound"]],
        ["smallest deck with n! > seeds", data["smallest_deck_exceeding_seeds"]],
        ["state bits to reach every deal", data["bits_for_every_deal"]]]))


def _bound(generator, seeds_text, window, n, algo, reduce):
    count, label = seed_space_size(seeds_text, window)
    return reach_bound(generator.make(), count, n, algo, reduce, label=label)


def _enumerated(generator, seeds_text, window, n, algo, reduce, options):
    seeds, label = seed_space(seeds_text, window)
    with progress(len(seeds), "dealing") as bar:
        return reachable_deals(generator.make(), seeds, n, algo, reduce, label=label, progress=bar.update,
                               **options)


def _games(generator, n, algo, reduce, options, as_json) -> None:
    source = generator.make()
    if not isinstance(source, LCG):
        raise ValueError("--games needs an LCG (every state becomes a batch lane)")
    result = game_cycle(source, n, algo, reduce, **options)
    if as_json:
        emit_json(result)
        return
    click.echo(f"{result.generator} seed {result.seed}, {algo}, {reduce}: after {result.tail} games the deals "
               f"repeat every {result.games_period} games; {result.distinct_deals} distinct deals per cycle "
               f"({result.draws_per_game:.3f} outputs per game)")
