"""GF(2)-linear generators bit for bit with their references: C for xorshift, xoroshiro, xoshiro and WELL512a
(tests/data/xorshift/), g++'s std::mt19937_64 (tests/data/mt19937_64/) node 20's Math.random
(tests/data/v8/, node --random_seed=N) and V8's own random-number-generator.h for the other V8 variants
(tests/data/v8/variants/)."""

import hashlib
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
from generators.test_base import Base

from rnglab.draws.bounded import draw_bounded
from rnglab.generators import catalog, make_source
from rnglab.generators.xorshift import (
    ALGORITHMS,
    V8MathRandom,
    V8MathRandomPlus,
    Xorshift32,
    Xorshift128,
    fmix64,
    splitmix64,
)
from rnglab.reduction.reducers import REDUCERS

DATA = Path(__file__).parents[1] / "data"
#: Catalog names of the generators tests/data/xorshift/reference.c runs.
CATALOG_NAMES = {"xorshift32": "xorshift32", "xorshift64": "xorshift64", "xorshift128": "xorshift128",
                 "xoroshiro128+": "xoroshiro128plus", "xoroshiro128++": "xoroshiro128plusplus",
                 "xoroshiro128**": "xoroshiro128starstar", "xoshiro256+": "xoshiro256plus",
                 "xoshiro256**": "xoshiro256starstar", "well512a": "well512a"}


def digest(values: np.ndarray) -> str:
    """SHA-256 of the outputs as little-endian 64-bit words (what the reference programs pipe to sha256sum)."""
    return hashlib.sha256(values.astype("<u8").tobytes()).hexdigest()


def lines(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("line", lines(DATA / "xorshift" / "reference.txt"), ids=lambda line: line[0])
def test_generator_is_its_c_reference(line):
    # Marsaglia's generators from his paper's initial states, Vigna's and WELL512a from SplitMix64(0)
    name, expected_digest, *first = line
    source = make_source(CATALOG_NAMES[name])
    assert [source.next_raw() for _ in range(10)] == [int(v) for v in first]
    assert digest(make_source(CATALOG_NAMES[name]).random_raw(100000)) == expected_digest


def test_marsaglia_published_first_outputs():
    # xor32 from y = 2463534242 and xor128 from the paper's four words: the values his C prints
    assert make_source("xorshift32").random_raw(2).tolist() == [723471715, 2497366906]
    assert make_source("xorshift128").random_raw(2).tolist() == [3701687786, 458299110]


@pytest.mark.parametrize("line", lines(DATA / "mt19937_64" / "reference.txt"), ids=lambda line: line[1])
def test_mt19937_64_is_libstdcxx(line):
    expected_digest, seed, *values = line
    source = make_source("mt19937_64", int(seed))
    outputs = source.random_raw(100000)
    assert outputs[:10].tolist() == [int(v) for v in values[:10]] and int(outputs[9999]) == int(values[10])
    assert digest(outputs) == expected_digest


def test_mt19937_64_standard_value():
    # ISO/IEC 14882:2011 [rand.predef]: the 10000th output of a default-constructed std::mt19937_64
    assert int(make_source("mt19937_64").random_raw(10000)[-1]) == 9981545732273789042


def v8_reference() -> dict[tuple[int, str], list[str]]:
    return {(int(seed), kind): values for seed, kind, *values in lines(DATA / "v8" / "reference.txt")}


@pytest.mark.parametrize("seed", [1, 2, 12345, -1, -2147483648])
def test_v8_is_node_math_random(seed):
    # node 20.20.2 (V8 11.3): 200 Math.random() values, then 200 Math.floor(Math.random() * 52)
    reference = v8_reference()
    source = make_source("v8", seed)
    mantissas = source.random_raw(200)
    assert mantissas.tolist() == [int(v) for v in reference[seed, "mantissas"]]
    assert [float(v) for v in reference[seed, "doubles"]] == (mantissas / 2.0**52).tolist()
    # Math.floor(Math.random() * n) is float-multiply on R = 2^52: fl(x n) / 2^52 is fl(x 2^-52 n)
    floors = draw_bounded(source, 52, 200, REDUCERS["float-multiply"]).values
    assert floors.tolist() == [int(v) for v in reference[seed, "floor52"]]


def test_v8_cache_hands_out_blocks_last_first():
    source = make_source("v8", 12345)
    engine = source.engine()
    generated = engine.random_raw(192)
    assert source.random_raw(192).tolist() == np.concatenate([block[::-1] for block in generated.reshape(3, 64)]
                                                             ).tolist()
    assert source.index == 0 and source.cache == tuple(generated[128:].tolist())


def test_v8_seed_is_hashed_by_fmix64():
    # fmix64 is a bijection; fmix64(0) = 0 (the state then rests on the complement's hash)
    assert fmix64(0) == 0 and make_source("v8", 0).words == (0, fmix64(2**64 - 1))
    assert make_source("v8", -1).words == make_source("v8", 2**64 - 1).words


def v8_variants() -> dict[tuple[int, str, str], list[str]]:
    """tests/data/v8/variants/: the C++ driver's ``raw`` and ``doubles`` and node's formatting (``node``)."""
    folder = DATA / "v8" / "variants"
    return {(int(seed), name, kind): values for path in ("reference.txt", "node_doubles.txt")
            for seed, name, kind, *values in lines(folder / path)}


@pytest.mark.parametrize("name, seed, bits", [("v8-plus", seed, 52) for seed in (1, 2, 12345, -1, 139, 193)]
                         + [("v8-53", seed, 53) for seed in (1, 2, 12345, -1, 1337)])
def test_v8_variant_is_v8s_own_code(name, seed, bits):
    # driver.cc against V8's random-number-generator.h: 200 Math.random() values; node prints the same doubles
    reference = v8_variants()
    raw = make_source(name, seed).random_raw(200)
    assert raw.tolist() == [int(v) for v in reference[seed, name, "raw"]]
    doubles = (raw / 2.0**bits).tolist()
    assert [float(v) for v in reference[seed, name, "doubles"]] == doubles
    assert [float(v) for v in reference[seed, name, "node"]] == doubles


def test_v8_53_keeps_the_bit_v8_drops():
    # the same engine words: v8-53's outputs are v8's with one more bit (state0 >> 11 against state0 >> 12)
    fifty_two, fifty_three = make_source("v8", 5).random_raw(130), make_source("v8-53", 5).random_raw(130)
    assert (fifty_three >> np.uint64(1)).tolist() == fifty_two.tolist() and (fifty_three & np.uint64(1)).any()


def test_v8_plus_hands_out_62_sums_a_refill_last_first():
    source = make_source("v8-plus", 12345)
    assert source.words == (12345, 12345)  # --random_seed=N: state0 = state1 = N
    s0, s1, sums = 12345, 12345, []
    for _ in range(124):
        t = s0 ^ (s0 << 23) & 2**64 - 1
        s0, s1 = s1, t ^ t >> 17 ^ s1 ^ s1 >> 26
        sums.append((s0 + s1) % 2**52)
    assert source.random_raw(124).tolist() == sums[61::-1] + sums[:61:-1]


@pytest.mark.parametrize("seed, refill", [(139, 0), (193, 2)])
def test_v8_plus_stores_a_nan_looking_word_as_the_quiet_nan(seed, refill):
    # the state words pass through a FixedDoubleArray after each refill of 62: a word whose exponent bits
    # are all ones (a NaN) comes back as 0x7FF8000000000000, and the stream after it is another
    source = make_source("v8-plus", seed)
    source.random_raw(62 * (refill + 1))
    engine = make_source("v8-plus", seed).engine()
    engine.random_raw(62 * (refill + 1))
    assert 0x7FF8000000000000 in source.words and 0x7FF8000000000000 not in engine.words
    nan = [word for word in engine.words if word not in source.words]
    assert len(nan) == 1 and nan[0] >> 52 & 0x7FF == 0x7FF
    assert V8MathRandomPlus(engine.words).random_raw(62).tolist() != source.random_raw(62).tolist()


def test_splitmix64_published_outputs():
    # Vigna's splitmix64.c from x = 0 (the values quoted with it, e.g. by the Rust and Java ports)
    assert splitmix64(0, 2) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


@pytest.mark.parametrize("name, seed, message", [
    ("xorshift32", 0, r"seeds of xorshift32 must be in \[1, 4294967295\]; got 0"),
    ("xorshift32", 2**32, "got 4294967296"),
    ("xoshiro256starstar", -1, r"must be in \[0, 18446744073709551615\]"),
    ("v8", 2**64, r"must be in \[-9223372036854775808, 18446744073709551615\]"),
    ("v8-plus", 0, "seed 0 of v8-plus is V8's --random_seed=0, 'seed from the OS'"),
])
def test_seed_outside_the_rule_is_refused(name, seed, message):
    with pytest.raises(ValueError, match=message):
        make_source(name, seed)


def test_all_zero_state_is_refused():
    with pytest.raises(ValueError, match="all-zero state of xorshift128 is a fixed point"):
        Xorshift128([0, 0, 0, 0])


def test_every_algorithm_has_a_catalog_entry():
    assert {entry.algorithm for entry in catalog().values() if entry.kind == "linear"} == \
        set(ALGORITHMS) - {"v8-xorshift128", "v8-53-xorshift128"}  # V8's engines: through engine()


@pytest.mark.parametrize("name", [name for name, entry in catalog().items() if entry.kind == "linear"])
def test_state_vector_round_trip(name):
    source = make_source(name)
    source.random_raw(5)
    vector = source.state_vector()
    assert len(vector) == -(-source.state_size // 64)
    assert type(source).from_state_vector(vector).words == source.words


def test_state_vector_bit_order():
    # bit i of the vector is bit i mod w of word i // w: xorshift128's word y = 1 is bit 32
    vector = Xorshift128([0, 1, 0, 0]).state_vector()
    assert vector.tolist() == [2**32, 0]
    assert Xorshift32.from_state_vector(np.array([5], dtype=np.uint64)).words == (5,)


class LinearBase(Base):
    """The checks every source passes (tests/generators/test_base.py), for the catalog's linear generators."""

    name: str

    def make(self):
        return make_source(self.name)


class TestXorshift32(LinearBase):
    name, declared = "xorshift32", (0, 2**32 - 1)


class TestXorshift128(LinearBase):
    name, declared = "xorshift128", (0, 2**32 - 1)


class TestXoshiro256StarStar(LinearBase):
    name, declared = "xoshiro256starstar", (0, 2**64 - 1)


class TestWell512a(LinearBase):
    name, declared = "well512a", (0, 2**32 - 1)


class TestMt19937x64(LinearBase):
    name, declared = "mt19937_64", (0, 2**64 - 1)


class CacheRoundTrip:
    """A V8 state saved inside a cache block (after ``skipped`` values) restores the same next values."""

    cached: ClassVar[type]
    skipped: ClassVar[int]

    def test_state_round_trip_inside_a_cache_block(self):
        source = self.make()
        source.random_raw(self.skipped)
        saved, expected = source.state, source.copy().random_raw(100)
        restored = self.cached([1, 1], name=self.name)
        restored.state = saved
        assert restored.random_raw(100).tolist() == expected.tolist()


class TestV8(CacheRoundTrip, LinearBase):
    name, declared, cached, skipped = "v8", (0, 2**52 - 1), V8MathRandom, 10
    known: ClassVar[list[int]] = [662952668680055, 1234589595471429]  # node --random_seed=1: Math.random() * 2^52


class TestV8x53(LinearBase):
    name, declared = "v8-53", (0, 2**53 - 1)
    known: ClassVar[list[int]] = [1325905337360111, 2469179190942858]  # V8 13.5's code, seed 1: Math.random() * 2^53


class TestV8Plus(CacheRoundTrip, LinearBase):
    name, declared, cached, skipped = "v8-plus", (0, 2**52 - 1), V8MathRandomPlus, 70
    known: ClassVar[list[int]] = [2686631224702828, 286596866342356]  # V8 4.9-7.0's code, seed 1: Math.random() * 2^52


def unity_reference() -> list[list[str]]:
    """tests/data/unity/reference.txt: MoatShrimp's values read from UnityEngine.Random (README there)."""
    return lines(DATA / "unity" / "reference.txt")


@pytest.mark.parametrize("row", [row for row in unity_reference() if row[0] == "state"], ids=lambda row: row[1])
def test_unity_init_state_is_unitys(row):
    # Random.state after Random.InitState(seed): x = seed, then 1812433253 w + 1 three times (mod 2^32)
    seed, *words = map(int, row[1:])
    assert make_source("unity", seed).words == tuple(words)


@pytest.mark.parametrize("row", [row for row in unity_reference() if row[0] == "range"],
                         ids=lambda row: f"{row[1]}:{row[2]}..{row[3]}")
def test_unity_range_is_unitys(row):
    # Random.Range(min, max) on ints: min + output mod (max - min), the modulo reducer; min > max counts down
    seed, low, high, expected = map(int, row[1:])
    draw = int(draw_bounded(make_source("unity", seed), abs(high - low), 1, REDUCERS["modulo"]).values[0])
    assert (low + draw if low < high else low - draw) == expected


def test_unity_seed_is_a_csharp_int():
    assert make_source("unity", -1).words[0] == 2**32 - 1
    with pytest.raises(ValueError, match=r"seeds of unity must be in \[-2147483648, 2147483647\]"):
        make_source("unity", 2**31)


class TestUnity(LinearBase):
    name, declared = "unity", (0, 2**32 - 1)
