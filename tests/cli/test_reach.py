"""``rnglab reach`` (rnglab.cli.reach): distinct deals a seed space reaches, counted against CPython's shuffle.

200 seeds of ``random.Random(seed).shuffle`` on 5 cards give as many distinct orders as a set of CPython's
shuffles holds; 5! = 120 <= 200 < 6! = 720, so 6 cards is the smallest deck with more deals than seeds, and
every deal of 5 cards needs ceil(log2 120) = 7 bits.
"""

import json
import math
import random
from fractions import Fraction

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
    assert data["n_factorial"] == 120 and Fraction(data["fraction_exact"]) == Fraction(len(orders), 120)
    assert data["fraction"] == len(orders) / 120 == 0.825 and data["fraction_exact"] == "33/40"  # not 0.8250000000000001
    assert data["smallest_deck_exceeding_seeds"] == 6 and data["bits_for_every_deal"] == math.ceil(math.log2(120))
