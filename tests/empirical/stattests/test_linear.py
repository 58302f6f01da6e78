"""The linear-complexity test: Berlekamp–Massey against brute force, its exact law, good and bad sources."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from rnglab.empirical.stattests import TESTS
from rnglab.empirical.stattests.linear import complexity_tails, linear_complexity
from rnglab.generators import make_source


def shortest_register(bits: list[int]) -> int:
    """Brute force: the least L such that some taps c_1..c_L give s_k = sum c_i s_(k-i) for every k >= L."""
    n = len(bits)
    for length in range(n + 1):
        for taps in itertools.product((0, 1), repeat=length):
            if all(bits[k] == sum(t * bits[k - 1 - i] for i, t in enumerate(taps)) % 2 for k in range(length, n)):
                return length
    raise AssertionError("unreachable: L = n always works")


def textbook_massey(bits: list[int]) -> int:
    """Berlekamp–Massey on Python lists, one coefficient at a time (Massey 1969, as printed)."""
    n = len(bits)
    c, b = [1] + [0] * n, [1] + [0] * n
    complexity, last = 0, -1
    for step in range(n):
        d = sum(c[i] * bits[step - i] for i in range(complexity + 1)) % 2
        if d:
            t = c[:]
            for i in range(n + 1 - (step - last)):
                c[i + step - last] ^= b[i]
            if 2 * complexity <= step:
                complexity, last, b = step + 1 - complexity, step, t
    return complexity


def as_bits(values) -> np.ndarray:
    return np.asarray(values, dtype=np.uint8)


def test_every_sequence_up_to_8_bits_matches_brute_force():
    for n in range(1, 9):
        for bits in itertools.product((0, 1), repeat=n):
            assert linear_complexity(as_bits(bits)) == shortest_register(list(bits))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=1, max_size=700))
def test_packed_words_match_the_textbook_algorithm(bits):
    assert linear_complexity(as_bits(bits)) == textbook_massey(bits)


def test_a_primitive_trinomial_register_has_its_degree():
    """s_k = s_(k-28) + s_(k-31): x^31 + x^3 + 1 is primitive, so any non-zero start gives L = 31 exactly."""
    rng = np.random.default_rng(5)
    bits = list(rng.integers(0, 2, 31))
    bits[0] = 1
    for k in range(31, 3000):
        bits.append(bits[k - 28] ^ bits[k - 31])
    assert linear_complexity(as_bits(bits)) == 31


def test_exact_law_matches_enumeration():
    for n in range(1, 13):
        counts = np.bincount([linear_complexity(as_bits(b)) for b in itertools.product((0, 1), repeat=n)],
                             minlength=n + 1) / 2**n
        for level in range(n + 1):
            at_most, at_least = complexity_tails(n, level)
            assert at_most == pytest.approx(counts[: level + 1].sum(), abs=1e-15)
            assert at_least == pytest.approx(counts[level:].sum(), abs=1e-15)


def test_tails_of_a_long_sequence_by_hand():
    """n = 10^5: P(L <= n/2) = (2^(n+1) + 1)/(3 2^n) -> 2/3; P(L >= n/2 + 1) = (4^(n/2) - 1)/(3 2^n) -> 1/3."""
    at_most, _ = complexity_tails(100_000, 50_000)
    _, at_least = complexity_tails(100_000, 50_001)
    assert at_most == pytest.approx(2 / 3) and at_least == pytest.approx(1 / 3)
    assert complexity_tails(100_000, 19_937)[0] == 0.0  # 2^(2*19937+1-10^5) underflows: far below any threshold


def test_mt19937_fails_at_its_state_size_and_pcg64_passes():
    twister = TESTS["linear-complexity"](make_source("mt19937", 12345), 50_000)
    assert twister.details["complexity"] == 19_937 and 1 - twister.pvalue < 1e-300
    for bit in (0, 31):
        assert TESTS["linear-complexity"](make_source("mt19937", 7), 50_000, bit=bit).details["complexity"] == 19_937
    assert TESTS["linear-complexity"](make_source("pcg64", 12345), 50_000).pvalue > 0.01


def test_false_alarm_rate_of_an_ideal_source_is_within_its_level():
    """400 PCG64 streams at n = 3,000, top and low bit: the mid-p lies within 0.025 of either end no more often
    than 5 % of the time (the central complexities, half the mass, give p near 1/2, never 1)."""
    for bit in (0, 31):
        pvalues = np.array([TESTS["linear-complexity"](make_source("pcg64", seed), 3000, bit=bit).pvalue
                            for seed in range(400)])
        alarms = int((np.minimum(pvalues, 1 - pvalues) <= 0.025).sum())
        assert stats.binom.sf(alarms - 1, 400, 0.05) > 0.001, (bit, alarms)
        assert 0.2 < np.median(pvalues) < 0.8


def test_bit_outside_the_selection_is_refused():
    with pytest.raises(ValueError, match=r"bit must be in \[0, 31\]"):
        TESTS["linear-complexity"](make_source("mt19937", 1), 100, bit=32)
