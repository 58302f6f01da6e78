"""The work rates turn sizes into the seconds of the refusals: each reproduces, through the estimate that uses it,
the measurement written beside it (CPU seconds on the 2-core development machine)."""

import pytest

from rnglab.core import rates
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles.algorithms import make_shuffle
from rnglab.shuffles.fairness import ChoiceWeights, max_within, position_seconds, transposition_seconds

NAIVE = make_shuffle("naive")


def test_the_even_swap_rate_reproduces_naive_at_200_400_700():
    # measured 0.16 s, 1.56 s, 11.2 s; estimated 0.15 s, 1.56 s, 11.3 s (the naive exchange's own path)
    estimates = [position_seconds(NAIVE.program(n), n) for n in (200, 400, 700)]
    assert estimates == pytest.approx([0.16, 1.56, 11.2], rel=0.1)
    assert estimates == pytest.approx([0.15, 1.56, 11.3], rel=0.02)


def test_the_unequal_weights_rate_reproduces_naive_through_modulo_on_64_bits():
    # measured 3.9 s, 13.4 s, 33.5 s at n = 150, 200, 250; estimated 4.1 s, 12.9 s, 31.4 s
    weigh = ChoiceWeights(REDUCERS["modulo"], 2**64)
    estimates = [position_seconds(NAIVE.program(n), n, weigh) for n in (150, 200, 250)]
    assert estimates == pytest.approx([4.1, 12.9, 31.4], rel=0.01)
    assert estimates == pytest.approx([3.9, 13.4, 33.5], rel=0.1)


def test_the_transposition_rate_fits_about_240_swaps_of_30_cards_in_a_minute():
    assert transposition_seconds(30, 1) == pytest.approx(0.25, rel=0.05)
    assert max_within(lambda k: transposition_seconds(30, k) <= rates.EXACT_SECONDS) == pytest.approx(240, rel=0.05)


def test_the_card_unrank_and_battery_rates_reproduce_their_measurements():
    assert 1 / (52 * rates.SECONDS_PER_CARD["batched"]) == pytest.approx(1.5e6, rel=0.05)  # decks of 52 a second
    assert rates.UNRANK_SECONDS_PER_SQUARE * 32_000**2 == pytest.approx(6.7, rel=0.1)
    assert 8.3e8 / rates.BATTERY_VALUES_PER_SECOND == pytest.approx(41, rel=0.05)
    assert rates.SOURCE_SEED_SECONDS >= 0.58e-3  # mt19937's seeding, the slowest measured
