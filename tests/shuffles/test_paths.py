"""Every path of a shuffle's random answers: the exact law of code that draws as it goes, against brute force over
every sequence of answers, and the code it refuses.

Users' functions run in their child process (and the refusals named with their file:line) are tested in
test_userfunc.py.
"""

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from rnglab.shuffles.paths import BeyondEnumeration, enumerate_deals, replays


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


def test_a_batch_stops_at_the_paths_asked_and_counts_their_draws():
    from rnglab.shuffles.paths import follow_paths

    batch = follow_paths(naive, 3, "naive", 8, ([], []), most=5)
    # the 5 first of the 27 paths in depth-first order: answers 000, 001, 002, 010, 011; the next is 012
    assert (batch.paths, batch.draws, batch.following) == (5, 15, ([0, 1, 2], [3, 3, 3]))
    assert batch.covered == 5 / 27 and sum(batch.tally.values()) == 5
    # cut into batches of 2 and 3, the probability covered is added in the same order: the same float
    first = follow_paths(naive, 3, "naive", 8, ([], []), most=2)
    second = follow_paths(naive, 3, "naive", 8, first.following, most=3, covered=first.covered)
    assert (second.covered, second.following, first.tally + second.tally) == (batch.covered, batch.following,
                                                                              batch.tally)


def test_the_enumeration_is_refused_by_its_size_at_the_same_path_under_any_clock(monkeypatch):
    # naive at n = 8 has 8^8 paths of 8 draws: the first check, after 4,096 paths (8 s x 10^-6 x 22.4 s a path by
    # rates.PATH_SECONDS = 0.092 s > 0.05 s), estimates 4096 x 22.4e-6 / (4096 / 8^8) = 376 s. The refusal was once
    # a timing: under a clock 1,000 times slower (a loaded machine) it came after other paths, with other figures.
    import time

    message = (r"enumerating every path of the function \(4096 paths covered 0.000244 of the probability\) would "
               r"take about 376 s \(limit 0.05 s\): about 2232 paths of 8 draws fit")
    with pytest.raises(BeyondEnumeration, match=f"^{message}$"):
        enumerate_deals(naive, 8, seconds=0.05)
    real = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: 1000 * real())
    with pytest.raises(BeyondEnumeration, match=f"^{message}$"):
        enumerate_deals(naive, 8, seconds=0.05)


def test_a_loaded_machine_enumerates_the_same_law(monkeypatch):
    # Fisher-Yates at n = 7: 5,040 paths, 0.12 s by their size. On a clock 1,000 times slower the old time budget
    # (60 s) refused it; the size does not change with the clock.
    import time

    expected = enumerate_deals(fisher_yates, 7)
    real = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: 1000 * real())
    deals = enumerate_deals(fisher_yates, 7)
    assert deals == expected and deals.paths == 5040 and set(law(deals).values()) == {Fraction(1, 5040)}


def test_a_slow_call_is_followed_not_refused():
    # One call of 1.1 s of processor time: a per-call timer of 1 s once refused it (on a slower machine, a faster
    # function too). Only a child process's safety limits stop a call now.
    import time

    def slow_reverse(items, rng):
        if rng.randrange(3) == 1:
            until = time.process_time() + 1.1
            while time.process_time() < until:
                pass
            items.reverse()

    assert law(enumerate_deals(slow_reverse, 2)) == {(0, 1): Fraction(2, 3), (1, 0): Fraction(1, 3)}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_function_dealing_from_another_source_is_refused_every_time(n):
    # replayed twice, a shuffle of 4 items by the random module escaped once in 576 runs (a CI run of the hostile
    # table let it through); replayed until (n!)^-replays < 2^-40 it is refused at every run (at n = 2, before: 3/4)
    def other_source(items, rng):
        random.shuffle(items)

    for _ in range(30):
        with pytest.raises(ValueError, match="hidden state"):
            enumerate_deals(other_source, n)
    assert [replays(k) for k in (1, 2, 3, 4, 13, 16, 52)] == [1, 40, 16, 9, 2, 1, 1]
