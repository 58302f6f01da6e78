"""GF(2) ranks (rnglab.empirical.stattests.matrix_rank): the rank law against every matrix of a few small sizes,
against Landsberg's count in exact arithmetic at the sizes of PractRand's BRank, and against simulated matrices
wider than a word; the compiled eliminations against plain ones (on products of known rank whose dependencies cross
its groups of rows, or the words of wide rows); the test on a stream of known ranks, an ideal stream, and
xoroshiro128+'s piped low bit, whose wide matrices have low rank; and the published 32 x 32 law.

Known answers: 168 of the 512 binary 3 x 3 matrices are invertible (the order of GL(3, 2)), 20,160 of the 65,536
4 x 4 (GL(4, 2)); a random 32 x 32 matrix has rank 32, 31, 30 with probabilities 0.2888, 0.5776, 0.1284 (Marsaglia and
Tsay 1985; NIST SP 800-22, 2.5); ``m x n`` matrices of rank ``r`` over GF(2) number
``prod_{i<r} (2^m - 2^i) (2^n - 2^i) / (2^r - 2^i)`` (Landsberg 1893).
"""

import io
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra.gf2 import rank as textbook_rank
from rnglab.empirical.stattests.base import chi_square
from rnglab.empirical.stattests.hamming import merge_sparse_tails
from rnglab.empirical.stattests.matrix_rank import (
    GROUP,
    MAX_SIDE,
    MatrixRankTally,
    cut_rows,
    gf2_ranks,
    matrix_rank,
    rank_probabilities,
    wide_gf2_ranks,
)
from rnglab.generators import make_source
from rnglab.generators.external import ByteStreamSource
from rnglab.streams.gateway import BitSelection, packed_words, select


def plain_rank(rows: list[int]) -> int:
    """Rank over GF(2) of rows given as bit masks, by textbook elimination."""
    rank, rows = 0, list(rows)
    while rows:
        pivot = rows.pop()
        if pivot:
            rank += 1
            low = pivot & -pivot
            rows = [row ^ pivot if row & low else row for row in rows]
    return rank


@pytest.mark.parametrize("rows, columns", [(3, 3), (2, 4), (4, 2), (4, 4), (1, 6), (6, 1), (3, 5), (5, 3)])
def test_every_small_matrix(rows, columns):
    matrices = np.array(list(itertools.product(range(2**columns), repeat=rows)), dtype=np.uint64)
    ranks = gf2_ranks(matrices, columns)
    assert ranks.tolist() == [plain_rank(m) for m in matrices.tolist()]
    law = np.bincount(ranks, minlength=min(rows, columns) + 1) / len(matrices)
    assert rank_probabilities(rows, columns) == pytest.approx(law, abs=1e-15)


def test_gl_3_2_has_168_elements_and_gl_4_2_20160():
    assert rank_probabilities(3, 3)[3] * 512 == pytest.approx(168, abs=1e-9)
    assert rank_probabilities(4, 4)[4] * 2**16 == pytest.approx(20160, abs=1e-8)
    assert landsberg_counts(3, 3)[3] == 168 and landsberg_counts(4, 4)[4] == 20160 and sum(landsberg_counts(3, 5)) == 2**15


def landsberg_counts(rows: int, columns: int, first: int = 0) -> list[int]:
    """The numbers of ``rows x columns`` GF(2) matrices of rank ``r = first .. min(rows, columns)``, exactly
    (Landsberg): ``prod_{i<r} (2^m - 2^i) (2^n - 2^i)`` over the order of GL(r, 2),
    ``prod_{i<r} (2^r - 2^i) = prod_{i<r} 2^i (2^(i+1) - 1)``, each product built from the one before."""
    counts, ordered, group = [], 1, 1
    for r in range(min(rows, columns) + 1):
        if r >= first:
            counts.append(ordered // group)
        ordered *= (2**rows - 2**r) * (2**columns - 2**r)
        group *= 2**r * (2 ** (r + 1) - 1)
    return counts


@pytest.mark.parametrize("rows, columns", [(65, 65), (100, 130), (130, 100), (384, 384), (512, 512), (1, 300)])
def test_the_law_is_landsbergs_count_at_any_size(rows, columns):
    """The floating-point law against the exact count, on the ranks that carry all but 2^-40 of it (the others
    are below 2^-40 in both)."""
    law, side = rank_probabilities(rows, columns), min(rows, columns)
    first = max(0, side - 7)
    exact = [count / 2 ** (rows * columns) for count in landsberg_counts(rows, columns, first)]  # rounded once
    assert law[first:] == pytest.approx(exact, rel=1e-12)
    assert law[:first].sum() < 2.0**-40 and law.sum() == pytest.approx(1, abs=1e-12)


def random_matrices(rng, count: int, rows: int, columns: int) -> np.ndarray:
    """``count`` uniform ``rows x columns`` matrices as :func:`cut_rows` lays them out (the bits past the last
    column zero)."""
    words = -(-columns // 64)
    matrices = rng.integers(0, 2**64, size=(count, rows, words), dtype=np.uint64)
    matrices[:, :, -1] &= ~np.uint64(0) << np.uint64(64 * words - columns)
    return matrices


@pytest.mark.parametrize("rows, columns, seed", [(100, 101, 1), (130, 128, 2), (128, 130, 3), (200, 200, 4)])
def test_simulated_wide_matrices_follow_the_law(rows, columns, seed):
    """4,000 uniform matrices: their ranks fit the law (chi-square over the classes of at least 5 expected), and
    not the law of one more row or column on the longer side (the same ranks), which the test tells apart (its
    power: that law's p-value is tiny)."""
    ranks = wide_gf2_ranks(random_matrices(np.random.default_rng(seed), 4000, rows, columns))
    p_values = []
    for law in (rank_probabilities(rows, columns), rank_probabilities(rows + (rows > columns), columns + (rows <= columns))):
        observed = np.bincount(ranks, minlength=law.size)
        assert observed.size == law.size
        merged_observed, merged_expected, _ = merge_sparse_tails(observed, 4000 * law)
        p_values.append(chi_square(merged_observed, merged_expected)[1])
    assert p_values[0] > 1e-3 and p_values[1] < 1e-8


def test_the_32_by_32_law():
    law = rank_probabilities(32, 32)
    assert law[32] == pytest.approx(0.2888, abs=5e-5) and law[31] == pytest.approx(0.5776, abs=5e-5)
    assert law[30] == pytest.approx(0.1284, abs=5e-5) and law.sum() == pytest.approx(1, abs=1e-12)


def gf2_product(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Rows of ``left @ right`` over GF(2), ``left`` an (m, k) array of 0/1 and ``right`` k row bit masks."""
    return np.array([np.bitwise_xor.reduce(right[row.astype(bool)], initial=np.uint64(0)) for row in left],
                    dtype=np.uint64)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 70), st.integers(1, 64), st.integers(0, 70), st.integers(0, 2**32))
def test_ranks_of_products_of_known_rank(rows, columns, inner, seed):
    """A product of a rows x k and a k x columns matrix has rank at most k: its rows are combinations of the same
    k rows, spread over every group of GROUP rows (the dependencies cross the groups), some of them repeated or
    zero. The compiled ranks equal the plain elimination's, which are at most k and at most the sides."""
    rng = np.random.default_rng(seed)
    matrices = []
    for _ in range(6):
        right = rng.integers(0, 2**columns, size=inner, dtype=np.uint64) if inner else np.zeros(0, dtype=np.uint64)
        matrices.append(gf2_product(rng.integers(0, 2, size=(rows, inner)), right))
    expected = [plain_rank([int(v) for v in m]) for m in matrices]
    assert gf2_ranks(np.array(matrices), columns).tolist() == expected
    assert max(expected) <= min(rows, columns, inner)


@pytest.mark.parametrize("rows", [GROUP - 1, GROUP, GROUP + 1, 2 * GROUP + 3, 64])
def test_rows_repeated_from_an_earlier_group_add_nothing(rows):
    # the rows of the identity in a shuffled order (full rank, the pivots' bits in every order), then each of the
    # same rows again at the last place: the repeat lies in a later group than its first copy, and is cleared
    rng = np.random.default_rng(rows)
    identity = rng.permutation(np.uint64(1) << np.arange(rows - 1, dtype=np.uint64))
    matrices = np.array([np.r_[identity, identity[k]] for k in range(rows - 1)] + [np.r_[identity, 1 << rows - 1]],
                        dtype=np.uint64)
    assert gf2_ranks(matrices, 64).tolist() == [rows - 1] * (rows - 1) + [rows]


def bit_rows(matrix: np.ndarray) -> np.ndarray:
    """A matrix of 0/1 (rows x columns) as :func:`cut_rows` lays it out, by way of its bit string."""
    rows, columns = matrix.shape
    packed = np.packbits(np.append(matrix.ravel(), np.zeros(-matrix.size % 64, dtype=np.uint8)))
    return cut_rows(packed.view(">u8").astype(np.uint64), 1, rows, columns)[0]


def textbook_rank_of(matrix: np.ndarray) -> int:
    """:func:`rnglab.algebra.gf2.rank` (elimination with pivot search, column ``c`` at bit ``c mod 64`` of word
    ``c // 64``) of a matrix of 0/1."""
    rows, columns = matrix.shape
    padded = np.zeros((rows, -(-columns // 64) * 64), dtype=np.uint64)
    padded[:, :columns] = matrix
    words = (padded.reshape(rows, -1, 64) << np.arange(64, dtype=np.uint64)).sum(axis=2, dtype=np.uint64)
    return textbook_rank(words, columns)


@st.composite
def known_rank_matrices(draw):
    """``rows x columns`` (columns past one word), rank ``k`` exactly, often at a word boundary (63 to 65, 127 to
    129): ``L R`` with an identity in ``k`` rows of ``L`` (random elsewhere) and in ``k`` columns of ``R``, whose
    rank is then ``k``; its rows' dependencies lie anywhere in the matrix."""
    rows, columns = draw(st.integers(1, 200)), draw(st.integers(65, 200))
    side = min(rows, columns)
    k = draw(st.sampled_from([k for k in (63, 64, 65, 127, 128, 129) if k <= side] or [side]) | st.integers(0, side))
    rng = np.random.default_rng(draw(st.integers(0, 2**32)))
    left, right = rng.integers(0, 2, size=(rows, k)), rng.integers(0, 2, size=(k, columns))
    left[rng.permutation(rows)[:k]] = np.eye(k, dtype=left.dtype)
    right[:, rng.permutation(columns)[:k]] = np.eye(k, dtype=right.dtype)
    return (left @ right % 2).astype(np.uint8), k


@settings(max_examples=60, deadline=None)
@given(st.lists(known_rank_matrices(), min_size=1, max_size=3), st.integers(0, 2**32))
def test_wide_ranks_of_matrices_of_known_rank(cases, seed):
    """Matrices of known rank, with uniform matrices of the same size around them (the kernel's work rows are
    reused from one matrix to the next): the compiled ranks are the known ones and the textbook elimination's."""
    rng = np.random.default_rng(seed)
    for matrix, k in cases:
        rows, columns = matrix.shape
        noise = random_matrices(rng, 2, rows, columns)
        stack = np.stack([noise[0], bit_rows(matrix), noise[1]])
        ranks = wide_gf2_ranks(stack)
        assert ranks[1] == k == textbook_rank_of(matrix)
        unpacked = np.unpackbits(noise.astype(">u8").view(np.uint8), axis=-1)[:, :, :columns]
        assert [ranks[0], ranks[2]] == [textbook_rank_of(m) for m in unpacked]


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 5), st.integers(1, 9), st.integers(1, 300), st.integers(0, 2**32))
def test_cut_rows_take_the_bit_string_row_by_row(count, rows, columns, seed):
    """Row ``i`` of matrix ``m`` holds bits ``(m rows + i) columns`` on of the string, the first at the top of
    its first word, the last word zero past the last column; a row may start anywhere in a word."""
    stream = np.random.default_rng(seed).integers(0, 2, size=count * rows * columns + 100, dtype=np.uint8)
    packed = np.packbits(stream[:-(len(stream) % 64) or None]).view(">u8").astype(np.uint64)
    matrices = cut_rows(packed, count, rows, columns)
    words = -(-columns // 64)
    assert matrices.shape == (count, rows, words)
    unpacked = np.unpackbits(matrices.astype(">u8").view(np.uint8), axis=-1)
    assert unpacked[:, :, :columns].ravel().tolist() == stream[:count * rows * columns].tolist()
    assert not unpacked[:, :, columns:].any()


def known_ranks_stream(ranks: list[int], side: int) -> ByteStreamSource:
    """32-bit words (little-endian bytes, each word's top bit first in the bit stream) whose bits fill
    ``side x side`` matrices of the given ranks: the first ``r`` rows of the identity, then zero rows."""
    matrices = [np.eye(side, dtype=np.uint8) * (np.arange(side) < r)[:, None] for r in ranks]
    stream = np.concatenate([m.ravel() for m in matrices] + [np.zeros(-len(ranks) * side * side % 32, np.uint8)])
    words = np.packbits(stream).view(">u4").astype("<u4")
    return ByteStreamSource(io.BytesIO(words.tobytes()), "u32", "hand")


def test_statistic_and_p_value_by_hand():
    """30 matrices 65 x 65 of rank 0 and 10 of rank 65, n = 40: expected 40 P(r) from Landsberg's count; the
    ranks up to 63 pool to 5.35 expected (those up to 62 hold 0.21), so the classes are <= 63, 64, 65 with
    observed 30, 0, 10; X^2 = sum (O - E)^2 / E, and with 2 degrees of freedom the p-value is exp(-X^2 / 2)."""
    result = matrix_rank(known_ranks_stream([0] * 30 + [65] * 10, 65), 40, rows=65, columns=65)
    law = [Fraction(count, 2 ** (65 * 65)) for count in landsberg_counts(65, 65)]
    expected = [40 * sum(law[:64]), 40 * law[64], 40 * law[65]]
    statistic = sum((o - e) ** 2 / e for o, e in zip((30, 0, 10), expected))
    assert result.details["rank_classes"] == [(0, 63), (64, 64), (65, 65)]
    assert result.details["observed"].tolist() == [30, 0, 10]
    assert result.statistic == pytest.approx(float(statistic), rel=1e-12)
    assert result.pvalue == pytest.approx(math.exp(-float(statistic) / 2), rel=1e-9)
    assert result.params["rows"] == result.params["columns"] == 65


@pytest.mark.parametrize("rows, columns, n", [(65, 65, 500), (100, 104, 500), (130, 128, 500), (384, 384, 60),
                                             (512, 512, 40)])
def test_an_ideal_source_passes_at_wide_sizes(rows, columns, n):
    result = matrix_rank(make_source("pcg64", 7), n, rows=rows, columns=columns)
    assert 1e-4 < result.pvalue < 1 - 1e-4


def piped_low_bit(name: str, seed: int, words: int):
    """The low bit of each 32-bit word of ``rnglab stream NAME --seed SEED | rnglab test - --format u32`` (64-bit
    outputs as their low half, then their high half)."""
    data = packed_words(make_source(name, seed), words, 32).astype("<u4").tobytes()
    return select(ByteStreamSource(io.BytesIO(data), "u32", "piped"), BitSelection(low=1))


@pytest.mark.parametrize("side", [384, 512])
def test_xoroshiro128plus_piped_low_bit_has_low_rank(side):
    """The known-bad case (PractRand 0.95: [Low1/32]BRank(12):384(1) FAILs at 64 MiB): the low bits of the words
    alternate bit 0 of an output (linear in the 128-bit state) with bit 32 (not linear), so a matrix's columns at
    even places, ``side / 2`` of them, span at most 128 dimensions: every rank is at most ``side / 2 + 128``. 40
    matrices, all in the lowest class, FAIL the test."""
    source = piped_low_bit("xoroshiro128plus", 12345, 40 * side * side)
    tally = MatrixRankTally(source, rows=side, columns=side).extend(source, 40)
    assert np.flatnonzero(tally.observed).max() <= side // 2 + 128
    assert tally.result().pvalue < 1e-30


@pytest.mark.parametrize("rows, columns, message", [
    (384, MAX_SIDE + 1, f"columns must be in [1, {MAX_SIDE}]; got {MAX_SIDE + 1}"),
    (384, 0, f"columns must be in [1, {MAX_SIDE}]; got 0"),
    (0, 384, f"rows must be in [1, {MAX_SIDE}]; got 0"),
    (MAX_SIDE + 1, 100, f"rows must be in [1, {MAX_SIDE}]; got {MAX_SIDE + 1}"),
])
def test_sizes_outside_the_rule_are_refused_in_one_line(rows, columns, message):
    with pytest.raises(ValueError) as error:
        matrix_rank(make_source("pcg64", 1), 100, rows=rows, columns=columns)
    assert str(error.value) == message


def test_too_few_wide_matrices_name_the_rule():
    with pytest.raises(ValueError, match="^matrix-rank needs n large enough for two rank classes with >= 5 "
                                         "expected; got n = 10$"):
        matrix_rank(make_source("pcg64", 1), 10, rows=384, columns=384)
