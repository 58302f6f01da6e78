"""Exact periods of MRGs (Knuth 3.2.2's primitive-polynomial test) and of combinations (lcm)."""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra.mrg_period import period, recurrence_period
from rnglab.cli import main
from rnglab.generators import as_generator
from rnglab.generators.mrg import Recurrence

M1, M2 = 2**32 - 209, 2**32 - 22853


def _period(name: str) -> int | None:
    return period(as_generator(name).make()).period


def test_mrg32k3a_period_is_about_2_to_the_191():
    # L'Ecuyer 1999: rho = (m1^3 - 1)(m2^3 - 1)/2, about 2^191.
    assert _period("mrg32k3a") == (M1**3 - 1) * (M2**3 - 1) // 2


def test_mrg31k3p_components_are_maximal():
    # L'Ecuyer and Touzin 2000: both components have full period m_j^3 - 1; rho about 2^185.
    m1, m2 = 2**31 - 1, 2**31 - 21069
    result = period(as_generator("mrg31k3p").make())
    assert [part.is_max for part in result.components] == [True, True]
    assert result.period == (m1**3 - 1) * (m2**3 - 1) // 2
    assert round(math.log2(result.period)) == 185


def test_knuths_mrg_has_the_maximal_period_with_the_conditions_shown():
    result = period(as_generator("knuth-mrg").make())
    assert result.period == (2**31 - 1) ** 2 - 1
    assert [condition.holds for condition in result.components[0].conditions] == [True, True, True]


def test_wichmann_hill_and_lecuyer88_periods():
    # Wichmann and Hill (Applied Statistics 33, 1984, correction): 6.95e12;
    # L'Ecuyer 1988: (m1 - 1)(m2 - 1)/2, about 2.3e18.
    assert _period("wichmann-hill") == 6953607871644
    assert _period("lecuyer88") == (2147483563 - 1) * (2147483399 - 1) // 2


def test_fibonacci_mod_7_is_not_primitive_and_has_pisano_period_16():
    result = recurrence_period(Recurrence(7, (1, 1)), (0, 1))
    assert (result.period, result.is_max, result.conditions[0].holds) == (16, False, False)


def _walked(recurrence: Recurrence, state: tuple[int, ...]) -> tuple[int, int]:
    """(period, tail) by stepping the state until one repeats, every state remembered."""
    first_seen, steps = {}, 0
    while state not in first_seen:
        first_seen[state], state, steps = steps, recurrence.step(state), steps + 1
    return steps - first_seen[state], first_seen[state]


def test_a_non_primitive_polynomial_with_a_double_root_gives_the_period_of_the_state():
    # Issue 27: f = x^2 + 5x + 2 = (x - 6)^2 mod 17: the order of x is 16 * 17 = 272, found by a 289-state walk;
    # the algebra said "not computed" (272 does not divide 17^2 - 1 = 288).
    result = period(as_generator("mrg:m=17,a=-5:-2,seed=15").make())
    assert (result.period, result.tail) == (272, 0) == _walked(Recurrence(17, (-5, -2)), (15, 15))
    assert not result.components[0].is_max


def test_a_composite_modulus_gives_the_period_and_the_tail():
    # a_2 = 5 shares the factor 5 with m = 15: the companion matrix is singular modulo 5, and the orbit has a tail;
    # by hand, x_n = 2 x_{n-1} + 5 x_{n-2} mod 15 from (1, 1): (1, 7) (7, 4) (4, 13) (13, 1) (1, 7) ...
    result = recurrence_period(Recurrence(15, (2, 5)), (1, 1))
    assert (result.period, result.tail) == _walked(Recurrence(15, (2, 5)), (1, 1)) == (4, 1)
    assert "not prime" in result.summary and result.conditions == ()


def test_a_large_composite_modulus_has_its_tail_bounded_by_k_times_the_exponent():
    # every coefficient even modulo 2^64: the state falls into the fixed point 0 (the tail is at most k e = 192)
    result = period(as_generator("mrg:m=2^64,a=6:4:8,seed=3").make())
    assert (result.period, result.tail) == (1, 64)
    recurrence, state = Recurrence(2**64, (6, 4, 8)), (3, 3, 3)
    assert recurrence.jump(state, 63) != (0, 0, 0) == recurrence.jump(state, 64)


def test_a_non_primitive_large_prime_modulus_is_computed():
    # 2^31 - 1 with f = (x - 2)(x - 3)(x - 5): the cycle length is lcm(ord 2, ord 3, ord 5) modulo 2^31 - 1
    p = 2**31 - 1
    roots = (2, 3, 5)
    a = (sum(roots), -(2 * 3 + 2 * 5 + 3 * 5), 2 * 3 * 5)
    result = recurrence_period(Recurrence(p, a), (1, 2, 9))
    assert result.period == math.lcm(*(_multiplicative_order(r, p) for r in roots)) and result.tail == 0


def _multiplicative_order(value: int, p: int) -> int:
    order = p - 1  # p - 1 = 2 * 3^2 * 7 * 11 * 31 * 151 * 331 for p = 2^31 - 1
    for q in (2, 3, 7, 11, 31, 151, 331):
        while order % q == 0 and pow(value, order // q, p) == 1:
            order //= q
    return order


def _agrees_with_the_walk(m: int, a: list[int], state: list[int]):
    """The algebra's period and tail of a small MRG (a_k = 0 mod m made 1), checked against the walk's."""
    coefficients = tuple(a[:-1]) + (a[-1] if a[-1] % m else 1,)
    recurrence, start = Recurrence(m, coefficients), tuple(v % m for v in state[:len(a)])
    result = recurrence_period(recurrence, start)
    assert (result.period, result.tail) == _walked(recurrence, start)
    return result, start


COEFFICIENTS = st.lists(st.integers(-60, 60), min_size=1, max_size=3)
STATES = st.lists(st.integers(0, 59), min_size=3, max_size=3)


@settings(max_examples=300, deadline=None)
@given(p=st.sampled_from([2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47]), a=COEFFICIENTS, state=STATES)
def test_the_period_of_any_small_prime_mrg_is_the_walked_period(p, a, state):
    result, start = _agrees_with_the_walk(p, a, state)
    assert result.is_max == (result.period == p ** len(a) - 1 and any(start))


@settings(max_examples=150, deadline=None)
@given(m=st.integers(4, 60).filter(lambda m: not all(m % d for d in range(2, m))), a=COEFFICIENTS, state=STATES)
def test_the_period_and_tail_of_any_small_composite_mrg_are_the_walked_ones(m, a, state):
    _agrees_with_the_walk(m, a, state)


def test_cli_period_of_mrg32k3a(capsys):
    assert main(["period", "mrg32k3a"]) == 0
    out = capsys.readouterr().out
    assert f"period     {(M1**3 - 1) * (M2**3 - 1) // 2} (2^191.00)" in out
    assert out.count("[yes]") == 6


def test_cli_period_json(capsys):
    assert main(["period", "knuth-mrg", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["period"] == (2**31 - 1) ** 2 - 1


def test_cli_gen_uniform_prints_the_reference_doubles(capsys):
    assert main(["gen", "mrg32k3a", "-n", "2", "--uniform"]) == 0
    assert capsys.readouterr().out == "0.12701112204657714\n0.3185275653967945\n"
    assert main(["gen", "mrg32k3a", "-n", "2"]) == 0
    assert capsys.readouterr().out == "545508589\n1368065410\n"


def test_a_modulus_beyond_the_factoring_budget_says_so_once():
    result = period(as_generator("mrg:m=(2^89-1)*(2^107-1),a=3:5,seed=4").make())
    assert result.period is None and result.tail is None
    assert result.summary.startswith("not computed: cannot factor ") and result.summary.count("not computed") == 1
