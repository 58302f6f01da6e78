"""Exact periods and tails of linear congruential generators, from number theory.

The orbit of a seed under ``x -> (a x + c) mod m`` is eventually periodic:
``tail`` steps lead into a cycle of ``period`` states. By the Chinese
remainder theorem the state modulo ``m`` is the tuple of states modulo the
prime powers ``q = p^e`` of ``m``, each an LCG of its own, so

    period = lcm(period mod q),    tail = max(tail mod q).

For one prime power ``q = p^e``:

* ``p | a``: ``f^e`` is constant, because ``f^k(x) - f^k(y) = a^k (x - y)``
  and ``p^e | a^e``. The orbit falls into a fixed point after at most ``e``
  steps (counted by stepping): period 1.
* ``p`` does not divide ``a``: ``f`` is a bijection, so the tail is 0. With
  ``t = ord_q(a)``, ``f^(t q)`` is the identity (``a^(tq) = 1`` and
  ``1 + a + ... + a^(tq-1) = (1 + a^t + ... + a^(t(q-1))) (1 + ... + a^(t-1))``
  with a first factor ``= q = 0``), so the period divides ``t q``; it is
  found by dividing ``t q`` prime by prime while the jump-ahead
  ``f^k(x) = a^k x + c (a^k - 1)/(a - 1)`` still returns to ``x``.

Maximal periods: for ``c != 0`` the maximum is ``m``, reached exactly when
Hull and Dobell's three conditions hold (Knuth, TAOCP vol. 2, 3.2.1.2,
Theorem A). For ``c = 0`` every period divides Carmichael's ``lambda(m)``,
which is reached when ``a`` has order ``lambda(m)`` and the seed is coprime
to ``m`` (Theorem B of 3.2.1.2 for prime powers; a primitive root for prime
``m``; ``a = 3, 5 (mod 8)`` and an odd seed for ``m = 2^e >= 8``, giving
``2^(e-2)``). These conditions are sufficient, not necessary: for composite
``m`` a seed sharing a factor with ``m`` can still reach ``lambda(m)``
(``m = 6, a = 5, seed 2``: 2, 4, 2, ...), so ``is_max`` compares the exact
period with the maximum rather than trusting the conditions.

For ``m = 2^e`` bit ``j`` of the state depends only on the state modulo
``2^(j+1)``, so its period is at most ``2^(j+1)``; :func:`bit_periods` gives
it exactly (see its notes), which explains why ``rand() % 2`` alternates for a
generator returning the whole state (glibc's ``TYPE_0``; for MSVC's bits 16..30 the
lowest output bit has period 2^17).

References
----------
T. E. Hull and A. R. Dobell, "Random number generators", SIAM Review 4 (1962).
D. E. Knuth, *The Art of Computer Programming*, vol. 2, 3rd ed., 3.2.1.2.
S. K. Park and K. W. Miller, "Random number generators: good ones are hard to
find", CACM 31(10) (1988).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd, lcm

from rnglab.algebra.numtheory import (
    DEFAULT_FACTOR_BUDGET,
    FactoringBudgetExceeded,
    carmichael_lambda_factorization,
    factorize,
    minimal_exponent,
    multiplicative_order,
    multiplicative_order_factorization,
    product_of,
)
from rnglab.core.params import describe_int
from rnglab.core.results import Result
from rnglab.generators import LCG, affine_power, validate_lcg


@dataclass(frozen=True)
class Condition(Result):
    """One reason behind a verdict: a named condition, whether it holds, and why."""

    name: str
    holds: bool
    explanation: str


@dataclass(frozen=True)
class PrimePowerCycle(Result):
    """The orbit modulo one prime power ``prime^exponent`` of ``m``."""

    prime: int
    exponent: int
    period: int
    tail: int


@dataclass(frozen=True)
class PeriodResult(Result):
    """The exact period of one seed of an LCG, and whether it is the maximum.

    Attributes
    ----------
    a, c, m, seed : int
        The generator and the starting state ``x_0``.
    period : int
        Length of the cycle the orbit ends in.
    tail : int
        Steps before the cycle starts (0 unless ``a`` shares a factor with ``m``).
    max_period : int
        Largest period of any seed for this ``m`` and ``c``: ``m`` for
        ``c != 0``, Carmichael's ``lambda(m)`` for ``c = 0``.
    is_max : bool
        ``period == max_period``.
    conditions : tuple of Condition
        Hull–Dobell's conditions (``c != 0``) or the order and seed
        conditions (``c = 0``), each with its truth value.
    factorization : tuple of (prime, exponent)
        The factorisation of ``m``.
    components : tuple of PrimePowerCycle
        Period and tail modulo each prime power of ``m``.
    bit_periods : tuple of int or None
        For ``m = 2^e``: the period of bit ``j`` of the state, ``j = 0 .. e-1``.
    summary : str
        One sentence saying whether the period is maximal and why.
    """

    a: int
    c: int
    m: int
    seed: int
    period: int
    tail: int
    max_period: int
    is_max: bool
    conditions: tuple[Condition, ...]
    factorization: tuple[tuple[int, int], ...]
    components: tuple[PrimePowerCycle, ...]
    bit_periods: tuple[int, ...] | None
    summary: str


# -- the orbit modulo a prime power -----------------------------------------------------

def jump_ahead(a: int, c: int, m: int, k: int, x: int) -> int:
    """The state ``k`` steps after ``x`` under ``x -> (a x + c) mod m``, in O(log k) multiplications."""
    jump_a, jump_c = affine_power(a, c, m, k)
    return (jump_a * x + jump_c) % m


def _steps_to_fixed_point(a: int, c: int, q: int, x: int) -> int:
    """Number of steps until ``x`` reaches a fixed point of ``x -> a x + c (mod q)``."""
    steps = 0
    while (a * x + c) % q != x:
        x, steps = (a * x + c) % q, steps + 1
    return steps


def prime_power_cycle(a: int, c: int, p: int, e: int, x: int, *,
                      budget: int = DEFAULT_FACTOR_BUDGET) -> PrimePowerCycle:
    """Period and tail of ``x`` under ``x -> (a x + c) mod p^e`` (see the module notes)."""
    q = p**e
    a, c, x = a % q, c % q, x % q
    if p == 2 and a % 2 == 1:
        return PrimePowerCycle(2, e, period_modulo_power_of_two(a, c, e, x), 0)
    if a % p == 0:
        return PrimePowerCycle(p, e, 1, _steps_to_fixed_point(a, c, q, x))
    multiple = multiplicative_order_factorization(a, q, {p: e}, budget=budget)
    multiple[p] = multiple.get(p, 0) + e
    returns = minimal_exponent(multiple, lambda k: jump_ahead(a, c, q, k, x) == x)
    return PrimePowerCycle(p, e, product_of(returns), 0)


# -- bits of power-of-two generators ---------------------------------------------------

def _period_mod_power_of_two(a: int, c: int, n: int, x: int) -> int:
    """Period of ``x`` modulo ``2^n`` for ``a = 1 (mod 4)``: ``2^(n - v)``, ``v`` the valuation of ``f(x) - x``."""
    step = ((a - 1) * x + c) % 2**n
    return 1 if step == 0 else 2 ** (n - ((step & -step).bit_length() - 1))


def period_modulo_power_of_two(a: int, c: int, e: int, x: int) -> int:
    """Period of ``x`` under ``x -> (a x + c) mod 2^e`` for odd ``a``, in closed form.

    The reasoning of :func:`bit_periods`, applied to the whole state: for
    ``a = 1 (mod 4)`` the period is ``2^(e - v)``; for ``a = 3 (mod 4)`` it is
    twice the period ``R`` under ``f∘f`` when ``R > 1``, else 1 or 2. A handful of
    operations on e-bit integers, where the search for the order by jumps takes
    ``e`` jumps of ``e`` squarings each (minutes at ``e = 4000``).
    """
    if a % 4 == 1:
        return _period_mod_power_of_two(a, c, e, x)
    half = _period_mod_power_of_two(a * a, c * (a + 1), e, x)
    if half > 1:
        return 2 * half
    return 1 if (a * x + c - x) % 2**e == 0 else 2


def _bit_period(a: int, c: int, j: int, x: int) -> int:
    """Period of bit ``j`` of the state of an LCG modulo ``2^e`` (any ``e > j``)."""
    if a % 2 == 0:
        return 1
    if a % 4 == 1:
        return _period_mod_power_of_two(a, c, j + 1, x)
    half = _period_mod_power_of_two(a * a, c * (a + 1), j + 1, x)
    if half > 1:
        return 2 * half
    following = (a * x + c) % 2 ** (j + 1)
    return 1 if (x >> j) & 1 == (following >> j) & 1 else 2


def bit_periods(a: int, c: int, e: int, seed: int) -> tuple[int, ...]:
    """Exact period of every bit ``j = 0 .. e-1`` of the state of an LCG modulo ``2^e``.

    Notes
    -----
    Bit ``j`` is a function of the state modulo ``2^(j+1)``, an LCG of its own.

    * ``a`` even: the state becomes constant, so does every bit: period 1.
    * ``a = 1 (mod 4)``: the orbit of ``x`` modulo ``2^n`` is
      ``x + d (1 + a + ... + a^(k-1))`` with ``d = f(x) - x``, and the sums
      run over all residues (Hull–Dobell for ``c = 1``), so the cycle is the
      whole class ``x + 2^v Z`` with ``v`` the 2-adic valuation of ``d``. For
      ``v <= j`` its size doubles from modulus ``2^j`` to ``2^(j+1)``, so bit
      ``j`` cannot repeat sooner than the state: bit period = state period
      modulo ``2^(j+1)`` (1 when ``v > j``).
    * ``a = 3 (mod 4)``: even and odd terms are the orbits of ``x`` and
      ``f(x)`` under ``f∘f``, whose multiplier ``a^2 = 1 (mod 8)``; both have
      the same period ``R`` (their differences ``f∘f(y) - y`` differ by the
      unit factor ``a``). The interleaved bit has period ``2R`` if ``R > 1``;
      otherwise 1 or 2 as bit ``j`` of ``x`` and ``f(x)`` agree or not.

    So the last bit of a full-period generator alternates (period 2) and bit
    ``j`` has period ``2^(j+1)``.
    """
    return tuple(_bit_period(a, c, j, seed) for j in range(e))


# -- maximal periods and their conditions ----------------------------------------------

def hull_dobell_conditions(a: int, c: int, m: int, primes: list[int]) -> tuple[Condition, ...]:
    """Hull–Dobell's three conditions for the full period ``m`` (``c != 0``), each evaluated.

    ``primes`` are the prime factors of ``m``.
    """
    failing = [p for p in primes if (a - 1) % p]
    return (
        Condition("c coprime to m", gcd(c, m) == 1, f"gcd(c, m) = {gcd(c, m)}"),
        Condition("p | a-1 for every prime p | m", not failing,
                  f"a - 1 is not divisible by {', '.join(map(str, failing))}" if failing
                  else f"a - 1 is divisible by every prime factor of m ({', '.join(map(str, primes))})"),
        Condition("4 | a-1 if 4 | m", m % 4 != 0 or (a - 1) % 4 == 0,
                  f"a - 1 = {(a - 1) % 4} (mod 4)" if m % 4 == 0 else "m is not a multiple of 4"),
    )


def _order_condition(a: int, m: int, factors: dict[int, int], maximum: int, budget: int) -> Condition:
    """Condition "a has the largest order lambda(m)", named as Knuth states it for m prime or 2^e."""
    if gcd(a, m) != 1:
        return Condition("a has the maximal order lambda(m)", False,
                         f"a is not coprime to m (gcd {gcd(a, m)}), so it has no multiplicative order")
    order = multiplicative_order(a, m, factors, budget=budget)
    if list(factors) == [2] and factors[2] >= 3:
        return Condition("a = 3 or 5 (mod 8)", a % 8 in (3, 5),
                         f"a = {a % 8} (mod 8); the order of a is {order}, lambda(2^e) = 2^(e-2) = {maximum}")
    name = "a is a primitive root modulo m" if len(factors) == 1 and factors.get(m) == 1 \
        else "a has the maximal order lambda(m)"
    return Condition(name, order == maximum, f"the order of a is {order}; lambda(m) = {maximum}")


def _seed_condition(seed: int, m: int) -> Condition:
    name = "seed is odd" if m & (m - 1) == 0 else "seed coprime to m"
    return Condition(name, gcd(seed, m) == 1, f"gcd(seed, m) = {gcd(seed, m)}")


def _summary(c: int, period: int, maximum: int, conditions: tuple[Condition, ...]) -> str:
    failed = ", ".join(condition.name for condition in conditions if not condition.holds)
    bound = "m" if c else "lambda(m)"
    if period == maximum:
        return f"maximal: the period is {bound} = {maximum}" + (f" (although not: {failed})" if failed else "")
    return f"not maximal: {period} < {bound} = {maximum}; failing: {failed}"


def _period_result(a: int, c: int, m: int, seed: int, factors: dict[int, int], budget: int) -> PeriodResult:
    """Combine the prime-power orbits and judge the period (see :func:`lcg_period`)."""
    components = tuple(prime_power_cycle(a, c, p, e, seed, budget=budget) for p, e in factors.items())
    period, tail = lcm(*(part.period for part in components)), max(part.tail for part in components)
    if c:
        maximum, conditions = m, hull_dobell_conditions(a, c, m, list(factors))
    else:
        maximum = product_of(carmichael_lambda_factorization(factors, budget=budget))
        conditions = (_order_condition(a, m, factors, maximum, budget), _seed_condition(seed, m))
    return PeriodResult(
        a=a, c=c, m=m, seed=seed, period=period, tail=tail, max_period=maximum,
        is_max=period == maximum, conditions=conditions, factorization=tuple(factors.items()),
        components=components, summary=_summary(c, period, maximum, conditions),
        bit_periods=bit_periods(a, c, factors[2], seed) if list(factors) == [2] else None)


def lcg_period(*, a: int, m: int, c: int = 0, seed: int = 1,
               budget: int = DEFAULT_FACTOR_BUDGET) -> PeriodResult:
    """Exact period and tail of the orbit of ``seed`` under ``x -> (a x + c) mod m``.

    Parameters
    ----------
    a, m, c, seed : int
        Python integers of any size, validated by
        :func:`rnglab.generators.validate_lcg`.
    budget : int, optional
        Pollard–Brent iterations allowed for factoring ``m`` and the ``p - 1``
        of its prime factors (see :func:`rnglab.algebra.numtheory.factorize`).

    Raises
    ------
    ValueError
        For invalid parameters, or when ``m`` cannot be factored within the budget.

    Examples
    --------
    >>> lcg_period(a=16807, m=2**31 - 1).period      # MINSTD, Park & Miller 1988
    2147483646
    >>> lcg_period(a=65539, m=2**31).period          # RANDU: 2^(31-2)
    536870912
    """
    validate_lcg(a, c, m, seed)
    try:
        factors = factorize(m, budget=budget)
    except FactoringBudgetExceeded:
        raise ValueError(f"cannot factor m = {describe_int(m)} within the budget of {budget:,} units of "
                         "Pollard-Brent work; the period is unknown") from None
    try:
        return _period_result(a, c, m, seed, factors, budget)
    except FactoringBudgetExceeded as error:
        raise ValueError(f"{error} (needed for orders modulo the prime factors of m = {describe_int(m)}); "
                         "the period is unknown") from None


def period(generator: LCG, *, budget: int = DEFAULT_FACTOR_BUDGET) -> PeriodResult:
    """Exact period and tail of an :class:`~rnglab.generators.LCG` from its current state."""
    if not isinstance(generator, LCG):
        raise TypeError(f"the period is computed for LCGs only; got {type(generator).__name__}")
    return lcg_period(a=generator.a, m=generator.m, c=generator.c, seed=generator.x, budget=budget)
