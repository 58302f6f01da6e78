"""The compiled GF(2) kernels on bit-packed words against the same operations on Python integers (bit i of the
integer is bit i mod 64 of word i // 64)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra import gf2
from rnglab.algebra import gf2_kernels as kernels
from rnglab.algebra.gf2 import from_words, to_words

compiled = settings(max_examples=100, deadline=None)  # the first example compiles the kernel


def moduli(max_degree=200):
    """``(degree, exponents)``: a modulus ``x^degree + sum x^e`` with a few terms below the degree."""
    return st.integers(2, max_degree).flatmap(lambda k: st.tuples(
        st.just(k), st.lists(st.integers(0, k - 1), min_size=1, max_size=6, unique=True).map(sorted)))


def modulus_of(degree, terms):
    return (1 << degree) | sum(1 << e for e in terms)


@compiled
@given(st.integers(0, 2**300 - 1))
def test_top_bit_is_the_bit_length_less_one(value):
    words = to_words(value, 320)
    assert kernels.top_bit(words, words.size - 1) == value.bit_length() - 1
    assert kernels.top_bit(words, 0) == (value & (2**64 - 1)).bit_length() - 1  # the first word only


@compiled
@given(st.integers(0, 2**200 - 1), st.integers(0, 199), st.integers(1, 64), st.integers(0, 2**64 - 1))
def test_read_and_xor_bits_at_any_position(value, position, count, other):
    words = to_words(value, 200)
    assert int(kernels.read_bits(words, position, count)) == (value >> position) & ((1 << count) - 1)
    kernels.xor_bits(words, position, np.uint64(other))
    assert from_words(words) == (value ^ (other << position)) & (2**256 - 1)  # bits past the 4 words dropped


@compiled
@given(moduli(), st.integers(0, 2**500 - 1))
def test_reduce_by_terms_is_the_remainder(modulus, value):
    degree, terms = modulus
    words = to_words(value, 512)
    kernels.reduce_by_terms(words, degree, np.array(terms, dtype=np.int64), min(64, degree - max(terms)))
    assert from_words(words) == gf2.remainder(value, modulus_of(degree, terms))


@compiled
@given(st.integers(0, 2**190 - 1))
def test_square_moves_bit_i_to_bit_2i(value):
    words, out = to_words(value, 192), np.zeros(6, dtype=np.uint64)
    kernels.square_into(words, out)
    assert from_words(out) == gf2.multiply(value, value)


@compiled
@given(moduli(130), st.integers(0, 2**130), st.integers(0, 6))
def test_frobenius_is_the_power_two_to_the_times(modulus, value, times):
    degree, terms = modulus
    polynomial = modulus_of(degree, terms)
    words = to_words(gf2.remainder(value, polynomial), degree)
    kernels.frobenius(words, degree, np.array(terms, dtype=np.int64), min(64, degree - max(terms)), times)
    assert from_words(words) == gf2.power_mod(value, 2**times, polynomial)


def gaussian_rank(rows):
    """The rank over GF(2) of rows given as Python integers (a basis kept by its leading bits)."""
    basis = {}
    for row in rows:
        while row:
            top = row.bit_length() - 1
            if top not in basis:
                basis[top] = row
                break
            row ^= basis[top]
    return len(basis)


@compiled
@given(st.integers(1, 150).flatmap(lambda columns: st.tuples(
    st.just(columns), st.lists(st.integers(0, 2**columns - 1), min_size=1, max_size=12))))
def test_rank_of_rows_is_the_rank_by_elimination(case):
    columns, rows = case
    packed = np.array([to_words(row, 192) for row in rows], dtype=np.uint64)
    assert kernels.rank_of_rows(packed, columns) == gaussian_rank(rows)


@compiled
@given(st.integers(0, 2**100 - 1), st.integers(0, 2**100 - 1), st.integers(0, 150))
def test_add_shifted_row_xors_the_shifted_source(target, source, shift):
    rows = np.array([to_words(target, 320), to_words(source, 320)], dtype=np.uint64)
    kernels.add_shifted_row(rows, 0, 1, shift, max(source.bit_length() - 1, 0))
    assert from_words(rows[0]) == target ^ (source << shift) and from_words(rows[1]) == source


@compiled
@given(st.integers(1, 4).flatmap(lambda d: st.tuples(st.just(d), st.integers(1, 2**(12 * d) - 1))))
def test_interleave_makes_room_for_a_new_component(case):
    # coefficient z^i of component j is bit i d + j before and bit i (d + 1) + j after
    dimension, value = case
    out = np.zeros(2, dtype=np.uint64)
    kernels.interleave(to_words(value, 64), value.bit_length() - 1, dimension, out)
    expected = sum(1 << (p // dimension * (dimension + 1) + p % dimension) for p in range(value.bit_length())
                   if value >> p & 1)
    assert from_words(out) == expected


def interleaved(components, dimension):
    """A vector of GF(2)[z]^dimension as a row: coefficient z^i of component j at bit i d + j."""
    return sum(1 << (i * dimension + j) for j, c in enumerate(components) for i in range(c.bit_length()) if c >> i & 1)


#: Bases of sublattices of GF(2)[z]^d: row i has a non-zero component i and none after it (triangular, so
#: independent; the kernel expects a basis: a dependent row would vanish).
triangular_bases = st.integers(1, 4).flatmap(lambda d: st.tuples(st.just(d), st.integers(1, d).flatmap(
    lambda n: st.tuples(*[st.tuples(st.lists(st.integers(0, 255), min_size=i, max_size=i), st.integers(1, 255))
                          for i in range(n)]))))


@compiled
@given(triangular_bases)
def test_weak_popov_leaves_distinct_pivots_and_the_same_span(case):
    # the form is reached by row operations r += z^s r' (s below 8, the degrees drawn, and degrees never grow), so each
    # basis is in the GF(2)-span of the other's rows times z^s for s up to 8 per row (z^s: a shift by s d bits)
    dimension, rows_drawn = case
    values = [interleaved([*below, diagonal], dimension) for below, diagonal in rows_drawn]
    rows = np.array([to_words(value, 128) for value in values], dtype=np.uint64)
    tops = np.array([value.bit_length() - 1 for value in values], dtype=np.int64)
    kernels.weak_popov(rows, tops, dimension)
    reduced = [from_words(row) for row in rows]
    assert all(top == value.bit_length() - 1 for value, top in zip(reduced, tops))
    assert len({top % dimension for top in tops}) == len(values)  # distinct pivots
    shifts = range(8 * len(values) + 1)
    shifted = lambda basis: [value << (s * dimension) for value in basis for s in shifts]
    assert gaussian_rank(shifted(values)) == gaussian_rank(shifted(values) + reduced)
    assert gaussian_rank(shifted(reduced)) == gaussian_rank(shifted(reduced) + values)


def test_popcount_edges_by_hand():
    assert [int(kernels.popcount(np.uint64(w))) for w in (0, 1, 2**63, 2**64 - 1, 0x5555555555555555, 0xF0F0)] == \
        [0, 1, 1, 64, 32, 8]


def test_popcount_trailing_zeros_and_bit_length_against_python():
    words = [int(w) for w in np.random.PCG64(1).random_raw(1000)] + [1, 2**63, 2**64 - 1, 2**32]
    words += [w >> (w % 64) or 1 for w in words]  # short words too: every bit length (non-zero)
    assert [int(kernels.popcount(np.uint64(w))) for w in words] == [w.bit_count() for w in words]
    assert [int(kernels.trailing_zeros(np.uint64(w))) for w in words] == [(w & -w).bit_length() - 1 for w in words]
    assert [int(kernels.word_bit_length(np.uint64(w))) for w in words + [0]] == [w.bit_length() for w in words + [0]]
