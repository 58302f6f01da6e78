"""Tests for rnglab.draws.bias: exact counts against brute force, exact statistics, detection, the low-bit trap."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.draws.bias import (
    applicable_reducers,
    bias,
    brute_force_counts,
    count_array,
    draws_to_detect,
    empirical_bias,
    exact_counts,
    low_bit_periods,
    observed_period,
)
from rnglab.generators import make_source
from rnglab.reduction import counts as counts_module
from rnglab.reduction.counts import float_multiply_count_array, float_multiply_first_reach
from rnglab.reduction.reducers import REDUCERS

UNBIASED = [name for name, entry in REDUCERS.items() if entry.unbiased]


def bounds_for(R):
    """n = 1, 2, 3, 52, n just above R/2, R - 1 and R (those that fit)."""
    return sorted({n for n in (1, 2, 3, 52, 54, 10000, R // 2 + 1, R - 1, R) if 1 <= n <= R})


def assert_matches_brute_force(reducer, n, R):
    counts, rejected = brute_force_counts(reducer, n, R)
    exact = exact_counts(reducer, n, R)
    assert exact.rejected == rejected
    values, multiplicities = np.unique(counts, return_counts=True)
    assert sorted(exact.classes) == sorted(zip(values.tolist(), multiplicities.tolist()))
    assert np.array_equal(count_array(reducer, n, R), counts)


@pytest.mark.parametrize("R", [1, 2, 3, 7, 64, 1000, 32768, 2**20 - 3])
def test_exact_counts_equal_brute_force(R):
    for n in bounds_for(R):
        for reducer in applicable_reducers(R, n):
            assert_matches_brute_force(reducer, n, R)


@pytest.mark.exhaustive
@pytest.mark.parametrize("R, n", [(2**32, 10000), (2**31 - 2, 52)])
def test_float_and_multiply_shift_equal_brute_force_on_32_bit_sources(R, n):
    # brute force over all 2^32 values: minutes; the fast tests check f_v directly instead
    for method in ("float-multiply", "multiply-shift"):
        assert_matches_brute_force(REDUCERS[method], n, R)


@pytest.mark.parametrize("n", [52, 2**21 + 1, 10**6 + 3])
def test_float_multiply_first_reach_is_exact_on_32_bit_source(n):
    # x n reaches 2^57 and is rounded to 53 bits: check each f_v by the definition
    # map(f_v - 1) < v <= map(f_v) on a sample of v (all of them for small n)
    R = 2**32
    first = float_multiply_first_reach(n, R)
    v = np.unique(np.r_[np.arange(1, min(n, 2000)), np.linspace(1, n - 1, 2000).astype(np.int64)])
    at, before = (REDUCERS["float-multiply"].map(first[v] - np.uint64(k), n, R)[0] for k in (0, 1))
    assert np.all(at >= v) and np.all(before < v) and first[0] == 0 and first[n] == R


@settings(max_examples=80, deadline=None)
@given(R=st.integers(1, 5000), data=st.data())
def test_counts_plus_rejections_sum_to_R(R, data):
    n = data.draw(st.integers(1, R))
    for reducer in applicable_reducers(R, n):
        exact = exact_counts(reducer, n, R)
        assert sum(c * m for c, m in exact.classes) + exact.rejected == R
        assert sum(m for _, m in exact.classes) == n


@pytest.mark.parametrize("R", [1, 5, 32768, 2**31 - 2, 2**32, 2**48, 2**64, 2**64 + 13])
@pytest.mark.parametrize("method", UNBIASED)
def test_unbiased_methods_are_exactly_uniform(method, R):
    for n in bounds_for(R):
        if REDUCERS[method] in applicable_reducers(R, n):
            result = bias(REDUCERS[method], n, R)
            assert result.max_prob == result.min_prob == Fraction(1, n)
            assert result.tv_distance == 0 and result.draws_to_detect is None


def test_modulo_52_on_rand_max_32767():
    # 32768 = 630 * 52 + 8: outputs 0..7 get 631 values, the others 630 (hand computation)
    result = bias(REDUCERS["modulo"], 52, 32768)
    assert (result.max_prob, result.min_prob, result.ratio) == (Fraction(631, 32768), Fraction(630, 32768),
                                                                Fraction(631, 630))
    assert result.favoured == list(range(8))
    assert result.tv_distance == 8 * (Fraction(631, 32768) - Fraction(1, 52))
    assert result.to_dict()["max_prob"] == "631/32768"


def test_threshold_expected_draws():
    # 32768 mod 10000 = 2768 rejected: R / accepted = 32768 / 30000
    assert bias(REDUCERS["threshold"], 10000, 32768).expected_draws == Fraction(32768, 30000)


def test_float_multiply_on_32_bit_source_reproduces_double_rounding():
    # For R = 2^32 and n near 2^32 the product x n needs 64 bits and is rounded to 53:
    # the exact counts must match brute force over a slice checked value by value.
    n, R = 3_000_000_019, 2**32
    counts = count_array(REDUCERS["float-multiply"], 2**20, R)
    assert counts.sum() == R
    first = exact_counts(REDUCERS["float-multiply"], 52, R)
    assert first.rejected == 0 and sum(m for _, m in first.classes) == 52
    x = np.arange(2**32 - 2**16, 2**32, dtype=np.uint64)
    values = REDUCERS["float-multiply"].map(x, n, R)[0]
    assert values.max() < n and np.all(np.diff(values.astype(np.int64)) >= 0)


def test_float_multiply_favoured_outputs_are_spread_out():
    result = bias(REDUCERS["float-multiply"], 52, 32768)
    assert result.favoured == [0, 6, 13, 19, 26, 32, 39, 45]


def test_exact_analysis_of_32_bit_source_is_fast():
    import time
    for n in (52, 10000, 2**31 + 1, 3_000_000_019):
        started = time.perf_counter()
        for reducer in applicable_reducers(2**32, n):
            if reducer.name != "float-multiply" or n <= 10**5:
                bias(reducer, n, 2**32)
        assert time.perf_counter() - started < 1.0


def test_draws_to_detect_hand_case():
    # n = 2, p = (0.6, 0.4): sum (p - 1/2)^2 = 0.02, lambda = 0.04 N; at alpha 0.05 and power 0.5 the
    # noncentral chi-square(1) median sits at the critical value 3.841: lambda = 3.84 (1.96^2 for df 1).
    needed = draws_to_detect(Fraction(2, 100), 2, alpha=0.05, power=0.5)
    assert abs(needed - 1.959964**2 / 0.04) < 2


def test_seeded_chi_square_flags_modulo_and_not_lemire():
    n, R = 10000, 32768
    predicted = bias(REDUCERS["modulo"], n, R).draws_to_detect
    flagged = [empirical_bias(make_source("msvc", seed=s), n, predicted, REDUCERS["modulo"]).flagged for s in range(20)]
    assert sum(flagged) >= 15  # power 0.9 predicted; 15 of 20 or more (binomial tail < 0.05)
    assert not empirical_bias(make_source("msvc", seed=12345), n, predicted, REDUCERS["lemire"]).flagged
    assert not empirical_bias(make_source("pcg64", seed=1), n, predicted, REDUCERS["modulo"]).flagged  # 32-bit halves: too little bias to see


def test_low_bit_trap_on_glibc_type0():
    # glibc TYPE_0 returns the whole 31-bit state: rand() % 2 alternates, x % 2^k has period 2^k
    result = low_bit_periods(make_source("glibc_type0", seed=1), max_bits=6, samples=2**12)
    assert result.observed == result.predicted == [2, 4, 8, 16, 32, 64]
    assert result.first_values["x % 2"][:4] in ([0, 1, 0, 1], [1, 0, 1, 0])


def test_low_bit_trap_matches_period_module_for_shifted_output():
    # ANSI C rand() returns state bits 16..30: its lowest bit has period 2^17
    result = low_bit_periods(make_source("ansic", seed=1), max_bits=2, samples=2**19)
    assert result.observed == result.predicted == [2**17, 2**18]


def test_observed_period_needs_two_periods():
    assert observed_period(np.array([0, 1, 0, 1])) == 2
    assert observed_period(np.array([0, 1, 1, 0, 1, 1])) is None
    with pytest.raises(ValueError, match="power-of-two modulus"):
        low_bit_periods(make_source("minstd"))


def test_bad_bounds():
    with pytest.raises(ValueError, match=r"\[1, 32768\]"):
        bias(REDUCERS["modulo"], 0, 32768)
    with pytest.raises(ValueError, match="choose from"):
        bias(REDUCERS["nope"], 5, 32768)


# -- huge R and n (issue #21) -------------------------------------------------------------

def multiply_shift_count(v, n, R):
    """``c_v = ceil((v+1) R / n) - ceil(v R / n)`` on Python integers (the reference)."""
    return -(-(v + 1) * R // n) + (-v * R // n)


def test_modulo_counts_beyond_64_bits():
    exact = exact_counts(REDUCERS["modulo"], 2**64, 2**64 + 1)  # output 0 gets 0 and 2^64, every other output one value
    assert exact.classes == ((2, 1), (1, 2**64 - 1)) and exact.favoured == (0,) and exact.rejected == 0
    assert exact_counts(REDUCERS["modulo"], 3, 2**4000).classes == (((2**4000 - 1) // 3 + 1, 1), ((2**4000 - 1) // 3, 2))


@pytest.mark.parametrize("n", [2**63, 2**63 + 5, 2**64 - 1, 3 * 2**62 + 1])
def test_multiply_shift_counts_for_n_from_2_to_the_63(n):
    R = 2**64
    q, r = divmod(R, n)
    exact = exact_counts(REDUCERS["multiply-shift"], n, R)
    assert exact.classes == tuple((c, m) for c, m in ((q + 1, r), (q, n - r)) if m)
    counts = [multiply_shift_count(v, n, R) for v in range(2**12)]
    assert list(exact.favoured) == [v for v, c in enumerate(counts) if c == q + 1][:64]
    assert set(counts) <= {q, q + 1}


def test_count_arrays_beyond_64_bits_are_python_integers():
    R = 2**70 + 3
    counts = count_array(REDUCERS["multiply-shift"], 52, R)
    assert counts.tolist() == [multiply_shift_count(v, 52, R) for v in range(52)] and sum(counts) == R
    assert count_array(REDUCERS["modulo"], 52, R).tolist() == [R // 52 + (v < R % 52) for v in range(52)]
    assert count_array(REDUCERS["lemire"], 52, R).tolist() == [R // 52] * 52


def test_draws_to_detect_for_a_deviation_below_the_smallest_double():
    R = 2**4000
    result = bias(REDUCERS["modulo"], 3, R)  # p = (q+1)/R, q/R, q/R with q = (R - 1)/3
    deviation = sum((Fraction(c, R) - Fraction(1, 3)) ** 2 * m for c, m in exact_counts(REDUCERS["modulo"], 3, R).classes)
    lam = result.draws_to_detect * 3 * deviation  # the noncentrality reached: 17.4267 for df = 2 (scipy.stats.ncx2)
    assert 17.4266 < lam < 17.4268 and result.draws_to_detect.bit_length() == 8004


def test_draws_to_detect_with_2_to_the_64_degrees_of_freedom():
    n, R = 2**64 - 1, 2**64
    result = bias(REDUCERS["modulo"], n, R)
    # the normal approximation: lambda = sqrt(2 df) (z_0.99 + z_0.9), 4 lambda / sqrt(2 df) ~ 2^-30 negligible
    lam = Fraction((2 * (n - 1)) ** 0.5) * Fraction(2.3263478740408408 + 1.2815515655446004)
    deviation = (Fraction(2, R) - Fraction(1, n)) ** 2 + (n - 1) * (Fraction(1, R) - Fraction(1, n)) ** 2
    assert abs(result.draws_to_detect / (lam / (n * deviation)) - 1) < 1e-9
    assert bias(REDUCERS["modulo"], 10**6 + 3, 2**32).draws_to_detect == 2167097892687  # unchanged below 2^64


def test_empirical_counts_are_drawn_in_chunks():
    from rnglab.draws.bias import SAMPLE_CHUNK, sample_counts
    from rnglab.draws.bounded import draw_bounded

    samples = 2 * SAMPLE_CHUNK + 5
    counts, draws = sample_counts(make_source("msvc", seed=7), 52, samples, REDUCERS["bitmask"])
    drawn = draw_bounded(make_source("msvc", seed=7), 52, samples, REDUCERS["bitmask"])
    assert counts.tolist() == np.bincount(drawn.values.astype(np.int64), minlength=52).tolist()
    assert draws == drawn.draws


def test_empirical_test_refuses_what_it_cannot_count_or_time():
    with pytest.raises(ValueError, match=r"at most 10\^10 .*got 1000000000000, about 11.1 hours"):
        empirical_bias(make_source("msvc", seed=1), 52, 10**12, REDUCERS["modulo"])
    with pytest.raises(ValueError, match="needs n <= 2"):
        empirical_bias(make_source("pcg64", seed=1), 2**26, 2**26, REDUCERS["modulo"])


# -- one count function per reducer (issue #11) ---------------------------------------------

def test_every_reducer_carries_its_exact_counts():
    # the registry entry is the one place: biased methods also carry their per-output arrays
    assert all(callable(entry.counts) for entry in REDUCERS.values())
    assert [name for name, entry in REDUCERS.items() if entry.count_array] == \
        [name for name, entry in REDUCERS.items() if not entry.unbiased]
    with pytest.raises(ValueError, match="unknown reducer 'nope'"):
        exact_counts(REDUCERS["nope"], 3, 8)


@pytest.mark.parametrize("R, n", [(2**32, 10**6 + 3), (2**31 - 1, 999_983), (2**15, 40_000)])
def test_float_multiply_classes_built_block_by_block_equal_the_whole_count_array(R, n, monkeypatch):
    # the classes are accumulated 2^25 outputs at a time (any n fits in memory): blocks of 4,093 here
    whole = float_multiply_count_array(n, R)
    values, multiplicities = np.unique(whole, return_counts=True)
    monkeypatch.setattr(counts_module, "ARRAY_LIMIT", 4093)
    exact = counts_module.float_multiply_counts("float-multiply", n, R)
    assert exact.classes == tuple((int(c), int(m)) for c, m in zip(values[::-1], multiplicities[::-1]))
    assert exact.rejected == R - int(whole.sum())
    expected_favoured = np.flatnonzero(whole == values[-1])[:64] if len(values) > 1 else []
    assert list(exact.favoured) == list(expected_favoured)
