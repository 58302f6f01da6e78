"""Marsaglia, TestU01 and NIST tests: collision, birthday spacings, Fourier, matrix rank, Hamming weight.

Each test is checked three ways: a hand-computed case, a good generator (PCG64) that passes at
a fixed seed, and a known-bad generator that fails. The Fourier test's hand-computed cases are in
test_fourier.py.
"""

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
import tomllib
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.empirical.stattests import TESTS
from rnglab.empirical.stattests.birthday import birthday_spacings, equal_spacings
from rnglab.empirical.stattests.collision import (
    cell_indices,
    collision,
    digits,
    expected_collisions,
    poisson_discrete_pvalue,
    poisson_mid_pvalue,
)
from rnglab.empirical.stattests.fourier import fourier
from rnglab.empirical.stattests.hamming import hamming_weight, merge_sparse_tails, weight_counts
from rnglab.empirical.stattests.matrix_rank import gf2_ranks, matrix_rank, rank_probabilities
from rnglab.generators import LCG, CallableSource, make_source
from rnglab.streams.gateway import BitSelection, select

DATA = Path(__file__).parents[2] / "data"

def fixed_source(values, bits_per_value):
    """A source that returns ``values`` in order (then repeats them), with ``bits_per_value`` bits."""
    cycle = itertools.cycle(values)
    return CallableSource(lambda size: [next(cycle) for _ in range(size)], 0, 2**bits_per_value - 1,
                          name="fixed", vectorized=True)


# -- hand-computed cases ---------------------------------------------------------------------

def test_equal_spacings_by_hand():
    # sorted birthdays 1 3 5 6 10 11 -> spacings 2 2 1 4 1 and, around a year of 12 days,
    # 12 - 11 + 1 = 2 -> sorted 1 1 2 2 2 4: three repeats; in a year of 13 days the last is 3: two
    assert equal_spacings(np.array([11, 3, 1, 6, 10, 5], dtype=np.uint64), 12) == 3
    assert equal_spacings(np.array([11, 3, 1, 6, 10, 5], dtype=np.uint64), 13) == 2


def birthday_known_answers():
    with open(DATA / "testu01" / "birthday.toml", "rb") as handle:
        return tomllib.load(handle)["run"]


@pytest.mark.parametrize("run", birthday_known_answers(), ids=lambda run: run["generator"])
def test_birthday_spacings_reproduce_testu01(run):
    # Issue 13.6: rnglab cut MINSTD-like outputs to 30 bits before floor(d u) and left out the
    # circular spacing, and counted 43 where TestU01 counts 44 (tests/data/testu01/birthday.toml).
    source = LCG(a=run["a"], c=run["c"], m=run["m"], seed=run["seed"], low=0)  # U = x / m, as ulcg
    for case in run["tests"]:
        assert (case["N"], case["r"], case["p"]) == (1, 0, 1)
        result = birthday_spacings(source, case["n"], d=case["d"], t=case["t"])
        assert (result.statistic, result.details["expected"]) == (case["collisions"], case["lambda"])
        assert source.state["x"] == case["state"]


def test_digits_use_the_full_resolution_of_the_source():
    # R = 2^31 - 2 (MINSTD's range): floor(d (x - 1) / R) from the uniform, not from 30 bits of it.
    m = 2**31 - 1
    values = [1, m - 1, 1 + (m - 2) // 3, 2**30 + 1]
    source = CallableSource(lambda size: values[:size], 1, m - 1, vectorized=True)
    expected = [(x - 1) * 10**6 // (m - 1) for x in values]
    assert digits(source, 4, 10**6).tolist() == expected


def test_expected_collisions_matches_enumeration():
    # 3 balls in 4 urns: average of n - (occupied urns) over all 4^3 throws
    throws = list(itertools.product(range(4), repeat=3))
    exact = sum(3 - len(set(t)) for t in throws) / len(throws)
    assert expected_collisions(3, 4) == pytest.approx(exact, rel=1e-12)


def test_expected_collisions_sparse_limit():
    # n^2 / (2k) when k >> n (Knuth 3.3.2 I)
    assert expected_collisions(2**14, 2**40) == pytest.approx(2**28 / 2**41, rel=1e-4)


def test_poisson_mid_pvalue_at_zero():
    # P(Y > 0) + P(Y = 0) / 2 = 1 - exp(-lambda) / 2
    assert poisson_mid_pvalue(0, 2.0) == pytest.approx(1 - math.exp(-2) / 2)


def test_poisson_discrete_pvalue_takes_testu01s_tail():
    # Poisson(2): y = 5 is in the right tail, P(Y >= 5) = 1 - e^-2 (1 + 2 + 2 + 4/3 + 2/3) = 0.052653;
    # y = 0 in the left, 1 - P(Y <= 0) = 1 - e^-2; y = 2 has P(Y >= 2) = 1 - 3 e^-2 < P(Y <= 2) = 5 e^-2
    assert poisson_discrete_pvalue(5, 2.0) == pytest.approx(1 - math.exp(-2) * 7, rel=1e-12)
    assert poisson_discrete_pvalue(0, 2.0) == pytest.approx(1 - math.exp(-2), rel=1e-12)
    assert poisson_discrete_pvalue(2, 2.0) == pytest.approx(1 - 3 * math.exp(-2), rel=1e-12)


def test_birthday_and_collision_take_the_pvalue_asked_for():
    mid = collision(make_source("pcg64", 1), 1000, d=2**10, t=2)
    discrete = collision(make_source("pcg64", 1), 1000, d=2**10, t=2, mid_p=False)
    assert mid.statistic == discrete.statistic
    assert discrete.pvalue == poisson_discrete_pvalue(int(mid.statistic), mid.details["expected"])
    assert mid.pvalue == poisson_mid_pvalue(int(mid.statistic), mid.details["expected"])
    spacings = birthday_spacings(make_source("pcg64", 1), 4096, d=2**20, t=2, mid_p=False)
    assert spacings.pvalue == poisson_discrete_pvalue(int(spacings.statistic), spacings.details["expected"])


def test_digits_power_of_two_and_general():
    source = fixed_source([0, 255, 128, 64], 8)
    assert digits(source, 4, 4).tolist() == [0, 3, 2, 1]
    assert digits(fixed_source([0, 255, 128, 85], 8), 4, 3).tolist() == [0, 2, 1, 0]  # floor(3 x / 256)


def test_digits_wider_than_outputs_come_from_the_bit_stream():
    # two 4-bit outputs 0b1010, 0b0111 make one 8-bit digit 0b10100111
    assert digits(fixed_source([10, 7], 4), 1, 256).tolist() == [0b10100111]


def test_cell_indices_join_successive_digits():
    # t = 2, d = 16: cells y0 * 16 + y1 from non-overlapping pairs
    assert cell_indices(fixed_source([1, 2, 3, 4], 4), 2, 16, 2).tolist() == [1 * 16 + 2, 3 * 16 + 4]


@pytest.mark.parametrize("d, t", [(2**16, 2), (2**20, 3), (2**30, 2)])
def test_cells_of_bit_stream_digits_join_successive_digits(d, t):
    # MSVC's outputs have 15 bits: digits of 16 to 30 bits are cut from the bit stream, and t of them make a cell
    digit_source, cell_source = make_source("msvc", 3), make_source("msvc", 3)
    points = digits(digit_source, 1000 * t, d).reshape(1000, t).astype(object)
    expected = sum(points[:, i] * d ** (t - 1 - i) for i in range(t))
    assert cell_indices(cell_source, 1000, d, t).tolist() == expected.tolist()
    assert cell_source.random_raw(3).tolist() == digit_source.random_raw(3).tolist()  # the same outputs were read


def test_collision_counts_repeated_cells():
    # d = 2^16, t = 1: values 5, 5, 7, 9, 9, 9 give 3 collisions; k / 32 = 2048 >= 6
    result = collision(fixed_source([5, 5, 7, 9, 9, 9], 16), 6, d=2**16, t=1)
    assert result.statistic == 3 and result.details["expected"] == pytest.approx(expected_collisions(6, 2**16))


def test_rank_probabilities_2x2_and_32x32():
    # 2 x 2 over GF(2): 1 zero matrix, 6 invertible, 9 of rank 1 among 16
    assert rank_probabilities(2, 2) == pytest.approx([1 / 16, 9 / 16, 6 / 16])
    # Marsaglia's 32 x 32 figures (Diehard): 0.2888, 0.5776, 0.1284
    assert rank_probabilities(32, 32)[-3:][::-1] == pytest.approx([0.2888, 0.5776, 0.1284], abs=1e-4)


def test_gf2_ranks_by_hand():
    identity = 1 << np.arange(3, dtype=np.uint64)
    matrices = np.array([identity, [0, 0, 0], [0b110, 0b011, 0b101], [0b111, 0b111, 0b001]], dtype=np.uint64)
    assert gf2_ranks(matrices, 3).tolist() == [3, 0, 2, 2]


def reference_rank(rows, columns):
    """Rank over GF(2) by plain Gaussian elimination on Python integers."""
    rows, rank = list(rows), 0
    for bit in reversed(range(columns)):
        pivot = next((i for i in range(rank, len(rows)) if rows[i] >> bit & 1), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        rows = [r ^ rows[rank] if i != rank and r >> bit & 1 else r for i, r in enumerate(rows)]
        rank += 1
    return rank


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 70), st.integers(1, 64), st.integers(0, 2**32))
def test_gf2_ranks_match_reference(rows, columns, seed):
    rng = np.random.default_rng(seed)
    matrices = rng.integers(0, 2**64 - 1, size=(20, rows), dtype=np.uint64, endpoint=True)
    matrices &= np.uint64(2**columns - 1)
    matrices[rng.random(matrices.shape) < 0.3] = 0  # zero rows, so that low ranks occur too
    matrices[::2, -1] = matrices[::2, 0] ^ matrices[::2, rows // 2]  # and dependent rows that are not zero
    expected = [reference_rank([int(v) for v in m], columns) for m in matrices]
    assert gf2_ranks(matrices, columns).tolist() == expected
    if columns < 64:  # bits above the columns do not count
        noise = rng.integers(0, 2**64 - 1, size=matrices.shape, dtype=np.uint64, endpoint=True) << np.uint64(columns)
        assert gf2_ranks(matrices | noise, columns).tolist() == expected


def test_merge_sparse_tails_by_hand():
    observed, expected, labels = merge_sparse_tails([1, 1, 9, 11, 2, 0], [1, 2, 10, 10, 3, 1])
    assert labels == [(0, 2), (3, 5)] and expected.tolist() == [13, 14] and observed.tolist() == [11, 13]


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 64), st.lists(st.integers(0, 2**64 - 1), max_size=50), st.integers(0, 3))
def test_weight_counts_equal_a_histogram_of_popcounts(block_bits, words, short):
    """Blocks one to a word, or 64 / L to a word (the first most significant), the last word's ``short`` last
    blocks left out."""
    blocks = [word >> (64 - block_bits) for word in words]
    expected = np.bincount([block.bit_count() for block in blocks], minlength=block_bits + 1)
    assert weight_counts(np.array(blocks, dtype=np.uint64), 1, block_bits, len(blocks)).tolist() == expected.tolist()
    per = 64 // block_bits
    if 64 % block_bits == 0 and words:
        held = [(word >> (64 - block_bits * (k + 1))) & (2**block_bits - 1) for word in words for k in range(per)]
        held = held[:len(held) - min(short, per - 1)]
        expected = np.bincount([block.bit_count() for block in held], minlength=block_bits + 1)
        counted = weight_counts(np.array(words, dtype=np.uint64), per, block_bits, len(held))
        assert counted.tolist() == expected.tolist()


@pytest.mark.parametrize("block_bits", [8, 16, 32])
def test_weight_counts_of_every_prefix_of_the_blocks(block_bits):
    """Every count of blocks from 0 to all of them, from one word to nine (fewer blocks than a word holds, and
    lengths on either side of the four counts' remainder): the weights of the first ``count`` blocks."""
    per, mask = 64 // block_bits, 2**block_bits - 1
    words = np.random.default_rng(block_bits).integers(0, 2**64, size=9, dtype=np.uint64)
    blocks = [(int(word) >> (block_bits * (per - 1 - k))) & mask for word in words for k in range(per)]
    for count in range(len(blocks) + 1):
        expected = np.bincount([block.bit_count() for block in blocks[:count]], minlength=block_bits + 1)
        used = words[:-(-count // per)]
        assert weight_counts(used, per, block_bits, count).tolist() == expected.tolist()


def test_hamming_weight_counts_blocks():
    # blocks of 8 bits: 0xFF (weight 8) and 0x0F (weight 4), 100 of each
    result = hamming_weight(fixed_source([0xFF, 0x0F], 8), 200, block_bits=8)
    assert result.details["observed"].sum() == 200 and result.pvalue < 1e-10


# -- validity rules ------------------------------------------------------------------------------

@pytest.mark.parametrize("call, rule", [
    (lambda s: collision(s, 10**6, d=2**10, t=2), "k/32"),
    (lambda s: birthday_spacings(s, 10**6, d=2**16, t=2), "16 n^2 <= k"),
    (lambda s: fourier(s, 999), "n >= 1000"),
    (lambda s: matrix_rank(s, 10, rows=8, columns=2**14 + 1), "columns must be in [1, 16384]"),
    (lambda s: matrix_rank(s, 1, rows=32, columns=32), "two rank classes"),
    (lambda s: hamming_weight(s, 100, block_bits=65), "block_bits must be in [1, 64]"),
    (lambda s: digits(s, 10, 3 * 2**20), "power of two"),
    (lambda s: collision(s, 100, d=2**40, t=2), "2^63"),
])
def test_validity_rules_are_enforced(call, rule):
    with pytest.raises(ValueError, match=rule.replace("^", r"\^").replace("[", r"\[")):
        call(make_source("msvc", 1))


# -- a good generator passes, a bad one fails ---------------------------------------------------------

GOOD_AND_BAD = [
    # test, n, options, bad generator, selection: what the literature (or the generator's structure) predicts
    ("birthday-spacings", 200_000, {"d": 2**24, "t": 2}, "minstd", BitSelection()),    # TestU01 SmallCrush 1
    ("collision", 1_000_000, {"d": 2**14, "t": 2}, "randu", BitSelection()),           # lattice: too few
    ("fourier", 2**16, {}, "randu", BitSelection()),                                    # periodic low bits
    ("matrix-rank", 2000, {"rows": 32, "columns": 32}, "randu", BitSelection(low=4)),  # low bits, period 16
    ("hamming-weight", 1_000_000, {"block_bits": 32}, "randu", BitSelection()),       # 32-bit blocks straddle outputs
]


@pytest.mark.parametrize("name, n, options, bad, selection", GOOD_AND_BAD)
def test_good_generator_passes(name, n, options, bad, selection):
    result = TESTS[name](select(make_source("pcg64", 20261122), selection), n, **options)
    assert 0.001 <= result.pvalue <= 0.999


@pytest.mark.parametrize("name, n, options, bad, selection", GOOD_AND_BAD)
def test_bad_generator_fails(name, n, options, bad, selection):
    result = TESTS[name](select(make_source(bad, 1), selection), n, **options)
    assert min(result.pvalue, 1 - result.pvalue) < 1e-10


@pytest.mark.parametrize("name, n, options, bad, selection", GOOD_AND_BAD)
def test_deterministic_under_a_seed(name, n, options, bad, selection):
    first = TESTS[name](make_source("msvc", 99), n, **options).to_dict()
    assert TESTS[name](make_source("msvc", 99), n, **options).to_dict() == first


def test_results_are_frozen_and_record_params():
    result = collision(select(make_source("pcg64", 1), BitSelection(drop=3)), 1000, d=2**10, t=2)
    assert result.params == {"n": 1000, "d": 1024, "t": 2, "k": 2**20, "mid_p": True, "drop": 3, "keep": None,
                             "low": None}
    with pytest.raises(AttributeError):
        result.pvalue = 0.5


def test_birthday_spacings_refuses_sizes_where_triples_bias_the_mean():
    """n = 2^18, k = 2^40: E[Y] ~ lambda (1 - (2/9) n^2/k) is 1.4 % below lambda = 4096, 0.9 of a standard deviation."""
    with pytest.raises(ValueError, match=r"\(2/9\) \(n\^2/k\) sqrt\(n\^3/4k\) <= 0.1"):
        birthday_spacings(make_source("pcg64", 1), 2**18, d=2**20, t=2)


def test_birthday_spacings_mean_is_lambda_where_accepted():
    """n = 2^16, k = 2^40 (lambda = 64, bias 0.007 of a standard deviation): 60 PCG64 samples average lambda."""
    counts = np.array([birthday_spacings(make_source("pcg64", seed), 2**16, d=2**20, t=2).details["equal_spacings"]
                       for seed in range(60)])
    assert abs(counts.mean() - 64) < 4 * np.sqrt(64 / 60)
