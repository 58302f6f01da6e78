"""The LCG fill loop (rnglab.generators.kernels) called directly: a first row of single steps, then rows of
lanes advanced by the jump ``(a^L, c (a^(L-1) + ... + 1))``, against Python's exact integers and Park and
Miller's check value.

Known answer: MINSTD (a = 16807, m = 2^31 - 1) from x_0 = 1 reaches x_10000 = 1043618065 (Park and Miller,
CACM 31(10), 1988). Shoup's precomputed quotients are ``floor(A 2^32 / m)`` (small) and ``floor(A 2^64 / m)`` (wide).
"""

import numpy as np
import pytest

from rnglab.generators.kernels import LANES, STEPS, WIDE_LIMIT, lane_kernel, shoup_quotient

ALL_BITS = np.uint64(2**64 - 1)


def python_states(a: int, c: int, m: int, x: int, count: int) -> list[int]:
    states = []
    for _ in range(count):
        x = (a * x + c) % m
        states.append(x)
    return states


def step_and_jump(kind: str, a: int, c: int, m: int):
    """``(multiplier, quotient, increment)`` of one step and of LANES steps (the jump by repeated composition)."""
    big_a, big_c = 1, 0
    for _ in range(LANES):
        big_a, big_c = a * big_a % m, (a * big_c + c) % m
    return tuple((np.uint64(mult % 2**64), shoup_quotient(kind, mult, m), np.uint64(inc % 2**64))
                 for mult, inc in ((a, c), (big_a, big_c)))


def fill(kind: str, a: int, c: int, m: int, seed: int, shift, mask, out):
    return lane_kernel(STEPS[kind])(np.uint64(seed), *step_and_jump(kind, a, c, m), np.uint64(m % 2**64), shift,
                                    mask, out)


def test_shoup_quotients():
    assert shoup_quotient("small", 16807, 2**31 - 1) == 16807 * 2**32 // (2**31 - 1) == 33614
    assert shoup_quotient("wide", 3, 2**63 - 25) == 3 * 2**64 // (2**63 - 25) == 6
    assert shoup_quotient("pow2", 214013, 2**32) == 0


def test_minstd_ten_thousandth_state_by_the_small_kernel():
    out = np.empty(10_000, dtype=np.uint64)  # outputs x_1 .. x_10000: a first row, 38 rows of lanes, a part row
    last = fill("small", 16807, 0, 2**31 - 1, 1, np.uint64(0), ALL_BITS, out)
    assert int(out[-1]) == int(last) == 1043618065
    assert out.tolist() == python_states(16807, 0, 2**31 - 1, 1, 10_000)


@pytest.mark.parametrize("m", [2**63 - 25, 2**40 - 87, WIDE_LIMIT - 1, 2**32 + 1])
@pytest.mark.parametrize("size", [1, LANES, LANES + 1, 3 * LANES + 17])
def test_the_wide_kernel_is_exact(m, size):
    a, c = 6364136223846793005 % m, 1442695040888963407 % m
    out = np.empty(size, dtype=np.uint64)
    last = fill("wide", a, c, m, 12345, np.uint64(7), np.uint64(2**30 - 1), out)
    states = python_states(a, c, m, 12345, size)
    assert out.tolist() == [(x >> 7) & (2**30 - 1) for x in states]
    assert int(last) == states[-1]


def test_the_power_of_two_kernel_wraps_and_takes_the_output_bits():
    # MSVC: bits 16..30 of the 2^32 LCG; from srand(1) the outputs are 41, 18467, 6334, 26500, 19169
    a, c, m = 214013, 2531011, 2**32
    out = np.empty(2 * LANES + 5, dtype=np.uint64)
    last = fill("pow2", a, c, m, 1, np.uint64(16), np.uint64(0x7FFF), out)
    states = python_states(a, c, m, 1, len(out))
    assert out[:5].tolist() == [41, 18467, 6334, 26500, 19169]
    assert out.tolist() == [(x >> 16) & 0x7FFF for x in states]
    assert int(last) % m == states[-1]  # the lanes are kept modulo 2^64
