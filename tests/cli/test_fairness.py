"""``rnglab fairness`` (rnglab.cli.fairness): the exact law of a shuffle, checked by enumerating its paths.

The naive shuffle ``for i in 0..n-1: swap(i, uniform(0, n-1))`` on 3 cards has 27 equally likely paths over
6 orders: three orders come out 5 times, three 4 times (J. Atwood, "The danger of naivete", 2007), so its
total variation distance from uniform is ``(6 * |4.5 - 5| / 27) / 2 = 1/18``.
"""

import itertools
import json
from collections import Counter
from fractions import Fraction

from rnglab.cli import main


def naive_law(n: int) -> Counter:
    law = Counter()
    for path in itertools.product(range(n), repeat=n):
        deck = list(range(n))
        for i, j in enumerate(path):
            deck[i], deck[j] = deck[j], deck[i]
        law[tuple(deck)] += 1
    return law


def test_naive_on_three_cards(capsys):
    assert main(["fairness", "--algo", "naive", "--n", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    law = naive_law(3)
    assert sorted(law.values()) == [4, 4, 4, 5, 5, 5] and data["paths"] == 27 and data["reachable"] == 6
    assert Fraction(data["tv_distance"]) == Fraction(1, 18) == sum(abs(Fraction(c, 27) - Fraction(1, 6))
                                                                   for c in law.values()) / 2
    assert Fraction(data["most_likely"]["prob"]) == Fraction(5, 27) and law[tuple(data["most_likely"]["perm"])] == 5
    assert Fraction(data["least_likely"]["prob"]) == Fraction(4, 27) and law[tuple(data["least_likely"]["perm"])] == 4
    # row: the card, column: the position it ends at
    positions = [[sum(c for deck, c in law.items() if deck[p] == card) / 27 for p in range(3)] for card in range(3)]
    assert data["position_matrix"] == positions


def test_fisher_yates_is_exactly_uniform(capsys):
    assert main(["fairness", "--algo", "fisher-yates", "--n", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True and Fraction(data["tv_distance"]) == 0 and data["reachable"] == 24
