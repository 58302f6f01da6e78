"""The empirical period walk: compiled lanes, pure-Python Brent, and agreement with the algebra."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra.walk import (
    _brent_walk,
    _compiled_walk,
    _search_power_of_two,
    _search_small,
    uses_compiled_walk,
    walk,
    walk_period,
)
from rnglab.generators import LCG


def python_steps(a, c, m, x, count):
    states = []
    for _ in range(count):
        x = (a * x + c) % m
        states.append(x)
    return states


@pytest.mark.parametrize("a, c, m", [
    (2**32 - 6, 2**32 - 6, 2**32 - 5),     # largest products: (m-1)^2 + m - 1 just below 2^64
    (16807, 0, 2**31 - 1), (3, 1, 3), (4294967291 // 7, 12345, 4294967291),
])
def test_small_modulus_kernel_is_exact(a, c, m):
    starts = np.array([0, 1, m - 1, m - 2, m // 2, 12345 % m] * 2, dtype=np.uint64)
    hits = np.full(starts.size, -1, dtype=np.int64)
    states = starts.copy()
    _search_small(states, np.uint64(a), np.uint64(c), np.uint64(m), np.uint64(m), 1000, hits)
    assert [int(v) for v in states] == [python_steps(a, c, m, int(x), 1000)[-1] for x in starts]


@pytest.mark.parametrize("a, c, e", [(6364136223846793005, 1442695040888963407, 64), (69069, 1, 32), (5, 3, 7)])
def test_power_of_two_kernel_is_exact(a, c, e):
    m = 2**e
    starts = np.array([0, 1, m - 1, m // 3], dtype=np.uint64)
    hits = np.full(starts.size, -1, dtype=np.int64)
    states = starts.copy()
    _search_power_of_two(states, np.uint64(a), np.uint64(c), np.uint64(m - 1), np.uint64(1), 500, hits)
    assert [int(v) for v in states] == [python_steps(a, c, m, int(x), 500)[-1] for x in starts]


def test_kernel_records_the_first_meeting_per_lane():
    # Modulo 7 with a = 3 (a primitive root) every lane meets 1 within 6 steps.
    states = np.array([1, 3, 2, 6], dtype=np.uint64)
    hits = np.full(4, -1, dtype=np.int64)
    _search_small(states, np.uint64(3), np.uint64(0), np.uint64(7), np.uint64(1), 12, hits)
    assert hits.tolist() == [6, 5, 4, 3]


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5000), st.integers(0, 2**40), st.integers(0, 2**40), st.booleans())
def test_both_walks_agree_with_the_algebra(m, multiplier, start, multiplicative):
    a, c = 1 + multiplier % (m - 1), 0 if multiplicative else multiplier % m
    x = 1 + start % (m - 1) if c == 0 else start % m
    result = walk_period(a=a, m=m, c=c, seed=x)
    assert result.agrees_with_algebra
    assert _brent_walk(a, c, m, x, 4 * m, None)[:2] == (result.period, result.tail)


def test_tails_are_measured():
    # 2x + 1 modulo 2^10 from 0 reaches the fixed point 1023 after 10 steps (see test_period).
    result = walk_period(a=2, c=1, m=2**10, seed=0)
    assert (result.period, result.tail, result.agrees_with_algebra) == (1, 10, True)
    assert _compiled_walk(6, 1, 2**10 * 3**5, 5, 10**7, None)[:2] == _brent_walk(6, 1, 2**10 * 3**5, 5, 10**7, None)[:2]


def test_full_cycle_of_a_2_to_32_generator():
    # Numerical Recipes' a = 1664525, c = 1013904223: full period 2^32 (Hull-Dobell).
    result = walk_period(a=1664525, c=1013904223, m=2**32)
    assert (result.period, result.agrees_with_algebra, result.method) == (2**32, True, "compiled lanes")


def test_minstd_full_cycle():
    # MINSTD's period 2^31 - 2 (Park & Miller 1988), walked step by step (about 2 s here).
    result = walk(LCG(a=16807, m=2**31 - 1, seed=1))
    assert (result.period, result.tail, result.agrees_with_algebra) == (2**31 - 2, 0, True)
    assert result.steps >= 2**31 - 2


def test_large_modulus_uses_python_brent():
    # m = 3^45 > 2^64; a = 1 + 3^40 has order 3^5 modulo 3^45, so the cycle is short.
    m = 3**45
    result = walk_period(a=1 + 3**40, m=m, seed=2)
    assert (result.method, result.period, result.agrees_with_algebra) == ("python brent", 3**5, True)
    assert not uses_compiled_walk(m) and uses_compiled_walk(2**64) and uses_compiled_walk(2**32 - 5)


@pytest.mark.parametrize("a, c, m", [(5, 1, 2**20), (1 + 3**35, 0, 3**45)])
def test_progress_is_told_every_step(a, c, m):
    reported = []
    result = walk_period(a=a, c=c, m=m, seed=1, progress=reported.append)
    assert len(reported) > 1 and sum(reported) == result.steps and result.agrees_with_algebra


def test_walk_gives_up_after_max_steps():
    with pytest.raises(ValueError, match="did not repeat within max_steps = 1000"):
        walk_period(a=16807, m=2**31 - 1, max_steps=1000)
    with pytest.raises(ValueError, match="did not repeat within max_steps"):
        walk_period(a=3, m=2**89 - 1, max_steps=1000)


def test_walk_validates_like_the_generators():
    with pytest.raises(ValueError, match="seed must be non-zero when c = 0"):
        walk_period(a=3, m=10, seed=0)
    with pytest.raises(TypeError, match="needs an LCG"):
        walk("minstd")
