"""The compiled swap shuffles on LCG lanes: decks dealt lane by lane and from one shared stream against the
library's one-at-a-time shuffle, a drawn position outside the deck, a stuck source, and the swap by hand."""

import numpy as np
import pytest

from rnglab.draws.lcg import kernel_fields
from rnglab.generators import LCG, make_source
from rnglab.recovery.crack import compiled_kernel, observe
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.kernels import deal_kernel, swapped


def kernel_of(source, reducer="modulo", algo="fisher-yates"):
    return compiled_kernel(source, REDUCERS[reducer], make_shuffle(algo), observe("Ac"))


def test_swapped_by_hand():
    assert [swapped(p, 1, 3) for p in range(5)] == [0, 3, 2, 1, 4] and swapped(2, 2, 2) == 2


@pytest.mark.parametrize("generator, reducer, algo", [("msvc", "modulo", "fisher-yates"),
                                                      ("minstd", "lemire", "naive")])
def test_each_lane_deals_the_library_deck_of_its_seed(generator, reducer, algo):
    source, seeds = make_source(generator), [1, 77, 2026]
    kernel = kernel_of(source, reducer, algo)
    decks, drawn = np.tile(np.arange(52), (3, 1)), np.zeros(3, dtype=np.int64)
    states = np.array([source.seeding.to_state(seed) for seed in seeds], dtype=np.uint64)
    assert deal_kernel(kernel["scalar"].reduce)(decks, states, drawn, kernel["generator"], kernel["draws"],
                                         kernel["steps"][:, :2].copy())
    for seed, deck in zip(seeds, decks):
        assert deck.tolist() == shuffle(52, make_source(generator, seed), make_shuffle(algo), REDUCERS[reducer]).tolist()
    assert drawn.tolist() == [51, 51, 51] if algo == "fisher-yates" else drawn.min() >= 52


def test_one_shared_state_deals_row_after_row_from_one_stream():
    source, reference = make_source("msvc", 9), make_source("msvc", 9)
    kernel = kernel_of(source)
    decks, drawn = np.tile(np.arange(52), (2, 1)), np.zeros(1, dtype=np.int64)
    states = np.array([source.state["x"]], dtype=np.uint64)
    deal_kernel(kernel["scalar"].reduce)(decks, states, drawn, kernel["generator"], kernel["draws"], kernel["steps"][:, :2].copy())
    expected = [shuffle(52, reference, make_shuffle("fisher-yates"), REDUCERS["modulo"]).tolist() for _ in range(2)]
    assert decks.tolist() == expected and drawn.tolist() == [102]


def test_a_position_outside_the_deck_stops_the_deal():
    source = make_source("msvc", 9)
    kernel = kernel_of(source)
    steps = kernel["steps"][:, :2].copy()
    steps[0, 1] = 60  # the first draw lands past the 52 cards
    decks = np.tile(np.arange(52), (1, 1))
    assert not deal_kernel(kernel["scalar"].reduce)(decks, np.array([source.state["x"]], dtype=np.uint64),
                                             np.zeros(1, dtype=np.int64), kernel["generator"], kernel["draws"], steps)


def test_a_stuck_source_raises():
    # x -> 3 x + 2 mod 2^32 holds 2^32 - 1, which threshold rejects for every bound that does not divide 2^32
    source = LCG(a=3, c=2, m=2**32, seed=1)
    kernel = kernel_of(source, "threshold")
    assert kernel is not None and kernel_fields(source)[3] == 2**32 - 1
    with pytest.raises(ValueError, match="it is stuck"):
        deal_kernel(kernel["scalar"].reduce)(np.tile(np.arange(52), (1, 1)), np.array([2**32 - 1], dtype=np.uint64),
                                      np.zeros(1, dtype=np.int64), kernel["generator"], kernel["draws"],
                                      kernel["steps"][:, :2].copy())
