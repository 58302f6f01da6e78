"""Adding a reducer or a swap shuffle is one registry entry (the example of docs/guides/extending.md):
the new entries run through shuffle, crack, bias and fairness with no other change, and a reducer that
carries a one-draw map runs on every compiled path (draws, deals, the seed search)."""

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from rnglab.core.compiled import device
from rnglab.draws.bias import bias, brute_force_counts, exact_counts
from rnglab.draws.bounded import draw_bounded, draw_bounded_lanes, draw_bounded_reference
from rnglab.generators import as_generator, make_source
from rnglab.recovery.crack import crack, observe
from rnglab.reduction import counts
from rnglab.reduction.reducers import REDUCERS, Reducer
from rnglab.reduction.scalar import Scalar
from rnglab.seeds.space import parse_seed_space
from rnglab.shuffles.algorithms import SHUFFLES, Algorithm, make_shuffle, shuffle, shuffle_decks
from rnglab.shuffles.draws import ScriptedDraws, SequentialDraws
from rnglab.shuffles.fairness import exact_fairness, permutation_law
from rnglab.shuffles.steps import SwapStep


def top_bits_map(x, n, R):
    """Reject x >= n * floor(R / n), then x // floor(R / n): unbiased, high bits first."""
    width = np.uint64(R // n)
    return x // width, x < width * np.uint64(n)


@device
def top_bits_one(x, n, width, size, bits):
    """The same map on one draw, for compiled loops: ``width = floor(R / n)``."""
    value = x // width
    return value, value < n


def top_bits_width(n, R):
    return R // n


TOP_BITS = Reducer("top-bits", True, "x // floor(R/n) below n floor(R/n)", "worked example", top_bits_map,
                   counts.remainder_rejecting_counts, scalar=Scalar(top_bits_one, top_bits_width))


def backward_forward(n, config):
    """Swap i with j in [i, n-1], i = n-2 down to 0."""
    return [SwapStep(i, i, n - 1) for i in range(n - 2, -1, -1)]


@pytest.fixture
def registered(monkeypatch):
    """The guide's two entries, registered for one test."""
    monkeypatch.setitem(REDUCERS, "top-bits", TOP_BITS)
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
    result = crack(as_generator("msvc"), parse_seed_space("4000..4999"), seen, algo=make_shuffle("backward-forward"),
                   reducer=REDUCERS["top-bits"])
    assert result.method == "compiled" and [c.seed for c in result.candidates] == [seed]
    vectorised = crack(as_generator("msvc"), parse_seed_space("4000..4999"), seen,
                       algo=make_shuffle("backward-forward"), reducer=dataclasses.replace(TOP_BITS, scalar=None))
    assert vectorised.method == "batch" and vectorised.candidates == result.candidates
    compiled = crack(as_generator("msvc"), parse_seed_space("4000..4999"),
                     observe(" ".join(map(str, shuffle(52, make_source("msvc", seed), make_shuffle("backward-forward"),
                                                       REDUCERS["modulo"])[:6]))),
                     algo=make_shuffle("backward-forward"), reducer=REDUCERS["modulo"])
    assert compiled.method == "compiled" and seed in [c.seed for c in compiled.candidates]


def test_the_new_reducer_deals_on_the_compiled_path_as_one_at_a_time(registered):
    from rnglab.draws.lcg import serves
    from rnglab.shuffles.draws import BatchDraws

    seeds = list(range(100, 140))
    lanes = make_source("msvc").batch(seeds)
    assert serves(lanes, TOP_BITS)  # the deal kernel runs the new map
    algo = make_shuffle("backward-forward")
    decks = shuffle_decks(52, BatchDraws(lanes, TOP_BITS), algo)
    assert decks.tolist() == [shuffle(52, make_source("msvc", s), algo, TOP_BITS).tolist() for s in seeds]


def test_the_new_reducer_draws_in_one_compiled_pass_as_its_map(registered):
    source, reference = make_source("pcg64", 3), make_source("pcg64", 3)  # 64-bit words read as 32-bit halves
    drawn = draw_bounded(source, 1000, 5000, TOP_BITS)
    expected = draw_bounded_reference(reference, 1000, 5000, dataclasses.replace(TOP_BITS, scalar=None))
    assert drawn.values.tolist() == expected.values.tolist() and drawn.draws == expected.draws


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


def test_the_new_reducer_redraws_through_the_numpy_paths(registered):
    """msvc's R = 2^15 is no compiled draw's range, and without its one-draw map the decks dealt in turn take the
    numpy path too: each path redraws by the reducer's map, rejections in a row counted as the compiled loops do."""
    vectorised = dataclasses.replace(TOP_BITS, scalar=None)
    n = 2**14 + 1  # width 1: the values 2^14 + 1 .. 2^15 - 1 are rejected, about half
    drawn = draw_bounded(make_source("msvc", 5), n, 2000, vectorised)
    expected = draw_bounded_reference(make_source("msvc", 5), n, 2000, vectorised)
    assert drawn.values.tolist() == expected.values.tolist() and drawn.draws == expected.draws > 3000
    seeds = range(0, 2**20, 2**14)  # 64 lanes, about half rejected at the first draw
    values, lane_draws = draw_bounded_lanes(make_source("msvc").batch(list(seeds)), n, vectorised)
    one_by_one = [draw_bounded_reference(make_source("msvc", s), n, 1, vectorised) for s in seeds]
    assert values.tolist() == [int(d.values[0]) for d in one_by_one]
    assert lane_draws.tolist() == [d.draws for d in one_by_one]
    assert max(lane_draws) > 1
    source, reference = make_source("msvc", 9), make_source("msvc", 9)
    in_turn = SequentialDraws(source, vectorised, 2)
    decks = shuffle_decks(3000, in_turn, make_shuffle("fisher-yates"))  # bounds up to 3000: R mod b of R rejected, up to 9%
    assert decks.tolist() == [shuffle(3000, reference, make_shuffle("fisher-yates"), vectorised).tolist()
                              for _ in range(2)]
    assert in_turn.draws > 6000 and source.random_raw(3).tolist() == reference.random_raw(3).tolist()
