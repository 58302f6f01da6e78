"""GF(2) algebra: polynomials, Berlekamp-Massey, rank, primitivity, and the structure of the linear generators
against brute force and the published anchors (Matsumoto and Nishimura 1998; Panneton, L'Ecuyer and
Matsumoto 2006)."""

import math

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra import gf2
from rnglab.algebra.gf2_generators import equidistribution, gf2_period, linear_model, transition_matrix
from rnglab.algebra.numtheory import is_probable_prime
from rnglab.generators import as_generator
from rnglab.generators.xorshift import (
    Mt19937x64,
    V8MathRandom,
    V8Xorshift128,
    Well512a,
    Xorshift32,
    Xorshift64,
    Xorshift128,
)


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


def columns_of(matrix: np.ndarray, k: int) -> np.ndarray:
    bits = np.unpackbits(matrix.astype("<u8").view(np.uint8), axis=1, bitorder="little")[:, :k]
    return bits.astype(np.int64)


def state_bits(source) -> np.ndarray:
    vector = source.state_vector()
    return np.unpackbits(vector.astype("<u8").view(np.uint8), bitorder="little")[:source.state_size].astype(np.int64)


@pytest.mark.parametrize("name, source_type", [("xorshift32", Xorshift32), ("xorshift128", Xorshift128),
                                               ("v8", V8Xorshift128)])
def test_transition_matrix_steps_the_state_and_vanishes_on_its_polynomial(name, source_type):
    k = source_type.word_bits * source_type.state_words
    matrix = columns_of(transition_matrix(source_type), k)
    source = source_type.from_state_vector(np.array([0x9E3779B97F4A7C15, 0xDEADBEEF12345678][:-(-k // 64)],
                                                    dtype=np.uint64) & np.uint64(2**min(k, 64) - 1))
    before = state_bits(source)
    source.random_raw(1)
    assert ((matrix @ before) % 2).tolist() == state_bits(source).tolist()
    # Cayley-Hamilton through Berlekamp-Massey: P(A) = 0
    polynomial = gf2_period(linear_model(as_generator(name))).polynomial
    value = np.zeros((k, k), dtype=np.int64)
    for coefficient in format(polynomial, "b"):  # Horner, from the leading coefficient
        value = (value @ matrix + int(coefficient) * np.eye(k, dtype=np.int64)) % 2
    assert not value.any()


@pytest.mark.parametrize("source_type", [V8MathRandom, Mt19937x64])
def test_transition_matrix_needs_one_step_per_output(source_type):
    with pytest.raises(ValueError, match="one output is not one step of its state words"):
        transition_matrix(source_type)


def functionals(source_type, dimensions: int, resolution: int) -> np.ndarray:
    """Brute force: the rows "bit j (from the top) of output i" over the state bits, from unit states."""
    k = source_type.word_bits * source_type.state_words
    rows = np.zeros((dimensions * resolution, k), dtype=np.uint8)
    for i in range(k):
        unit = np.zeros(-(-k // 64), dtype=np.uint64)
        unit[i // 64] = np.uint64(1) << np.uint64(i % 64)
        source = source_type.from_state_vector(unit)
        outputs = source.random_raw(dimensions)
        width = source.output_bits
        for t, value in enumerate(outputs.tolist()):
            for j in range(resolution):
                rows[t * resolution + j, i] = (value >> (width - 1 - j)) & 1
    return rows


def brute_dimensions(source_type, width: int) -> list[int]:
    """k(v) by the rank of the output map, t increased until it falls short."""
    k = source_type.word_bits * source_type.state_words
    result = []
    for v in range(1, width + 1):
        rows = functionals(source_type, k // v, v)
        packed = np.packbits(rows, axis=1, bitorder="little")
        packed = np.pad(packed, ((0, 0), (0, (-packed.shape[1]) % 8))).view("<u8").astype(np.uint64)
        t = 0
        while t < k // v and gf2.rank(packed[:(t + 1) * v], k) == (t + 1) * v:
            t += 1
        result.append(t)
    return result


@pytest.mark.parametrize("name, source_type, width", [
    ("xorshift32", Xorshift32, 32), ("xorshift64", Xorshift64, 64), ("xorshift128", Xorshift128, 32),
    ("v8", V8Xorshift128, 52)])
def test_equidistribution_equals_the_rank_of_the_output_map(name, source_type, width):
    result = equidistribution(linear_model(as_generator(name)))
    assert list(result.dimensions) == brute_dimensions(source_type, width)
    assert result.bounds == tuple(result.degree // v for v in range(1, width + 1))
    assert result.defect == sum(b - d for b, d in zip(result.bounds, result.dimensions))


def test_well512a_is_maximally_equidistributed_to_its_published_defect():
    # Panneton, L'Ecuyer and Matsumoto 2006, Table I: WELL512a, k = 512, N_1 = 225 terms, Delta = 0
    period = gf2_period(linear_model(as_generator("well512a")))
    assert (period.degree, period.weight, period.primitive, period.period) == (512, 225, True, 2**512 - 1)
    result = equidistribution(linear_model(as_generator("well512a")), period)
    assert result.defect == 0 and result.dimensions == tuple(512 // v for v in range(1, 33))
    assert list(result.dimensions[:3]) == brute_dimensions(Well512a, 3)


@pytest.fixture(scope="module")
def mt19937():
    model = linear_model(as_generator("mt19937"))
    period = gf2_period(model)
    return period, equidistribution(model, period)


def test_mt19937_period_and_polynomial_weight(mt19937):
    # Matsumoto and Nishimura 1998: period 2^19937 - 1 (a Mersenne prime: primitive = irreducible);
    # the characteristic polynomial has 135 non-zero terms
    period, _ = mt19937
    assert (period.degree, period.weight, period.primitive, period.period) == (19937, 135, True, 2**19937 - 1)


def test_mt19937_equidistribution_published(mt19937):
    # Matsumoto and Nishimura 1998, Table 2: k(1..8) and k(32) = 623, dimension defect 6750
    _, result = mt19937
    assert result.dimensions[:8] == (19937, 9968, 6240, 4984, 3738, 3115, 2493, 2492)
    assert result.dimensions[31] == 623 and result.defect == 6750


def test_python_random_is_the_same_mt19937(mt19937):
    assert gf2_period(linear_model(as_generator("python"))).polynomial == mt19937[0].polynomial


@numba.njit(cache=True)
def xorshift32_cycle(start):  # pragma: no cover - compiled
    y, steps, mask = np.uint64(start), 0, np.uint64(0xFFFFFFFF)
    while True:
        y ^= (y << np.uint64(13)) & mask
        y ^= y >> np.uint64(17)
        y ^= (y << np.uint64(5)) & mask
        steps += 1
        if y == start:
            return steps


def test_xorshift32_period_by_a_walk():
    # the algebra says 2^32 - 1 (primitive polynomial of degree 32); the walk confirms it
    assert gf2_period(linear_model(as_generator("xorshift32"))).period == 2**32 - 1
    assert xorshift32_cycle(np.uint64(2463534242)) == 2**32 - 1


@pytest.mark.parametrize("name", ["xoroshiro128plus", "xoroshiro128plusplus", "xoshiro256starstar", "v8",
                                  "v8-53", "v8-plus", "xorshift64", "xoshiro256plus", "mt19937_64"])
def test_catalog_periods_are_primitive(name):
    period = gf2_period(linear_model(as_generator(name)))
    assert period.primitive and period.period == as_generator(name).period


@pytest.mark.parametrize("name", ["xoshiro256starstar", "v8-plus"])
def test_scrambled_outputs_have_no_equidistribution(name):
    # v8-plus: V8 4.9-7.0's (state0 + state1) mod 2^52, whose engine is v8's
    with pytest.raises(ValueError, match="not linear over GF\\(2\\) \\(a scrambler\\)"):
        equidistribution(linear_model(as_generator(name)))


def test_lcg_has_no_linear_model():
    with pytest.raises(ValueError, match="minstd is not linear over GF\\(2\\)"):
        linear_model(as_generator("minstd"))
