"""The compiled MRG kernels (every modulus below 2^63) and the batch of one MRG per seed, against the
Python-integer one-step reference :meth:`rnglab.generators.mrg.MRG.step`."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.generators import as_generator
from rnglab.generators.mrg import MRG, Combination, MRGBatch, Recurrence
from rnglab.generators.mrg_kernels import WIDE, fits_words, plan
from rnglab.recovery.crack import crack, make_plan, observe
from rnglab.reduction.reducers import REDUCERS
from rnglab.seeds.space import seed_range_space
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.cards import standard_deck

#: L'Ecuyer's MRG63k3a (Operations Research 47(1), 1999): moduli 2^63 - 6645 and 2^63 - 21129.
MRG63K3A = "mrg:m=9223372036854769163,a=0:1754669720:-3182104042/m=9223372036854754679,a=31387477935:0:-6199136374"
#: Moduli at the edges: just below 2^63, around 2^62 (the limit before), 2^32 and 2^61.
EDGES = st.sampled_from([2**63 - 1, 2**63 - 25, 2**62 + 1, 2**62 - 57, 2**61 - 1, 2**32 + 15, 3])


def _recurrence(moduli) -> st.SearchStrategy:
    return moduli.flatmap(lambda m: st.lists(st.integers(-m + 1, m - 1), min_size=1, max_size=4).filter(
        lambda a: a[-1] % m).map(lambda a: Recurrence(m, tuple(a))))


def _seeded(combination: Combination, data) -> tuple[MRG, MRG]:
    states = [tuple(data.draw(st.integers(0, c.m - 1)) for _ in range(c.order)) for c in combination.components]
    states = [s if any(s) else (1,) + s[1:] for s in states]
    vector = [v for s in states for v in s]
    return MRG(combination, vector=vector), MRG(combination, vector=vector)


@settings(max_examples=150, deadline=None)
@given(recurrence=_recurrence(st.one_of(EDGES, st.integers(2, 2**63 - 1))), data=st.data())
def test_compiled_path_equals_the_one_step_reference_below_2_63(recurrence, data):
    fast, slow = _seeded(Combination((recurrence,)), data)
    assert fits_words(fast.combination)
    assert fast.random_raw(40).tolist() == [slow.step() for _ in range(40)]
    assert fast.states == slow.states


@settings(max_examples=80, deadline=None)
@given(components=st.lists(_recurrence(st.one_of(EDGES, st.integers(2, 2**62))), min_size=2, max_size=3),
       rule=st.sampled_from(["difference", "fraction"]), data=st.data())
def test_compiled_combinations_equal_the_reference(components, rule, data):
    combination = Combination(tuple(components), rule)
    fast, slow = _seeded(combination, data)
    expected = [slow.step() for _ in range(24)]
    if fits_words(combination):  # else the Python path: the same answer
        assert fast.random_raw(24).tolist() == expected


def test_mrg63k3a_is_compiled_with_wide_products():
    generator = as_generator(MRG63K3A)
    assert fits_words(generator.combination) and (plan(generator.combination)[1][2] == WIDE).all()
    fast, slow = generator.make(12345), generator.make(12345)
    assert fast.random_raw(2000).tolist() == [slow.step() for _ in range(2000)]


def test_three_huge_components_are_left_to_python():
    m = 2**63 - 25
    combination = Combination((Recurrence(m, (3,)), Recurrence(m - 2, (5,)), Recurrence(m - 6, (7,))), "difference")
    assert not fits_words(combination)


@pytest.mark.parametrize("name", ["mrg32k3a", "mrg31k3p", "wichmann-hill", "lecuyer88", "knuth-mrg", MRG63K3A])
def test_batch_lanes_equal_one_generator_per_seed_with_masks(name):
    combination = as_generator(name).combination
    seeds = np.array([1, 2, 777, 12345])
    batch = MRGBatch(combination, seeds)
    masks = [np.array([True, n % 2 == 0, n % 3 == 0, True]) for n in range(30)]
    lanes = [[] for _ in seeds]
    for mask in masks:
        values = batch.next_raw(mask)
        for lane in np.flatnonzero(mask):
            lanes[lane].append(int(values[lane]))
    for seed, got in zip(seeds, lanes):
        source = MRG(combination, int(seed))
        assert got == [source.step() for _ in got]


def test_batch_refuses_seeds_outside_the_seed_range():
    with pytest.raises(ValueError, match=r"\[1, 30268\]"):
        MRGBatch(as_generator("wichmann-hill").combination, np.array([30269]))


@pytest.mark.parametrize("name, seed", [("mrg32k3a", 7_777), ("wichmann-hill", 20_000), ("lecuyer88", 5_000)])
def test_crack_searches_mrgs_in_batches_and_finds_the_seed(name, seed):
    generator = as_generator(name)
    seen = observe(" ".join(standard_deck().names(shuffle(52, generator.make(seed), make_shuffle("fisher-yates"), REDUCERS["lemire"])[:6])))
    space = seed_range_space([(seed - 2000, seed + 2000)], "around")
    assert make_plan(as_generator(name), space, seen).method == "batch"
    assert [c.seed for c in crack(as_generator(name), space, seen).candidates] == [seed]
