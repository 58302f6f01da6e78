"""Tests for rnglab.draws.bounded: every reducer against a one-value Python-integer reference,
the vectorised draws against the one-at-a-time loop, and the batch (per-lane) draws."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.core import compiled
from rnglab.draws.bounded import Drawn, draw_bounded, draw_bounded_lanes, draw_bounded_reference
from rnglab.draws.compact import compact, compacts
from rnglab.draws.words import WordBlock
from rnglab.generators import CallableSource, make_source
from rnglab.reduction.maps import check_bound, scaled_product
from rnglab.reduction.reducers import REDUCERS, as_reducer


def reference_map(method, x, n, R):
    """Each method written out on Python integers, straight from its definition."""
    if method == "modulo":
        return x % n, True
    if method == "float-multiply":
        return int((float(x) * float(n)) / float(R)), True
    if method == "multiply-shift":
        return x * n // R, True
    if method == "threshold":
        return x % n, x < R - R % n
    if method == "threshold-openbsd":
        return x % n, x >= R % n
    if method == "bitmask":
        block = 1 << (n - 1).bit_length()
        value = x % block
        return value, value < n and x < (R - R % block if block <= R else R)
    if method == "lemire":
        return x * n // R, x * n % R >= R % n
    if method == "java-nextint":
        r = x >> 1
        if n & (n - 1) == 0:
            return (n * r) >> 31, True
        return r % n, r - r % n + n - 1 < 2**31
    if method == "python-randbelow":
        value = x >> (R.bit_length() - 1 - n.bit_length())  # getrandbits(k): the top k bits
        return value, value < n
    raise AssertionError(method)


def applicable(method, R, n):
    if method == "java-nextint":
        return R == 2**32 and n < 2**31
    if method == "python-randbelow":
        return R & (R - 1) == 0 and n < R
    return method != "float-multiply" or R <= 2**53


RANGES = [2, 3, 10, 32768, 2**31 - 2, 2**32, 2**48, 2**53, 2**61 - 1, 2**64, 2**64 + 13, 2**70]


@pytest.mark.parametrize("R", RANGES)
@pytest.mark.parametrize("method", list(REDUCERS))
def test_map_matches_the_integer_reference(method, R):
    rng = np.random.default_rng(R % 1000)
    dtype = np.uint64 if R <= 2**64 else object
    xs = [int(v) for v in rng.integers(0, min(R, 2**63), 60)] + [0, R - 1, R // 2]
    for n in sorted({1, 2, 3, 52, 10000, R // 2 + 1, R - 1, R}):
        if not (1 <= n <= R and applicable(method, R, n)):
            continue
        values, accepted = as_reducer(method).map(np.array(xs, dtype=dtype), n, R)
        expected = [reference_map(method, x, n, R) for x in xs]
        assert [int(v) for v in values] == [e[0] for e in expected], (n, R)
        assert [bool(a) for a in accepted] == [e[1] for e in expected], (n, R)


@pytest.mark.parametrize("method", list(REDUCERS))
def test_map_takes_one_bound_per_lane(method):
    R = 2**32
    x = np.arange(0, 2**32, 2**32 // 997 + 1, dtype=np.uint64)
    bounds = np.arange(1, len(x) + 1, dtype=np.uint64) * np.uint64(1_000_003)
    values, accepted = as_reducer(method).map(x, bounds, R)
    expected = [reference_map(method, int(a), int(b), R) for a, b in zip(x, bounds)]
    assert [int(v) for v in values] == [e[0] for e in expected]
    assert [bool(a) for a in accepted] == [e[1] for e in expected]


@pytest.mark.parametrize("seed", [0, 42, 2026])
def test_python_randbelow_is_cpython_randbelow(seed):
    # CPython's own Random._randbelow (the getrandbits path) for bounds with and without rejection
    import random

    for n in (1, 2, 3, 4, 10, 52, 2**20, 2**31 + 1, 2**32 - 1):
        expected = random.Random(seed)
        values = draw_bounded(make_source("python", seed), n, 30, REDUCERS["python-randbelow"]).values
        assert values.tolist() == [expected._randbelow(n) for _ in range(30)], n


def test_scaled_product_is_exact_above_2_64():
    x = np.array([0, 1, 2**64 - 1, 2**63 + 12345, 0xDEADBEEFCAFEBABE], dtype=np.uint64)
    for R, n in ((2**64, 2**64 - 59), (2**48, 2**48 - 5), (2**33, 3)):
        quotient, kept = scaled_product(x >> np.uint64(64 - R.bit_length() + 1), n, R, threshold=R // 3)
        products = [(int(v) >> (65 - R.bit_length())) * n for v in x]
        assert [int(q) for q in quotient] == [p // R for p in products]
        assert list(kept) == [p % R >= R // 3 for p in products]


def test_registry_names_and_unknown_method():
    assert set(REDUCERS) == {"modulo", "float-multiply", "multiply-shift", "threshold", "threshold-openbsd",
                             "bitmask", "lemire", "java-nextint", "python-randbelow"}
    assert [name for name, r in REDUCERS.items() if not r.unbiased] == ["modulo", "float-multiply", "multiply-shift"]
    with pytest.raises(ValueError, match="choose from modulo"):
        as_reducer("mod")


def test_bound_rule_names_the_range():
    with pytest.raises(ValueError, match=r"n must be in \[1, R\] = \[1, 32768\] for this source; got 40000"):
        draw_bounded(make_source("msvc"), 40000, 5, REDUCERS["modulo"])
    with pytest.raises(ValueError, match="got 0"):
        check_bound(np.array([3, 0], dtype=np.uint64), 10)
    with pytest.raises(TypeError):
        check_bound(2.5, 10)


def test_methods_refuse_sources_they_cannot_serve():
    with pytest.raises(ValueError, match="R = 2\\^32"):
        draw_bounded(make_source("msvc"), 10, 5, REDUCERS["java-nextint"])
    with pytest.raises(ValueError, match="2\\^31 - 1"):
        draw_bounded(make_source("java"), 2**31, 5, REDUCERS["java-nextint"])
    with pytest.raises(ValueError, match="2\\^53"):  # n > 2^32: whole 64-bit words
        draw_bounded(make_source("pcg64"), 2**33, 5, REDUCERS["float-multiply"])


def test_java_nextint_known_answers():
    # new java.util.Random(42).nextInt(10) x10, nextInt(1 << 20) x5, nextInt(2000000000) x5,
    # printed by OpenJDK's java.util.Random (algorithm: Java SE API specification, nextInt(int)).
    source = make_source("java", seed=42)
    assert list(draw_bounded(source, 10, 10, REDUCERS["java-nextint"]).values) == [0, 3, 8, 4, 0, 5, 5, 8, 9, 3]
    assert list(draw_bounded(source, 2**20, 5, REDUCERS["java-nextint"]).values) == [947254, 473177, 386696, 400181, 289142]
    assert list(draw_bounded(source, 2_000_000_000, 5, REDUCERS["java-nextint"]).values) == [
        1482678032, 995688456, 1636576170, 1681268743, 1974241400]


def test_msvc_rand_mod_known_answer():
    # MSVC srand(1): rand() = 41, 18467, 6334, 26500, 19169 (Microsoft C runtime; widely quoted)
    assert list(draw_bounded(make_source("msvc", seed=1), 100, 5, REDUCERS["modulo"]).values) == [41, 67, 34, 0, 69]


def test_draw_returns_drawn_and_counts_rejections():
    drawn = draw_bounded(make_source("msvc", seed=7), 20000, 1000, REDUCERS["threshold"])
    assert isinstance(drawn, Drawn) and drawn.values.dtype == np.uint64
    assert drawn.draws > 1000 and drawn.values.max() < 20000
    assert draw_bounded(make_source("msvc"), 5, 0, REDUCERS["lemire"]).values.size == 0


GENERATORS = ["msvc", "java", "minstd", "pcg64", "drand48", "mmix", "delphi"]


@settings(max_examples=60, deadline=None)
@given(gen=st.sampled_from(GENERATORS), method=st.sampled_from(list(REDUCERS)),
       n_fraction=st.floats(0, 1), seed=st.integers(1, 2**31 - 2), size=st.integers(0, 300))
def test_vectorised_draw_equals_one_at_a_time(gen, method, n_fraction, seed, size):
    fast, slow = make_source(gen, seed=seed), make_source(gen, seed=seed)
    n = max(1, int(n_fraction * min(fast.range_size, 2**31 - 1)))
    if not applicable(method, fast.range_size, n):
        return
    drawn, expected = draw_bounded(fast, n, size, REDUCERS[method]), draw_bounded_reference(slow, n, size, REDUCERS[method])
    assert drawn.draws == expected.draws
    assert np.array_equal(drawn.values, expected.values)
    assert np.array_equal(fast.random_raw(3), slow.random_raw(3))


@pytest.mark.parametrize("numpy_work", [0, compiled.NUMPY_WORK_LIMIT])
@pytest.mark.parametrize("size", [63, 64, 5000])
@pytest.mark.parametrize(("gen", "method", "n"), [("java", "java-nextint", 2**30 + 1), ("pcg64", "lemire", 3 * 2**62),
                                                  ("java", "bitmask", 2**31 + 1)])
def test_draws_mapped_by_numpy_equal_the_one_pass_kernel_s(gen, method, n, size, numpy_work, monkeypatch):
    # numpy maps the draws of a process where no kernel has run until its numpy work passes NUMPY_WORK_LIMIT;
    # bounds that reject about half the draws: the rejections and the draws counted go through both paths
    monkeypatch.setattr(compiled, "_started", False)
    monkeypatch.setattr(compiled, "_numpy_work", numpy_work)
    fast, slow = make_source(gen, seed=2026), make_source(gen, seed=2026)
    drawn, expected = draw_bounded(fast, n, size, REDUCERS[method]), draw_bounded_reference(slow, n, size, REDUCERS[method])
    assert drawn.draws == expected.draws > size
    assert np.array_equal(drawn.values, expected.values)
    assert np.array_equal(fast.random_raw(3), slow.random_raw(3))


@settings(max_examples=25, deadline=None)
@given(method=st.sampled_from(list(REDUCERS)), seed=st.integers(0, 2**32 - 1),
       per_lane=st.booleans(), gen=st.sampled_from(["msvc", "java", "delphi"]))
def test_lanes_equal_one_generator_each(method, seed, per_lane, gen):
    source = make_source(gen)
    if not applicable(method, source.range_size, 2**30):
        return
    seeds = np.random.default_rng(seed).integers(0, 2**32, 40)
    bounds = (np.random.default_rng(seed + 1).integers(1, min(source.range_size, 2**31), 40).astype(np.uint64)
              if per_lane else min(source.range_size * 5 // 8, 2**31 - 1))
    values, draws = draw_bounded_lanes(source.batch(seeds), bounds, REDUCERS[method])
    for lane, lane_seed in enumerate(seeds):
        n = int(bounds[lane]) if per_lane else bounds
        single = draw_bounded_reference(make_source(gen, seed=int(lane_seed)), n, 1, REDUCERS[method])
        assert (int(values[lane]), int(draws[lane])) == (int(single.values[0]), single.draws)


def test_lemire_is_bit_exact_with_numpy_integers():
    # numpy's Generator.integers(0, n) uses Lemire's method: on 32-bit words (two per PCG64 output, low
    # half first) for n <= 2^32, on whole 64-bit words above (numpy/random/src/distributions/distributions.c)
    for n in (52, 10000, 3_000_000_000):
        words = iter(np.random.PCG64(7).random_raw(4000).view(np.uint32).astype(np.uint64).tolist())
        halves = CallableSource(words.__next__, 0, 2**32 - 1, "pcg64-halves")
        expected = np.random.Generator(np.random.PCG64(7)).integers(0, n, 2000)
        assert np.array_equal(draw_bounded(halves, n, 2000, REDUCERS["lemire"]).values, expected), n
    for n in (10**12, 2**63 + 12345):
        expected = np.random.Generator(np.random.PCG64(7)).integers(0, n, 2000, dtype=np.uint64)
        assert np.array_equal(draw_bounded(make_source("pcg64", seed=7), n, 2000, REDUCERS["lemire"]).values, expected)


def assert_same_state(source, generator):
    """The source continues as numpy's generator: the same kept 32-bit half and the same next outputs."""
    state = generator.bit_generator.state
    assert source.spare_half == (state["uinteger"] if state["has_uint32"] else None)
    assert source.random_raw(8).tolist() == generator.bit_generator.random_raw(8).tolist()


NUMPY_BOUNDS = st.one_of(st.integers(1, 70), st.integers(1, 2**32), st.integers(2**32 - 2, 2**32 + 2),
                         st.integers(2**32 + 1, 2**64 - 1), st.sampled_from([1, 2, 2**31, 2**32, 2**63, 2**64]))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**64 - 1), st.lists(st.tuples(NUMPY_BOUNDS, st.integers(0, 40)), min_size=1, max_size=8))
def test_catalog_pcg64_draws_as_numpy_integers_call_after_call(seed, calls):
    # numpy's own output: Generator(PCG64(seed)).integers(0, n, size), consecutive calls with different n
    # share the high half kept by next_uint32 (bounds <= 2^32), and n = 1 draws nothing
    source, reference = make_source("pcg64", seed=seed), make_source("pcg64", seed=seed)
    generator = np.random.Generator(np.random.PCG64(seed))
    for n, size in calls:
        expected = generator.integers(0, n, size, dtype=np.uint64).tolist()
        assert draw_bounded(source, n, size, REDUCERS["lemire"]).values.tolist() == expected
        assert draw_bounded_reference(reference, n, size, REDUCERS["lemire"]).values.tolist() == expected
    assert reference.spare_half == source.spare_half
    assert reference.random_raw(8).tolist() == source.copy().random_raw(8).tolist()
    assert_same_state(source, generator)


def test_catalog_pcg64_long_draws_cross_chunks_as_numpy_integers():
    source, generator = make_source("pcg64", seed=20261124), np.random.Generator(np.random.PCG64(20261124))
    for n, size in [(52, 100_001), (2**40 + 3, 70_001), (7, 3), (1, 5), (2**32, 1), (3_000_000_019, 90_000), (5, 1)]:
        expected = generator.integers(0, n, size, dtype=np.uint64)
        assert np.array_equal(draw_bounded(source, n, size, REDUCERS["lemire"]).values, expected), n
    assert generator.integers(0, 1000) == draw_bounded(source, 1000, 1, REDUCERS["lemire"]).values[0]  # numpy's one-value call
    copy = source.copy()
    copy.state = source.state  # the kept half travels in the state, as numpy's has_uint32 / uinteger
    assert_same_state(copy, generator)


@pytest.mark.parametrize("method,n", [("lemire", 52), ("lemire", 7), ("lemire", 2**32 + 5), ("bitmask", 52),
                                      ("bitmask", 2**40 + 1), ("java-nextint", 52), ("java-nextint", 2**20)])
def test_pending_values_and_the_kept_half_come_before_the_generator_stepped_directly(method, n):
    # the compiled loop steps the BitGenerator itself only once the values handed back are used up
    source, reference = make_source("pcg64", seed=9), make_source("pcg64", seed=9)
    for each in (source, reference):
        draw_bounded(each, 1000, 5, REDUCERS["modulo"])  # leaves a kept half
        each.unread(each.random_raw(3)[::-1])
    drawn, expected = draw_bounded(source, n, 1000, REDUCERS[method]), draw_bounded_reference(reference, n, 1000, REDUCERS[method])
    assert drawn.values.tolist() == expected.values.tolist() and drawn.draws == expected.draws
    assert source.spare_half == reference.spare_half
    assert source.random_raw(5).tolist() == reference.random_raw(5).tolist()


def compact_blocks(R, rng):
    """Blocks of draws for the one-pass kernel: whole words of R values, and (R = 2^32) halves of 64-bit words."""
    if R == 2**64:
        return [WordBlock(rng.integers(0, 2**64 - 1, 3000, dtype=np.uint64, endpoint=True), False)]
    halves = rng.integers(0, 2**64 - 1, 1500, dtype=np.uint64, endpoint=True)
    return [WordBlock(rng.integers(0, R, 3000, dtype=np.uint64), False), WordBlock(halves, True),
            WordBlock(halves, True, spare=int(rng.integers(0, R)))]


def serves(reducer, n, R):
    try:
        reducer.check(n, R)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("method", [name for name, r in REDUCERS.items() if r.scalar is not None])
@pytest.mark.parametrize("R", [2**32, 2**64])
def test_one_pass_compact_equals_the_map_and_its_accepted_values(method, R):
    reducer, rng = as_reducer(method), np.random.default_rng(5)
    for n in (1, 2, 3, 52, 2**31 - 1, 2**31 + 1, 2**32 - 5, 2**32, 2**40 + 7, 2**63 + 1, 2**64 - 1):
        for block in compact_blocks(R, rng):
            if not serves(reducer, n, R) or \
                    not compacts(reducer, block.raw.dtype, n, R) or (method == "java-nextint" and n >= 2**31):
                continue
            values, accepted = reducer.map(block.words(), n, R)
            for wanted in (1, 17, 3000):
                out = np.zeros(5 + wanted, dtype=np.uint64)
                kept, used, _ = compact(reducer, block, n, R, out, (5, wanted), (0, 309))
                expected = values[accepted][:wanted]
                assert out[5:5 + kept].tolist() == expected.tolist() and kept == len(expected)
                assert used == (int(np.flatnonzero(accepted)[wanted - 1]) + 1 if accepted.sum() >= wanted
                                else len(block))


def test_one_pass_compact_stops_at_the_stuck_streak():
    block = WordBlock(np.zeros(200, dtype=np.uint64), True)  # lemire, n = 3, R = 2^32 rejects 0 (0 < 2^32 mod 3)
    out = np.zeros(400, dtype=np.uint64)
    assert compact(as_reducer("lemire"), block, 3, 2**32, out, (0, 10), (9, 309)) == (0, 300, 309)


@pytest.mark.parametrize("n", [52, 2**30 + 1, 2**31 - 1, 64, 1])
def test_java_nextint_one_bound_equals_the_per_lane_form_at_the_rejection_edge(n):
    limit = 2**31 - 2**31 % n  # next(31) values from here up are rejected (for n not a power of two)
    x = np.array([0, 1, 2 * limit - 2, 2 * limit - 1, 2 * limit % 2**32, 2**32 - 1], dtype=np.uint64)
    values, accepted = as_reducer("java-nextint").map(x, n, 2**32)
    lanes = as_reducer("java-nextint").map(x, np.full(len(x), n, dtype=np.uint64), 2**32)
    assert values.tolist() == lanes[0].tolist() and accepted.tolist() == lanes[1].tolist()
    assert [(int(v), bool(a)) for v, a in zip(values, accepted)] == \
        [reference_map("java-nextint", int(v), n, 2**32) for v in x]
