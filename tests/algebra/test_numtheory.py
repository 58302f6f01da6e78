"""Primality, factoring, multiplicative orders and Carmichael's function."""

from math import gcd, prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra import numtheory
from rnglab.algebra.numtheory import (
    DETERMINISTIC_BOUND,
    FactoringBudgetExceeded,
    _brent_rho,
    _is_baillie_psw_probable_prime,
    _is_strong_lucas_probable_prime,
    _montgomery_multiply,
    _primes_below,
    _rho,
    carmichael_lambda,
    factorize,
    integer_root,
    is_probable_prime,
    iteration_cost,
    jacobi_symbol,
    minimal_exponent,
    multiplicative_order,
    product_of,
)

PRIMES_BELOW_20000 = set(_primes_below(20000))


def brute_order(a, n):
    k, x = 1, a % n
    while x != 1 % n:
        k, x = k + 1, x * a % n
    return k


def test_primality_matches_a_sieve():
    assert [n for n in range(20000) if is_probable_prime(n) != (n in PRIMES_BELOW_20000)] == []


def test_baillie_psw_alone_matches_a_sieve():
    odd = [n for n in range(101, 20000, 2) if all(n % p for p in (3, 5, 7))]
    assert [n for n in odd if _is_baillie_psw_probable_prime(n) != (n in PRIMES_BELOW_20000)] == []


def test_strong_lucas_pseudoprimes_pass_the_lucas_test_only():
    # Strong Lucas pseudoprimes with Selfridge's parameters, OEIS A217255 (Baillie & Wagstaff 1980).
    expected = [5459, 5777, 10877, 16109, 18971, 22499, 24569, 25199, 40309, 58519, 75077, 97439]
    found = [n for n in range(9, 100000, 2) if not is_probable_prime(n)
             and integer_root(n, 2) ** 2 != n and _is_strong_lucas_probable_prime(n)]
    assert found == expected
    assert not any(is_probable_prime(n) for n in expected)


@pytest.mark.parametrize("n", [
    2047, 3277, 4033, 4681, 8321,            # strong pseudoprimes to base 2, OEIS A001262
    561, 1105, 1729, 2465, 41041, 825265,    # Carmichael numbers, OEIS A002997
    3825123056546413051,                     # strong pseudoprime to the bases 2..31 (OEIS A014233)
    318665857834031151167461,                # to the bases 2..37 (Sorenson & Webster 2015)
    3317044064679887385961981,               # to the bases 2..41: the deterministic bound itself
    2**67 - 1,                               # Cole 1903: 193707721 * 761838257287
    (2**61 - 1) * (2**89 - 1),
])
def test_known_composites_are_rejected(n):
    assert not is_probable_prime(n)


@pytest.mark.parametrize("n", [2**31 - 1, 2**61 - 1, 2**64 - 59, 2**89 - 1, 2**107 - 1, 2**127 - 1, 2**521 - 1])
def test_mersenne_and_other_known_primes(n):
    # Mersenne primes M31, M61, M89, M107, M127, M521; 2^64 - 59 is the largest prime below 2^64.
    assert is_probable_prime(n)


def test_deterministic_bound_is_the_sorenson_webster_number():
    assert DETERMINISTIC_BOUND == 1287836182261 * 2575672364521


@pytest.mark.parametrize("n, expected", [
    (10**10, {2: 10, 5: 10}),
    (2**128, {2: 128}),
    (2**127 - 1, {2**127 - 1: 1}),
    (2**64 + 1, {274177: 1, 67280421310721: 1}),                       # Landry 1880
    (2**64 - 1, {3: 1, 5: 1, 17: 1, 257: 1, 641: 1, 65537: 1, 6700417: 1}),
    (3**80, {3: 80}),
    ((2**61 - 1) ** 3 * 7, {7: 1, 2**61 - 1: 3}),
    (4294967279 * 4294967291, {4294967279: 1, 4294967291: 1}),        # the two largest primes below 2^32
    (1, {}),
])
def test_factorize_known_answers(n, expected):
    assert factorize(n) == expected


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=1, max_value=2**64))
def test_factorization_multiplies_back_to_primes(n):
    factors = factorize(n)
    assert product_of(factors) == n and all(is_probable_prime(p) for p in factors)
    assert list(factors) == sorted(factors)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2**63 - 1).map(lambda k: 2 * k + 1), st.data())
def test_montgomery_multiplication_on_words(n, data):
    # REDC(a b) = a b 2^-64 (mod n), including n >= 2^63 where the sum overflows a word.
    a, b = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    negative_inverse = np.uint64(-pow(n, -1, 2**64) % 2**64)
    product = _montgomery_multiply(np.uint64(a), np.uint64(b), np.uint64(n), negative_inverse)
    assert int(product) == a * b * pow(2**64, -1, n) % n


@pytest.mark.parametrize("n", [4294967279 * 4294967291, 2147483647 * 2147483659, 1000003 * 1000033])
def test_compiled_and_python_rho_both_split(n):
    for split in (_rho, _brent_rho):
        factor, _ = split(n, 3, 10**6)
        assert factor is not None and 1 < factor < n and n % factor == 0


def test_factoring_out_of_reach_says_so():
    # F7 = 2^128 + 1 = 59649589127497217 * 5704689200685129054721 (Morrison & Brillhart 1970):
    # both factors are far beyond a small Pollard-Brent budget.
    with pytest.raises(FactoringBudgetExceeded, match="cannot factor about 2.128 within the budget of 20,000 units"):
        factorize(2**128 + 1, budget=20000)


@pytest.mark.parametrize("bits, cost", [(64, 1), (256, 1), (320, 2), (1024, 11), (4001, 159)])
def test_iterations_on_large_numbers_weigh_by_their_squared_size(bits, cost):
    assert iteration_cost(2**bits - 1) == cost


def test_the_budget_bounds_the_work_at_any_size():
    # 2^4000 + 1 after 641 (a factor of 2^32 + 1, which divides it): rho splits off one more factor, then the
    # cofactor of about 2^3933 resists. Unweighted, the budget was 2,000,000 iterations of about 150 us each at
    # this size (over 5 minutes); weighted, at most 12,578 (2.5 s).
    cofactor = (2**4000 + 1) // 641
    spent = []
    original = numtheory._brent_rho

    def counting(n, increment, budget):
        factor, used = original(n, increment, budget)
        spent.append((n, used))
        return factor, used

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(numtheory, "_brent_rho", counting)
        with pytest.raises(FactoringBudgetExceeded, match=r"cannot factor about 2\^3991 \(its part about 2\^3933 "
                                                          r"resisted\) within the budget of 2,000,000 units"):
            factorize(cofactor)
    assert 2_000_000 - 2 * 159 < sum(used * iteration_cost(n) for n, used in spent) <= 2_000_000


def test_factorize_rejects_non_positive():
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        factorize(0)


@given(st.integers(min_value=0, max_value=2**300), st.integers(min_value=1, max_value=12))
def test_integer_root_is_exact(n, k):
    root = integer_root(n, k)
    assert root**k <= n < (root + 1) ** k


def test_jacobi_symbol_is_eulers_criterion_for_primes():
    for p in (3, 5, 7, 11, 13, 101, 997):
        assert all(jacobi_symbol(a, p) == (0 if a % p == 0 else 1 if pow(a, (p - 1) // 2, p) == 1 else -1)
                   for a in range(-20, 3 * p))


def test_carmichael_lambda_first_values():
    # OEIS A002322.
    expected = [1, 1, 2, 2, 4, 2, 6, 2, 6, 4, 10, 2, 12, 6, 4, 4, 16, 6, 18, 4, 6, 10, 22, 2, 20, 12, 18, 6,
                28, 4, 30, 8, 10, 16, 12, 6, 36, 18, 12, 4]
    assert [carmichael_lambda(n) for n in range(1, 41)] == expected


def test_carmichael_lambda_is_the_largest_order():
    for n in range(2, 300):
        assert carmichael_lambda(n) == max(brute_order(a, n) for a in range(1, n) if gcd(a, n) == 1)


def test_multiplicative_order_matches_brute_force():
    for n in range(2, 200):
        assert all(multiplicative_order(a, n) == brute_order(a, n) for a in range(1, n) if gcd(a, n) == 1)


@pytest.mark.parametrize("a, n, order", [
    (16807, 2**31 - 1, 2**31 - 2),      # 7^5 is a primitive root of 2^31 - 1 (Park & Miller 1988)
    (48271, 2**31 - 1, 2**31 - 2),      # MINSTD's revised multiplier (Park, Miller & Stockmeyer 1993)
    (65539, 2**31, 2**29),              # RANDU: a = 3 (mod 8) has order 2^(e-2) (Knuth 3.2.1.2)
    (5, 2**64, 2**62),
    (9, 2**64, 2**61),                  # a = 1 (mod 8): order 2^(e-3)
    (2, 2**61 - 1, 61),
])
def test_multiplicative_order_known_answers(a, n, order):
    assert multiplicative_order(a, n) == order


def test_multiplicative_order_needs_a_unit():
    with pytest.raises(ValueError, match="coprime"):
        multiplicative_order(6, 10)


def test_minimal_exponent_finds_the_order_from_a_multiple():
    # 2 has order 12 modulo 13; start from the multiple 2^3 * 3^2 * 5 = 360.
    assert minimal_exponent({2: 3, 3: 2, 5: 1}, lambda k: pow(2, k, 13) == 1) == {2: 2, 3: 1}
    assert prod(p**e for p, e in minimal_exponent({2: 3}, lambda k: True).items()) == 1
