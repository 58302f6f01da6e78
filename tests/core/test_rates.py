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


def test_the_path_rate_reproduces_the_enumerations_measured():
    # CPU s measured: 65,536 paths of 1 draw 0.61, 4,096 of 41 draws 0.28, naive n = 6 (46,656 of 6) 0.84,
    # Fisher-Yates n = 8 (40,320 of 7) 0.95; estimated 0.64, 0.34, 0.88, 0.83
    from rnglab.shuffles.paths import path_seconds

    estimates = [path_seconds(paths, paths * draws) for paths, draws in
                 ((65536, 1), (4096, 41), (46656, 6), (40320, 7))]
    assert estimates == pytest.approx([0.64, 0.34, 0.88, 0.83], abs=0.005)
    assert estimates == pytest.approx([0.61, 0.28, 0.84, 0.95], rel=0.25)
    # the minute fits the naive exchange at n = 7 and Fisher-Yates at n = 9, not at n = 8 and 10
    fits = [path_seconds(paths, paths * draws) <= rates.EXACT_SECONDS for paths, draws in
            ((7**7, 7), (8**8, 8), (362_880, 8), (3_628_800, 9))]
    assert fits == [True, False, True, False]


def test_work_beyond_its_limit_is_refused_in_one_line_naming_what_fits():
    rates.check_work(60, 60, "x", "y")
    with pytest.raises(ValueError, match=r"^100 shuffles would take about 61 s \(limit 60 s\): up to 98 fit$"):
        rates.check_work(61, 60, "100 shuffles", "up to 98 fit")
