"""The seed search's kernel: its hits against dealing every seed one at a time, with one card followed and with
several, the card followed through the swap table, and one kernel per reducer's map.

Searches through crack (every generator, shuffle and reducer, candidates reproduced) are in test_crack.py.
"""

import functools

import numpy as np
import pytest

from rnglab.draws.lcg import as_fields
from rnglab.generators import LCG, make_source
from rnglab.recovery.crack import compiled_kernel, observe
from rnglab.recovery.search_kernels import follow_card, search_seeds
from rnglab.reduction.reducers import REDUCERS, as_reducer
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.cards import standard_deck

SEEDS = np.arange(1100, 1400)


@functools.cache
def library_deals(generator, algo, reducer, seeds):
    """The one-at-a-time deals of ``seeds`` (a tuple): the reference of the search."""
    return np.array([shuffle(52, make_source(generator, seed), make_shuffle(algo), REDUCERS[reducer])
                     for seed in seeds])


def test_kernels_are_the_reducers_maps_not_registry_positions():
    from rnglab.draws.lcg import serves
    from rnglab.recovery.search_kernels import search_kernel
    from rnglab.reduction.reducers import REDUCERS

    msvc, mmix = make_source("msvc"), make_source("lcg:a=6364136223846793005,c=1442695040888963407,m=2^64")
    assert all(serves(msvc, entry) for entry in REDUCERS.values())
    assert [name for name, entry in REDUCERS.items() if serves(mmix, entry)] == ["bitmask", "lemire"]
    assert search_kernel(REDUCERS["lemire"].scalar.reduce) is search_kernel(as_reducer("lemire").scalar.reduce)


@pytest.mark.parametrize("generator, algo, reducer", [("msvc", "fisher-yates", "modulo"),
                                                      ("minstd", "naive", "lemire")])
@pytest.mark.parametrize("track", [1, 2])
def test_hits_are_the_seeds_whose_deal_shows_the_cards(generator, algo, reducer, track):
    # two cards of seed 1234's deal at positions 0 and 5: the hits are exactly the seeds dealing both there
    # (one card followed to the end, or both with the final positions checked on the way)
    decks = library_deals(generator, algo, reducer, tuple(SEEDS.tolist()))
    positions = [0, 5]
    cards = decks[SEEDS.tolist().index(1234)][positions]
    observation = observe(" ".join(standard_deck().names(cards)), "0,5")
    source = make_source(generator)
    kernel = compiled_kernel(source, REDUCERS[reducer], make_shuffle(algo), observation)
    states = np.asarray(source.seeding.to_states(SEEDS), dtype=np.uint64)
    hits = search_seeds(kernel["reduce"], states, kernel["generator"], kernel["draws"], kernel["steps"],
                        np.array(cards, dtype=np.int64), np.array(positions, dtype=np.int64), track, 52)
    expected = (decks[:, positions] == cards).all(axis=1)
    assert hits.astype(bool).tolist() == expected.tolist() and expected.sum() >= 1


def test_a_followed_card_ends_where_the_deal_puts_it():
    source, reducer = make_source("msvc"), REDUCERS["modulo"]
    kernel = compiled_kernel(source, reducer, make_shuffle("fisher-yates"), observe("Ac"))
    deck = library_deals("msvc", "fisher-yates", "modulo", (77,))[0]
    x = np.uint64(source.seeding.to_state(77))
    for card in (0, 13, 51):
        position, fewest = follow_card(kernel["reduce"], x, as_fields(kernel["generator"]), kernel["draws"], kernel["steps"],
                                       card, 1000)
        assert (position, fewest) == (deck.tolist().index(card), 1)


def test_a_followed_card_of_a_stuck_source_reports_no_draw():
    # x -> 3 x + 2 mod 2^32 holds 2^32 - 1, which threshold rejects: the fewest outputs a draw took is 0
    source = LCG(a=3, c=2, m=2**32, seed=1)
    kernel = compiled_kernel(source, REDUCERS["threshold"], make_shuffle("fisher-yates"), observe("Ac"))
    _, fewest = follow_card(kernel["reduce"], np.uint64(2**32 - 1), as_fields(kernel["generator"]), kernel["draws"],
                            kernel["steps"], 0, 20)
    assert fewest == 0
