"""GF(2) algebra: polynomials, Berlekamp-Massey, rank and primitivity against brute force.

The structure of the linear generators (transition matrix, period, equidistribution) is in
test_gf2_generators.py."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra import gf2
from rnglab.algebra.numtheory import is_probable_prime


def lfsr(polynomial: int, state: list[int], count: int) -> list[int]:
    """Brute force: s_n = sum_{e < k} p_e s_(n-k+e) for the characteristic polynomial p of degree k."""
    k = gf2.degree(polynomial)
    bits = list(state)
    while len(bits) < count:
        bits.append(sum((polynomial >> e) & 1 and bits[len(bits) - k + e] for e in range(k)) % 2)
    return bits[:count]


def generates(polynomial: int, bits: list[int]) -> bool:
    k = gf2.degree(polynomial)
    return lfsr(polynomial, bits[:k], len(bits)) == bits


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10).flatmap(lambda k: st.tuples(st.integers(2**k, 2**(k + 1) - 1),
                                                      st.lists(st.integers(0, 1), min_size=k, max_size=k))))
def test_berlekamp_massey_finds_the_shortest_recurrence(case):
    polynomial, state = case
    bits = lfsr(polynomial, state, 2 * gf2.degree(polynomial))
    found = gf2.berlekamp_massey(bits)
    assert gf2.degree(found) <= gf2.degree(polynomial) and generates(found, bits)
    # no shorter recurrence exists (all polynomials of lower degree tried)
    shorter = range(1, 2 ** gf2.degree(found)) if gf2.degree(found) > 0 else []
    assert not any(generates(p, bits) for p in shorter)


def brute_rank(rows: list[int]) -> int:
    """log2 of the size of the span, enumerated."""
    span = {0}
    for row in rows:
        span |= {x ^ row for x in span}
    return len(span).bit_length() - 1


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 130).flatmap(lambda columns: st.tuples(
    st.just(columns), st.lists(st.integers(0, 2**columns - 1), min_size=1, max_size=9))))
def test_rank_equals_the_span_enumerated(case):
    columns, rows = case
    words = -(-columns // 64)
    packed = np.array([[(row >> (64 * w)) & (2**64 - 1) for w in range(words)] for row in rows], dtype=np.uint64)
    assert gf2.rank(packed, columns) == brute_rank(rows)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**40), st.integers(1, 2**20))
def test_division_and_inverse(a, b):
    quotient, rest = gf2.divide(a, b)
    assert gf2.multiply(quotient, b) ^ rest == a and gf2.degree(rest) < gf2.degree(b)
    if gf2.gcd(a, b) == 1 and gf2.degree(b) > 0:
        assert gf2.multiply_mod(a, gf2.inverse(a, b), b) == 1


def sequence_period(polynomial: int) -> int:
    """Brute force: steps until the state 0...01 of the recurrence comes back."""
    k = gf2.degree(polynomial)
    start = state = tuple([0] * (k - 1) + [1])
    steps = 0
    while True:
        state = state[1:] + (sum(polynomial >> e & 1 and state[e] for e in range(k)) % 2,)
        steps += 1
        if state == start:
            return steps


def brute_irreducible(p: int) -> bool:
    return all(gf2.remainder(p, q) for q in range(2, 2 ** (gf2.degree(p) // 2 + 1)) if gf2.degree(q) >= 1)


@pytest.mark.parametrize("k", range(1, 11))
def test_irreducible_and_primitive_against_brute_force(k):
    for p in range(2**k + 1, 2 ** (k + 1), 2):  # constant term 1
        assert gf2.is_irreducible(p) == brute_irreducible(p), bin(p)
        assert gf2.is_primitive(p) == (sequence_period(p) == 2**k - 1), bin(p)


@pytest.mark.parametrize("modulus", [
    (1 << 88) | 0b101001,                  # x^88 + x^5 + x^3 + 1: folded 64 bits at a time
    (1 << 20) | (1 << 19) | 0b101,         # x^20 + x^19 + x^2 + 1: the top term one below, folded bit by bit
    (1 << 130) | (1 << 100) | (1 << 67) | 1,  # folds of 30 bits across word boundaries
])
def test_frobenius_power_equals_power_mod(modulus):
    a = 0b1011011101
    assert gf2.frobenius_power(a, 70, modulus) == gf2.power_mod(a, 2**70, modulus)


@pytest.mark.parametrize("k", sorted(gf2.MERSENNE_FACTORS))
def test_mersenne_factorisations(k):
    primes = gf2.MERSENNE_FACTORS[k]
    assert math.prod(primes) == 2**k - 1
    # 2^19937 - 1 is a Mersenne prime (B. Tuckerman, 1971): a Lucas-Lehmer test takes a minute in Python
    assert all(is_probable_prime(q) for q in primes if q != 2**19937 - 1)


