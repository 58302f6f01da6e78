"""The structure of the GF(2)-linear generators: transition matrix, characteristic polynomial, period and
equidistribution, against brute force, small LFSRs worked by hand, and the published anchors (Matsumoto and
Nishimura 1998; Panneton, L'Ecuyer and Matsumoto 2006)."""

import numba
import numpy as np
import pytest
from algebra.test_gf2 import lfsr

from rnglab.algebra import gf2
from rnglab.algebra.gf2_generators import (
    LinearModel,
    bit_sequence,
    equidistribution,
    gf2_period,
    linear_model,
    transition_matrix,
)
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


@pytest.mark.slow  # 20-50 s of the default suite
def test_mt19937_period_and_polynomial_weight(mt19937):
    # Matsumoto and Nishimura 1998: period 2^19937 - 1 (a Mersenne prime: primitive = irreducible);
    # the characteristic polynomial has 135 non-zero terms
    period, _ = mt19937
    assert (period.degree, period.weight, period.primitive, period.period) == (19937, 135, True, 2**19937 - 1)


@pytest.mark.slow  # 20-50 s of the default suite
def test_mt19937_equidistribution_published(mt19937):
    # Matsumoto and Nishimura 1998, Table 2: k(1..8) and k(32) = 623, dimension defect 6750
    _, result = mt19937
    assert result.dimensions[:8] == (19937, 9968, 6240, 4984, 3738, 3115, 2493, 2492)
    assert result.dimensions[31] == 623 and result.defect == 6750


@pytest.mark.slow  # 20-50 s of the default suite
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


@pytest.mark.slow  # 20-50 s of the default suite
def test_xorshift32_period_by_a_walk():
    # the algebra says 2^32 - 1 (primitive polynomial of degree 32); the walk confirms it
    assert gf2_period(linear_model(as_generator("xorshift32"))).period == 2**32 - 1
    assert xorshift32_cycle(np.uint64(2463534242)) == 2**32 - 1


@pytest.mark.parametrize("name", ["xoroshiro128plus", "xoroshiro128plusplus", "xoshiro256starstar", "v8",
                                  "v8-53", "v8-plus", "xorshift64", "xoshiro256plus",
                                  pytest.param("mt19937_64", marks=pytest.mark.slow)])  # 24 s
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


def lfsr_model(polynomial, width=1, state=(1, 0, 0, 0)):
    """A model whose outputs are ``width`` successive bits of the LFSR of ``polynomial``, the first on top."""
    def sequence(count):
        bits = lfsr(polynomial, list(state), count + width)
        return np.array([sum(bits[n + j] << (width - 1 - j) for j in range(width)) for n in range(count)],
                        dtype=np.uint64)

    return LinearModel(f"lfsr-{polynomial:b}", gf2.degree(polynomial), width, True, sequence)


def test_bit_sequence_reads_one_bit_of_each_value():
    assert bit_sequence(np.array([0b101, 0b010, 0b111], dtype=np.uint64), 0) == [1, 0, 1]
    assert bit_sequence(np.array([0b101, 0b010, 0b111], dtype=np.uint64), 1) == [0, 1, 1]


def test_periods_of_small_lfsrs_by_hand():
    # z^4 + z + 1 is primitive (period 15); z^4 + z^3 + z^2 + z + 1 is irreducible with z^5 = 1 (not primitive)
    primitive = gf2_period(lfsr_model(0b10011))
    assert (primitive.degree, primitive.weight, primitive.primitive, primitive.period) == (4, 3, True, 15)
    assert primitive.polynomial == 0b10011
    irreducible = gf2_period(lfsr_model(0b11111))
    assert (irreducible.irreducible, irreducible.primitive, irreducible.period) == (True, False, None)


def test_an_m_sequence_is_maximally_equidistributed_and_its_overlapping_pairs_are_not():
    # one bit of z^4 + z + 1: any 4 successive bits take every value (k(1) = 4). Outputs of the two bits
    # (s_n, s_(n+1)): two successive outputs share s_(n+1), so k(2) = 1 against floor(4/2) = 2: defect 1.
    single = equidistribution(lfsr_model(0b10011))
    assert (single.dimensions, single.bounds, single.defect) == ((4,), (4,), 0)
    pairs = equidistribution(lfsr_model(0b10011, width=2))
    assert (pairs.dimensions, pairs.bounds, pairs.defect) == ((4, 1), (4, 2), 1)


def test_equidistribution_needs_an_irreducible_polynomial():
    # (z^2 + z + 1)^2 = z^4 + z^2 + 1, from a state whose minimal polynomial is all of it
    assert gf2_period(lfsr_model(0b10101)).polynomial == 0b10101
    with pytest.raises(ValueError, match="characteristic polynomial is reducible"):
        equidistribution(lfsr_model(0b10101))
