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
within its budget).

Any other recurrence (f not primitive, or m composite): the state ``s`` is
followed by ``A`` (the companion matrix), and its orbit is a ``tail`` of
steps into a cycle of ``period`` states: the smallest ``n > 0`` with
``A^(t+n) s = A^t s`` for every ``t >= tail``. The period is found as the
smallest divisor ``n`` of a known multiple ``N`` with ``A^n s' = s'``
(``s'`` a state on the cycle), dividing out one prime at a time
(:func:`~rnglab.algebra.numtheory.minimal_exponent`). The multiple, for each
prime power ``p^e`` exactly dividing m (Chinese remainders: the period modulo
m is the lcm of the periods modulo each ``p^e``, the tail their largest):

* modulo p, ``f = x^j h`` with ``h(0) != 0``; the order of x modulo
  ``g^c`` (g irreducible of degree d) is ``ord(g) p^u`` with ``ord(g) | p^d - 1``
  and ``p^u >= c`` the smallest such power (Lidl and Niederreiter, *Finite
  Fields*, Theorems 3.3 and 3.8), so ``ord(h)`` divides
  ``p^t * Phi_1(p) * Phi_2(p) * ... * Phi_k(p)`` (``Phi_d`` the cyclotomic
  polynomials, ``p^d - 1`` the product of ``Phi_c(p)`` over ``c | d``;
  ``p^t >= k``);
* modulo ``p^e``: f splits (Hensel) into ``u h`` with ``u = x^j mod p``; x is
  nilpotent modulo u (``x^(je) = 0``: the tail is at most ``k e``, and 0 when
  ``a_k`` is a unit modulo m), and if ``x^T = 1 + p B`` modulo h then
  ``x^(T p^(e-1)) = 1`` (binomial theorem), so ``N_p = p^(e-1) ord(h)``.

``s' = A^(k e_max) s`` is on the cycle; the tail is then the smallest
``t <= k e_max`` with ``A^(t+period) s = A^t s`` (a binary search: once on the
cycle, the orbit stays on it). Exact for every m and k whose prime factors
and cyclotomic values ``Phi_d(p)`` factor within the budget.

A combination's state repeats when every component's does: its period is the
lcm of the components' periods (L'Ecuyer 1996; MRG32k3a's is
(m_1^3 - 1)(m_2^3 - 1)/2, about 2^191). The output sequence's period divides it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rnglab.algebra.numtheory import (
    FactoringBudgetExceeded,
    factorize,
    is_probable_prime,
    lcm_of_factorizations,
    minimal_exponent,
    product_of,
)
from rnglab.algebra.period import Condition
from rnglab.core.results import Result
from rnglab.generators.affine import binary_power
from rnglab.generators.mrg import MRG, Recurrence, period_lcm


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
        Exact period of the state's cycle; None when it is out of reach (``summary`` says why).
    tail : int or None
        Steps from the state into its cycle (0 unless ``a_k`` shares a factor with a composite m).
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
    tail: int | None
    max_period: int
    is_max: bool
    conditions: tuple[Condition, ...]
    summary: str


@dataclass(frozen=True)
class CombinationPeriod(Result):
    """The period of an MRG or combination: the lcm of its components' periods; the tail, the longest of theirs."""

    generator: str
    rule: str
    period: int | None
    tail: int | None
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
    """The exact period and tail of ``recurrence`` from ``state`` (see the module notes), or why not."""
    p, k = recurrence.m, recurrence.order
    maximum = p**k - 1
    fields = {"m": p, "a": recurrence.a, "state": tuple(state), "max_period": maximum}
    try:
        if not is_probable_prime(p):
            period, tail = orbit(recurrence, state)
            return RecurrencePeriod(**fields, period=period, tail=tail, is_max=False, conditions=(),
                                    summary=f"m = {p} is not prime: the period of the state, from the orders "
                                            "modulo each prime power of m")
        conditions = primitivity_conditions(recurrence, factorize(p - 1), factorize((p**k - 1) // (p - 1)))
        if all(condition.holds for condition in conditions) and any(v % p for v in state):
            return RecurrencePeriod(**fields, period=maximum, tail=0, is_max=True, conditions=conditions,
                                    summary="maximal: the characteristic polynomial is primitive modulo the prime "
                                            "m, so every non-zero state has period m^k - 1")
        period, tail = orbit(recurrence, state)
    except FactoringBudgetExceeded as error:
        return RecurrencePeriod(**fields, period=None, tail=None, is_max=False, conditions=(),
                                summary=f"not computed: {error}")
    why = "the state is zero" if not any(v % p for v in state) else \
        "the characteristic polynomial is not primitive modulo m"
    return RecurrencePeriod(**fields, period=period, tail=tail, is_max=False, conditions=conditions,
                            summary=f"not maximal: {why}; the period of the state, from the order of x "
                                    "modulo the characteristic polynomial's factors")


def orbit(recurrence: Recurrence, state: tuple[int, ...]) -> tuple[int, int]:
    """``(period, tail)`` of ``state`` under the recurrence, for any modulus (the module notes' method).

    Raises
    ------
    FactoringBudgetExceeded
        When m or a cyclotomic value ``Phi_d(p)`` does not factor within the budget.
    """
    m, k = recurrence.m, recurrence.order
    primes = factorize(m)
    multiple = lcm_of_factorizations(*(_order_multiple(q, e, k) for q, e in primes.items()))
    reach = k * max((e for q, e in primes.items() if recurrence.a[-1] % q == 0), default=0)
    on_cycle = recurrence.jump(tuple(state), reach)
    period = product_of(minimal_exponent(multiple, lambda n: recurrence.jump(on_cycle, n) == on_cycle))
    low, high = 0, reach  # the tail: the first t on the cycle, in [0, reach]
    while low < high:
        middle = (low + high) // 2
        at = recurrence.jump(tuple(state), middle)
        low, high = (low, middle) if recurrence.jump(at, period) == at else (middle + 1, high)
    return period, low


def _order_multiple(p: int, e: int, k: int) -> dict[int, int]:
    """A multiple of every cycle length modulo ``p^e`` of an order-k recurrence: ``p^(e-1+t) Phi_1(p)...Phi_k(p)``.

    ``p^t >= k``, k bounding the multiplicity of an irreducible factor modulo p; returned factored.
    """
    t = 0
    while p**t < k:
        t += 1
    factors = {p: e - 1 + t} if e - 1 + t else {}
    for value in cyclotomic_values(p, k).values():
        for q, exponent in factorize(value).items():
            factors[q] = factors.get(q, 0) + exponent
    return factors


def cyclotomic_values(p: int, k: int) -> dict[int, int]:
    """``{d: Phi_d(p)}`` for d = 1..k, from ``p^d - 1 = prod over c | d of Phi_c(p)``."""
    values: dict[int, int] = {}
    for d in range(1, k + 1):
        value = p**d - 1
        for c in range(1, d):
            if d % c == 0:
                value //= values[c]
        values[d] = value
    return values


def period(source: MRG) -> CombinationPeriod:
    """The period of an MRG or combination from its current state: the lcm of the components' periods."""
    combination = source.combination
    parts = tuple(recurrence_period(c, s) for c, s in zip(combination.components, source.states))
    known = [part.period for part in parts]
    total = None if None in known else period_lcm(known)
    tail = None if total is None else max(part.tail for part in parts)
    if total is None:
        summary = "not computed: " + "; ".join(part.summary.removeprefix("not computed: ") for part in parts
                                               if part.period is None)
    elif len(parts) == 1:
        summary = parts[0].summary
    else:
        summary = "lcm of the components' periods (the combined state's period; the output's divides it)"
    return CombinationPeriod(source.name, combination.rule, total, tail, parts, summary)
