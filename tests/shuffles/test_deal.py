"""Dealing a shuffled deck into hands (rnglab.shuffles.deal), in the documented order, on the unshuffled deck.

The standard deck is Ac 2c .. Kc, Ad .. Kd, Ah .., As .. Ks (index ``13 suit + rank``), plus BJ, RJ for Dou Dizhu; dealt
in its own order the positions are the cards, so each rule reads off directly.
"""

import pytest

from rnglab.shuffles.cards import standard_deck
from rnglab.shuffles.deal import GAMES, check_game_deck, deal_hands, game


def test_holdem_one_card_at_a_time_then_burn_flop_burn_turn_burn_river():
    result = deal_hands("holdem", range(52), players=3)
    # positions 0..5 to players 0,1,2,0,1,2; burn 6, flop 7..9, burn 10, turn 11, burn 12, river 13
    assert result.hands == [["Ac", "4c"], ["2c", "5c"], ["3c", "6c"]]
    assert result.board == {"flop": ["8c", "9c", "Tc"], "turn": ["Qc"], "river": ["Ad"], "burn": ["7c", "Jc", "Kc"]}
    assert deal_hands("holdem", range(52), players=2, burn=False).board == {"flop": ["5c", "6c", "7c"],
                                                                           "turn": ["8c"], "river": ["9c"]}


def test_dou_dizhu_seventeen_each_and_a_kitty_of_three():
    result = deal_hands("doudizhu", range(54))
    assert result.players == 3 and [len(hand) for hand in result.hands] == [17, 17, 17]
    assert result.hands[0][:3] == ["Ac", "4c", "7c"] and result.hands[2][-1] == "Qs"  # position 50
    assert result.board == {"kitty": ["Ks", "BJ", "RJ"]}


@pytest.mark.parametrize("name, order, players, message", [
    ("holdem", range(52), 23, r"holdem is dealt to 2\.\.22 players; got 23"),
    ("holdem", range(51), 2, "holdem needs a deck of 52 cards; got 51"),
    ("doudizhu", range(54), 4, r"doudizhu is dealt to 3\.\.3 players; got 4"),
    ("bridge", range(52), 4, "unknown game 'bridge'; choose from holdem, doudizhu"),
])
def test_refusals_name_the_rule(name, order, players, message):
    with pytest.raises(ValueError, match=message):
        deal_hands(name, order, players)


def test_a_game_is_dealt_from_its_own_cards():
    assert game("holdem") is GAMES["holdem"] and GAMES["doudizhu"].deck_size == 54
    check_game_deck("holdem", standard_deck())
    with pytest.raises(ValueError, match="holdem is dealt from the standard-52 deck"):
        check_game_deck("holdem", standard_deck(jokers=True))
