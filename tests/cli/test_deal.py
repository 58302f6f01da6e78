"""``rnglab deal`` (rnglab.cli.deal): one game dealt in the documented order, from CPython's own shuffle.

The ``python`` pipeline is ``random.Random(seed).shuffle`` on the deck 2c..As (tests/cli/test_pipelines.py);
Hold'em deals positions ``p`` and ``P + p`` to player ``p``, burns one card before the flop (3), the turn and the
river (rnglab.shuffles.deal).
"""

import json
import random

from rnglab.cli import main
from rnglab.shuffles.cards import standard_deck


def cpython_deck(seed: int) -> list[str]:
    order = list(range(52))
    random.Random(seed).shuffle(order)
    return standard_deck().names(order)


def test_holdem_for_two_is_cpython_s_deck_in_dealing_order(capsys):
    assert main(["deal", "python", "--seed", "7", "--players", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    deck = cpython_deck(7)
    assert data["hands"] == [[deck[0], deck[2]], [deck[1], deck[3]]]
    assert data["board"]["flop"] == deck[5:8] and data["board"]["turn"] == [deck[9]]
    assert data["board"]["river"] == [deck[11]]
    assert (data["generator"], data["seed"], data["reducer"]) == ("python", 7, "python-randbelow")


def test_the_table_names_each_player_s_cards(capsys):
    assert main(["deal", "python", "--seed", "3", "--players", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    deck = cpython_deck(3)
    assert lines[:3] == [f"player {p + 1}: {deck[p]} {deck[3 + p]}" for p in range(3)]


def test_too_many_players_is_one_line_and_status_2(capsys):
    assert main(["deal", "python", "--players", "30"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and err.count("\n") == 1
