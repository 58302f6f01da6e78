"""The draws behind the shuffles: scripted answers, wide integers from pieces of 32 bits, a uniform integer below
n! by rejection, and a source's bounded draws counted.

The shuffles that read them (batched, lanes, compiled) against the one-at-a-time shuffle are in
test_algorithms.py.
"""

import numpy as np
import pytest

from rnglab.draws.bounded import draw_bounded
from rnglab.generators import make_source
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles.draws import ScriptedDraws, SourceDraws, random_integers, uniform_below_factorial


def scripted(rows, word_bits=32):
    draws = ScriptedDraws(rows)
    draws.word_bits = word_bits
    return draws


def test_scripted_draws_replay_each_lane_and_refuse_a_value_past_the_bound():
    draws = ScriptedDraws([[1, 2], [0, 4]])
    assert draws.below(3).tolist() == [1, 0]
    assert draws.below(5, mask=np.array([False, True])).tolist() == [4]  # lane 1's second answer
    with pytest.raises(ValueError, match="scripted choice 2 is not below the bound 2"):
        draws.below(2, mask=np.array([True, False]))


def test_random_integers_put_the_first_piece_on_top():
    # 40 bits from 32-bit pieces: 32 then 8; 70 bits: 32, 32, 6 (Python integers above 64 bits)
    assert random_integers(scripted([[5, 3]]), 40).tolist() == [5 << 8 | 3]
    wide = random_integers(scripted([[1, 2, 3]]), 70)
    assert wide.dtype == object and wide.tolist() == [(1 << 38) | (2 << 6) | 3]
    assert random_integers(scripted([[1, 1, 1]], word_bits=16), 40).tolist() == [(1 << 24) | (1 << 8) | 1]


def test_a_value_at_or_past_n_factorial_is_drawn_again():
    # n = 3: V has 3 bits (3! - 1 = 5); 7 and 6 are rejected, 4 kept; the second lane keeps 5 at once
    draws = scripted([[7, 6, 4], [5, 0, 0]])
    assert uniform_below_factorial(draws, 3).tolist() == [4, 5] and draws.used.tolist() == [3, 1]


def test_source_draws_count_the_outputs_rejected_ones_included():
    source, reference = make_source("msvc", 5), make_source("msvc", 5)
    draws = SourceDraws(source, REDUCERS["threshold"])
    values = [int(draws.below(b)[0]) for b in (52, 51, 50)]
    expected = [draw_bounded(reference, b, 1, REDUCERS["threshold"]) for b in (52, 51, 50)]
    assert values == [int(e.values[0]) for e in expected] and draws.draws == sum(e.draws for e in expected)
