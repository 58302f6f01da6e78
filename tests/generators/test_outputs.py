"""Output functions (rnglab.generators.outputs): what a program sees of an LCG's state.

Known answer: MSVC's ``rand()`` after ``srand(1)`` returns bits 16..30 of the states 2745024 and
2745024 * 214013 + 2531011 mod 2^32, that is 41 and 18467 (the sequence every MSVC program prints first).
"""

import numpy as np
import pytest

from rnglab.generators.outputs import Output

MSVC_STATES = [2745024, (2745024 * 214013 + 2531011) % 2**32]


def test_msvc_rand_is_bits_16_to_30():
    rand = Output.parse("bits(16,15)")
    assert rand == Output.bits(16, 15) and str(rand) == "bits(16,15)"
    assert [rand.apply_int(x) for x in MSVC_STATES] == [41, 18467]
    assert rand.apply(np.array(MSVC_STATES, dtype=np.uint64), 2**32).tolist() == [41, 18467]
    assert rand.high(2**32) == 32767


def test_the_whole_state_is_masked_only_for_power_of_two_moduli():
    state = Output.parse(" state ")
    assert state.apply(np.array([2**32 + 5], dtype=np.uint64), 2**32).tolist() == [5]
    assert state.apply(np.array([2**31 + 5], dtype=np.uint64), 2**31 - 1).tolist() == [2**31 + 5]
    assert state.high(2**31 - 1) == 2**31 - 2 and str(state) == "state"
    assert state.shift_and_mask(2**48) == (0, 2**48 - 1) and state.shift_and_mask(2**31 - 1) == (0, 2**64 - 1)


def test_object_states_of_wide_moduli_are_exact():
    states = np.array([2**80 + 2**70 + 3], dtype=object)
    assert Output.bits(70, 11).apply(states, 2**81).tolist() == [2**10 + 1]


@pytest.mark.parametrize("text", ["bits(16)", "low", "bits(-1,3)"])
def test_other_texts_are_refused(text):
    with pytest.raises(ValueError, match="output must be 'state' or 'bits"):
        Output.parse(text)


def test_a_field_above_the_top_bit_is_refused():
    Output.bits(16, 15).check_fits(2**31)
    with pytest.raises(ValueError, match=r"needs a state of 32 bits; m = 2147483648 has 31"):
        Output.bits(16, 16).check_fits(2**31)
    with pytest.raises(ValueError, match="shift >= 0 and width >= 1"):
        Output.bits(3, 0)
