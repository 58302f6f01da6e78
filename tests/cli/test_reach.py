"""``rnglab reach`` (rnglab.cli.reach): distinct deals a seed space reaches, counted against CPython's shuffle.

200 seeds of ``random.Random(seed).shuffle`` on 5 cards give as many distinct orders as a set of CPython's
shuffles holds; 5! = 120 <= 200 < 6! = 720, so 6 cards is the smallest deck with more deals than seeds, and
every deal of 5 cards needs ceil(log2 120) = 7 bits.
"""

import json
import math
import random

import pytest

from rnglab.cli import main


def test_distinct_deals_are_cpython_s(capsys):
    assert main(["reach", "python", "--n", "5", "--seeds", "0..199", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    orders = set()
    for seed in range(200):
        deck = list(range(5))
        random.Random(seed).shuffle(deck)
        orders.add(tuple(deck))
    assert data["distinct"] == len(orders) and data["seeds"] == data["dealt"] == 200
    assert data["n_factorial"] == 120 and data["fraction"] == pytest.approx(len(orders) / 120, rel=1e-15)
    assert data["smallest_deck_exceeding_seeds"] == 6 and data["bits_for_every_deal"] == math.ceil(math.log2(120))
