"""How fair is a shuffle? Exactly under an ideal source, exactly over a seed space, and empirically.

Exact, under an ideal uniform source
    The distribution over the ``n!`` deals is computed as exact integer
    counts over a common denominator ``D`` (the number of equally likely
    paths):

    * algorithms given as a program of steps (:mod:`rnglab.shuffles.algorithms`), under
      an ideal source or through a reducer on ``R`` source values (any ``R``: a draw's
      weights are the reducer's exact counts, :class:`ChoiceWeights`): a
      dynamic program over all ``n!`` permutations (``n <= 10``, in 64-bit
      counts: at most ``2^62`` weighted paths, e.g. ``n <= 2`` on ``R = 2^31``); each step
      moves every permutation's count to its successors in one compiled pass
      (lexicographic ranks from the Lehmer digits the step changes). Through
      a reducer, draw-unused, Deitel's deck and unrank have laws of their own
      (their redraws are not steps): :func:`draw_unused_law` (with
      :func:`redrawn_slot_weights`), :func:`unrank_law`; the position matrix of
      the first two, for larger ``n`` too, from the exponential clocks of
      their slots (:func:`draw_unused_position_counts`);
    * random transpositions: a dynamic program over cycle types (the law is
      invariant under conjugation), ``n <= 30``, as many swaps as fit in
      :data:`~rnglab.core.rates.EXACT_SECONDS` (about 240 at ``n = 30``);
    * stable sort by ``b``-bit keys: the closed form
      ``P(pi) = C(K + n - 1 - des(pi), n) / K^n`` (``K = 2^b``; des = number
      of descents), from counting non-decreasing key sequences that are
      strict at the descents;
    * tie-redrawing sort: uniform (i.i.d. keys conditioned on being distinct);
    * JavaScript's comparator sorts (:mod:`rnglab.shuffles.comparator`), and a
      user's shuffle function: every path of their random answers enumerated
      (:mod:`rnglab.shuffles.paths`), made a law by :func:`deal_law`
      (``n <= 8`` for the sorts).

    The position matrix ``P(card i ends at position j)`` comes from a dynamic
    program on the ``n x n`` matrix, ``O(n^2)`` per step, in exact Python
    integers over the common denominator (naive exchange at ``n = 100``: a
    fraction of a second; ``n = 300``: 13 s; ``n^4`` growth). All these
    numbers are exact. Work is estimated before it starts and refused beyond
    :data:`~rnglab.core.rates.EXACT_SECONDS`, with what fits.

Exact, under a concrete generator
    Every seed of a seed space is run through generator + reducer + shuffle
    (one batch lane per seed) and the deals are counted.

Empirical
    ``M`` decks shuffled one after another from one generator (each deck
    continues the stream where the previous one stopped, as in a program),
    their position-count matrix, Pearson's chi-square on it
    (``(n-1)^2`` degrees of freedom), standardised residuals per cell, and the
    number of shuffles needed to see a given bias (noncentral chi-square power).

References
----------
D. P. Robbins and E. D. Bolker, The bias of three pseudo-random shuffles,
Aequationes Math. 22, 1981 (the naive exchange).
S. Sattolo, An algorithm to generate a random cyclic permutation, IPL 22, 1986.
P. Diaconis and M. Shahshahani, Generating a random permutation with random
transpositions, Z. Wahrsch. verw. Gebiete 57, 1981.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from rnglab.core.compiled import njit
from rnglab.core.laws import chi2_sf
from rnglab.core.rates import (
    EVEN_SWAP_SECONDS,
    EXACT_SECONDS,
    MATRIX_CELL_SECONDS,
    SECONDS_PER_CARD,
    TRANSPOSITION_UPDATE_SECONDS,
    UNEQUAL_WORD_SECONDS,
    check_work,
)
from rnglab.core.results import Result
from rnglab.draws.bias import count_array
from rnglab.empirical.stattests.base import ChiSquareResult, samples_to_detect
from rnglab.generators import Source
from rnglab.reduction.reducers import DEFAULT_REDUCER, Reducer
from rnglab.shuffles.algorithms import (
    Shuffle,
    check_size,
    permutation_rank,
    permutation_unrank,
    shuffle_in_turn,
    swap_count,
)
from rnglab.shuffles.comparator import COMPARISON_LIMIT, comparator_deals
from rnglab.shuffles.draws import PIECE_BITS
from rnglab.shuffles.paths import DealWeights
from rnglab.shuffles.runtime import deitel_grid

#: Largest n for the dynamic program over all n! permutations (n = 10, naive: about 2 s and 0.33 GB;
#: draw-unused through modulo, whose counts are Python integers grouped by denominator: law and summary about
#: 2.5 s and 1.2 GB on 2^31 values, 4.7 s and 2.5 GB on 2^64).
DENSE_LIMIT = 10
#: Largest n for the cycle-type dynamic program of random transpositions.
CYCLE_TYPE_LIMIT = 30
#: Largest n for exact position matrices (within it, the time estimate decides: see :data:`~rnglab.core.rates.MATRIX_CELL_SECONDS`).
MATRIX_LIMIT = 1000
#: Largest n for the position matrix of the stable key sort (by enumeration).
SORT_KEYS_MATRIX_LIMIT = 9
#: Shuffles whose redraws are not steps of their program: through a reducer they have laws of their own.
REDRAWING = ("draw-unused", "deitel", "unrank")
#: The redrawing shuffles that draw a slot until it is free (their law: :func:`draw_unused_law`).
SLOT_REDRAWING = ("draw-unused", "deitel")
#: Most work of the position matrix of a redrawing shuffle through a reducer (:func:`draw_unused_position_counts`):
#: its terms or its cells (the larger), times the bits of their common denominator (Deitel's 52 cards on MSVC's
#: rand(): 2.1e6, 0.05 s; draw-unused on 108 cards, two weights of 24 bits: 1.6e8, 4 s).
DRAW_WORK_BITS = 2**30
#: Epochs of the position DP: each repacks the columns as wide as the denominator at its end.
PACKING_EPOCHS = 8
#: What a figure says when it comes from the law under an ideal source in place of the law through the reducer.
IDEAL_ONLY = "through an ideal source: the reducer's bias is not included"
#: Seconds of empirical shuffling (estimated before it starts, shown by a progress bar) beyond which it is refused.
EMPIRICAL_SECONDS = 3600


# -- laws: classes of equally likely permutations ----------------------------------------

@dataclass(frozen=True)
class Law:
    """An exact distribution over the ``n!`` permutations, grouped in classes.

    Class ``c`` holds ``sizes[c]`` permutations, each with probability
    ``counts[c] / denominator``; ``sizes`` is ``None`` when every class is one
    permutation (``counts`` indexed by lexicographic rank).
    ``representative(c)`` returns one permutation of class ``c`` (the cards
    at positions 0..n-1).
    """

    n: int
    counts: list
    sizes: list
    denominator: int
    representative: object


def _dense_permutations(n: int) -> np.ndarray:
    """All permutations of ``0..n-1`` in lexicographic order (uint8, one row each)."""
    perms = np.zeros((1, 0), dtype=np.uint8)
    for size in range(1, n + 1):  # first item f, then the permutations of the others (shifted past f) in order
        perms = np.concatenate([np.hstack([np.full((len(perms), 1), first, dtype=np.uint8), perms + (perms >= first)])
                                for first in range(size)])
    return perms


@njit(cache=True, nogil=True)
def _rearrange_counts(perms, counts, orders, weights, out):  # pragma: no cover - compiled
    """``out[rank(perm[order])] += weight * counts[rank(perm)]`` for every permutation and every (order, weight).

    Ranks are lexicographic: ``rank = sum_k L_k (n-1-k)!`` with the Lehmer
    digit ``L_k = p_k - #{i < k: p_i < p_k}``. An order that moves only
    positions ``lo..hi`` keeps the digits outside them (those before see the
    same set of later values), so the rank is ``r - r mod (n-lo)! + r mod
    (n-1-hi)!`` plus the digits ``lo..hi`` recomputed with a bit set of the
    values placed before.
    """
    rows, n = perms.shape
    factorial = np.ones(n + 1, dtype=np.int64)
    for k in range(1, n + 1):
        factorial[k] = factorial[k - 1] * k
    ones = np.zeros(1 << n, dtype=np.int64)  # bits set in each subset of values
    for subset in range(1, 1 << n):
        ones[subset] = ones[subset >> 1] + (subset & 1)
    lo = np.full(len(orders), n, dtype=np.int64)
    hi = np.full(len(orders), -1, dtype=np.int64)
    for o in range(len(orders)):
        for k in range(n):
            if orders[o, k] != k:
                lo[o], hi[o] = min(lo[o], k), k
    placed = np.zeros(n + 1, dtype=np.int64)
    for r in range(rows):
        count = counts[r]
        if count == 0:
            continue
        for k in range(n):
            placed[k + 1] = placed[k] | (1 << perms[r, k])
        for o in range(len(orders)):
            if lo[o] > hi[o]:
                out[r] += weights[o] * count
                continue
            rank = r - r % factorial[n - lo[o]] + r % factorial[n - 1 - hi[o]]
            used = placed[lo[o]]
            for k in range(lo[o], hi[o] + 1):
                value = perms[r, orders[o, k]]
                rank += (value - ones[used & ((1 << value) - 1)]) * factorial[n - 1 - k]
                used |= 1 << value
            out[rank] += weights[o] * count
    return out


class _DenseProgram:
    """The program DP over all ``n!`` permutations (counts indexed by lexicographic rank)."""

    def __init__(self, n: int):
        self.n = n
        self.perms = _dense_permutations(n)

    def run(self, program, weigh) -> Law:
        """The law of ``program`` with choice weights ``weigh`` (:class:`ChoiceWeights`), in int64 counts.

        Every count is at most the denominator ``D`` (the product of the steps' total weights), so the
        counts are exact while ``D < 2^62``; a larger ``D`` (a reducer on ``R = 2^31`` values from the second
        draw on) is refused before any work.
        """
        steps = [(step.orders(self.n), weigh(step, self.n)) for step in program]
        denominator = math.prod(sum(weights) for _, weights in steps)
        if denominator >= 2**62:
            raise ValueError(f"the exact law over all {self.n}! deals is held in 64-bit integer counts: its "
                             f"2^{math.log2(denominator):.2f} weighted paths exceed 2^62; use a smaller n or R")
        counts = np.zeros(len(self.perms), dtype=np.int64)
        counts[0] = 1
        for orders, weights in steps:
            counts = _rearrange_counts(self.perms, counts, np.array(orders, dtype=np.int64),
                                       np.array(weights, dtype=np.int64), np.zeros_like(counts))
        return Law(self.n, counts, None, denominator, lambda c: self.perms[c].tolist())


class ChoiceWeights:
    """How often each choice of a step comes out: uniform (an ideal source), or through a reducer.

    With ``reducer`` and ``range_size`` R, a draw below ``b`` is the reducer
    applied to an ideal source of R values: choice ``j`` gets weight
    ``c_j = #{x in [0, R): accepted, value j}`` (rejected values drop out, as
    a redraw does), from the reducer's own count function
    (:func:`rnglab.draws.bias.count_array`: closed forms, exact for any R,
    ``2^31``, ``2^32``, ``2^64`` included; ``float-multiply`` needs ``R <= 2^53``).
    Weights are exact Python integers.
    """

    def __init__(self, reducer: Reducer | None = None, range_size: int | None = None):
        if (reducer is None) != (range_size is None):
            raise ValueError("a reducer needs the source's range size R, and R needs a reducer")
        if range_size is not None and range_size < 2:
            raise ValueError(f"the source range R must be at least 2; got {range_size}")
        self.reducer = reducer
        self.range_size, self.cache = range_size, {}

    def __call__(self, step, n: int) -> list[int]:
        """Weights of every choice of ``step`` on ``n`` items: products of its draws' weights, first draw major."""
        return [math.prod(combination) for combination in itertools.product(*self.draws(step, n))]

    def draws(self, step, n: int) -> list[np.ndarray]:
        """The weights of each value of each draw of ``step`` (object arrays of exact integers)."""
        return [np.array(self.single(bound), dtype=object) for bound in step.bounds(n)]

    def single(self, bound: int) -> list[int]:
        """Weights of the values of one draw below ``bound``."""
        if self.reducer is None:
            return [1] * bound
        if bound not in self.cache:  # count_array checks the bound as every draw does (none above R)
            self.cache[bound] = [int(c) for c in count_array(self.reducer, bound, self.range_size)]
        return self.cache[bound]


def _partition_step(partition: tuple, n: int) -> dict:
    """Paths from one cycle type to the next under a uniform ordered pair (a, b) of positions."""
    out: dict = {partition: n}  # a == b
    multiplicity = {length: partition.count(length) for length in set(partition)}
    for length, times in multiplicity.items():
        rest = list(partition)
        rest.remove(length)
        for s in range(1, length):  # a and b in one cycle, b s places after a: split
            key = tuple(sorted(rest + [s, length - s], reverse=True))
            out[key] = out.get(key, 0) + times * length
    lengths = sorted(multiplicity)
    for i, first in enumerate(lengths):
        for second in lengths[i:]:  # a and b in two cycles: merge
            pairs = math.comb(multiplicity[first], 2) if first == second else multiplicity[first] * multiplicity[second]
            if pairs:
                rest = list(partition)
                rest.remove(first)
                rest.remove(second)
                key = tuple(sorted(rest + [first + second], reverse=True))
                out[key] = out.get(key, 0) + pairs * 2 * first * second
    return out


def class_size(partition: tuple) -> int:
    """Number of permutations with this cycle type: ``n! / prod(L^m_L m_L!)``."""
    size = math.factorial(sum(partition))
    for length in set(partition):
        times = partition.count(length)
        size //= length**times * math.factorial(times)
    return size


def cycle_representative(partition: tuple) -> list[int]:
    """A permutation with the given cycle type: cycles on consecutive positions."""
    perm, start = [], 0
    for length in partition:
        perm += [start + (t + 1) % length for t in range(length)]
        start += length
    return perm


def transposition_law(n: int, swaps: int, progress: Callable[[int, int], None] | None = None) -> Law:
    """Exact law of ``swaps`` random transpositions, by a dynamic program over cycle types.

    ``progress(done, swaps)`` is called after each swap.
    """
    if n > CYCLE_TYPE_LIMIT:
        raise ValueError(f"the exact law of random transpositions is computed for n <= {CYCLE_TYPE_LIMIT}; got {n}")
    seconds = transposition_seconds(n, swaps)
    if seconds > EXACT_SECONDS:
        fit = max_within(lambda k: transposition_seconds(n, k) <= EXACT_SECONDS)
        check_work(seconds, EXACT_SECONDS, f"the exact law of {swaps} random transpositions on n = {n}",
                   f"up to {fit} swaps fit")
    paths = {tuple([1] * n): 1}
    for done in range(1, swaps + 1):
        following: dict = {}
        for partition, count in paths.items():
            for key, ways in _partition_step(partition, n).items():
                following[key] = following.get(key, 0) + count * ways
        paths = following
        if progress:
            progress(done, swaps)
    types = integer_partitions(n)  # every cycle type, the ones no path reaches included (count 0)
    sizes = [class_size(t) for t in types]
    # conjugation invariance: every permutation of a type is reached by the same number of paths
    return Law(n, [paths.get(t, 0) // s for t, s in zip(types, sizes)], sizes, n ** (2 * swaps),
               lambda c: cycle_representative(types[c]))


def transposition_seconds(n: int, swaps: int) -> float:
    """Estimated seconds of :func:`transposition_law`: ``swaps p(n) n`` updates of integers of ``2 swaps log2 n`` bits.

    At :data:`~rnglab.core.rates.TRANSPOSITION_UPDATE_SECONDS` (1.5 us per update plus 1 ns per 64-bit word).
    """
    words = 2 * swaps * math.log2(max(n, 2)) / 64
    per_update, per_word = TRANSPOSITION_UPDATE_SECONDS
    return swaps * len(integer_partitions(n)) * n * (per_update + per_word * words)


def max_within(fits) -> int:
    """The largest ``k >= 0`` with ``fits(k)``, for a ``fits`` true up to some point and false after it."""
    high = 1
    while fits(high):
        high *= 2
    low = high // 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low if fits(low) else 0


def integer_partitions(n: int, largest: int | None = None) -> list[tuple]:
    """Every partition of ``n`` as a tuple of non-increasing parts at most ``largest`` (default ``n``)."""
    largest = n if largest is None else largest
    if n == 0:
        return [()]
    return [(part,) + rest for part in range(min(n, largest), 0, -1) for rest in integer_partitions(n - part, part)]


def eulerian_numbers(n: int) -> list[int]:
    """``A(n, d)``: permutations of ``n`` with ``d`` descents, ``d = 0 .. n-1``."""
    row = [1]
    for size in range(2, n + 1):
        row = [(d + 1) * (row[d] if d < len(row) else 0) + (size - d) * (row[d - 1] if d else 0)
               for d in range(size)]
    return row


def stable_keys_law(n: int, key_bits: int) -> Law:
    """Exact law of a stable sort by i.i.d. uniform ``key_bits``-bit keys (classes: descent numbers)."""
    keys = 2**key_bits
    counts = [math.comb(keys + n - 1 - d, n) for d in range(n)]
    return Law(n, counts, eulerian_numbers(n), keys**n,
               lambda d: list(range(d, -1, -1)) + list(range(d + 1, n)))


def uniform_law(n: int) -> Law:
    """The uniform law: one class of ``n!`` permutations."""
    return Law(n, [1], [math.factorial(n)], math.factorial(n), lambda c: list(range(n)))


def permutation_law(algo: Shuffle, n: int, *, reducer: Reducer | None = None, range_size: int | None = None,
                    progress: Callable[[int, int], None] | None = None) -> Law:
    """The exact law of ``algo`` on ``n`` items under an ideal uniform source.

    With ``reducer`` and ``range_size``: under an ideal source of ``range_size``
    values whose draws go through that reducer (see :class:`ChoiceWeights`).
    ``progress(done, total)`` follows the long dynamic program (random transpositions).
    """
    n, shuffle, weigh = check_size(n), algo, ChoiceWeights(reducer, range_size)
    shuffle.check(n)
    if reducer is not None:
        _check_weighable(shuffle)
    elif shuffle.law == "transpositions":
        return transposition_law(n, swap_count(n, shuffle.swaps), progress)
    if shuffle.law == "stable-keys":
        return stable_keys_law(n, shuffle.key_bits)
    if shuffle.law == "uniform":
        return uniform_law(n)
    if shuffle.law == "comparisons":
        return deal_law(comparator_deals(shuffle, n))
    if n > DENSE_LIMIT:
        raise ValueError(f"the exact law over all n! deals is computed for n <= {DENSE_LIMIT}; got {n} "
                         "(the position matrix is available for larger n)")
    if reducer is not None and shuffle.name in REDRAWING:
        return draw_unused_law(n, redrawn_slot_weights(shuffle.name, n, weigh)) \
            if shuffle.name in SLOT_REDRAWING else unrank_law(n, weigh)
    return _DenseProgram(n).run(shuffle.program(n), weigh)


def redrawn_slot_weights(name: str, n: int, weigh: ChoiceWeights) -> list[int]:
    """How often one try of a redrawing shuffle (``draw-unused``, ``deitel``) gives each slot, as integers.

    draw-unused draws one position below ``n``. Deitel's program draws a row
    below ``r`` and then a column below ``c`` (``(r, c)`` from
    :func:`~rnglab.shuffles.runtime.deitel_grid`: ``rand() % 4``,
    ``rand() % 13`` for 52 cards), each through the reducer, so slot
    ``row c + column`` has weight ``u_row v_column``, the product of the two
    draws' weights. A reducer that rejects redraws inside one draw, which
    leaves the weights of the accepted values; the weights are divided by
    their greatest common divisor (the law depends on their ratios only).
    """
    if name == "deitel":
        rows, columns = deitel_grid(n)
        weights = [u * v for u in weigh.single(rows) for v in weigh.single(columns)]
    else:
        weights = weigh.single(n)
    common = math.gcd(*weights)
    return [w // common for w in weights] if common else weights


def _check_reachable(weights: list[int]) -> None:
    if not all(weights):
        raise ValueError("a redrawing shuffle never deals a slot its draws cannot reach: every slot needs weight > 0")


def draw_unused_law(n: int, weights: list[int]) -> Law:
    """Exact law of draw-unused (or Deitel's deck) when slot ``j`` comes out of a try with weight ``w_j``.

    A dealt position is drawn again, so step ``k`` takes the unused position
    ``p_k`` with probability ``w_{p_k} / (W - w(A_k))``, ``A_k = {p_0, ..,
    p_{k-1}}``, ``W = sum w``; the deck starts in order, so the deal is ``p``
    and ``P(p) = prod_j w_j / prod_k (W - w(A_k))`` (the numerator is the same
    for every deal). Counts are over the least common multiple of those
    denominators (:func:`chain_denominator`), as Python integers.

    The deals are grouped by their denominators: with ``m = min w``,
    ``w(A_k) = k m + e(A_k)`` where the excesses ``e_j = w_j - m`` are small
    for a reducer's weights (0 or 1 for modulo), so the rows ``e(A_0) ..
    e(A_{n-1})`` are int64 and few are distinct (252 at ``n = 10`` with 5
    favoured slots); each distinct row's count is one Python integer, shared
    by its deals, whatever the size of ``R`` (``2^64``: 2,085-bit counts).
    """
    _check_reachable(weights)
    total, least = sum(weights), min(weights)
    excess = np.array([w - least for w in weights], dtype=object if (total - n * least) >= 2**63 else np.int64)
    perms = _dense_permutations(n)
    before = np.cumsum(excess[perms], axis=1) - excess[perms]  # e(A_k) per deal and step
    rows, which = _distinct_rows(before)
    common = chain_denominator(weights)
    numerator = common * math.prod(weights)
    counts = np.empty(len(rows), dtype=object)
    counts[:] = [numerator // math.prod(total - k * least - int(e) for k, e in enumerate(row)) for row in rows]
    return Law(n, counts[which], None, common, lambda c: perms[c].tolist())


def _distinct_rows(matrix: np.ndarray) -> tuple[list, np.ndarray]:
    """The distinct rows of a non-negative ``matrix`` and, for each row, the index of its distinct row.

    Rows of small entries are read as numbers in base ``max + 1`` (one int64 each, sorted by ``np.unique``:
    0.5 s for the 10! rows of draw-unused, where ``np.unique(axis=0)`` takes 20 s); others by a dict of tuples.
    """
    base = int(matrix.max()) + 1 if matrix.size else 1
    if matrix.dtype != object and base ** matrix.shape[1] < 2**63:
        keys = matrix @ (base ** np.arange(matrix.shape[1], dtype=np.int64))
        _keys, first, which = np.unique(keys, return_index=True, return_inverse=True)
        return matrix[first].tolist(), which.ravel()
    index: dict = {}
    which = np.array([index.setdefault(tuple(row), len(index)) for row in matrix.tolist()], dtype=np.int64)
    return list(index), which


def chain_denominator(weights: list[int]) -> int:
    """``lcm`` over all orders ``p`` of ``prod_k (W - w(A_k))`` (:func:`draw_unused_law`), by a DP over subsets.

    ``L(A) = lcm_{x in A} L(A - x) (W - w(A - x))``, ``L({}) = 1``; the answer is ``L(all)``.
    """
    total, size = sum(weights), 1 << len(weights)
    subset_weight, chain = [0] * size, [1] * size
    for subset in range(1, size):
        low = subset & -subset
        subset_weight[subset] = subset_weight[subset ^ low] + weights[low.bit_length() - 1]
        members = [1 << j for j in range(len(weights)) if subset >> j & 1]
        chain[subset] = math.lcm(*(chain[subset ^ x] * (total - subset_weight[subset ^ x]) for x in members))
    return chain[-1]


def draw_unused_position_counts(weights: list[int]) -> tuple[np.ndarray, int]:
    """Exact position counts of draw-unused (or Deitel's deck) when slot ``j`` comes out of a try with weight ``w_j``.

    A taken slot is drawn again and the tries are i.i.d., so the next slot
    dealt is free slot ``j`` with probability ``w_j / w(free)``: the order of
    the slots is that of independent exponential times ``E_j`` of rates ``w_j``
    (the Plackett--Luce law). Slot ``j`` is dealt at position ``k`` when
    exactly ``k`` of the others come before it; given ``E_j = x`` each other
    ``i`` does with probability ``1 - e^{-w_i x}``, and integrating
    ``[z^k] prod_{i != j} (z + (1 - z) e^{-w_i x})`` against ``w_j e^{-w_j x}``
    gives

    ``P(j at k) = w_j sum_T (-1)^{k - N + |T|} C(|T|, k - N + |T|) / (w_j + w(T))``

    over the sets ``T`` of the ``N = n - 1`` other slots. Slots of equal
    weight are exchangeable, so ``T`` is summed by how many slots of each
    weight it holds (a binomial coefficient per weight): ``prod_c (m_c + 1)``
    terms per weight of ``j``. The sums are exact integers over the least
    common multiple ``D`` of the denominators, reduced at the end.

    Raises
    ------
    ValueError
        When the work (terms or matrix cells, times the bits of ``D``) would
        exceed :data:`DRAW_WORK_BITS`, or a slot has weight 0.

    Returns
    -------
    counts : numpy.ndarray
        ``(n, n)`` object array: slot (card) ``j``, position ``k``.
    denominator : int
    """
    _check_reachable(weights)
    n, values = len(weights), sorted(set(weights))
    sizes = [weights.count(v) for v in values]
    others = [[m - (c == own) for c, m in enumerate(sizes)] for own in range(len(values))]
    terms = sum(math.prod(m + 1 for m in counts) for counts in others)
    size = max(terms, n * n)
    common = 1
    for own, counts in enumerate(others):
        for taken in itertools.product(*(range(m + 1) for m in counts)):
            common = math.lcm(common, values[own] + sum(t * v for t, v in zip(taken, values)))
            if common.bit_length() * size > DRAW_WORK_BITS:
                raise ValueError(f"the exact position matrix of this redrawing shuffle on n = {n} through the "
                                 f"reducer is out of reach: {len(values)} slot weights, {terms:,} terms over a "
                                 f"denominator of more than {common.bit_length():,} bits")
    rows = {}
    for own, counts in enumerate(others):
        by_size = [0] * n  # sum over T with |T| = s of C(m, t) per weight, times D / (w_j + w(T))
        for taken in itertools.product(*(range(m + 1) for m in counts)):
            ways = math.prod(math.comb(m, t) for m, t in zip(counts, taken))
            by_size[sum(taken)] += ways * (common // (values[own] + sum(t * v for t, v in zip(taken, values))))
        rows[values[own]] = [values[own] * sum((-1) ** (k - n + 1 + s) * math.comb(s, k - n + 1 + s) * by_size[s]
                                               for s in range(n - 1 - k, n)) for k in range(n)]
    reduce = math.gcd(common, *(c for row in rows.values() for c in row))
    counts = np.empty((n, n), dtype=object)
    for j, w in enumerate(weights):
        counts[j, :] = [c // reduce for c in rows[w]]
    return counts, common // reduce


def unrank_law(n: int, weigh: ChoiceWeights) -> Law:
    """Exact law of unrank when its pieces are drawn through a reducer.

    As :func:`~rnglab.shuffles.algorithms.uniform_below_factorial` draws it:
    ``V`` of ``t = bit_length(n! - 1)`` bits is assembled from pieces drawn
    below ``2^b`` with ``b = min(32, floor(log2 R))`` (most significant first,
    the last one narrower); ``V >= n!`` redraws every piece. So
    ``P(V = v) = weight(v) / sum_{u < n!} weight(u)`` with ``weight(v)`` the
    product of its pieces' weights, and the deal is the permutation of rank ``v``.
    The counts are int64 where the largest product times ``n!`` stays below
    ``2^63``, Python integers otherwise (``R = 2^64``: weights of ``2^42`` on a piece of 22 bits).
    """
    total = math.factorial(n)
    width, remaining = min(PIECE_BITS, weigh.range_size.bit_length() - 1), max(1, (total - 1).bit_length())
    pieces = []
    while remaining > 0:
        piece = min(width, remaining)
        remaining -= piece
        pieces.append((remaining, piece, weigh.single(1 << piece)))
    wide = math.prod(max(weights) for *_, weights in pieces) * total >= 2**63
    values, counts = np.arange(total, dtype=np.int64), np.ones(total, dtype=object if wide else np.int64)
    for shift, piece, weights in pieces:
        counts *= np.array(weights, dtype=counts.dtype)[values >> shift & ((1 << piece) - 1)]
    return Law(n, counts, None, int(counts.sum()), lambda c: permutation_unrank(c, n))


def _check_weighable(shuffle) -> None:
    if shuffle.algorithm.program is None:
        raise ValueError(f"{shuffle.name} draws keys or comparisons, not bounded choices: exact weights through "
                         "a reducer apply to the swap and take algorithms")


# -- position matrices -----------------------------------------------------------------

def position_seconds(program, n: int, weigh: ChoiceWeights | None = None) -> float:
    """Estimated seconds of :func:`program_position_counts`: ``n`` cells per column a step rewrites, on
    integers of ``log2 D`` bits (``D`` the common denominator: the product of every draw's total weight,
    its bound under an ideal source, the accepted source values through a reducer: 2^64 for modulo on
    ``R = 2^64``), at :data:`~rnglab.core.rates.MATRIX_CELL_SECONDS`; for swaps with every position on equal
    weights (:func:`even_swaps_position_counts`), ``n`` cells a step on ``log2 D`` bits and products of them, at
    :data:`~rnglab.core.rates.EVEN_SWAP_SECONDS`."""
    weigh = weigh or ChoiceWeights()
    draws = [weigh.single(bound) for step in program for bound in step.bounds(n)]
    words = sum(math.log2(sum(weights)) for weights in draws) / 64
    if evenly_swapped(program, n, weigh):
        return n * len(program) * words * (EVEN_SWAP_SECONDS[0] + EVEN_SWAP_SECONDS[1] * words)
    columns = sum(step.rewritten_columns(n) for step in program)
    equal = all(min(weights) == max(weights) for weights in draws)
    return n * columns * (MATRIX_CELL_SECONDS[0] + (MATRIX_CELL_SECONDS[1] if equal else UNEQUAL_WORD_SECONDS) * words)


def program_position_counts(program, n: int, weigh=None) -> tuple[np.ndarray, int]:
    """Exact position counts (Python integers) and their denominator for a program: by
    :func:`even_swaps_position_counts` when every step swaps with every position on equal weights, else by
    :func:`packed_position_counts`."""
    weigh = weigh or ChoiceWeights()
    if evenly_swapped(program, n, weigh):
        return even_swaps_position_counts(program, n, weigh)
    return packed_position_counts(program, n, weigh)


def packed_position_counts(program, n: int, weigh: ChoiceWeights) -> tuple[np.ndarray, int]:
    """Exact position counts of any program, every step's update applied to every column it rewrites.

    The matrix is held as ``n`` packed columns (:func:`rnglab.shuffles.steps.scale`):
    each Python integer holds a column, a field of ``B`` bits per card. The
    steps run in :data:`PACKING_EPOCHS` epochs; each repacks the columns with
    ``B`` the whole bytes that hold the denominator at its end, which bounds
    every count until then (each operation costs ``B`` bits per card, so a
    width that grows with the denominator saves work over the final width).
    """
    steps = [(step, weigh.draws(step, n)) for step in program]
    totals = [math.prod(int(sum(weights)) for weights in draws) for _, draws in steps]
    columns, width, denominator = [1 << (8 * k) for k in range(n)], 8, 1
    epoch = max(1, -(-len(steps) // PACKING_EPOCHS))
    for start in range(0, len(steps), epoch):
        wider = (denominator * math.prod(totals[start:start + epoch])).bit_length() // 8 * 8 + 8
        columns, width = [repack(column, n, width, wider) for column in columns], wider
        ones = sum(1 << (i * width) for i in range(n))
        for (step, draws), total in zip(steps[start:start + epoch], totals[start:start + epoch]):
            columns = step.update_columns(columns, draws, denominator, ones)
            denominator *= total
    return unpack_columns(columns, n, width), denominator


def evenly_swapped(program, n: int, weigh: ChoiceWeights) -> bool:
    """Whether every step swaps its position with every position of the deck on equal weights."""
    return all(step.even_partner_weight(weigh.draws(step, n), n) is not None for step in program)


def even_swaps_position_counts(program, n: int, weigh: ChoiceWeights) -> tuple[np.ndarray, int]:
    """Exact position counts of a program whose every step swaps with every position on equal weights.

    A step at ``p`` on weight ``w`` a partner (total ``W = n w``) rewrites each
    column ``k != p`` as ``(W - w) c_k + w c_p`` and column ``p`` as
    ``w D 1`` (``D`` the denominator so far, ``1`` the column of ones). Every
    column last set at step ``t_k`` is therefore ``A(t_k, t) d_k + B_t``, with
    one column shared by all, ``B_0 = 0``, ``B_{t+1} = (W_t - w_t) B_t + w_t c_p``,
    and ``A(t_k, t) = prod_{t_k <= s < t} (W_s - w_s)`` (induction on ``t``:
    ``(W - w)(A d_k + B_t) + w c_p = A(t_k, t + 1) d_k + B_{t+1}``). Setting
    column ``p`` stores ``d_p = w D 1 - B_{t+1}``. A step then costs one column
    read and two column operations instead of ``n``, and the ``n`` columns are
    made once at the end: ``O(n^2)`` cell operations for the naive exchange
    against the ``O(n^3)`` of :func:`program_position_counts`' general update.
    The columns are packed at the width of the final denominator from the
    start (packing is linear: the negative entries of ``B`` and ``d`` cancel in
    the final columns, whose entries lie in ``[0, D]``).
    """
    steps = [(step, weigh.draws(step, n)) for step in program]
    denominator = math.prod(int(sum(draws[0])) for _, draws in steps)
    width = denominator.bit_length() // 8 * 8 + 8
    rest = [1 << (k * width) for k in range(n)]  # d_k: card k alone at k, as no step has set column k (B_0 = 0)
    since, shared, kept, so_far = [0] * n, 0, [], 1  # kept[s] = W_s - w_s
    for t, (step, draws) in enumerate(steps):
        w, total, p = step.even_partner_weight(draws, n), int(sum(draws[0])), step.position
        moved = _stretched(math.prod(kept[since[p]:]), rest[p], p * width if since[p] == 0 else None) + shared
        shared = (total - w) * shared + w * moved
        kept.append(total - w)
        rest[p], since[p] = _repeated(w * so_far, n, width) - shared, t + 1
        so_far *= total
    columns = [_stretched(math.prod(kept[since[k]:]), rest[k], k * width if since[k] == 0 else None) + shared for k in range(n)]
    return unpack_columns(columns, n, width), denominator


def _stretched(factor: int, column: int, unit_shift: int | None) -> int:
    """``factor * column``, by a shift when ``column`` is still one card alone (``1 << unit_shift``: no step has set
    it, as ``since`` says)."""
    return factor << unit_shift if unit_shift is not None else factor * column


def _repeated(value: int, n: int, width: int) -> int:
    """The packed column with ``value`` in each of its ``n`` fields of ``width`` bits."""
    return int.from_bytes(value.to_bytes(width // 8, "little") * n, "little")


def repack(column: int, n: int, width: int, wider: int) -> int:
    """A packed column of ``n`` fields of ``width`` bits rewritten with fields of ``wider`` bits (whole bytes)."""
    fields = np.zeros((n, wider // 8), dtype=np.uint8)
    fields[:, :width // 8] = np.frombuffer(column.to_bytes(n * width // 8, "little"), dtype=np.uint8).reshape(n, -1)
    return int.from_bytes(fields.tobytes(), "little")


def unpack_columns(columns: list, n: int, width: int) -> np.ndarray:
    """The ``n x n`` object array of Python integers held in packed columns of ``width``-bit fields."""
    size = width // 8
    matrix = np.empty((n, n), dtype=object)
    for k, column in enumerate(columns):
        data = column.to_bytes(n * size, "little")
        matrix[:, k] = [int.from_bytes(data[i * size:(i + 1) * size], "little") for i in range(n)]
    return matrix


def descent_law_counts(n: int, key_bits: int) -> tuple[np.ndarray, int]:
    """Position counts of the stable key sort, by enumerating the ``n!`` deals and their descents."""
    if n > SORT_KEYS_MATRIX_LIMIT:
        raise ValueError(f"the position matrix of sort-keys is computed for n <= {SORT_KEYS_MATRIX_LIMIT}; got {n} "
                         "(use the empirical test for larger decks)")
    perms = _dense_permutations(n)
    descents = (perms[:, 1:] < perms[:, :-1]).sum(axis=1)
    law = stable_keys_law(n, key_bits)
    table = np.zeros((n, n, n), dtype=np.int64)  # descents, card, position
    for position in range(n):
        np.add.at(table, (descents, perms[:, position], position), 1)
    matrix = sum(int(law.counts[d]) * table[d].astype(object) for d in range(n))
    return matrix, law.denominator


def position_counts(algo: Shuffle, n: int, *, reducer: Reducer | None = None,
                    range_size: int | None = None) -> tuple[np.ndarray, int]:
    """Exact ``(counts, denominator)`` with ``P(card i at position j) = counts[i, j] / denominator``."""
    n, shuffle, weigh = check_size(n, MATRIX_LIMIT), algo, ChoiceWeights(reducer, range_size)
    shuffle.check(n)
    if reducer is not None:
        _check_weighable(shuffle)
        if shuffle.name in SLOT_REDRAWING:
            return draw_unused_position_counts(redrawn_slot_weights(shuffle.name, n, weigh))
        if shuffle.name in REDRAWING:
            if n > DENSE_LIMIT:
                raise ValueError(f"{shuffle.name} through a reducer is computed from its law over all n! deals, "
                                 f"for n <= {DENSE_LIMIT}; got {n}")
            return law_position_counts(permutation_law(shuffle, n, reducer=reducer, range_size=range_size))
    elif shuffle.law == "uniform":
        return np.ones((n, n), dtype=object), n
    if shuffle.law == "comparisons":
        return law_position_counts(permutation_law(shuffle, n))
    if shuffle.law == "stable-keys":
        return descent_law_counts(n, shuffle.key_bits)
    program = shuffle.program(n)
    seconds = position_seconds(program, n, weigh)
    if seconds > EXACT_SECONDS:  # larger n do not fit either (nor may they draw)
        fit = max_within(lambda m: m <= n and position_seconds(shuffle.program(m), m, weigh) <= EXACT_SECONDS)
        check_work(seconds, EXACT_SECONDS, f"the exact position matrix of {shuffle.name} on n = {n}",
                   f"n <= {fit} fits with these options")
    return program_position_counts(program, n, weigh)


def law_position_counts(law: Law) -> tuple[np.ndarray, int]:
    """Position counts of a law given deal by deal (``sizes`` is None): the deals' counts summed per cell."""
    perms = _dense_permutations(law.n)
    counts = np.asarray(law.counts)
    matrix = np.zeros((law.n, law.n), dtype=counts.dtype)
    for position in range(law.n):
        np.add.at(matrix[:, position], perms[:, position], counts)
    return matrix.astype(object), law.denominator


def position_probabilities(algo: Shuffle, n: int, **through) -> np.ndarray:
    """``P(card i ends at position j)`` as float64 (from the exact counts; ``through``: the reducer and range of
    :func:`position_counts`)."""
    counts, denominator = position_counts(algo, n, **through)
    return _as_float_ratio(counts, denominator)


def _as_float_ratio(counts: np.ndarray, denominator: int) -> np.ndarray:
    return np.array([[float(Fraction(int(c), denominator)) for c in row] for row in counts])


def max_deviation(counts: np.ndarray, denominator: int) -> Fraction:
    """``max |counts / denominator - 1/n|`` over the matrix, exactly."""
    n = counts.shape[1]
    worst = max(abs(int(c) * n - denominator) for c in counts.flat)
    return Fraction(worst, n * denominator)


# -- summaries -------------------------------------------------------------------------

@dataclass(frozen=True)
class Likely(Result):
    """A permutation (cards at positions 0..n-1) and its probability."""

    perm: list
    prob: Fraction


@dataclass(frozen=True)
class ExactFairness(Result):
    """Exact fairness of a shuffle.

    Attributes
    ----------
    n, algo : int, str
    exact : bool
        Always true here: every number is exact.
    source : str
        ``"ideal"`` or the generator, reducer and seed space.
    paths : int or None
        Common denominator of the deal probabilities (paths, or seeds).
    reachable : int or None
        Deals with non-zero probability.
    n_factorial : int
    tv_distance : Fraction or None
        Total variation distance to the uniform law (None where the law over
        all deals is out of reach).
    most_likely, least_likely : Likely or None
    position_max_deviation : Fraction or None
        ``max |P(card i at j) - 1/n|``.
    position_matrix : list or None
        ``P(card i at position j)`` as floats (rows: cards).
    shuffles_to_detect : int or None
        Shuffles the position chi-square needs to see this bias (:func:`shuffles_to_detect`);
        ``None`` for no bias or no matrix.
    """

    n: int
    algo: str
    exact: bool
    source: str
    paths: int | None
    reachable: int | None
    n_factorial: int
    tv_distance: Fraction | None
    most_likely: Likely | None
    least_likely: Likely | None
    position_max_deviation: Fraction | None
    position_matrix: list | None
    shuffles_to_detect: int | None = None


def law_summary(law: Law) -> dict:
    """TV distance, reachable count, most and least likely permutation of a law, exactly."""
    total = math.factorial(law.n)
    sizes = law.sizes if law.sizes is not None else None
    counts = law.counts
    if sizes is None:
        counts = np.asarray(counts, dtype=object) if law.denominator * total >= 2**62 else np.asarray(counts)
        distance = int(np.abs(counts * total - law.denominator).sum())
        best, worst = int(np.argmax(counts)), int(np.argmin(counts))
        reachable = int(np.count_nonzero(counts))
    else:
        distance = sum(s * abs(c * total - law.denominator) for c, s in zip(counts, sizes))
        best = max(range(len(counts)), key=lambda c: counts[c])
        worst = min(range(len(counts)), key=lambda c: counts[c])
        reachable = sum(s for c, s in zip(counts, sizes) if c)
    tv = Fraction(distance) / (2 * law.denominator * total)
    return {"tv_distance": tv, "reachable": reachable, "paths": law.denominator,
            "most_likely": Likely(law.representative(best), Fraction(counts[best]) / law.denominator),
            "least_likely": Likely(law.representative(worst), Fraction(counts[worst]) / law.denominator)}


def exact_fairness(algo: Shuffle, n: int, *, matrix: bool = True, reducer: Reducer | None = None,
                   range_size: int | None = None, progress: Callable[[int, int], None] | None = None) -> ExactFairness:
    """Exact fairness of ``algo`` on ``n`` items under an ideal uniform source.

    The law over all deals is included where it can be computed (see the
    module notes); the position matrix for ``n <= 1000`` (sort keys: ``n <= 9``).
    With ``reducer`` and ``range_size``, every draw is that reducer applied to
    an ideal source of ``range_size`` values (e.g. modulo from RAND_MAX 32767).
    ``progress(done, total)`` follows the law's dynamic program where it is long.
    """
    n, shuffle = check_size(n, MATRIX_LIMIT), algo
    through = {"reducer": reducer, "range_size": range_size} if reducer is not None else {}
    law = "program" if reducer is not None else shuffle.law
    limit = {"program": DENSE_LIMIT, "transpositions": CYCLE_TYPE_LIMIT, "comparisons": COMPARISON_LIMIT}.get(
        law, MATRIX_LIMIT)
    summary = law_summary(permutation_law(shuffle, n, progress=progress, **through)) if n <= limit else \
        {"tv_distance": None, "reachable": None, "paths": None, "most_likely": None, "least_likely": None}
    matrix = matrix and not (shuffle.law == "stable-keys" and n > SORT_KEYS_MATRIX_LIMIT)
    counts, denominator = position_counts(shuffle, n, **through) if matrix else (None, None)
    source = "ideal" if reducer is None else f"ideal source of {range_size} values, {reducer.name}"
    probabilities = _as_float_ratio(counts, denominator) if matrix else None
    return ExactFairness(
        n=n, algo=shuffle.name, exact=True, source=source, n_factorial=math.factorial(n),
        position_max_deviation=max_deviation(counts, denominator) if matrix else None,
        position_matrix=probabilities.tolist() if matrix else None,
        shuffles_to_detect=shuffles_to_detect(counts, denominator) if matrix else None, **summary)


def deal_law(deals: DealWeights) -> Law:
    """The law over all ``n!`` deals (by lexicographic rank) of enumerated deal weights (:mod:`~rnglab.shuffles.paths`)."""
    n, listed = deals.n, list(deals.weights)
    counts = np.zeros(math.factorial(n), dtype=object)
    counts[:] = 0
    counts[permutation_rank(np.array(listed, dtype=np.int64).reshape(len(listed), n))] = [deals.weights[d] for d in listed]
    return Law(n, counts, None, deals.denominator, lambda rank: permutation_unrank(rank, n))


def law_fairness(law: Law, algo: str, source: str) -> ExactFairness:
    """Exact fairness of a law given deal by deal (``law.sizes`` is None), with its position matrix."""
    counts, denominator = law_position_counts(law)
    probabilities = _as_float_ratio(counts, denominator)
    return ExactFairness(
        n=law.n, algo=algo, exact=True, source=source, n_factorial=math.factorial(law.n),
        position_max_deviation=max_deviation(counts, denominator), position_matrix=probabilities.tolist(),
        shuffles_to_detect=shuffles_to_detect(counts, denominator), **law_summary(law))


def seed_space_fairness(decks: np.ndarray, label: str, algo: str) -> ExactFairness:
    """Exact distribution of the deals produced by every seed of a seed space (one deck per seed).

    ``decks`` holds one row per seed; each seed is equally likely.
    """
    return seed_space_law(DealTally.of(decks), label, algo)


@dataclass(frozen=True)
class DealTally:
    """The deals of a set of seeds, tallied: each deal's rank with its count, and the position counts.

    Tallies of disjoint sets of seeds add (:meth:`merge`), so a seed space is dealt chunk by chunk and only
    these stay in memory (``n <= 20``: ranks fit in int64).
    """

    n: int
    ranks: np.ndarray       # sorted distinct ranks (int64)
    counts: np.ndarray      # seeds per rank (int64)
    positions: np.ndarray   # positions[i, j]: seeds whose deck has card i at position j (int64)

    @classmethod
    def of(cls, decks: np.ndarray) -> DealTally:
        ranks, counts = np.unique(permutation_rank(decks), return_counts=True)
        return cls(decks.shape[1], ranks, counts, position_count_matrix(decks))

    def merge(self, other: DealTally) -> DealTally:
        ranks, where = np.unique(np.concatenate([self.ranks, other.ranks]), return_inverse=True)
        counts = np.bincount(where, weights=np.concatenate([self.counts, other.counts]), minlength=len(ranks))
        return DealTally(self.n, ranks, counts.astype(np.int64), self.positions + other.positions)


def seed_space_law(tally: DealTally, label: str, algo: str) -> ExactFairness:
    """Exact distribution of the deals a seed space's tally holds, each seed equally likely."""
    n, ranks = tally.n, tally.ranks
    total = math.factorial(n)
    counts = [int(c) for c in tally.counts]
    seeds = sum(counts)
    distance = sum(abs(c * total - seeds) for c in counts) + (total - len(counts)) * seeds
    best = int(np.argmax(counts))
    least = Likely(permutation_unrank(_first_missing(ranks), n), Fraction(0)) if len(counts) < total \
        else Likely(permutation_unrank(int(ranks[int(np.argmin(counts))]), n), Fraction(min(counts), seeds))
    matrix = tally.positions.astype(object)
    return ExactFairness(
        n=n, algo=algo, exact=True, source=label, paths=seeds, reachable=len(counts), n_factorial=total,
        tv_distance=Fraction(distance, 2 * seeds * total),
        most_likely=Likely(permutation_unrank(int(ranks[best]), n), Fraction(counts[best], seeds)),
        least_likely=least, position_max_deviation=max_deviation(matrix, seeds),
        position_matrix=_as_float_ratio(matrix, seeds).tolist(),
        shuffles_to_detect=shuffles_to_detect(matrix, seeds))


def _first_missing(ranks: np.ndarray) -> int:
    """Smallest non-negative integer not in the sorted array ``ranks``."""
    gaps = np.flatnonzero(ranks != np.arange(len(ranks)))
    return int(gaps[0]) if len(gaps) else len(ranks)


# -- empirical -------------------------------------------------------------------------

def position_count_matrix(decks: np.ndarray) -> np.ndarray:
    """``counts[i, j]`` = number of decks with card ``i`` at position ``j`` (int64)."""
    _lanes, n = decks.shape
    cells = decks.astype(np.int64) * n + np.arange(n)
    return np.bincount(cells.ravel(), minlength=n * n).reshape(n, n)


@dataclass(frozen=True)
class EmpiricalFairness(ChiSquareResult):
    """Pearson's chi-square on the position-count matrix of ``shuffles`` decks.

    Attributes
    ----------
    statistic : float
        ``sum (O - E)^2 / E`` with ``E = M / n``.
    df : int
        ``(n - 1)^2``: rows and columns of the table both sum to ``M``.
    pvalue : float
    residuals : list
        Standardised residuals ``(O - E) / sqrt(E (1 - 1/n))`` per cell
        (rows: cards), about N(0, 1) each under the null.
    counts : list
    position_max_deviation : float
        ``max |O / M - 1/n|``, the observed frequencies against uniform.
    shuffles_to_detect : int or None
        Shuffles the test needs to see the exact bias of the algorithm through
        the reducer on the source's values (``None``: no bias, or its exact
        matrix out of reach).
    detect_source : str
        What that exact law covers: the reducer on the source's ``R`` values,
        or :data:`IDEAL_ONLY` where only the ideal source's law is within reach.
    """

    n: int
    algo: str
    source: str
    shuffles: int
    max_abs_residual: float
    residuals: list
    counts: list
    position_max_deviation: float = 0.0
    shuffles_to_detect: int | None = None
    detect_source: str = ""


#: Least expected count per cell of the position table for Pearson's chi-square (``M / n``).
MIN_EXPECTED = 5


def check_chi_square_size(shuffles: int, n: int) -> None:
    """Refuse a position table whose expected counts ``M / n`` are below :data:`MIN_EXPECTED` (no valid p-value)."""
    if shuffles < MIN_EXPECTED * n:
        raise ValueError(f"Pearson's chi-square on the {n} x {n} position table needs expected counts >= "
                         f"{MIN_EXPECTED} per cell: at least {MIN_EXPECTED * n} shuffles for n = {n}; got {shuffles}")


def position_chi_square(counts: np.ndarray, algo: str = "", source: str = "") -> EmpiricalFairness:
    """Chi-square test of uniform positions on a count matrix, ``M`` decks of ``n`` cards.

    Valid when every expected count ``M / n`` is at least :data:`MIN_EXPECTED`;
    smaller tables raise ``ValueError``.
    """
    n = counts.shape[0]
    shuffles = int(counts[0].sum())
    check_chi_square_size(shuffles, n)
    expected = shuffles / n
    statistic = float(((counts - expected) ** 2).sum() / expected)
    df = max((n - 1) ** 2, 1)
    residuals = (counts - expected) / math.sqrt(expected * (1 - 1 / n)) if n > 1 else np.zeros_like(counts, float)
    return EmpiricalFairness(statistic=statistic, df=df, pvalue=float(chi2_sf(statistic, df)), n=n, algo=algo,
                             source=source, shuffles=shuffles, max_abs_residual=float(np.abs(residuals).max()),
                             residuals=residuals.tolist(), counts=counts.tolist(),
                             position_max_deviation=float(np.abs(counts / shuffles - 1 / n).max()))


def check_empirical_work(shuffles: int, n: int, label: str, path: str) -> None:
    """Refuse up front ``shuffles`` decks of ``n`` cards whose estimated time, by their size at
    :data:`~rnglab.core.rates.SECONDS_PER_CARD` on ``path``, exceeds :data:`EMPIRICAL_SECONDS` (never by a clock:
    the same request is accepted or refused on any machine, under any load)."""
    per_shuffle = n * SECONDS_PER_CARD[path]
    check_work(shuffles * per_shuffle, EMPIRICAL_SECONDS, f"{shuffles} shuffles of {n} cards ({label}, {path})",
               f"up to {int(EMPIRICAL_SECONDS / per_shuffle)} fit")


def empirical_fairness(source: Source, n: int, algo: Shuffle, shuffles: int, reducer: Reducer = DEFAULT_REDUCER, *,
                       chunk: int = 2**16, label: str = "", progress=None) -> EmpiricalFairness:
    """Shuffle ``shuffles`` decks one after another from ``source`` and test the positions.

    Decks are dealt as a program deals them (:func:`~rnglab.shuffles.algorithms.shuffle_in_turn`,
    ``chunk`` decks at a time): each deck continues the stream where the
    previous one stopped, bit-exact with calling :func:`~rnglab.shuffles.algorithms.shuffle`
    ``shuffles`` times. Swap shuffles run batched; the others deck by deck
    (exact, but milliseconds per deck of 52). ``label`` names the source in
    the result; ``progress(k)`` is called after each chunk.
    """
    check_chi_square_size(shuffles, n)
    path = "batched" if algo.swap_program(n) is not None else "deck at a time"
    check_empirical_work(shuffles, n, algo.name, path)
    counts = np.zeros((n, n), dtype=np.int64)
    for start in range(0, shuffles, chunk):
        decks = shuffle_in_turn(n, source, min(chunk, shuffles - start), algo, reducer)
        counts += position_count_matrix(decks)
        if progress:
            progress(len(decks))
    detect, detect_source = _detectable(algo, n, reducer, source.range_size)
    return replace(position_chi_square(counts, algo.name, label), shuffles_to_detect=detect,
                   detect_source=detect_source)


def _detectable(algo: Shuffle, n: int, reducer: Reducer, range_size: int) -> tuple[int | None, str]:
    """Shuffles to detect the exact bias of the algorithm through ``reducer`` on the source's ``R`` values, and
    what that law covers; the algorithm's law under an ideal source where that is out of reach (labelled
    :data:`IDEAL_ONLY` unless the reducer is unbiased: then it is the same law); ``(None, "")`` where both are."""
    ideal = IDEAL_ONLY if not reducer.unbiased else f"ideal source ({reducer.name} draws are exactly uniform)"
    for through, covers in (({"reducer": reducer, "range_size": range_size},
                             f"through {reducer.name} on {range_size} source values"), ({}, ideal)):
        try:
            return shuffles_to_detect(*position_counts(algo, n, **through)), covers
        except ValueError:  # out of reach (a key sort above n = 9, beyond the time limit, the reducer's domain)
            continue
    return None, ""


def shuffles_to_detect(counts: np.ndarray, denominator: int, *, alpha: float = 0.001,
                       power: float = 0.9) -> int | None:
    """Shuffles needed for the position chi-square to reject uniformity with the given power, for the exact
    position counts ``P(card i at position j) = counts[i, j] / D``.

    The statistic has ``(n-1)^2`` degrees of freedom and, under the bias
    ``p``, noncentrality ``lambda = M n sum (p_ij - 1/n)^2`` after ``M``
    shuffles (:func:`~rnglab.empirical.stattests.base.samples_to_detect`),
    here ``M sum (n c_ij - D)^2 / (n D^2)`` in exact arithmetic: a bias below
    the resolution of a double near ``1/n`` (a reducer on ``R = 2^64``
    values, deviations about ``4e-20``) still counts. ``None`` for an
    unbiased matrix.
    """
    n = counts.shape[1]
    per_shuffle = Fraction(sum((int(c) * n - denominator) ** 2 for c in counts.flat), n * denominator**2)
    return None if n < 2 or not per_shuffle else samples_to_detect(per_shuffle, (n - 1) ** 2, alpha, power)
