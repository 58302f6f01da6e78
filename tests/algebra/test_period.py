"""Exact periods, tails, maximal-period conditions and bit periods of LCGs."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra.numtheory import factorize
from rnglab.algebra.period import bit_periods, lcg_period, period
from rnglab.generators import LCG, NumpySource, affine_power


def brute_force(a, c, m, x):
    """Period and tail by stepping and remembering every state."""
    seen, k = {}, 0
    while x not in seen:
        seen[x], x, k = k, (a * x + c) % m, k + 1
    return k - seen[x], seen[x]


def brute_bit_periods(a, c, e, x):
    """Smallest p with bit j of x_(k+p) = bit j of x_k over the whole cycle, for each bit j."""
    m = 2**e
    cycle, tail = brute_force(a, c, m, x)
    states = [x]
    for _ in range(tail + 2 * cycle):
        states.append((a * states[-1] + c) % m)
    states = states[tail:]
    return tuple(min(p for p in range(1, cycle + 1) if cycle % p == 0
                     and all((states[i] >> j) & 1 == (states[i + p] >> j) & 1 for i in range(cycle)))
                 for j in range(e))


@pytest.mark.parametrize("a, c, m, seed, expected", [
    (16807, 0, 2**31 - 1, 1, 2**31 - 2),          # MINSTD, Park & Miller 1988, CACM 31(10)
    (48271, 0, 2**31 - 1, 1, 2**31 - 2),          # minstd_rand, Park, Miller & Stockmeyer 1993
    (65539, 0, 2**31, 1, 2**29),                  # RANDU: 2^(e-2) (Knuth, TAOCP 2, 3.2.1.2)
    (1103515245, 12345, 2**31, 1, 2**31),         # ANSI C example: full period by Hull-Dobell
    (6364136223846793005, 1442695040888963407, 2**64, 0, 2**64),   # MMIX (Knuth)
    (0x5DEECE66D, 11, 2**48, 0x1234ABCD330E, 2**48),               # drand48 / java.util.Random
])
def test_known_periods(a, c, m, seed, expected):
    result = lcg_period(a=a, m=m, c=c, seed=seed)
    assert (result.period, result.tail, result.is_max) == (expected, 0, True)


def test_randu_even_seed_halves_the_period():
    result = lcg_period(a=65539, m=2**31, seed=2)
    assert result.period == 2**28 and not result.is_max
    assert [(cond.name, cond.holds) for cond in result.conditions] == [("a = 3 or 5 (mod 8)", True),
                                                                        ("seed is odd", False)]


@pytest.mark.parametrize("a, maximal", [(3, True), (5, True), (11, True), (13, True), (7, False), (9, False),
                                        (15, False), (17, False)])
def test_power_of_two_multiplier_must_be_3_or_5_mod_8(a, maximal):
    # Knuth, TAOCP 2, 3.2.1.2, Theorem B: maximal order 2^(e-2) iff a = 3 or 5 (mod 8).
    result = lcg_period(a=a, m=2**20, seed=1)
    assert result.max_period == 2**18
    assert result.is_max is maximal and result.conditions[0].holds is maximal


def test_hull_dobell_conditions_are_reported_one_by_one():
    result = lcg_period(a=1 + 2 * 3 * 5, m=2**2 * 3 * 5 * 7, c=11)     # 7 does not divide a - 1; 4 does not either
    assert [cond.holds for cond in result.conditions] == [True, False, False]
    assert "7" in result.conditions[1].explanation and not result.is_max


def test_primitive_root_condition_for_prime_modulus():
    result = lcg_period(a=2, m=2**31 - 1)    # 2 has order 31 modulo the Mersenne prime 2^31 - 1
    assert result.period == 31 and result.conditions[0].name == "a is a primitive root modulo m"
    assert not result.conditions[0].holds and "31" in result.conditions[0].explanation


def test_non_invertible_multiplier_has_a_tail():
    # By hand: 1, 2, 4, 8, 6, 2, ... modulo 10: one step of tail, then the cycle 2, 4, 8, 6.
    result = lcg_period(a=2, m=10, seed=1)
    assert (result.period, result.tail) == (4, 1)
    # 2x + 1 modulo 2^10 from 0: 0, 1, 3, ..., 1023, and 1023 is fixed.
    assert (lcg_period(a=2, c=1, m=2**10, seed=0).period, lcg_period(a=2, c=1, m=2**10, seed=0).tail) == (1, 10)


def test_full_period_low_bits_alternate():
    # Bit j of a full-period LCG modulo 2^e has period 2^(j+1): rand() % 2 alternates.
    bits = lcg_period(a=1103515245, c=12345, m=2**31).bit_periods
    assert bits == tuple(2 ** (j + 1) for j in range(31))


def test_randu_bit_periods():
    # By hand, from seed 1 with a = 65539 = 3 (mod 16): the states are 1, 3, 9, 11, 1, ... (mod 16).
    # So bit 0 is constant, bit 1 alternates, bit 2 is constant (1, 3, 1, 3 mod 8) and bit 3 reads
    # 0, 0, 1, 1: period 4. Each further bit doubles, up to bit 30: 2^29, the whole period.
    bits = lcg_period(a=65539, m=2**31).bit_periods
    assert bits == (1, 2, 1) + tuple(2 ** (j - 1) for j in range(3, 31))


def test_bit_periods_only_for_powers_of_two():
    assert lcg_period(a=16807, m=2**31 - 1).bit_periods is None


def test_bit_periods_match_brute_force_exhaustively():
    for e in (1, 2, 3, 4, 5):
        m = 2**e
        for a in range(1, m):
            for c in range(m):
                assert all(bit_periods(a, c, e, x) == brute_bit_periods(a, c, e, x) for x in range(m))


@settings(max_examples=300, deadline=None)
@given(st.integers(7, 12), st.data())
def test_bit_periods_match_brute_force_for_random_parameters(e, data):
    m = 2**e
    a, c, x = (data.draw(st.integers(0, m - 1)) for _ in range(3))
    assert bit_periods(a, c, e, x) == brute_bit_periods(a, c, e, x)


@pytest.mark.parametrize("moduli", [range(2, 17), pytest.param(range(17, 25), marks=pytest.mark.slow)],
                         ids=["m=2..16", "m=17..24"])  # every case to m = 16 (about 17,000) by default
def test_algebra_matches_brute_force_exhaustively_for_small_moduli(moduli):
    for m in moduli:
        for a in range(1, m):
            for c in range(m):
                for x in range(int(c == 0), m):
                    result = lcg_period(a=a, m=m, c=c, seed=x)
                    assert (result.period, result.tail) == brute_force(a, c, m, x), (a, c, m, x)


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 3000), st.data())
def test_algebra_matches_brute_force_for_random_parameters(m, data):
    a = data.draw(st.integers(1, m - 1))
    c = data.draw(st.sampled_from([0, data.draw(st.integers(0, m - 1))]))
    x = data.draw(st.integers(int(c == 0), m - 1))
    result = lcg_period(a=a, m=m, c=c, seed=x)
    assert (result.period, result.tail) == brute_force(a, c, m, x)
    assert result.max_period % result.period == 0 if c == 0 else result.period <= m


def test_full_period_exactly_when_hull_dobell_holds():
    for m in (2**6, 3**3, 60, 63):
        for a in range(1, m):
            for c in range(1, m):
                result = lcg_period(a=a, m=m, c=c, seed=0)
                assert result.is_max == all(cond.holds for cond in result.conditions) == (result.period == m)


def test_multiplicative_conditions_are_not_necessary():
    # m = 6, a = 5, seed 2: 2, 4, 2, ... has period 2 = lambda(6) although gcd(2, 6) = 2.
    result = lcg_period(a=5, m=6, seed=2)
    assert result.is_max and result.period == 2 and not result.conditions[1].holds


def test_multiplicative_conditions_are_sufficient():
    for m in (2**6, 81, 98, 60, 61):
        for a in range(1, m):
            for x in range(1, m):
                result = lcg_period(a=a, m=m, seed=x)
                if all(cond.holds for cond in result.conditions):
                    assert result.is_max


def returns_after(a, c, m, x, k):
    jump_a, jump_c = affine_power(a, c, m, k)
    return (jump_a * x + jump_c) % m == x


@pytest.mark.parametrize("a, c, m", [
    (3, 0, 2**127 - 1), (5, 1, 2**128), (2, 0, 2**64 - 59), (13, 0, 10**10), (37, 0, 2**61 - 1),
    (2**32 + 15, 7, 2**64 - 1), (7**20, 0, 2 * 3**40 * 5**3 * 11), (6364136223846793005, 1, 2**64),
])
def test_large_moduli_periods_are_minimal_returns(a, c, m):
    # Checked independently of the algebra: jumping ahead by the period returns to the seed,
    # jumping by period / r for any prime r does not.
    result = lcg_period(a=a, m=m, c=c, seed=1)
    assert result.tail == 0 and returns_after(a, c, m, 1, result.period)
    assert not any(returns_after(a, c, m, 1, result.period // r) for r in factorize(result.period))


def test_unfactorable_modulus_is_reported_plainly():
    # F7 = 2^128 + 1: its prime factors (about 2^56 and 2^72) are far beyond a tiny budget.
    with pytest.raises(ValueError, match=r"cannot factor m = about 2\^128 within the budget of 1,000 units of "
                                         r"Pollard-Brent work; the period is unknown"):
        lcg_period(a=3, m=2**128 + 1, c=1, budget=1000)


def test_unfactorable_p_minus_1_is_reported_plainly():
    # m = 2 * 1000003 * 1000121 + 1 is prime; m - 1 needs Pollard-Brent, which a budget of 1 cannot run.
    with pytest.raises(ValueError, match=r"prime factors of m = 2000248000727\); the period is unknown"):
        lcg_period(a=3, m=2000248000727, budget=1)


def test_invalid_parameters_use_the_generators_rules():
    # The rules live in rnglab.generators.validate_lcg (tested there); the CLI tests cover each one.
    with pytest.raises(ValueError, match="seed must be non-zero when c = 0"):
        lcg_period(a=3, m=10, seed=0)
    with pytest.raises(ValueError, match=r"a must be in \(0, m\)"):
        lcg_period(a=10, m=10)


def test_period_of_a_generator_starts_from_its_state():
    generator = LCG(a=65539, m=2**31, seed=1)
    generator.jump(12345)
    assert period(generator).seed == generator.x and period(generator).period == 2**29


def test_period_refuses_other_sources():
    with pytest.raises(TypeError, match="LCGs only"):
        period(NumpySource.from_seed("PCG64", 1, "pcg64"))


def test_result_is_json_ready_with_big_integers():
    data = lcg_period(a=5, c=1, m=2**128).to_dict()
    text = json.loads(json.dumps(data))
    assert text["period"] == 2**128 and text["factorization"] == [[2, 128]] and text["is_max"] is True
    assert text["conditions"][0] == {"name": "c coprime to m", "holds": True, "explanation": "gcd(c, m) = 1"}
    assert text["components"] == [{"prime": 2, "exponent": 128, "period": 2**128, "tail": 0}]
