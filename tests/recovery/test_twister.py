"""The Mersenne Twisters' seeding undone (rnglab.recovery.twister), and the seeds of recovered states."""

import random

import numpy as np
import pytest

from rnglab.generators.xorshift import Mt19937x64
from rnglab.recovery import linear, linear_decks, twister


@pytest.mark.parametrize("seed", [0, 1, 5489, 2**32 - 1])
def test_mt19937_seed_comes_back_from_the_first_twist(seed):
    words = [int(w) for w in python_twisted(seed)]
    assert twister.seed_candidate(words) == seed


def python_twisted(seed):
    generator = random.Random()
    generator.setstate((3, tuple(twister.init_genrand(seed)) + (624,), None))
    generator.getrandbits(32)
    return generator.getstate()[1][:624]


def test_init_genrand_is_mt19937ar():
    # init_genrand(5489), the C++ default engine: word 1 as numpy.random.RandomState(5489) holds it
    # numpy's RandomState(seed) runs mt19937ar.c's init_genrand
    assert twister.init_genrand(5489) == np.random.RandomState(5489).get_state()[1].tolist()
    assert linear_decks.mt19937_seed(linear_decks.seeded_state(5489)) == 5489


@pytest.mark.parametrize("seed", [0, 42, 5489, 2**64 - 1])
def test_mt19937_64_seed_comes_back_from_its_first_312_outputs(seed):
    found = linear.recover_mt19937_64_words(Mt19937x64.seeded(seed).random_raw(312).tolist())
    assert [linear.mt19937_64_seed(state) for state in found.states] == [seed]


def test_mt19937_64_state_mid_stream_has_no_seed():
    source = Mt19937x64.seeded(42)
    source.random_raw(7)
    found = linear.recover_mt19937_64_words(source.random_raw(312).tolist())
    assert [linear.mt19937_64_seed(state) for state in found.states] == [None]
