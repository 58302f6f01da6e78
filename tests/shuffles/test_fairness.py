"""Exact and empirical fairness, checked against brute-force enumeration of every path."""

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy import optimize, stats

from rnglab.draws.bias import brute_force_counts
from rnglab.generators import make_source
from rnglab.reduction.reducers import REDUCERS, as_reducer
from rnglab.shuffles import fairness
from rnglab.shuffles.algorithms import make_shuffle, permutation_rank, permutation_unrank, shuffle, shuffle_decks
from rnglab.shuffles.draws import Draws, ScriptedDraws
from rnglab.shuffles.fairness import (
    ChoiceWeights,
    draw_unused_law,
    draw_unused_position_counts,
    empirical_fairness,
    exact_fairness,
    law_position_counts,
    law_summary,
    max_within,
    permutation_law,
    position_chi_square,
    position_count_matrix,
    position_counts,
    position_seconds,
    shuffles_to_detect,
    transposition_seconds,
)

CASES = [("naive", [4] * 4), ("poker1999", [3] * 4), ("sattolo", [3, 2, 1]), ("fisher-yates", [4, 3, 2]),
         ("inside-out", [1, 2, 3, 4]), ("transpositions", [4] * 8), ("draw-remove", [4, 3, 2, 1]),
         ("sort-keys", [4] * 4)]


def brute_force(algo, bounds, n=4, **options):
    """Probability of each deal (by rank) from every path of choices."""
    paths = list(itertools.product(*[range(b) for b in bounds]))
    decks = shuffle_decks(n, ScriptedDraws(paths), make_shuffle(algo, **options))
    return Counter(permutation_rank(decks).tolist()), len(paths)


@pytest.mark.parametrize("algo,bounds", CASES)
def test_exact_law_matches_every_path(algo, bounds):
    options = {"key_bits": 2} if algo == "sort-keys" else {}  # 4 keys of 2 bits (the scripted source has 64-bit words)
    counts, paths = brute_force(algo, bounds, **options)
    result = exact_fairness(make_shuffle(algo, **options), 4)
    expected_tv = sum(abs(Fraction(counts.get(r, 0), paths) - Fraction(1, 24)) for r in range(24)) / 2
    assert result.tv_distance == expected_tv
    assert result.most_likely.prob == Fraction(max(counts.values()), paths)
    matrix, denominator = position_counts(make_shuffle(algo, **options), 4)
    decks = shuffle_decks(4, ScriptedDraws(list(itertools.product(*[range(b) for b in bounds]))), make_shuffle(algo, **options))
    for card, position in itertools.product(range(4), repeat=2):
        observed = Fraction(int((decks[:, position] == card).sum()), paths)
        assert Fraction(int(matrix[card, position]), denominator) == observed


def test_naive_three_cards_published_values():
    # Robbins and Bolker 1981; Atwood 2007: probabilities 4/27 and 5/27
    result = exact_fairness(make_shuffle("naive"), 3)
    assert (result.most_likely.prob, result.least_likely.prob) == (Fraction(5, 27), Fraction(4, 27))
    assert result.tv_distance == Fraction(1, 18)


@pytest.mark.parametrize("algo", ["fisher-yates", "inside-out", "sort-keys-redraw", "unrank", "draw-unused"])
def test_uniform_algorithms_are_exactly_uniform(algo):
    result = exact_fairness(make_shuffle(algo), 7)
    assert result.tv_distance == 0 and result.position_max_deviation == 0


def test_sattolo_is_uniform_over_the_cycles():
    law = permutation_law(make_shuffle("sattolo"), 6)
    reached = [c for c in law.counts if c]
    assert len(reached) == math.factorial(5) and len(set(reached)) == 1


def test_poker1999_card_52_never_ends_in_position_52():
    counts, _denominator = position_counts(make_shuffle("poker1999"), 52)
    assert counts[51, 51] == 0 and all(counts[51, j] > 0 for j in range(51))


def test_naive_position_matrix_at_100_is_fast_and_exact():
    counts, denominator = position_counts(make_shuffle("naive"), 100)
    assert denominator == 100**100 and all(sum(row) == denominator for row in counts)
    # every card i >= 1 is most likely found one place earlier, at i - 1 (cf. Robbins and Bolker 1981)
    assert all(max(range(100), key=lambda j: counts[i, j]) == i - 1 for i in (1, 50, 99))


@pytest.mark.parametrize("n,weigh", [(n, ChoiceWeights()) for n in (1, 2, 3, 5, 9, 17)]
                         + [(n, ChoiceWeights(REDUCERS["modulo"], 2**8)) for n in (4, 8, 16)])
def test_the_naive_exchange_s_shared_column_update_equals_the_general_update(n, weigh):
    # even swaps (every position a partner, equal weights: modulo on 2^8 values when n divides 256) take the
    # O(n^2) path; the general packed-column update is the reference
    program = make_shuffle("naive").program(n)
    assert fairness.evenly_swapped(program, n, weigh)
    fast = fairness.program_position_counts(program, n, weigh)
    general = fairness.packed_position_counts(program, n, weigh)
    assert fast[1] == general[1] and (fast[0] == general[0]).all()


def test_only_swaps_with_every_position_on_equal_weights_share_the_column_update():
    assert not fairness.evenly_swapped(make_shuffle("naive").program(5), 5, ChoiceWeights(REDUCERS["modulo"], 2**8))
    assert not fairness.evenly_swapped(make_shuffle("fisher-yates").program(5), 5, ChoiceWeights())
    assert not fairness.evenly_swapped(make_shuffle("transpositions", swaps=3).program(5), 5, ChoiceWeights())


def test_modulo_from_rand_max_biases_fisher_yates_slightly():
    result = exact_fairness(make_shuffle("fisher-yates"), 52, reducer=REDUCERS["modulo"], range_size=32768)
    assert 0 < result.position_max_deviation < Fraction(1, 10000)


def test_transposition_law_agrees_with_brute_force_for_more_swaps():
    counts, paths = brute_force("transpositions", [3] * 8, n=3, swaps=4)
    law = exact_fairness(make_shuffle("transpositions", swaps=4), 3)
    assert law.most_likely.prob == Fraction(max(counts.values()), paths)


def test_empirical_test_passes_a_good_shuffle_and_fails_a_bad_one():
    good = empirical_fairness(make_source("pcg64", seed=1), 8, make_shuffle("fisher-yates"), 2**15, chunk=2**12)
    bad = empirical_fairness(make_source("pcg64", seed=1), 8, make_shuffle("naive"), 2**15, chunk=2**12)
    assert good.pvalue > 0.001 and bad.pvalue < 1e-10


@pytest.mark.parametrize("name", ["msvc", "python"])
def test_empirical_decks_are_the_decks_of_one_shuffle_after_another(name):
    source, reference = make_source(name, seed=5), make_source(name, seed=5)
    result = empirical_fairness(source, 6, make_shuffle("fisher-yates"), 1000, REDUCERS["modulo"], chunk=300, label="x")
    decks = np.array([shuffle(6, reference, make_shuffle("fisher-yates"), REDUCERS["modulo"]) for _ in range(1000)])
    assert result.counts == position_count_matrix(decks).tolist() and result.source == "x"


def test_msvc_decks_dealt_one_after_another_are_not_rejected():
    # interleaving 2^16 decks made each deck read a stride-2^16 subsequence of MSVC rand(): chi-square ~ 7.5e5
    fair = empirical_fairness(make_source("msvc", seed=1), 52, make_shuffle("fisher-yates"), 65536, REDUCERS["modulo"])
    naive = empirical_fairness(make_source("msvc", seed=1), 52, make_shuffle("naive"), 65536, REDUCERS["modulo"])
    assert fair.pvalue > 1e-6 and naive.pvalue < 1e-6


def test_shuffles_needed_grow_as_the_bias_shrinks():
    naive = shuffles_to_detect(*position_counts(make_shuffle("naive"), 8))
    transpositions = shuffles_to_detect(*position_counts(make_shuffle("transpositions", swaps=30), 8))
    assert naive < transpositions and shuffles_to_detect(np.full((5, 5), 1, dtype=object), 5) is None


def law_from_paths(decks, n):
    """Exact probability of every deal (by rank, all n! of them) from equally likely scripted paths."""
    counts = Counter(permutation_rank(decks).tolist())
    return [Fraction(counts.get(r, 0), len(decks)) for r in range(math.factorial(n))]


@pytest.mark.parametrize("n,swaps", list(itertools.product([3, 4], [1, 2, 3])))
def test_transposition_summary_counts_the_deals_no_path_reaches(n, swaps):
    # every one of the n^(2k) ordered position pairs; unreached deals (probability 0) count
    paths = list(itertools.product(range(n), repeat=2 * swaps))
    law = law_from_paths(shuffle_decks(n, ScriptedDraws(paths), make_shuffle("transpositions", swaps=swaps)), n)
    result = exact_fairness(make_shuffle("transpositions", swaps=swaps), n)
    assert result.tv_distance == sum(abs(p - Fraction(1, math.factorial(n))) for p in law) / 2
    assert result.reachable == sum(1 for p in law if p)
    assert result.least_likely.prob == min(law) == law[permutation_rank(np.array([result.least_likely.perm]))[0]]
    assert result.most_likely.prob == max(law) == law[permutation_rank(np.array([result.most_likely.perm]))[0]]


def reduced_weights(method, bound, range_size):
    """P(a draw below ``bound`` gives j): accepted raw values x in [0, R) with value j, over all accepted."""
    values, accepted = as_reducer(method).map(np.arange(range_size, dtype=np.uint64), bound, range_size)
    counts = Counter(int(v) for v, ok in zip(values, accepted) if ok)
    return [Fraction(counts[j], sum(counts.values())) for j in range(bound)]


def draw_unused_reference(n, method, range_size):
    """Every order of distinct positions p, dealt by the real shuffle; a clash redraws, so step k takes p_k with
    probability sum_c q^c P(p_k) = P(p_k) / (1 - q), q = P(a dealt position)."""
    w, law = reduced_weights(method, n, range_size), [Fraction(0)] * math.factorial(n)
    for order in itertools.permutations(range(n)):
        prob = math.prod(w[p] / (1 - sum(w[i] for i in order[:k])) for k, p in enumerate(order))
        law[permutation_rank(shuffle_decks(n, ScriptedDraws([order]), make_shuffle("draw-unused")))[0]] += prob
    return law


def unrank_reference(n, method, range_size):
    """Every piece sequence of one attempt, dealt by the real shuffle (pieces of floor(log2 R) bits, most
    significant first); an attempt that asks for more pieces was rejected and the next attempt starts afresh,
    so P(deal) = P(deal in one attempt) / P(one attempt is accepted)."""
    width, bits = range_size.bit_length() - 1, (math.factorial(n) - 1).bit_length()
    pieces = [min(width, bits - done) for done in range(0, bits, width)]
    law = [Fraction(0)] * math.factorial(n)
    for values in itertools.product(*[range(2**b) for b in pieces]):
        draws = ScriptedDraws([values])
        draws.word_bits = width
        try:
            deck = shuffle_decks(n, draws, make_shuffle("unrank"))
        except IndexError:  # V >= n!: the script holds no second attempt
            continue
        law[permutation_rank(deck)[0]] += math.prod(reduced_weights(method, 2**b, range_size)[v]
                                                    for b, v in zip(pieces, values))
    return [p / sum(law) for p in law]


def deitel_reference(n, method, range_size):
    """Deitel's loop: a row below r, then a column below c (r x c = n), each through the reducer; a taken slot is
    drawn again, so step k takes slot p_k with probability P(p_k) / (1 - P(a taken slot)), P(slot) = P(row) P(column).
    """
    rows, columns = (n // 13, 13) if n % 13 == 0 else (1, n)
    row, column = reduced_weights(method, rows, range_size), reduced_weights(method, columns, range_size)
    w, law = [row[s // columns] * column[s % columns] for s in range(n)], [Fraction(0)] * math.factorial(n)
    for order in itertools.permutations(range(n)):
        law[permutation_rank(np.array([order]))[0]] = \
            math.prod(w[p] / (1 - sum(w[i] for i in order[:k])) for k, p in enumerate(order))
    return law


REDUCER_CASES = [(n, algo, method, r) for n, r in ((3, 3), (3, 4), (3, 5), (3, 7), (4, 5), (4, 6), (4, 11))
                 for algo in ("draw-unused", "unrank", "deitel")
                 for method in ("modulo", "float-multiply", "multiply-shift", "threshold", "bitmask", "lemire")]


@pytest.mark.parametrize("n,algo,method,range_size", REDUCER_CASES)
def test_redrawing_shuffles_through_a_reducer_match_every_path(n, algo, method, range_size):
    reference = {"draw-unused": draw_unused_reference, "unrank": unrank_reference,
                 "deitel": deitel_reference}[algo](n, method, range_size)
    law = permutation_law(make_shuffle(algo), n, reducer=REDUCERS[method], range_size=range_size)
    assert [Fraction(int(c), law.denominator) for c in law.counts] == reference
    matrix, denominator = position_counts(make_shuffle(algo), n, reducer=REDUCERS[method], range_size=range_size)
    perms = [permutation_unrank(r, n) for r in range(math.factorial(n))]
    for card, position in itertools.product(range(n), repeat=2):
        cell = sum(p for p, perm in zip(reference, perms) if perm[position] == card)
        assert Fraction(int(matrix[card, position]), denominator) == cell


class IdealReducedDraws(Draws):
    """Many lanes of an ideal source of R values (numpy), each draw through a reducer, rejected ones redrawn."""

    def __init__(self, lanes, range_size, method, seed):
        self.lanes, self.range_size, self.method = lanes, range_size, method
        self.word_bits = range_size.bit_length() - 1
        self.rng = np.random.default_rng(seed)

    def below(self, bound, mask=None):
        out = np.empty(self.lanes if mask is None else int(np.count_nonzero(mask)), dtype=np.int64)
        todo = np.arange(len(out))
        while len(todo):
            x = self.rng.integers(0, self.range_size, len(todo), dtype=np.uint64)
            values, accepted = as_reducer(self.method).map(x, bound, self.range_size)
            out[todo[accepted]] = values[accepted]
            todo = todo[~accepted]
        return out


@pytest.mark.parametrize("algo,method,range_size", [("draw-unused", "modulo", 5), ("unrank", "modulo", 5),
                                                    ("draw-unused", "float-multiply", 7),
                                                    ("unrank", "threshold", 6), ("deitel", "modulo", 7),
                                                    ("deitel", "multiply-shift", 6)])
def test_redrawing_shuffles_through_a_reducer_agree_with_120000_shuffles(algo, method, range_size):
    law = permutation_law(make_shuffle(algo), 4, reducer=REDUCERS[method], range_size=range_size)
    decks = shuffle_decks(4, IdealReducedDraws(120000, range_size, method, seed=3), make_shuffle(algo))
    seen = np.bincount(permutation_rank(decks), minlength=24) / len(decks)
    p = np.array([int(c) / law.denominator for c in law.counts])
    assert np.all(np.abs(seen - p) <= 5 * np.sqrt(p * (1 - p) / len(decks)) + 1e-12)


def test_deitel_through_modulo_draws_a_column_below_n_not_below_the_cards_left():
    # n = 3 is one row of 3 columns: rand() % 1, then rand() % 3, and 33 % 3 = 0 makes every try uniform
    assert exact_fairness(make_shuffle("deitel"), 3, reducer=REDUCERS["modulo"], range_size=33).tv_distance == 0
    assert exact_fairness(make_shuffle("draw-unused"), 3, reducer=REDUCERS["modulo"], range_size=33).tv_distance == 0
    # n = 4, 7 raw values: columns 0, 1, 2 come out twice as often as column 3
    result = exact_fairness(make_shuffle("deitel"), 4, reducer=REDUCERS["modulo"], range_size=7)
    assert (result.tv_distance, result.most_likely.prob, result.least_likely.prob) == \
        (Fraction(29, 140), Fraction(8, 105), Fraction(1, 42))


def test_deitel_52_cards_on_msvc_rand_position_bias():
    # rand() % 4 is uniform on 2^15 values; rand() % 13 gives columns 0..7 2521 times, 8..12 2520 times
    result = exact_fairness(make_shuffle("deitel"), 52, reducer=REDUCERS["modulo"], range_size=32768)
    assert f"{float(result.position_max_deviation):.3e}" == "1.694e-05"
    assert result.shuffles_to_detect == 180_406_305 and f"{math.log2(result.shuffles_to_detect):.2f}" == "27.43"


def test_deitel_rows_and_columns_agree_with_40000_shuffles_of_26_cards():
    # 2 rows of 13 columns from 32 raw values: columns 0..5 come out 3 times, 6..12 twice
    counts, denominator = position_counts(make_shuffle("deitel"), 26, reducer=REDUCERS["modulo"], range_size=32)
    p = np.array([[int(c) / denominator for c in row] for row in counts])
    decks = shuffle_decks(26, IdealReducedDraws(40000, 32, "modulo", seed=5), make_shuffle("deitel"))
    seen = position_count_matrix(decks) / len(decks)
    assert np.all(np.abs(seen - p) <= 5 * np.sqrt(p * (1 - p) / len(decks)))
    assert p.max() > 0.057 and p.min() < 0.017  # a bias the test can see (1/26 = 0.0385)


@pytest.mark.parametrize("weights", [[3, 1, 1, 2, 2, 3], [5, 5, 5, 5], [1, 2, 4, 8, 16], [7], [2, 9, 2, 9, 2, 9, 4]])
def test_redrawn_position_counts_are_the_sums_of_the_law_over_every_deal(weights):
    def fractions(counts, denominator):
        return [[Fraction(int(c), denominator) for c in row] for row in counts]

    law = draw_unused_law(len(weights), weights)
    assert fractions(*draw_unused_position_counts(weights)) == fractions(*law_position_counts(law))


def test_redrawn_position_counts_out_of_reach_are_refused():
    # 4 slot weights of 44 bits on 52 cards (a source of 2^24 - 1 values through % 4 and % 13, say)
    a, b = 4194304, 4194303
    weights = [a * 1290322] * 18 + [a * 1290321] * 21 + [b * 1290322] * 6 + [b * 1290321] * 7
    with pytest.raises(ValueError, match="out of reach: 4 slot weights, 85,066 terms"):
        draw_unused_position_counts(weights)


@pytest.mark.parametrize("compute", [permutation_law, position_counts, exact_fairness])
def test_key_sorts_that_cannot_run_are_refused(compute):
    with pytest.raises(ValueError, match=r"sort-keys-redraw needs 2\^key_bits >= n"):
        compute(make_shuffle("sort-keys-redraw", key_bits=1), 3)  # two 1-bit keys of three always tie: redrawn forever
    with pytest.raises(ValueError, match=r"key bits must be in \[1, 64\]; got 1000000"):
        compute(make_shuffle("sort-keys", key_bits=10**6), 3)
    assert exact_fairness(make_shuffle("sort-keys-redraw", key_bits=1), 2).tv_distance == 0


@pytest.mark.parametrize("algo,n", [("fisher-yates", 5), ("transpositions", 4), ("sattolo", 5), ("draw-unused", 4),
                                    ("naive", 4)])
@pytest.mark.parametrize("compute", [permutation_law, position_counts, exact_fairness])
def test_a_bound_above_the_source_range_is_refused(compute, algo, n):
    largest = n - 1 if algo == "sattolo" else n  # sattolo draws below n - 1 at most
    with pytest.raises(ValueError, match=rf"n must be in \[1, R\] = \[1, 3\] for this source; got {largest}"):
        compute(make_shuffle(algo), n, reducer=REDUCERS["modulo"], range_size=3)


def test_the_largest_bound_equal_to_the_range_is_accepted_and_exact():
    # sattolo on 4 cards draws below 3, 2, 1: each modulo 3 from 3 raw values, every raw sequence equally likely
    paths = list(itertools.product(range(3), repeat=3))
    decks = shuffle_decks(4, ScriptedDraws([[x % b for x, b in zip(p, (3, 2, 1))] for p in paths]), make_shuffle("sattolo"))
    result = exact_fairness(make_shuffle("sattolo"), 4, reducer=REDUCERS["modulo"], range_size=3)
    law = law_from_paths(decks, 4)
    assert result.tv_distance == sum(abs(p - Fraction(1, 24)) for p in law) / 2 and result.reachable == 6


def test_chi_square_needs_five_expected_per_cell():
    with pytest.raises(ValueError, match="at least 260 shuffles for n = 52; got 10"):
        empirical_fairness(make_source("msvc", seed=1), 52, make_shuffle("fisher-yates"), 10, REDUCERS["modulo"])
    with pytest.raises(ValueError, match="expected counts >= 5 per cell"):
        position_chi_square(np.full((4, 4), 4))  # 16 decks of 4 cards: 4 expected per cell
    assert position_chi_square(np.full((4, 4), 5)).pvalue == 1.0


def test_the_position_chi_square_s_p_value_is_scipy_s_chi_square_tail_bit_for_bit():
    # the tail comes from rnglab.core.laws (scipy.special), not scipy.stats: the same double
    counts = np.array([[7, 5, 4, 4], [4, 7, 5, 4], [5, 4, 7, 4], [4, 4, 4, 8]])  # 20 decks of 4 cards
    result = position_chi_square(counts)
    assert (result.statistic, result.df) == (6.0, 9)  # (2^2 + 1 + 1) * 3 + (1 + 1 + 1 + 3^2), over 5
    assert result.pvalue == float(stats.chi2.sf(6.0, 9))


def test_unbounded_exact_and_empirical_work_is_refused_up_front_with_what_fits():
    with pytest.raises(ValueError, match=r"1000000 random transpositions on n = 30 .* up to \d+ swaps fit"):
        exact_fairness(make_shuffle("transpositions", swaps=10**6), 30)
    with pytest.raises(ValueError, match=r"10{12} shuffles of 52 cards \(fisher-yates, batched\) .* up to \d+ fit"):
        empirical_fairness(make_source("msvc", seed=1), 52, make_shuffle("fisher-yates"), 10**12, REDUCERS["modulo"])
    assert transposition_seconds(30, max_within(lambda k: transposition_seconds(30, k) <= 60)) <= 60
    with pytest.raises(ValueError, match=r"position matrix of sattolo on n = 1000 would take about .* n <= \d+ fits"):
        exact_fairness(make_shuffle("sattolo"), 1000)
    # the naive exchange's shared column update (about 40 CPU s at n = 1000) fits where the general update did not
    assert position_seconds(make_shuffle("naive").program(1000), 1000) <= 60


def test_max_within_finds_the_last_count_that_fits():
    assert [max_within(lambda k, last=last: k <= last) for last in (0, 1, 5, 64, 1000)] == [0, 1, 5, 64, 1000]


def _slot_chain_position_matrix(try_probabilities):
    """Position matrix of draw-until-free by a Markov chain over the sets of slots taken (exact Fractions):
    from the taken set S, slot j (not in S) comes next with probability p_j / (1 - p(S))."""
    n = len(try_probabilities)
    matrix = [[Fraction(0)] * n for _ in range(n)]
    reached = {0: Fraction(1)}
    for size in range(n):
        following = {}
        for taken, chance in reached.items():
            free = 1 - sum(try_probabilities[j] for j in range(n) if taken >> j & 1)
            for j in (j for j in range(n) if not taken >> j & 1):
                step = chance * try_probabilities[j] / free
                matrix[j][size] += step
                following[taken | 1 << j] = following.get(taken | 1 << j, 0) + step
        reached = following
    return matrix


@pytest.mark.parametrize("method", ["modulo", "multiply-shift", "float-multiply"])
def test_deitel_on_a_7_bit_source_matches_a_brute_force_chain_over_the_slots_taken(method):
    # The structure of deitel-glibc scaled down: 13 columns on 2^7 raw values (128 = 9 * 13 + 11, as
    # 2^31 = 165191049 * 13 + 11): a try's slot from every raw value through the reducer's map, then every set
    # of taken slots (2^13) in exact Fractions.
    values, accepted = as_reducer(method).map(np.arange(128, dtype=np.uint64), 13, 128)
    tries = Counter(values[accepted].tolist())
    p = [Fraction(tries[j], int(accepted.sum())) for j in range(13)]
    counts, denominator = position_counts(make_shuffle("deitel"), 13, reducer=REDUCERS[method], range_size=128)
    assert [[Fraction(int(c), denominator) for c in row] for row in counts] == _slot_chain_position_matrix(p)


def _two_weight_position_rows(heavy, light, a, b):
    """P(slot at position k) for a slot of weight a and one of weight b, among ``heavy`` slots of weight a and
    ``light`` of weight b dealt by draw-until-free: a Markov chain on (heavy, light) others taken (Fractions)."""
    rows = []
    for own, h_others, l_others in ((a, heavy - 1, light), (b, heavy, light - 1)):
        row, reached = [Fraction(0)] * (heavy + light), {(0, 0): Fraction(1)}
        for size in range(heavy + light):
            following = {}
            for (h, l), chance in reached.items():
                free = own + (h_others - h) * a + (l_others - l) * b
                row[size] += chance * Fraction(own, free)
                for key, weight in (((h + 1, l), (h_others - h) * a), ((h, l + 1), (l_others - l) * b)):
                    if weight:
                        following[key] = following.get(key, 0) + chance * Fraction(weight, free)
            reached = following
        rows.append(row)
    return rows


def test_deitel_52_cards_on_glibc_rand_position_bias_from_an_independent_chain():
    # rand() % 4 on 2^31 values is uniform; rand() % 13 gives columns 0..10 q + 1 values and 11, 12 q
    # (2^31 = 13 q + 11): 44 slots of weight q + 1, 8 of weight q.
    q = 2**31 // 13
    heavy_row, light_row = _two_weight_position_rows(44, 8, q + 1, q)
    deviation = max(abs(p - Fraction(1, 52)) for p in heavy_row + light_row)
    per_shuffle = 52 * (44 * sum((p - Fraction(1, 52)) ** 2 for p in heavy_row)
                        + 8 * sum((p - Fraction(1, 52)) ** 2 for p in light_row))
    df = 51**2  # noncentrality the chi-square needs at level 0.001 for power 0.9, by root finding on scipy's ncx2
    critical = stats.chi2.isf(0.001, df)
    needed = optimize.brentq(lambda lam: stats.ncx2.sf(critical, df, lam) - 0.9, 1, 1000)
    assert f"{float(deviation):.3e}" == "3.553e-10" and f"{math.log2(needed / float(per_shuffle)):.2f}" == "60.29"
    result = exact_fairness(make_shuffle("deitel"), 52, reducer=REDUCERS["modulo"], range_size=2**31)
    assert result.position_max_deviation == deviation
    assert math.log2(result.shuffles_to_detect) == pytest.approx(math.log2(needed / float(per_shuffle)), abs=1e-6)
    counts, denominator = position_counts(make_shuffle("deitel"), 52, reducer=REDUCERS["modulo"], range_size=2**31)
    assert [Fraction(int(c), denominator) for c in counts[0]] == heavy_row
    assert [Fraction(int(c), denominator) for c in counts[11]] == light_row


@pytest.mark.parametrize("method", ["modulo", "multiply-shift", "float-multiply", "threshold", "bitmask", "lemire"])
@pytest.mark.parametrize("range_size", [2**7, 1000, 2**16 - 1, 2**16])
@pytest.mark.parametrize("algo,n", [("draw-unused", 6), ("deitel", 7), ("deitel", 26)])
def test_grouped_redrawn_position_counts_equal_the_dense_law_from_every_raw_value(method, range_size, algo, n):
    # Reference: every raw value through the reducer's map (brute force) and, for n <= 7, every deal's
    # probability summed per cell (the dense law); grouped: the reducer's closed-form counts and the
    # exponential clocks, slots grouped by weight.
    rows, columns = (2, 13) if n == 26 else (1, n)
    row_counts, column_counts = (brute_force_counts(REDUCERS[method], bound, range_size)[0] for bound in (rows, columns))
    weights = [int(u) * int(v) for u in row_counts for v in column_counts]
    grouped = position_counts(make_shuffle(algo), n, reducer=REDUCERS[method], range_size=range_size)
    dense = law_position_counts(draw_unused_law(n, weights)) if n <= 7 else draw_unused_position_counts(weights)
    assert [Fraction(int(c), grouped[1]) for c in grouped[0].flat] == [Fraction(int(c), dense[1])
                                                                        for c in dense[0].flat]


@pytest.mark.parametrize("range_size", [2**32, 2**48, 2**64])
def test_redrawn_law_through_a_reducer_on_huge_ranges_is_exact(range_size):
    # n = 3 by modulo: one output gets q + 1 raw values, two get q; every deal p has P(p) = prod_k w_{p_k} /
    # (W - w(A_k)) in Fractions. Counts past 2^63 (W = R = 2^64) overflowed int64 silently.
    q, r = divmod(range_size, 3)
    w = [q + 1] * r + [q] * (3 - r)
    law = permutation_law(make_shuffle("draw-unused"), 3, reducer=REDUCERS["modulo"], range_size=range_size)
    for rank, count in enumerate(law.counts):
        deal, left, expected = permutation_unrank(rank, 3), range_size, Fraction(1)
        for slot in deal:
            expected, left = expected * Fraction(w[slot], left), left - w[slot]
        assert Fraction(int(count), law.denominator) == expected
    unrank = permutation_law(make_shuffle("unrank"), 3, reducer=REDUCERS["modulo"], range_size=range_size)  # 3-bit pieces: R / 8 each
    assert list(unrank.counts) == [range_size >> 3] * 6 and law_summary(unrank)["tv_distance"] == 0


def test_a_law_past_64_bit_counts_is_refused_before_any_work():
    with pytest.raises(ValueError, match=r"5! deals is held in 64-bit integer counts: its 2\^124.00 weighted paths"):
        permutation_law(make_shuffle("fisher-yates"), 5, reducer=REDUCERS["modulo"], range_size=2**31)


def test_the_position_matrix_time_estimate_counts_the_reducers_wider_denominators():
    # modulo on 2^64 values: every draw multiplies the denominator by 2^64 (not by its bound), and unequal
    # weights lose the equal-weight row sums: n = 250 took 33.5 s of CPU, n = 400 would take minutes
    program = make_shuffle("naive").program(400)
    assert position_seconds(program, 400, ChoiceWeights(REDUCERS["modulo"], 2**64)) > 3 * position_seconds(program, 400)
    with pytest.raises(ValueError, match=r"naive on n = 400 would take about \d+ s \(limit 60 s\): n <= \d+ fits"):
        position_counts(make_shuffle("naive"), 400, reducer=REDUCERS["modulo"], range_size=2**64)


def test_empirical_fairness_detects_the_exact_bias_through_its_reducer_and_says_what_it_covers():
    # Fisher-Yates through rand() % (i+1) on MSVC's 2^15 values: biased, where the ideal source's law (used
    # before) is uniform and no figure was given; float-multiply on 2^64 values is out of its domain.
    fair = empirical_fairness(make_source("msvc", seed=1), 52, make_shuffle("fisher-yates"), 300, REDUCERS["modulo"])
    assert (fair.shuffles_to_detect, fair.detect_source) == (54_113_010, "through modulo on 32768 source values")
    assert fair.shuffles_to_detect == exact_fairness(make_shuffle("fisher-yates"), 52, reducer=REDUCERS["modulo"],
                                                     range_size=32768).shuffles_to_detect
    naive = empirical_fairness(make_source("pcg64", seed=1), 52, make_shuffle("naive"), 300, REDUCERS["float-multiply"])
    assert naive.detect_source == "through an ideal source: the reducer's bias is not included"


@pytest.mark.parametrize("weights", [[2**70 + 5, 3, 2**64, 3], [7, 7, 8, 7, 8], [2**62, 2**62 + 1, 2**62, 2**62 + 1]])
def test_redrawn_law_grouped_by_denominator_is_every_deals_product(weights):
    # P(p) = prod_k w_{p_k} / (W - w(A_k)), deal by deal in Fractions; excesses past int64 (2^70) group by tuples
    n = len(weights)
    law = draw_unused_law(n, weights)
    for rank, count in enumerate(law.counts):
        left, expected = sum(weights), Fraction(1)
        for slot in permutation_unrank(rank, n):
            expected, left = expected * Fraction(weights[slot], left), left - weights[slot]
        assert Fraction(int(count), law.denominator) == expected
