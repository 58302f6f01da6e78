"""A stuck source (issue #21): every loop that redraws rejected values stops after
``STUCK_REJECTIONS`` rejections in a row with the one ``ValueError``, instead of spinning forever.

The stuck source throughout: the LCG ``x -> 2 x mod 2^10``, whose state is 0 after ten
steps and stays 0; Lemire's method rejects the output 0 for any ``n`` with ``1024 mod n != 0``.
"""

from fractions import Fraction
from itertools import chain, repeat

import pytest

from rnglab.cli import main
from rnglab.draws.bias import brute_force_counts, exact_counts
from rnglab.draws.bounded import STUCK_REJECTIONS, draw_bounded, draw_bounded_lanes, draw_bounded_reference
from rnglab.generators import LCG, CallableSource, LCGBatch, as_generator
from rnglab.recovery.crack import crack, observe
from rnglab.reduction.reducers import REDUCERS
from rnglab.seeds.space import parse_seed_space
from rnglab.shuffles.algorithms import make_shuffle, shuffle, shuffle_decks, shuffle_seeds
from rnglab.shuffles.draws import SequentialDraws

STUCK = "the source gave 309 rejected values in a row"


def scripted(zeros: int) -> CallableSource:
    """A 10-bit source that gives ``zeros`` zeros (rejected by lemire for n = 5), then 1023 (accepted: value 4)."""
    values = chain(repeat(0, zeros), repeat(1023))
    return CallableSource(lambda: next(values), 0, 1023, "scripted")


def test_the_streak_bounds_the_chance_below_two_to_minus_128():
    assert Fraction(3, 4) ** STUCK_REJECTIONS < Fraction(1, 2**128) < Fraction(3, 4) ** (STUCK_REJECTIONS - 1)


def test_every_reducer_rejects_below_three_quarters_of_the_source_values():
    worst = {}
    for R in range(1, 65):
        for n in range(1, R + 1):
            for name in REDUCERS:
                if name == "python-randbelow" and (R & (R - 1) or n >= R):
                    continue  # it reads the top bits of a power-of-two range, n < R
                if name not in ("java-nextint", "float-multiply"):
                    worst[name] = max(worst.get(name, 0), Fraction(brute_force_counts(REDUCERS[name], n, R)[1], R))
    assert max(worst.values()) < Fraction(3, 4)
    assert worst["bitmask"] == Fraction(46, 63)  # R = 63, n = 17: 17 values kept of 63 (b = 32)
    assert max(worst[name] for name in ("threshold", "threshold-openbsd", "lemire")) < Fraction(1, 2)
    # the worst case of bitmask: R = 2b - 1, n = b/2 + 1 keeps just over a quarter
    assert brute_force_counts(REDUCERS["bitmask"], 2**15 + 1, 2**17 - 1)[1] == 2**17 - 1 - (2**15 + 1)
    # java-nextint rejects the top 2^31 mod n of the 2^31 values of next(31): just under half for n = 2^30 + 1
    assert exact_counts(REDUCERS["java-nextint"], 2**30 + 1, 2**32).rejected == 2 * (2**30 - 1)


@pytest.mark.parametrize("draw", [draw_bounded, draw_bounded_reference])
def test_a_draw_stops_at_the_streak_and_not_before(draw):
    drawn = draw(scripted(STUCK_REJECTIONS - 1), 5, 2, REDUCERS["lemire"])
    assert drawn.values.tolist() == [4, 4] and drawn.draws == STUCK_REJECTIONS + 1
    with pytest.raises(ValueError, match=STUCK):
        draw(scripted(STUCK_REJECTIONS), 5, 2, REDUCERS["lemire"])


def test_a_streak_is_counted_across_the_chunks_of_draw_bounded():
    values = chain([1023], repeat(0, 200), [1023], repeat(0, STUCK_REJECTIONS), repeat(1023))
    source = CallableSource(lambda: next(values), 0, 1023, "scripted")
    with pytest.raises(ValueError, match=STUCK):
        draw_bounded(source, 5, 3, REDUCERS["lemire"])  # chunks of 3, then larger: the run spans several


def test_decks_dealt_in_turn_from_a_stuck_source_stop():
    draws = SequentialDraws(scripted(STUCK_REJECTIONS - 1), REDUCERS["lemire"], 2)
    # 1023 n / 1024 rounds down to n - 1: Fisher-Yates swaps every position with itself
    assert shuffle_decks(5, draws).tolist() == [[0, 1, 2, 3, 4]] * 2 and draws.draws == STUCK_REJECTIONS - 1 + 8
    with pytest.raises(ValueError, match=STUCK):
        shuffle_decks(5, SequentialDraws(scripted(STUCK_REJECTIONS), REDUCERS["lemire"], 2))


def test_lanes_of_a_stuck_lcg_stop():
    batch = LCGBatch(a=2, m=2**10, states=[3, 1], output=None)
    for _ in range(10):
        batch.next_raw()
    with pytest.raises(ValueError, match=STUCK):
        draw_bounded_lanes(batch, 5, REDUCERS["lemire"])


@pytest.mark.parametrize("algo", ["fisher-yates", "draw-remove"])
def test_shuffles_of_a_stuck_lcg_stop_compiled_and_not(algo):
    with pytest.raises(ValueError, match=STUCK):  # 2^9 steps to the fixed point 0 at once
        shuffle(5, LCG(a=2, m=2**10, seed=2**9), make_shuffle(algo), REDUCERS["lemire"])
    with pytest.raises(ValueError, match=STUCK):
        shuffle_seeds(LCG(a=2, m=2**10), [1, 2**9], 5, make_shuffle(algo), REDUCERS["lemire"])


@pytest.mark.parametrize("algo", ["fisher-yates", "poker1999"])  # several cards followed; one card, four seeds at once
def test_a_seed_search_on_a_stuck_lcg_stops(algo):
    with pytest.raises(ValueError, match=STUCK):
        crack(as_generator("lcg:a=2,m=2^10"), parse_seed_space("1..99"), observe("Ac 2c 3c 4c 5c"), algo=make_shuffle(algo),
              reducer=REDUCERS["lemire"])


@pytest.mark.parametrize("command", [
    "deal --a 2 --m 2^10 --seed 3",
    "reduce --a 2 --m 2^10 --seed 3 --n 5 --samples 100 --reducer lemire",
    "fairness --a 2 --m 2^10 --seed 3 --n 5 --shuffles 25",
    "reach --a 2 --m 2^10 --seed 3 --games --n 5",
])
def test_commands_on_a_stuck_lcg_end_with_one_line(command, capfd):
    # in this process (the refusal is the command line's own; tests/test_hostile.py runs these rows in a worker
    # process and tests/test_console.py the exit status of a real one)
    status = main(command.split())
    out, err = capfd.readouterr()
    assert status == 2 and out == ""
    assert err.splitlines() == [(f"Error: {STUCK} (chance below 2^-128 for a source that fills its declared "
                                 "range): it is stuck, e.g. an LCG in a fixed point")]
