"""Clues as linear constraints on an LCG's state (rnglab.recovery.clues): the true state satisfies every
constraint built from MSVC's outputs and draws, a neighbouring state does not, and the information is counted.

MSVC after ``srand(1)``: the state before the first output (its ``X``) is 214013 + 2531011 = 2745024; the outputs are
41, 18467, 6334 (bits 16..30); ``rand() % 52`` draws 41, 7, 42 and ``(rand() * 52) >> 15`` draws 0, 29, 10.
"""

import math

import pytest

from rnglab.generators import as_generator
from rnglab.recovery.clues import Clue, Field, check_clues, check_solvable, constraints, information_bits
from rnglab.reduction.reducers import REDUCERS

MSVC = as_generator("msvc")
X = 2_745_024
OUTPUTS = [41, 18467, 6334]


def satisfied(constraint, x: int) -> bool:
    return any(constraint.lo <= (constraint.A * x + constraint.B + constraint.G * t) % constraint.M <= constraint.hi
               for t in range(constraint.T))


@pytest.mark.parametrize("reducer, clues", [
    ("modulo", [Clue.value(v) for v in OUTPUTS]),
    ("modulo", [Clue.value(v % 52, 52) for v in OUTPUTS]),
    ("multiply-shift", [Clue.value(v * 52 >> 15, 52) for v in OUTPUTS]),
    ("multiply-shift", [Clue.top_bits(v >> 10, 5, 15) for v in OUTPUTS]),
])
def test_the_true_state_satisfies_every_constraint_and_a_neighbour_does_not(reducer, clues):
    check_clues(MSVC, REDUCERS[reducer], clues)
    found = constraints(MSVC, REDUCERS[reducer], clues)
    assert found and all(satisfied(c, X) for c in found)
    assert not all(all(satisfied(c, x) for c in found) for x in (X + 2**16, X - 2**16, X ^ 2**30))


def test_information_in_bits():
    assert information_bits(MSVC, [Clue.value(v) for v in OUTPUTS]) == 45
    assert information_bits(MSVC, [Clue.value(v % 52, 52) for v in OUTPUTS]) == pytest.approx(3 * math.log2(52))
    assert information_bits(MSVC, [Clue.top_bits(1, 5, 15)]) == 5
    assert Clue(0, 51, 52).unknown and information_bits(MSVC, [Clue(0, 51, 52)]) == 0


def test_fields_and_refusals():
    assert Field.of(MSVC) == Field(16, 15, 0)
    assert Field.of(as_generator("minstd")) == Field(0, 31, 1)
    with pytest.raises(ValueError, match="observation 1: outputs are in \\[0, 32767\\]; got \\[32768, 32768\\]"):
        check_clues(MSVC, REDUCERS["modulo"], [Clue.value(32768)])
    with pytest.raises(ValueError, match="not a linear congruential generator"):
        check_solvable(as_generator("glibc"))
