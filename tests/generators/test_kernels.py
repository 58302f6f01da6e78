"""The LCG fill loops (rnglab.generators.kernels) called directly: lanes of consecutive states stepped by the
jump ``(a^L, c (a^(L-1) + ... + 1))``, against Python's exact integers and Park and Miller's check value.

Known answer: MINSTD (a = 16807, m = 2^31 - 1) from x_0 = 1 reaches x_10000 = 1043618065 (Park and Miller,
CACM 31(10), 1988). Shoup's precomputed quotients are ``floor(A 2^32 / m)`` (small) and ``floor(A 2^64 / m)`` (wide).
"""

import numpy as np
import pytest

from rnglab.generators.kernels import WIDE_LIMIT, fill_rows_pow2, fill_rows_small, fill_rows_wide


def python_states(a: int, c: int, m: int, x: int, count: int) -> list[int]:
    states = []
    for _ in range(count):
        x = (a * x + c) % m
        states.append(x)
    return states


def lanes_and_jump(a: int, c: int, m: int, seed: int, lanes: int):
    """The first ``lanes`` states as the row, and the jump over ``lanes`` steps (by repeated composition)."""
    big_a, big_c = 1, 0
    for _ in range(lanes):
        big_a, big_c = a * big_a % m, (a * big_c + c) % m
    row = np.array([seed] + python_states(a, c, m, seed, lanes - 1), dtype=np.uint64)
    return row, big_a, big_c


def test_minstd_ten_thousandth_state_by_the_small_kernel():
    m, lanes = 2**31 - 1, 8
    row, big_a, big_c = lanes_and_jump(16807, 0, m, 1, lanes)
    out = np.empty(10_000 - lanes + 1, dtype=np.uint64)  # outputs x_8 .. x_10000
    fill_rows_small(row, np.uint64(big_a), np.uint64(big_a * 2**32 // m), np.uint64(big_c), np.uint64(m),
                    np.uint64(0), np.uint64(2**64 - 1), out)
    assert int(out[-1]) == 1043618065
    assert out[:100].tolist() == python_states(16807, 0, m, 1, lanes + 99)[lanes - 1:]


@pytest.mark.parametrize("m", [2**63 - 25, 2**40 - 87, WIDE_LIMIT])
def test_the_wide_kernel_is_exact(m):
    a, c, lanes = 6364136223846793005 % m, 1442695040888963407 % m, 5
    row, big_a, big_c = lanes_and_jump(a, c, m, 12345, lanes)
    out = np.empty(1000, dtype=np.uint64)
    fill_rows_wide(row, np.uint64(big_a), np.uint64(big_a * 2**64 // m), np.uint64(big_c), np.uint64(m),
                   np.uint64(7), np.uint64(2**30 - 1), out)
    expected = [(x >> 7) & (2**30 - 1) for x in python_states(a, c, m, 12345, lanes + 999)[lanes - 1:]]
    assert out.tolist() == expected


def test_the_power_of_two_kernel_wraps_and_takes_the_output_bits():
    # MSVC: bits 16..30 of the 2^32 LCG; from srand(1) the outputs are 41, 18467, 6334, 26500, 19169
    a, c, m = 214013, 2531011, 2**32
    row, big_a, big_c = lanes_and_jump(a, c, m, 1, 2)
    out = np.empty(4, dtype=np.uint64)  # the row holds x_0, x_1; the outputs are x_2 .. x_5
    fill_rows_pow2(row, np.uint64(big_a), np.uint64(big_c), np.uint64(16), np.uint64(0x7FFF), out)
    assert out.tolist() == [18467, 6334, 26500, 19169]
