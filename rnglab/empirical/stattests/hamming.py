"""Hamming weights of L-bit blocks against the binomial law; merging sparse chi-square tails."""

from __future__ import annotations

import itertools
from abc import abstractmethod

import numpy as np

from rnglab.algebra.gf2_kernels import popcount
from rnglab.core.compiled import njit
from rnglab.core.laws import binom_pmf
from rnglab.empirical.stattests.base import EmpiricalResult, Tally, chi_square, gateway_params, register, require
from rnglab.generators.base import Source
from rnglab.streams.gateway import BitReader, selection_of


def merge_sparse_tails(observed: np.ndarray, expected: np.ndarray, minimum: float = 5.0):
    """Merge sparse categories into their neighbours until every expected count is ``>= minimum``.

    TestU01's rule (``gofs_MergeClasses``), so that statistics computed on the
    same counts agree with TestU01's: going up from the first category, one
    whose expected count is below ``minimum`` starts a group that absorbs the
    following categories until the group's count reaches ``minimum``; a last
    group still below it joins the group before. Categories are ordered
    (weights, ranks, gap lengths), so in practice the sparse low and high
    tails are pooled, the classical way to meet the chi-square rule (Knuth,
    TAOCP vol. 2, 3.3.1 B).

    Returns
    -------
    observed, expected : numpy.ndarray
        The merged counts (same totals).
    labels : list of (int, int)
        The first and last original category of each merged one.
    """
    observed, expected = np.asarray(observed, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    starts, first = [], 0
    while first < expected.size:
        starts.append(first)
        last, total = first, expected[first]
        while total < minimum and last < expected.size - 1:
            last += 1
            total += expected[last]
        first = last + 1
    if len(starts) > 1 and expected[starts[-1]:].sum() < minimum:
        starts.pop()
    edges = np.r_[starts, expected.size]
    labels = [(int(a), int(b) - 1) for a, b in itertools.pairwise(edges)]
    return np.add.reduceat(observed, edges[:-1]), np.add.reduceat(expected, edges[:-1]), labels


#: Blocks per read: at 2^16 (the frequency test's chunk) the entries on 256 MiB alone faulted in 3,000 (32-bit
#: blocks) to 90,000 (the low bit's) pages freed by the read before, up to 0.25 CPU s of system time (glibc gives
#: the memory back to the system between reads: :data:`~.matrix_rank.CHUNK_ROWS`); at 2^15, 25.
CHUNK_BLOCKS = 2**15


@njit(cache=True, nogil=True)
def add_weights(words, shift, mask, split):  # pragma: no cover - compiled
    """Add the Hamming weight of ``(w >> shift) & mask`` of every word ``w`` of ``words`` to ``split``, a
    ``(4, L + 1)`` array of counts, successive words to successive rows.

    Four counts rather than one, so that an increment never waits for the
    store of the one before it to the same weight (frequent: the central
    weights of the binomial law take an eighth of the blocks each).
    """
    whole = words.size - words.size % 4
    for i in range(0, whole, 4):
        split[0, popcount((words[i] >> shift) & mask)] += 1
        split[1, popcount((words[i + 1] >> shift) & mask)] += 1
        split[2, popcount((words[i + 2] >> shift) & mask)] += 1
        split[3, popcount((words[i + 3] >> shift) & mask)] += 1
    for i in range(whole, words.size):
        split[0, popcount((words[i] >> shift) & mask)] += 1


@njit(cache=True, nogil=True)
def weight_counts(words, per, block_bits, count):  # pragma: no cover - compiled
    """Counts of the Hamming weights ``0 .. block_bits`` of ``count`` blocks held ``per`` to a uint64 word (the first
    in the most significant bits, :func:`~rnglab.streams.gateway.field_words`).

    Block ``k`` of every word in turn (:func:`add_weights`: a loop over the
    words with one shift, ``L (per - 1 - k)``), the words that hold it
    among the first ``count`` blocks, ``ceil((count - k) / per)``. Counting in the
    same loop as the :func:`popcount` avoids ``numpy.bincount``'s intp copy of
    ``n`` weights, which cost four times the count itself; 0.8 ns a block
    where a loop over the blocks of each word with one count took 1.3 (2^16
    blocks of 32 bits in cache, one or two to a word; 1.3 against 3.3 for
    8-bit blocks four to a word).
    """
    split = np.zeros((4, block_bits + 1), dtype=np.int64)
    mask = ~np.uint64(0) >> np.uint64(64 - block_bits)
    for k in range(min(per, count)):
        add_weights(words[:(count - k + per - 1) // per], np.uint64(block_bits * (per - 1 - k)), mask, split)
    return split.sum(axis=0)


class MergedTally(Tally):
    """A tally of counts in ordered categories, tested against their expected counts with the sparse tails merged.

    The frame of the tests whose categories :func:`merge_sparse_tails` pools
    (weights, ranks): :meth:`check` asks for two classes with ``minimum``
    expected or more, and :meth:`result` is Pearson's ``X^2`` over the
    classes, asymptotically chi-square with (classes - 1) degrees of freedom,
    its p-value the right tail. A subclass sets ``name``, ``classes`` (the
    details' key of the merged categories, also their name in the rule),
    ``minimum``, the probability of each category ``law``, the int64
    ``observed`` counts it adds to, and :meth:`options`.
    """

    name: str
    classes: str = "categories"
    minimum: float = 5.0
    observed: np.ndarray
    law: np.ndarray

    @abstractmethod
    def options(self) -> dict:
        """The test's options, for the result's parameters."""

    def merged(self, n: int):
        """The observed and expected counts of :func:`merge_sparse_tails`' classes for ``n`` samples, and those."""
        return merge_sparse_tails(self.observed, n * self.law, self.minimum)

    def check(self, n: int) -> None:
        require(len(self.merged(n)[2]) >= 2, f"{self.name} needs n large enough for two "
                                             f"{self.classes.replace('_', ' ')} with >= {self.minimum:g} expected; "
                                             f"got n = {n}")

    def result(self) -> EmpiricalResult:
        merged_observed, merged_expected, labels = self.merged(self.samples)
        statistic, pvalue, df = chi_square(merged_observed, merged_expected)
        return EmpiricalResult(self.name, statistic, pvalue, gateway_params(self.samples, self.selection,
                                                                            **self.options()),
                               {"df": df, self.classes: labels, "observed": merged_observed,
                                "expected": merged_expected})


class HammingWeightTally(MergedTally):
    """The counts of the Hamming weights of the blocks, carried on (:func:`hamming_weight`); a block that
    straddles two reads waits in a :class:`~rnglab.streams.gateway.BitReader`."""

    name = "hamming-weight"

    def __init__(self, source: Source, *, block_bits: int = 32) -> None:
        super().__init__()
        require(1 <= block_bits <= 64, f"block_bits must be in [1, 64]; got {block_bits}")
        self.block_bits, self.selection = block_bits, selection_of(source)
        self.reader, self.observed = BitReader(), np.zeros(block_bits + 1, dtype=np.int64)
        self.law = binom_pmf(np.arange(block_bits + 1), block_bits, 0.5)

    def options(self) -> dict:
        return {"block_bits": self.block_bits}

    def _read(self, source: Source, count: int) -> None:
        for words, per, blocks in self.reader.word_chunks(source, count, self.block_bits, chunk_fields=CHUNK_BLOCKS):
            self.observed += weight_counts(words, per, self.block_bits, blocks)


@register("hamming-weight", HammingWeightTally)
def hamming_weight(source: Source, n: int, *, block_bits: int = 32) -> EmpiricalResult:
    """Chi-square of the Hamming weights of ``n`` blocks of ``L`` bits against Binomial(L, 1/2).

    The bit stream is cut into ``n`` blocks of ``L = block_bits`` bits; the
    weight ``W`` of a block is its number of ones, Binomial(L, 1/2) under the
    null hypothesis. The counts of each weight are compared with
    ``n C(L, w) 2^-L`` by Pearson's ``X^2``, the tails merged so that every
    expected count is ``>= 5`` (enforced: at least two categories must remain);
    ``X^2`` is asymptotically chi-square with (categories - 1) degrees of
    freedom. The p-value is its right tail.

    References
    ----------
    P. L'Ecuyer, R. Simard, TestU01 user guide, sstring_HammingWeight (the
    distribution of the weights; HammingWeight2 is the per-block variant).
    D. E. Knuth, TAOCP vol. 2, 3.3.1 B (the chi-square test).
    """
    return HammingWeightTally(source, block_bits=block_bits).extend(source, n).result()
