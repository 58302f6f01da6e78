"""Exact periods of multiple recursive generators and of their combinations.

For a prime modulus p the MRG ``x_n = (a_1 x_{n-1} + ... + a_k x_{n-k}) mod p``
has period p^k - 1 from every non-zero state exactly when its characteristic
polynomial ``f(x) = x^k - a_1 x^{k-1} - ... - a_k`` is primitive modulo p.
Knuth (TAOCP vol. 2, 3rd ed., 3.2.2, after Alanen and Knuth 1964) gives the
test, with ``r = (p^k - 1) / (p - 1)``:

(i) ``(-1)^(k-1) a_k`` is a primitive root modulo p;
(ii) ``x^r mod f(x) = (-1)^(k-1) a_k``, a constant;
(iii) ``x^(r/q) mod f(x)`` has positive degree for every prime q dividing r, q < r.

It needs the factors of p - 1 and of r (:func:`~rnglab.algebra.numtheory.factorize`,
within its budget). When f is not primitive the period of the given state is
found, when it divides p^k - 1, as the smallest divisor n of p^k - 1 with
``A^n s = s`` (A the companion matrix); otherwise it is not computed.

A combination's state repeats when every component's does: its period is the
lcm of the components' periods (L'Ecuyer 1996; MRG32k3a's is
(m_1^3 - 1)(m_2^3 - 1)/2, about 2^191). The output sequence's period divides it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..generators.affine import binary_power
from ..generators.mrg import MRG, Recurrence, period_lcm
from ..results import Result
from .numtheory import FactoringBudgetExceeded, factorize, is_probable_prime, minimal_exponent, product_of
from .period import Condition


@dataclass(frozen=True)
class RecurrencePeriod(Result):
    """The period of one MRG component from its state, and the conditions behind it.

    Attributes
    ----------
    m : int
    a : tuple of int
        ``(a_1, ..., a_k)``.
    state : tuple of int
        The starting state, oldest value first.
    period : int or None
        Exact period of the state; None when it is out of reach (``summary`` says why).
    max_period : int
        m^k - 1: no period is longer (the non-zero states); reached exactly for prime m and primitive f.
    is_max : bool
    conditions : tuple of Condition
        Knuth's conditions (i)-(iii) for a primitive characteristic polynomial.
    summary : str
    """

    m: int
    a: tuple[int, ...]
    state: tuple[int, ...]
    period: int | None
    max_period: int
    is_max: bool
    conditions: tuple[Condition, ...]
    summary: str


@dataclass(frozen=True)
class CombinationPeriod(Result):
    """The period of an MRG or combination: the lcm of its components' periods."""

    generator: str
    rule: str
    period: int | None
    components: tuple[RecurrencePeriod, ...]
    summary: str


def polynomial_power_mod(exponent: int, recurrence: Recurrence) -> list[int]:
    """``x^exponent mod (f(x), p)`` as coefficients ``[c_0, ..., c_{k-1}]`` (f the characteristic polynomial)."""
    result = binary_power([0, 1], exponent, [1], lambda left, right: _multiply(left, right, recurrence))
    return result + [0] * (recurrence.order - len(result))


def _multiply(left: list[int], right: list[int], recurrence: Recurrence) -> list[int]:
    """Product modulo f, using x^k = a_1 x^{k-1} + ... + a_k."""
    p, k = recurrence.m, recurrence.order
    product = [0] * (len(left) + len(right) - 1)
    for i, u in enumerate(left):
        for j, v in enumerate(right):
            product[i + j] += u * v
    for degree in range(len(product) - 1, k - 1, -1):
        top = product[degree] % p
        for i, coefficient in enumerate(recurrence.a):
            product[degree - 1 - i] += top * coefficient
        product[degree] = 0
    return [value % p for value in product[:k]] or [0]


def primitivity_conditions(recurrence: Recurrence, p_minus_1: dict[int, int],
                           r_factors: dict[int, int]) -> tuple[Condition, ...]:
    """Knuth's conditions (i)-(iii) for f primitive modulo the prime m, given p - 1 and r factored."""
    p, k = recurrence.m, recurrence.order
    constant = (-1) ** (k - 1) * recurrence.a[-1] % p
    r = (p**k - 1) // (p - 1)
    root = all(pow(constant, (p - 1) // q, p) != 1 for q in p_minus_1)
    power = polynomial_power_mod(r, recurrence)
    cofactor_degrees = all(any(polynomial_power_mod(r // q, recurrence)[1:]) for q in r_factors if q < r)
    return (
        Condition("(i) primitive root", root,
                  f"(-1)^(k-1) a_k = {constant} generates (Z/{p})*; p - 1 = {_written(p_minus_1)}"),
        Condition("(ii) x^r constant", power == [constant] + [0] * (k - 1),
                  f"x^r mod f(x) = (-1)^(k-1) a_k with r = (p^k - 1)/(p - 1) = {_written(r_factors)}"),
        Condition("(iii) x^(r/q) not constant", cofactor_degrees,
                  "x^(r/q) mod f(x) has positive degree for every prime q | r, q < r"),
    )


def _written(factorization: dict[int, int]) -> str:
    return " * ".join(f"{q}^{e}" if e > 1 else str(q) for q, e in factorization.items()) or "1"


def recurrence_period(recurrence: Recurrence, state: tuple[int, ...]) -> RecurrencePeriod:
    """The exact period of ``recurrence`` from ``state`` (Knuth 3.2.2), or a statement of why not."""
    p, k = recurrence.m, recurrence.order
    maximum = p**k - 1
    fields = {"m": p, "a": recurrence.a, "state": tuple(state), "max_period": maximum}
    if not is_probable_prime(p):
        return RecurrencePeriod(**fields, period=None, is_max=False, conditions=(),
                                summary=f"m = {p} is not prime: the primitive-polynomial test does not apply "
                                        "and the period is not computed")
    try:
        p_minus_1, r_factors = factorize(p - 1), factorize((p**k - 1) // (p - 1))
    except FactoringBudgetExceeded as error:
        return RecurrencePeriod(**fields, period=None, is_max=False, conditions=(),
                                summary=f"not decided: {error}")
    conditions = primitivity_conditions(recurrence, p_minus_1, r_factors)
    if all(condition.holds for condition in conditions):
        return RecurrencePeriod(**fields, period=maximum, is_max=True, conditions=conditions,
                                summary="maximal: the characteristic polynomial is primitive modulo the prime m, "
                                        "so every non-zero state has period m^k - 1")
    multiple = dict(p_minus_1)
    for q, e in r_factors.items():
        multiple[q] = multiple.get(q, 0) + e
    if recurrence.jump(tuple(state), maximum) != tuple(state):
        return RecurrencePeriod(**fields, period=None, is_max=False, conditions=conditions,
                                summary="not maximal (f is not primitive); the period does not divide m^k - 1 "
                                        "and is not computed")
    period = product_of(minimal_exponent(multiple, lambda n: recurrence.jump(tuple(state), n) == tuple(state)))
    return RecurrencePeriod(**fields, period=period, is_max=False, conditions=conditions,
                            summary="not maximal: the characteristic polynomial is not primitive modulo m")


def period(source: MRG) -> CombinationPeriod:
    """The period of an MRG or combination from its current state: the lcm of the components' periods."""
    combination = source.combination
    parts = tuple(recurrence_period(c, s) for c, s in zip(combination.components, source.states))
    known = [part.period for part in parts]
    total = None if None in known else period_lcm(known)
    if total is None:
        summary = "not computed: a component's period is out of reach"
    elif len(parts) == 1:
        summary = parts[0].summary
    else:
        summary = "lcm of the components' periods (the combined state's period; the output's divides it)"
    return CombinationPeriod(source.name, combination.rule, total, parts, summary)
