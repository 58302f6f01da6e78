"""Dealing a shuffled deck into hands.

Dealing order (documented, and what the command line shows):

* **Texas Hold'em** (52 cards, 2..22 players): the shuffled deck is dealt
  from position 0, one card at a time around the table, two rounds (player
  ``p`` gets positions ``p`` and ``P + p``); then, as in a casino, one card is
  burnt before the flop (3 cards), one before the turn and one before the
  river. ``burn=False`` deals the board without burns.
* **Dou Dizhu** (54 cards with both jokers, 3 players): one card at a time
  around the table until each player holds 17 (positions ``0..50``, player
  ``p`` gets ``p, p + 3, ...``); the last 3 cards are the kitty (dipai).
"""

from __future__ import annotations

from dataclasses import dataclass

from rnglab.core.registry import Registry
from rnglab.core.results import Result
from rnglab.shuffles.cards import Deck, standard_deck


@dataclass(frozen=True)
class Game:
    """A card game's deal: which positions of the shuffled deck go where."""

    name: str
    deck_size: int
    players: tuple  # allowed (low, high)
    summary: str


GAMES: Registry[Game] = Registry("game", {
    "holdem": Game("holdem", 52, (2, 22), "Texas Hold'em: 2 hole cards each, one at a time; burn, flop, burn, "
                   "turn, burn, river"),
    "doudizhu": Game("doudizhu", 54, (3, 3), "Dou Dizhu: 17 cards each, one at a time; 3 kitty cards"),
})


@dataclass(frozen=True)
class DealResult(Result):
    """One deal: the hands (card names) and the board or kitty.

    Attributes
    ----------
    game : str
    players : int
    hands : list of list of str
        ``hands[p]`` for player ``p`` (0 is the first to receive a card).
    board : dict of str to list of str
        ``flop``/``turn``/``river``/``burn`` (Hold'em) or ``kitty`` (Dou Dizhu).
    order : list of int
        The shuffled deck that was dealt (card indices at positions 0..n-1).
    """

    game: str
    players: int
    hands: list
    board: dict
    order: list


def game(name: str) -> Game:
    """Look up a game by name."""
    return GAMES[name]


def check_game_deck(name: str, deck: Deck) -> None:
    """Refuse to deal game ``name`` from ``deck`` (a pipeline's) when the game is dealt from another deck.

    A deck of the game's cards in another order (Deitel's rows of suits) is the game's deck: the deal names the
    cards by ``deck`` (:func:`deal_hands`).

    Raises
    ------
    ValueError
        When ``deck`` does not hold the cards of the game's standard deck (52 cards for Hold'em, 54 for Dou Dizhu).
    """
    rules = game(name)
    wanted = standard_deck(jokers=rules.deck_size == 54)
    if sorted(deck.labels) != sorted(wanted.labels):
        raise ValueError(f"{name} is dealt from the {wanted.name} deck ({wanted.size} cards), not from the "
                         f"{deck.name} deck ({deck.size} items)")


def deal_hands(name: str, order, players: int | None = None, *, burn: bool = True,
               deck: Deck | None = None) -> DealResult:
    """Deal the shuffled deck ``order`` (card indices) for game ``name``, the cards named by ``deck`` (default the
    game's standard deck; a pipeline's own deck of the same cards: :func:`check_game_deck`)."""
    rules = game(name)
    players = rules.players[0] if players is None else players
    low, high = rules.players
    if not low <= players <= high:
        raise ValueError(f"{name} is dealt to {low}..{high} players; got {players}")
    order = [int(c) for c in order]
    if len(order) != rules.deck_size:
        raise ValueError(f"{name} needs a deck of {rules.deck_size} cards; got {len(order)}")
    deck = deck or standard_deck(jokers=rules.deck_size == 54)
    if name == "holdem":
        return _deal_holdem(order, players, deck, burn)
    hands = [deck.names(order[p:51:3]) for p in range(3)]
    return DealResult(name, 3, hands, {"kitty": deck.names(order[51:])}, order)


def _deal_holdem(order: list, players: int, deck: Deck, burn: bool) -> DealResult:
    hands = [deck.names([order[p], order[players + p]]) for p in range(players)]
    position, board, burnt = 2 * players, {}, []
    for street, count in (("flop", 3), ("turn", 1), ("river", 1)):
        if burn:
            burnt.append(order[position])
            position += 1
        board[street] = deck.names(order[position:position + count])
        position += count
    if burn:
        board["burn"] = deck.names(burnt)
    return DealResult("holdem", players, hands, board, order)

