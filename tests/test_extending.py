"""Adding a reducer or a swap shuffle is one registry entry (the example of docs/guides/extending.md):
the new entries run through shuffle, crack, bias and fairness with no other change."""

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from rnglab.draws.bias import bias, brute_force_counts, exact_counts
from rnglab.draws.bounded import draw_bounded_reference
from rnglab.generators import as_generator, make_source
from rnglab.recovery.crack import crack, observe
from rnglab.reduction import counts
from rnglab.reduction.reducers import REDUCERS, Reducer
from rnglab.seeds.space import parse_seed_space
from rnglab.shuffles.algorithms import SHUFFLES, Algorithm, make_shuffle, shuffle, shuffle_decks
from rnglab.shuffles.draws import ScriptedDraws
from rnglab.shuffles.fairness import exact_fairness, permutation_law
from rnglab.shuffles.steps import SwapStep


def top_bits_map(x, n, R):
    """Reject x >= n * floor(R / n), then x // floor(R / n): unbiased, high bits first."""
    width = np.uint64(R // n)
    return x // width, x < width * np.uint64(n)


def backward_forward(n, config):
    """Swap i with j in [i, n-1], i = n-2 down to 0."""
    return [SwapStep(i, i, n - 1) for i in range(n - 2, -1, -1)]


@pytest.fixture
def registered(monkeypatch):
    """The guide's two entries, registered for one test."""
    monkeypatch.setitem(REDUCERS, "top-bits", Reducer("top-bits", True, "x // floor(R/n) below n floor(R/n)",
                                                      "worked example", top_bits_map, counts.remainder_rejecting_counts))
    monkeypatch.setitem(SHUFFLES, "backward-forward", Algorithm(
        "backward-forward", "i = n-2 down to 0: swap i with j in [i, n-1]", False, "program", "worked example",
        program=backward_forward))


def test_the_new_shuffle_and_reducer_deal_as_written_by_hand(registered):
    deck = shuffle(10, make_source("msvc", 7), make_shuffle("backward-forward"), REDUCERS["top-bits"])
    source, expected = make_source("msvc", 7), list(range(10))
    for i in range(8, -1, -1):
        j = i + int(draw_bounded_reference(source, 10 - i, 1, REDUCERS["top-bits"]).values[0])  # R = 2^15: width 32768 // (10 - i)
        expected[i], expected[j] = expected[j], expected[i]
    assert deck.tolist() == expected


def test_crack_finds_the_seed_with_the_new_entries(registered):
    seed = 4242
    deal = shuffle(52, make_source("msvc", seed), make_shuffle("backward-forward"), REDUCERS["top-bits"])
    seen = observe(" ".join(map(str, deal[:6])))
    result = crack(as_generator("msvc"), parse_seed_space("4000..4999"), seen, algo=make_shuffle("backward-forward"), reducer=REDUCERS["top-bits"])
    assert result.method == "batch" and [c.seed for c in result.candidates] == [seed]
    compiled = crack(as_generator("msvc"), parse_seed_space("4000..4999"),
                     observe(" ".join(map(str, shuffle(52, make_source("msvc", seed), make_shuffle("backward-forward"),
                                                       REDUCERS["modulo"])[:6]))),
                     algo=make_shuffle("backward-forward"), reducer=REDUCERS["modulo"])
    assert compiled.method == "compiled" and seed in [c.seed for c in compiled.candidates]


def test_bias_of_the_new_reducer_is_exact(registered):
    R, n = 2**15, 52
    result = bias(REDUCERS["top-bits"], n, R)
    assert result.unbiased and result.tv_distance == 0 and result.draws_to_detect is None
    counts, rejected = brute_force_counts(REDUCERS["top-bits"], n, R)
    assert set(counts.tolist()) == {R // n} and rejected == R % n
    assert exact_counts(REDUCERS["top-bits"], n, R).classes == ((R // n, n),)


def test_fairness_of_the_new_shuffle_equals_every_path(registered):
    n = 4
    bounds = [step.high - step.low + 1 for step in backward_forward(n, None)]
    paths = list(itertools.product(*[range(b) for b in bounds]))
    decks = shuffle_decks(n, ScriptedDraws(paths), make_shuffle("backward-forward"))
    observed = Counter(map(tuple, decks.tolist()))
    law = permutation_law(make_shuffle("backward-forward"), n)
    for rank, count in enumerate(law.counts):
        perm = tuple(law.representative(rank))
        assert Fraction(int(count), law.denominator) == Fraction(observed.get(perm, 0), len(paths))
    through = exact_fairness(make_shuffle("backward-forward"), n, reducer=REDUCERS["top-bits"], range_size=7)
    assert through.tv_distance == exact_fairness(make_shuffle("backward-forward"), n).tv_distance
