"""``rnglab deal``: deal a game (Texas Hold'em, Dou Dizhu) from a shuffled deck."""

from __future__ import annotations

import click

from rnglab.cli.choices import GAME_NAMES
from rnglab.cli.common import IntExpr, emit_json, generator_options, json_option, lazy, named_pipeline
from rnglab.cli.shuffle import shuffle_options

shuffle_deck = lazy("shuffles.algorithms", "shuffle")
deal_hands, game, check_game_deck = lazy("shuffles.deal", "deal_hands", "game", "check_game_deck")


def pipeline_deck(game_name: str):
    """The deck of a pipeline named as GEN, which ``deal`` shuffles and names the cards by (``None`` for a
    generator); refused when it is not the game's."""
    pipeline = named_pipeline()
    if pipeline is None:
        return None
    try:
        check_game_deck(game_name, pipeline.deck)
    except ValueError as refusal:
        raise ValueError(f"{refusal}: the pipeline {pipeline.name} shuffles its own deck; "
                         "choose a game dealt from it or another generator") from None
    return pipeline.deck


@click.command("deal")
@generator_options()
@shuffle_options
@click.option("--game", "game_name", type=click.Choice(list(GAME_NAMES)), default="holdem", show_default=True,
              help="The game dealt: holdem (52 cards) or doudizhu (54 cards, 3 players).")
@click.option("--players", type=IntExpr(minimum=1), default=None,
              help="Players (Hold'em 2..22, default 2; Dou Dizhu 3).")
@click.option("--no-burn", is_flag=True, help="Hold'em: deal the board without burn cards.")
@json_option
def deal_command(generator, shuffle, reducer, game_name, players, no_burn, as_json) -> None:
    """Shuffle with generator GEN and deal one game: hands one card at a time, then the board or kitty."""
    naming_deck = pipeline_deck(game_name)
    if no_burn and game_name != "holdem":
        raise ValueError(f"--no-burn applies to holdem only: {game_name} burns no cards")
    source, reducer = generator.make(), reducer or generator.native_reducer
    order = shuffle_deck(game(game_name).deck_size, source, shuffle, reducer)
    result = deal_hands(game_name, order, players, burn=not no_burn, deck=naming_deck)
    if as_json:
        emit_json({"generator": generator.name, "seed": source.seed, **shuffle.describe(), "reducer": reducer.name,
                   **result.to_dict()})
        return
    for player, hand in enumerate(result.hands):
        click.echo(f"player {player + 1}: {' '.join(hand)}")
    for name, cards in result.board.items():
        click.echo(f"{name}: {' '.join(cards)}")
