"""std::mt19937 behind consecutive libstdc++ std::shuffle decks (rnglab.recovery.linear_decks).

The decks are g++ 12's (tests/data/pipelines/cpp_decks_in_turn.txt, written by make_reference.cpp: one
std::mt19937 engine(1795341600) dealing 140 decks of 52 in turn).
"""

import random
from pathlib import Path

import numpy as np
import pytest

from rnglab.recovery import linear_decks as decks_module
from rnglab.recovery.linear import UnderdeterminedState, python_random_at, python_words
from rnglab.shuffles.pipelines import as_pipeline

DATA = Path(__file__).parents[1] / "data" / "pipelines" / "cpp_decks_in_turn.txt"
SEED = 1795341600
PIPELINE = as_pipeline("cpp-shuffle-mt19937")


def reference_decks() -> list[list[int]]:
    lines = [line.split() for line in DATA.read_text().splitlines() if not line.startswith("#")]
    assert {(name, seed, n) for name, seed, n, *_ in lines} == {("cpp-shuffle-mt19937", str(SEED), "52")}
    return [[int(v) for v in items] for *_, items in [(line[:3], line[3:]) for line in lines]]


def recover(decks):
    return decks_module.recover_mt19937_decks(decks, PIPELINE.shuffle, PIPELINE.reducer)


def test_seeded_engine_deals_the_decks_gplusplus_deals_in_turn():
    decks = reference_decks()
    assert len(decks) == 140
    state = decks_module.seeded_state(SEED)
    assert decks_module.deal_in_turn(state, 140, 52, PIPELINE.shuffle, PIPELINE.reducer) == decks


def test_state_and_seed_recovered_from_consecutive_decks():
    found = recover(reference_decks())
    assert found.states == [decks_module.seeded_state(SEED)] and found.seeds == [SEED]
    assert (found.decks, found.words, found.unknowns) == (140, 140 * 26, 19968)


def test_too_few_decks_give_the_rank_never_a_state():
    with pytest.raises(UnderdeterminedState, match=r"rank \d+ of 19968 from 2599 observations") as error:
        recover(reference_decks()[:100])
    assert 0 < error.value.rank < 19968 and error.value.needed > 0


def test_decks_out_of_order_are_refused():
    decks = reference_decks()[:130]
    with pytest.raises(ValueError, match="no std::mt19937 state deals these decks|contradict"):
        recover(decks[1:] + decks[:1])


def test_whole_deck_gives_its_ascending_draws():
    rng = random.Random(3)
    for n in (1, 2, 5, 52):
        draws = [rng.randrange(i + 1) for i in range(1, n)]
        deck = list(range(n))
        for i, j in enumerate(draws, start=1):
            deck[i], deck[j] = deck[j], deck[i]
        assert decks_module.ascending_draws(deck) == draws


def test_libstdcxx_calls_pair_the_positions():
    # 4 cards: swap(1, j1) drawn below 2, then j2, j3 from one value below 3 * 4
    deck = [0, 1, 2, 3]
    deck[1], deck[1] = deck[1], deck[1]  # j1 = 1
    deck[2], deck[0] = deck[0], deck[2]  # j2 = 0
    deck[3], deck[2] = deck[2], deck[3]  # j3 = 2
    assert decks_module.libstdcxx_shuffle_draws(deck) == [(1, 2), (0 * 4 + 2, 12)]


@pytest.mark.parametrize("deck", [[0, 0, 1], [1, 2, 3]])
def test_a_deck_that_is_not_each_card_once_is_refused(deck):
    with pytest.raises(ValueError, match="each of the 3 cards once"):
        decks_module.ascending_draws(deck)


def test_untemper_inverts_the_tempering():
    rng = random.Random(5)
    for _ in range(200):
        word = rng.getrandbits(32)
        assert decks_module.untemper(int(python_words(python_random_at(word), 1)[0])) == word


@pytest.mark.parametrize("seed", [0, 1, 5489, 2**32 - 1])
def test_seed_comes_back_from_the_state(seed):
    assert decks_module.mt19937_seed(decks_module.seeded_state(seed)) == seed


def test_a_state_no_seed_gives_has_no_seed():
    assert decks_module.mt19937_seed(random.Random(7).getrandbits(19968)) is None


def test_seeded_state_is_what_std_mt19937_hands_out():
    # ISO/IEC 14882:2011 [rand.predef]: the 10000th output of a default-constructed std::mt19937 is 4123659995
    assert int(python_words(python_random_at(decks_module.seeded_state(5489)), 10000)[-1]) == 4123659995
    assert np.array_equal(decks_module.engine_at(decks_module.seeded_state(5489)).random_raw(3),
                          python_words(python_random_at(decks_module.seeded_state(5489)), 3))
