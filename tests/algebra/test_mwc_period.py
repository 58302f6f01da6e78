"""The period of a multiply-with-carry generator (rnglab.algebra.mwc_period): ord_m(b) for m = a b - 1.

Known answers: KISS99's two 16-bit MWCs, 36969 and 18000 on base 2^16, have periods ``a 2^15 - 1`` (m a safe
prime and b a square modulo m: the order is (m - 1)/2), about 2^60 together (G. Marsaglia, "Random numbers for C:
End, at last?", sci.stat.math, 1999). A small case is checked by stepping the generator until its word returns.
"""

import pytest

from rnglab.algebra.mwc_period import mwc_period
from rnglab.generators.mwc import MultiplyWithCarry


def stepped_period(a: int, b: int, word: int) -> int:
    """Steps of the MWC word t = c b + x -> a x + c until it returns."""
    t, steps = word, 0
    while True:
        t = a * (t % b) + t // b
        steps += 1
        if t == word:
            return steps


@pytest.mark.parametrize("a", [36969, 18000])
def test_kiss99_periods(a):
    result = mwc_period(MultiplyWithCarry(a, 2**16))
    assert result.m == a * 2**16 - 1 and result.period == a * 2**15 - 1
    assert [condition.holds for condition in result.conditions] == [True, True, True]


@pytest.mark.parametrize("a, b", [(3, 8), (6, 8), (5, 16), (27, 32)])
def test_small_periods_by_stepping(a, b):
    result = mwc_period(MultiplyWithCarry(a, b))
    if result.period is None:
        assert not result.conditions[0].holds
    else:
        assert {stepped_period(a, b, t) for t in range(1, result.m)} == {result.period}


def test_a_composite_modulus_has_no_single_period():
    result = mwc_period(MultiplyWithCarry(5, 16))  # m = 79 is prime; 6 * 16 - 1 = 95 = 5 * 19 is not
    assert result.period is not None
    composite = mwc_period(MultiplyWithCarry(6, 16))
    assert composite.m == 95 and composite.period is None and "not prime" in composite.summary
