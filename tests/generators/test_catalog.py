"""Known answers for every catalog entry, from the real implementation or published values."""

import hashlib
import random
from pathlib import Path

import numpy as np
import pytest

from rnglab.draws.bounded import draw_bounded
from rnglab.generators import as_generator, catalog, make_source
from rnglab.reduction.reducers import REDUCERS

REFERENCE = Path(__file__).parents[1] / "data" / "reference"


def reference_lines(name: str) -> list[list[str]]:
    return [line.split() for line in (REFERENCE / name).read_text().splitlines() if line.strip()]


def first(name: str, seed: int, count: int) -> list[int]:
    return [int(v) for v in make_source(name, seed).random_raw(count)]


def test_minstd_10000th_output():
    # Park and Miller, CACM 31(10) 1988, p. 1195: from seed 1 the 10,000th value is 1043618065.
    assert first("minstd", 1, 10000)[-1] == 1043618065


def test_minstd_rand_10000th_output():
    # ISO/IEC 14882:2011 [rand.predef]: the 10000th invocation of a default-constructed minstd_rand
    # (seed 1) produces 399268537.
    assert first("minstd_rand", 1, 10000)[-1] == 399268537


def test_mt19937_10000th_output():
    # ISO/IEC 14882:2011 [rand.predef]: the 10000th invocation of a default-constructed mt19937
    # (seed 5489) produces 4123659995.
    assert first("mt19937", 5489, 10000)[-1] == 4123659995


def test_msvc():
    # Microsoft C runtime rand() after srand(1) (the default): 41, 18467, 6334, 26500, 19169.
    assert first("msvc", 1, 5) == [41, 18467, 6334, 26500, 19169]


def test_ansic():
    # The portable rand() of the C standard's example (ISO/IEC 9899, 7.22.2.2) from seed 1:
    # 16838, 5758, 10113, 17515, 31051.
    assert first("ansic", 1, 5) == [16838, 5758, 10113, 17515, 31051]


def test_borland():
    # Borland C++ rand(): the run-time library starts from Seed = 0x015A4E36 (22695478, one step
    # after 1); its published first outputs are 130 10982 1090 11656 7117 17595 6415 22948 31126 9004.
    assert first("borland", 0x015A4E36, 10) == [130, 10982, 1090, 11656, 7117, 17595, 6415, 22948, 31126, 9004]


def test_randu():
    # RANDU from seed 1: the powers 65539^k mod 2^31 (Knuth, TAOCP vol. 2, 3.3.4).
    assert first("randu", 1, 5) == [65539, 393225, 1769499, 7077969, 26542323]


def test_ranqd1():
    # Numerical Recipes in C (2nd ed.), 7.1, ranqd1 from idum = 0: idum = 1664525 idum + 1013904223.
    assert first("ranqd1", 0, 5) == [1013904223, 1196435762, 3519870697, 2868466484, 1649599747]


def test_delphi():
    # Delphi System.Random: RandSeed := RandSeed * $08088405 + 1, from RandSeed = 0.
    assert first("delphi", 0, 3) == [1, 134775814, (134775813 * 134775814 + 1) % 2**32]


def test_mmix():
    # Knuth's MMIX LCG from state 0: the first state is c, the next a c + c (mod 2^64).
    a, c = 6364136223846793005, 1442695040888963407
    assert first("mmix", 0, 2) == [c, (a * c + c) % 2**64]


@pytest.mark.parametrize("line", reference_lines("glibc_reference.txt"), ids=lambda l: f"{l[0]}-{l[1]}")
def test_glibc_real_implementation(line):
    # Produced by tests/data/reference/glibc_reference.c against glibc (initstate TYPE_0, srand48,
    # lrand48, drand48); drand48 values are X = drand48() * 2^48.
    name, seed, values = line[0], int(line[1]), [int(v) for v in line[2:]]
    assert first(name, seed, len(values)) == values


@pytest.mark.parametrize("line", [l for l in reference_lines("java_reference.txt") if l[0] == "java"],
                         ids=lambda l: f"seed{l[1]}")
def test_java_real_implementation(line):
    # Produced by tests/data/reference/JavaReference.java with the JDK's java.util.Random:
    # nextInt() as unsigned 32-bit words, e.g. new Random(42).nextInt() == -1170105035.
    seed, values = int(line[1]), [int(v) for v in line[2:]]
    assert first("java", seed, len(values)) == values


@pytest.mark.parametrize("line", [l for l in reference_lines("java_reference.txt") if l[0] == "java-nextint"],
                         ids=lambda l: f"seed{l[1]}-n{l[2]}")
def test_java_nextint_real_implementation(line):
    # The same JDK run: new Random(seed).nextInt(n) x 5, the catalog's bounded call for java
    # (n = 64 takes the power-of-two branch, n = 10^9 rejects some draws).
    seed, n, values = int(line[1]), int(line[2]), [int(v) for v in line[3:]]
    assert as_generator("java").native_reducer.name == "java-nextint"
    assert draw_bounded(make_source("java", seed), n, len(values), REDUCERS["java-nextint"]).values.tolist() == values


def test_numpy_sources_are_numpy_streams():
    # The adapter must hand out exactly numpy's own stream; the digest pins 10^5 outputs of
    # PCG64(12345) (numpy's test style: long streams pinned by SHA-256).
    values = make_source("pcg64", 12345).random_raw(100000)
    assert np.array_equal(values, np.random.PCG64(12345).random_raw(100000))
    digest = hashlib.sha256(values.astype("<u8").tobytes()).hexdigest()
    assert digest == "7e04921f1927a9ca765e6fca78dc5954dae272ff6060b51c191654642fff400c"


def test_python_random_is_getrandbits():
    expected = random.Random(2026)
    assert first("python", 2026, 7) == [expected.getrandbits(32) for _ in range(7)]


def test_os_source_declares_64_bits():
    source = make_source("os")
    values = source.random_raw(1000)
    assert values.dtype == np.uint64 and (source.low, source.high) == (0, 2**64 - 1)
    assert len(set(values.tolist())) == 1000


def test_every_entry_names_its_source():
    for entry in catalog().values():
        assert entry.citation and entry.description, entry.name


def test_unknown_name_lists_choices():
    with pytest.raises(ValueError, match="unknown generator 'nope': not one of the .* in the catalog \\(minstd"):
        as_generator("nope")


GLIBC_RAND = Path(__file__).parents[1] / "data" / "glibc_rand" / "reference.txt"


@pytest.mark.parametrize("line", GLIBC_RAND.read_text().splitlines(), ids=lambda l: "seed" + l.split()[0])
def test_glibc_rand_real_implementation(line):
    # Produced by tests/data/glibc_rand/make_reference.c against glibc 2.36: srand(seed), rand() x 40
    # (TYPE_3; seeds from 2^31 up are negative in srandom's first recurrence, 0 acts as 1).
    seed, *values = (int(v) for v in line.split())
    source = make_source("glibc", seed)
    assert [int(v) for v in source.random_raw(25)] + [source.next_raw() for _ in range(15)] == values


def test_glibc_srand1_published():
    # The values every Linux C programmer meets: srand(1); rand() ...
    assert first("glibc", 1, 4) == [1804289383, 846930886, 1681692777, 1714636915]


def test_glibc_state_round_trip():
    source = make_source("glibc", 7)
    source.random_raw(100)
    saved, expected = source.state, source.copy().random_raw(50)
    source.random_raw(13)
    source.state = saved
    assert np.array_equal(source.random_raw(50), expected)


def test_glibc_is_not_an_lcg():
    with pytest.raises(ValueError, match="not a linear congruential generator: period, spectral"):
        as_generator("glibc").lcg()


def test_vbscript_published_start_values():
    # VB's Rnd without Randomize (state 0x50000 = 327680): 0.7055475, 0.533424, 0.5795186, 0.2895625,
    # 0.301948 as VB prints them (iceplug.us/crand.htm); Rnd = x / 2^24.
    values = [v / 2**24 for v in first("vbscript", 1280, 5)]
    assert [float(f"{v:.7g}") for v in values] == [0.7055475, 0.533424, 0.5795186, 0.2895625, 0.301948]


def test_vbscript_randomize_zero():
    # Randomize 0 leaves state 0, whose first Rnd is 0.7641413 (R. L. Mueller, rlmueller.net/CrackRnd.htm)
    from rnglab.generators.vb import randomize_seed

    assert randomize_seed(0) == 0
    assert f"{first('vbscript', 0, 1)[0] / 2**24:.7f}" == "0.7641413"


def test_vbscript_randomize_keeps_sixteen_bits():
    # Randomize n reads the high word w of the double: 1.0 is 0x3FF00000, h = (w ^ w >> 16) & 0xFFFF
    from rnglab.generators.vb import randomize_seed

    assert randomize_seed(1.0) == 0x3FF0 and randomize_seed(-1.0) == 0xBFF0
    assert as_generator("vbscript").make(0x3FF0).state["x"] == 0x3FF000
    # the seed is the word Randomize reads: 1.0's high word 0x3FF00000 hashes to the same state
    assert as_generator("vbscript").make(0x3FF00000).state["x"] == 0x3FF000


def test_pcg64_uint32_is_next_uint32():
    # numpy's Generator reads 64-bit PCG64 outputs as two 32-bit words, low half first (pcg64_next32)
    source = make_source("pcg64_uint32", 99)
    values = [source.next_raw()] + [int(v) for v in source.random_raw(8)] + [source.next_raw()]
    expected = np.random.Generator(np.random.PCG64(99)).integers(0, 2**32, 10, dtype=np.uint32)
    assert values == expected.tolist()


def test_python_random53_is_random():
    expected = random.Random(5)
    assert [v / 2**53 for v in first("python_random53", 5, 20)] == [expected.random() for _ in range(20)]


@pytest.mark.parametrize("name", list(catalog()) + ["lcg:a=16807,m=2^31-1", "mrg:m=17,a=-5:-2"])
def test_the_declared_output_range_is_the_built_generators(name):
    spec = as_generator(name)
    source = spec.make()
    assert spec.output_range() == (source.low, source.high)


def test_list_json_names_the_seeding_of_the_gf2_linear_generators():
    from rnglab.cli.listing import catalog_rows

    seeding = {row["name"]: row["seeding"] for row in catalog_rows() if row["kind"] == "linear"}
    assert seeding == {"v8": "fmix64", "v8-53": "fmix64", "v8-plus": "state0=state1=seed", "unity": "unity-initstate",
                       "xorshift32": "state", "xorshift64": "state", "xorshift128": "state",
                       **{name: "splitmix64" for name in ("xoroshiro128plus", "xoroshiro128plusplus",
                                                          "xoroshiro128starstar", "xoshiro256plus",
                                                          "xoshiro256starstar", "well512a")},
                       "mt19937_64": "init_genrand64"}


@pytest.mark.parametrize("name, seed, message", [
    ("xorshift128", 2**128, "seeds of xorshift128 must be in [1, 2^128 - 1]; got 2^128"),
    ("xoshiro256plus", -(3**90), "seeds of xoshiro256plus must be in [0, 18446744073709551615]; got -2^142.65"),
])
def test_a_long_seed_bound_is_written_exactly_near_a_power_of_two(name, seed, message):
    with pytest.raises(ValueError) as refused:
        as_generator(name).check_seed(seed)
    assert str(refused.value) == message
