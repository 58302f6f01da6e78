"""The period of a multiply-with-carry generator, from its equivalent Lehmer generator.

An MWC with multiplier a and base b steps its word t (= c b + x) as
t -> a t mod m with m = a b - 1 (:mod:`rnglab.generators.mwc`). Since
a b = 1 (mod m), the orders of a and b modulo m are equal, so for prime m
every valid word 0 < t < m has period ord_m(b), a divisor of m - 1
(Couture and L'Ecuyer 1997; Marsaglia). When m is a safe prime
(m and (m - 1)/2 prime), ord_m(b) is (m - 1)/2 or m - 1 (b != +-1), and it is
(m - 1)/2 exactly when b is a quadratic residue modulo m (Euler's criterion
b^((m-1)/2) = 1), as every even power of two is.
"""

from __future__ import annotations

from dataclasses import dataclass

from rnglab.algebra.numtheory import FactoringBudgetExceeded, is_probable_prime, multiplicative_order
from rnglab.algebra.period import Condition
from rnglab.core.results import Result
from rnglab.generators.mwc import MultiplyWithCarry


@dataclass(frozen=True)
class MWCPeriod(Result):
    """The period of every valid word of an MWC, and the conditions behind it.

    Attributes
    ----------
    a, b, m : int
        Multiplier, base and m = a b - 1.
    period : int or None
        ord_m(b) for prime m; None otherwise (the LCG analysis gives the word's period).
    conditions : tuple of Condition
        m prime; (m - 1)/2 prime; b a quadratic residue modulo m.
    summary : str
    """

    a: int
    b: int
    m: int
    period: int | None
    conditions: tuple[Condition, ...]
    summary: str


def mwc_period(carry: MultiplyWithCarry) -> MWCPeriod:
    """The period ord_m(b) of an MWC's words (prime m = a b - 1), with the safe-prime conditions."""
    a, b, m = carry.a, carry.b, carry.modulus
    prime, half = is_probable_prime(m), (m - 1) // 2
    conditions = (
        Condition("m prime", prime, f"m = a b - 1 = {m}"),
        Condition("safe prime", prime and is_probable_prime(half), f"(m - 1)/2 = {half} prime"),
        Condition("b a square mod m", prime and pow(b, half, m) == 1,
                  f"b^((m-1)/2) = 1 (mod m): the order of b divides (m - 1)/2 = {half}"),
    )
    if not prime:
        return MWCPeriod(a, b, m, None, conditions, "m is not prime: the period of a word t is the order of a "
                                                     "modulo m / gcd(t, m) (the LCG analysis)")
    try:
        order = multiplicative_order(b, m)
    except FactoringBudgetExceeded as error:
        return MWCPeriod(a, b, m, None, conditions, f"not decided: {error}")
    named = "(m - 1)/2" if order == half else "m - 1" if order == m - 1 else "a divisor of m - 1"
    return MWCPeriod(a, b, m, order, conditions,
                     f"every word 0 < t < m has period ord_m(b) = ord_m(a) = {named}")
