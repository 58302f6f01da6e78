"""Affine maps (rnglab.generators.affine): k LCG steps as one map, stepped exactly for every modulus.

Known answer: Park and Miller's check (CACM 31(10), 1988): from x_0 = 1, MINSTD (a = 16807, m = 2^31 - 1)
reaches x_10000 = 1043618065. Two steps of MSVC's LCG are ``(a^2, c (a + 1))`` by hand.
"""

import numpy as np
import pytest

from rnglab.generators.affine import affine_power, affine_step, arithmetic_kind, as_state_array, compose, reduce_states

MINSTD = 2**31 - 1


def test_park_and_miller_s_ten_thousandth_state():
    assert affine_power(16807, 0, MINSTD, 10_000) == (1043618065, 0)  # x_10000 = A * 1 + C


def test_two_msvc_steps_by_hand():
    a, c, m = 214013, 2531011, 2**32
    assert affine_power(a, c, m, 2) == (a * a % m, c * (a + 1) % m)
    assert compose((a, c), (a, c), m) == affine_power(a, c, m, 2)
    assert affine_power(a, c, m, 0) == (1, 0)
    with pytest.raises(ValueError, match="jump distance must be >= 0"):
        affine_power(a, c, m, -1)


@pytest.mark.parametrize("m, kind", [(2**32, "pow2"), (2**64, "pow2"), (MINSTD, "small"),
                                     (2**48 - 59, "longdouble"), (2**64 - 59, "object")])
def test_each_arithmetic_steps_exactly(m, kind):
    if kind == "longdouble" and np.finfo(np.longdouble).nmant < 63:
        pytest.skip("this platform's long double has no 64-bit mantissa")
    assert arithmetic_kind(m) == kind
    a, c = 0x5DEECE66D % m, 11
    seeds = [0, 1, m - 1, m // 3]
    stepped = reduce_states(affine_step(as_state_array(seeds, m), a, c, m), m)
    assert [int(v) for v in stepped] == [(a * x + c) % m for x in seeds]
