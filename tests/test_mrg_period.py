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


def test_composite_modulus_is_stated_plainly():
    result = recurrence_period(Recurrence(15, (2, 1)), (1, 1))
    assert result.period is None and "not prime" in result.summary


def _walked_period(recurrence: Recurrence, state: tuple[int, ...]) -> int:
    current, steps = recurrence.step(state), 1
    while current != state:
        current, steps = recurrence.step(current), steps + 1
    return steps


@settings(max_examples=60, deadline=None)
@given(p=st.sampled_from([2, 3, 5, 7, 11, 13]), a=st.lists(st.integers(0, 12), min_size=1, max_size=3),
       state=st.lists(st.integers(0, 12), min_size=3, max_size=3))
def test_algebra_agrees_with_walking_the_cycle(p, a, state):
    if a[-1] % p == 0:
        a[-1] = 1
    recurrence = Recurrence(p, tuple(a))
    start = tuple(v % p for v in state[:len(a)])
    if not any(start):
        start = start[:-1] + (1,)
    result = recurrence_period(recurrence, start)
    walked = _walked_period(recurrence, start)
    assert result.period in (None, walked)
    assert result.is_max == (walked == p ** len(a) - 1 and result.period is not None)


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
