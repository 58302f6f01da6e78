"""Every path of a shuffle's random answers: the exact law of code that draws as it goes, against brute force over
every sequence of answers, and the code it refuses.

Users' functions run in their child process (and the refusals named with their file:line) are tested in
test_userfunc.py.
"""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rnglab.shuffles.paths import BeyondEnumeration, enumerate_deals


def naive(items, rng):
    for i in range(len(items)):
        j = rng.randrange(len(items))
        items[i], items[j] = items[j], items[i]


def fisher_yates(items, rng):
    for i in range(len(items) - 1, 0, -1):
        j = rng.randint(0, i)
        items[i], items[j] = items[j], items[i]


def law(deals):
    return {deal: Fraction(weight, deals.denominator) for deal, weight in deals.weights.items()}


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_the_naive_shuffle_s_law_is_the_count_of_its_n_to_the_n_paths(n):
    expected = Counter()
    for answers in itertools.product(range(n), repeat=n):
        items = list(range(n))
        for i, j in enumerate(answers):
            items[i], items[j] = items[j], items[i]
        expected[tuple(items)] += Fraction(1, n**n)
    deals = enumerate_deals(naive, n)
    assert law(deals) == dict(expected) and deals.paths == n**n


def test_fisher_yates_deals_every_order_once():
    deals = enumerate_deals(fisher_yates, 4)
    assert deals.paths == 24 and set(law(deals).values()) == {Fraction(1, 24)} and len(deals.weights) == 24


def test_random_is_j_over_2_to_the_k():
    # random() < 1/3 with 2 bits: 0 and 1/4 of the 4 values 0, 1/4, 1/2, 3/4 swap: probability 1/2, not 1/3
    def coin(items, rng):
        if rng.random() < 1 / 3:
            items.reverse()

    assert law(enumerate_deals(coin, 2, random_bits=2)) == {(0, 1): Fraction(1, 2), (1, 0): Fraction(1, 2)}
    assert law(enumerate_deals(coin, 2, random_bits=3)) == {(0, 1): Fraction(5, 8), (1, 0): Fraction(3, 8)}


def test_what_cannot_be_enumerated_is_refused():
    with pytest.raises(BeyondEnumeration, match="enumerated for n <= .*; got 0"):
        enumerate_deals(naive, 0)
    with pytest.raises(ValueError, match=r"the resolution of random\(\) must be in \[1, .*got 0"):
        enumerate_deals(naive, 3, random_bits=0)
    with pytest.raises(ValueError):
        enumerate_deals(lambda items, rng: [0] * len(items), 3)  # not a deal of the 3 items
