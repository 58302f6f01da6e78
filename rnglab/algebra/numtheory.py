"""Number theory for exact periods: primality, factoring, orders, Carmichael's function.

Everything works on Python integers of any size.

* :func:`is_probable_prime`: deterministic Miller–Rabin with the first 13
  prime bases for ``n < 3.3e24`` (exact: Sorenson & Webster 2017); beyond, the
  Baillie–PSW test (a strong base-2 test plus a strong Lucas test), for which
  no composite that passes is known.
* :func:`factorize`: trial division by the primes below 4096, perfect powers,
  then Pollard's rho in Brent's variant, within a budget of work (iterations weighted by
  the size of the number, :func:`iteration_cost`);
  :class:`FactoringBudgetExceeded` (a ``ValueError``) when the budget runs out.
  Below 2^64 the rho iteration is compiled (numba) with Montgomery
  multiplication on 64-bit words, about 50 times faster than on Python
  integers, so any m <= 2^64 factors in a few milliseconds.
* :func:`multiplicative_order`, :func:`carmichael_lambda` and the generic
  :func:`minimal_exponent` (the order of anything, given a multiple of it).

Factorisations are dictionaries ``{prime: exponent}`` with the primes in
increasing order.

References
----------
J. M. Pollard, "A Monte Carlo method for factorization", BIT 15 (1975).
R. P. Brent, "An improved Monte Carlo factorization algorithm", BIT 20 (1980).
P. L. Montgomery, "Modular multiplication without trial division", Math. Comp. 44 (1985).
R. Baillie and S. S. Wagstaff, "Lucas pseudoprimes", Math. Comp. 35 (1980).
J. Sorenson and J. Webster, "Strong pseudoprimes to twelve prime bases",
Math. Comp. 86 (2017), arXiv:1509.00864.
R. D. Carmichael, "Note on a new number theory function", Bull. AMS 16 (1910).
"""

from __future__ import annotations

from collections.abc import Callable
from math import gcd, isqrt

import numpy as np

from rnglab.core.compiled import njit
from rnglab.core.params import describe_int
from rnglab.reduction.maps import multiply_128

#: Trial division removes every prime below this bound first.
TRIAL_DIVISION_BOUND = 4096

#: Default budget of work per factorisation, in Pollard–Brent iterations on numbers of up to
#: :data:`COST_WORDS` 64-bit words (:func:`iteration_cost` weighs larger ones).
DEFAULT_FACTOR_BUDGET = 2_000_000
#: An iteration on Python integers of w 64-bit words costs 1 + w^2 / COST_WORDS^2 units: measured
#: (semiprimes, 32,766 iterations each, 2 shared cores) 1.27 us at 128 bits, 2.25 at 256, 5.13 at 512,
#: 13.6 at 1024, 43.5 at 2048 and 154 at 4000 bits, about 1 + 0.039 w^2 us (CPython's division is
#: quadratic). The default budget is then about 2.5 s of work at any size: 2^4000 + 1 used to run
#: 2,000,000 unweighted iterations, over 5 minutes, before giving up.
COST_WORDS = 5

#: Miller–Rabin with the first 13 primes as bases is exact below this bound
#: (Sorenson & Webster: the least strong pseudoprime to all of them).
DETERMINISTIC_BOUND = 3_317_044_064_679_887_385_961_981
_DETERMINISTIC_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def _primes_below(bound: int) -> tuple[int, ...]:
    sieve = bytearray([1]) * bound
    sieve[:2] = b"\x00\x00"
    for p in range(2, isqrt(bound - 1) + 1):
        if sieve[p]:
            sieve[p * p::p] = bytearray(len(range(p * p, bound, p)))
    return tuple(i for i, flag in enumerate(sieve) if flag)


SMALL_PRIMES = _primes_below(TRIAL_DIVISION_BOUND)


class FactoringBudgetExceeded(ValueError):
    """Raised when :func:`factorize` cannot split a number within its iteration budget."""


# -- primality -------------------------------------------------------------------------

def _is_strong_probable_prime(n: int, base: int) -> bool:
    """Miller–Rabin round: is odd ``n > 2`` a strong probable prime to ``base``?"""
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    x = pow(base, d, n)
    if x in (1, n - 1):
        return True
    for _ in range(s - 1):
        x = x * x % n
        if x == n - 1:
            return True
    return False


def jacobi_symbol(a: int, n: int) -> int:
    """Jacobi symbol ``(a / n)`` for odd ``n > 0`` (quadratic reciprocity, no factoring)."""
    if n <= 0 or n % 2 == 0:
        raise ValueError(f"n must be an odd positive integer; got {n}")
    a, result = a % n, 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                result = -result
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def _selfridge_parameter(n: int) -> int | None:
    """First D in 5, -7, 9, -11, ... with Jacobi (D/n) = -1; None if a D reveals a factor."""
    d = 5
    while True:
        symbol = jacobi_symbol(d, n)
        if symbol == -1:
            return d
        if symbol == 0 and abs(d) != n:
            return None
        d = -d - 2 if d > 0 else -d + 2


def _is_strong_lucas_probable_prime(n: int) -> bool:
    """Strong Lucas test with Selfridge's parameters P = 1, Q = (1 - D)/4 (odd n, not a square).

    With ``n + 1 = d 2^s`` (d odd), ``n`` passes when ``U_d = 0`` or
    ``V_{d 2^r} = 0 (mod n)`` for some ``0 <= r < s`` (Baillie & Wagstaff 1980).
    """
    d_parameter = _selfridge_parameter(n)
    if d_parameter is None:
        return False
    q = (1 - d_parameter) // 4
    d, s = n + 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1

    def half(value: int) -> int:
        value %= n
        return (value + n if value % 2 else value) // 2

    u, v, q_power = 1, 1, q % n                      # U_1, V_1, Q^1 for P = 1
    for bit in bin(d)[3:]:
        u, v, q_power = u * v % n, (v * v - 2 * q_power) % n, q_power * q_power % n
        if bit == "1":
            u, v, q_power = half(u + v), half(d_parameter * u + v), q_power * q % n
    if u == 0 or v == 0:
        return True
    for _ in range(s - 1):
        v, q_power = (v * v - 2 * q_power) % n, q_power * q_power % n
        if v == 0:
            return True
    return False


def is_probable_prime(n: int) -> bool:
    """Primality test: exact below ``DETERMINISTIC_BOUND`` (about 3.3e24), Baillie–PSW above.

    Below the bound, Miller–Rabin with the 13 prime bases 2..41 is a proof
    (Sorenson & Webster 2017). Above it, the Baillie–PSW test (strong base-2
    Miller–Rabin plus a strong Lucas test) is used; no composite passing it is
    known, but it is not a proof: the answer is "probable prime".
    """
    if n < 2:
        return False
    for p in SMALL_PRIMES[:25]:
        if n % p == 0:
            return n == p
    if n < DETERMINISTIC_BOUND:
        return all(_is_strong_probable_prime(n, base) for base in _DETERMINISTIC_BASES)
    return _is_baillie_psw_probable_prime(n)


def _is_baillie_psw_probable_prime(n: int) -> bool:
    """Baillie–PSW for odd ``n`` with no factor below 100."""
    if isqrt(n) ** 2 == n:
        return False
    return _is_strong_probable_prime(n, 2) and _is_strong_lucas_probable_prime(n)


# -- factoring -------------------------------------------------------------------------

def integer_root(n: int, k: int) -> int:
    """Return ``floor(n ** (1/k))`` exactly, for ``n >= 0`` and ``k >= 1`` (Newton's method)."""
    if n < 2 or k == 1:
        return n
    root = 1 << -(-n.bit_length() // k)               # an upper bound
    while True:
        smaller = ((k - 1) * root + n // root ** (k - 1)) // k
        if smaller >= root:
            return root
        root = smaller


def _perfect_power(n: int) -> tuple[int, int]:
    """Return ``(r, k)`` with ``n = r^k`` and ``k`` as large as possible (``k = 1`` if none)."""
    for k in SMALL_PRIMES:
        if 2**k > n:
            break
        root = integer_root(n, k)
        if root**k == n:
            base, exponent = _perfect_power(root)
            return base, exponent * k
    return n, 1


def iteration_cost(n: int) -> int:
    """Work units of one Pollard–Brent iteration modulo ``n``: 1 up to 256 bits, ``1 + w^2 // 25`` for w words.

    See :data:`COST_WORDS` for the measurement behind the weight.
    """
    words = -(-n.bit_length() // 64)
    return 1 + words * words // (COST_WORDS * COST_WORDS)


def _brent_rho(n: int, increment: int, budget: int) -> tuple[int | None, int]:
    """One Pollard–Brent run with ``y -> y^2 + increment``; return (factor or None, iterations used).

    Products of ``|x - y|`` are accumulated 128 at a time before one gcd, and
    the run backtracks when a batch overshoots to ``n`` (Brent 1980). A round
    of 2r iterations starts only if it fits in what is left of ``budget``.
    """
    y, r, product, g, used, batch = 2, 1, 1, 1, 0, 128
    x = saved = y
    while g == 1 and used + 2 * r <= budget:
        x = y
        for _ in range(r):
            y = (y * y + increment) % n
        k = 0
        while k < r and g == 1:
            saved = y
            for _ in range(min(batch, r - k)):
                y = (y * y + increment) % n
                product = product * abs(x - y) % n
            g, k = gcd(product, n), k + batch
        used += 2 * r
        r *= 2
    if g == n:
        g = 1
        while g == 1:
            saved = (saved * saved + increment) % n
            g = gcd(abs(x - saved), n)
    return (g if 1 < g < n else None), used


# Word-size Pollard–Brent for odd n < 2^64. Values stay in Montgomery form x R mod n
# (R = 2^64): the map y -> y^2 + c becomes y -> REDC(y y) + c, a map of the same
# shape, and gcd(x - y, n) and products of differences are unchanged up to the
# unit R, so the factors found are those of n. Constants are np.uint64: numba turns
# mixed uint64/int64 arithmetic into float64.

@njit(cache=True, nogil=True)
def _montgomery_multiply(a, b, n, negative_inverse):  # pragma: no cover - compiled
    """``a b / 2^64 mod n`` for ``a, b < n``, n odd (REDC, with the carry for n >= 2^63)."""
    high, low = multiply_128(a, b)
    reducer = low * negative_inverse
    total = high + multiply_128(reducer, n)[0]
    overflow = total < high
    if low != np.uint64(0):
        total += np.uint64(1)
        overflow |= total == np.uint64(0)
    if overflow or total >= n:
        total -= n
    return total


@njit(cache=True, nogil=True)
def _word_gcd(a, b):  # pragma: no cover - compiled
    while b:
        a, b = b, a % b
    return a


@njit(cache=True, nogil=True)
def _square_add(y, increment, n, negative_inverse):  # pragma: no cover - compiled
    total = _montgomery_multiply(y, y, n, negative_inverse) + increment
    if total >= n or total < increment:
        total -= n
    return total


@njit(cache=True, nogil=True)
def _brent_rho_word(n, increment, budget):  # pragma: no cover - compiled
    """:func:`_brent_rho` for odd ``n < 2^64``; returns (factor or 0, iterations used)."""
    inverse = n                                       # n^-1 mod 2^64 by Newton: 3, 6, ..., 96 bits
    for _ in range(5):
        inverse *= np.uint64(2) - n * inverse
    negative_inverse = np.uint64(0) - inverse
    increment = np.uint64(increment) % n
    y, product, g, r, used, batch = np.uint64(2) % n, np.uint64(1), np.uint64(1), 1, 0, 128
    x = saved = y
    while g == 1 and used + 2 * r <= budget:
        x = y
        for _ in range(r):
            y = _square_add(y, increment, n, negative_inverse)
        k = 0
        while k < r and g == 1:
            saved = y
            for _ in range(min(batch, r - k)):
                y = _square_add(y, increment, n, negative_inverse)
                product = _montgomery_multiply(product, x - y if x > y else y - x, n, negative_inverse)
            g, k = _word_gcd(product, n), k + batch
        used += 2 * r
        r *= 2
    if g == n:
        g = np.uint64(1)
        while g == 1:
            saved = _square_add(saved, increment, n, negative_inverse)
            g = _word_gcd(x - saved if x > saved else saved - x, n)
    return (g if 1 < g < n else np.uint64(0)), used


def _rho(n: int, increment: int, budget: int) -> tuple[int | None, int]:
    """One Pollard–Brent run: compiled below 2^64 (n is odd after trial division), else Python integers.

    ``budget`` and the work returned are in units of :func:`iteration_cost`.
    """
    if n < 2**64:
        factor, used = _brent_rho_word(np.uint64(n), increment, budget)
        return (int(factor) or None), int(used)
    cost = iteration_cost(n)
    factor, used = _brent_rho(n, increment, budget // cost)
    return factor, used * cost


def _split(n: int, budget: int) -> tuple[int | None, int]:
    """A non-trivial factor of composite ``n`` (None when ``budget`` runs out) and the work used.

    The work is in units of :func:`iteration_cost`.
    """
    used = 0
    for increment in range(1, 100):
        factor, spent = _rho(n, increment, budget - used)
        used += spent
        if factor is not None or spent == 0:
            return factor, used
    return None, used


def _trial_division(n: int, factors: dict[int, int]) -> int:
    """Move the primes below ``TRIAL_DIVISION_BOUND`` from ``n`` into ``factors``; return the cofactor."""
    for p in SMALL_PRIMES:
        if p * p > n:
            break
        while n % p == 0:
            n //= p
            factors[p] = factors.get(p, 0) + 1
    if 1 < n < TRIAL_DIVISION_BOUND**2:                  # what is left is 1 or a prime
        factors[n] = factors.get(n, 0) + 1
        n = 1
    return n


def factorize(n: int, *, budget: int = DEFAULT_FACTOR_BUDGET) -> dict[int, int]:
    """Factor ``n >= 1`` into primes: ``{prime: exponent}`` in increasing order of primes.

    Parameters
    ----------
    n : int
        The number to factor (any size).
    budget : int, optional
        Maximum total work of Pollard–Brent, in iterations (modular squarings) weighted
        by the size of the number (:func:`iteration_cost`); the default finds factors
        up to about 10^11 and gives up after a few seconds of work at any size.

    Raises
    ------
    FactoringBudgetExceeded
        (a ``ValueError``) when a composite part cannot be split within the budget.

    Notes
    -----
    Primality of the parts is decided by :func:`is_probable_prime` (a proof
    below 3.3e24, Baillie–PSW above).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be an integer >= 1; got {n!r}")
    factors: dict[int, int] = {}
    pending, left = [(_trial_division(n, factors), 1)], budget
    while pending:
        value, multiplicity = pending.pop()
        if value == 1:
            continue
        if is_probable_prime(value):
            factors[value] = factors.get(value, 0) + multiplicity
            continue
        root, power = _perfect_power(value)
        if power > 1:
            pending.append((root, multiplicity * power))
            continue
        factor, used = _split(value, left)
        if factor is None:
            part = "" if value == n else f" (its part {describe_int(value)} resisted)"
            raise FactoringBudgetExceeded(f"cannot factor {describe_int(n)}{part} within the budget of {budget:,} "
                                          "units of Pollard-Brent work")
        left -= used
        pending += [(factor, multiplicity), (value // factor, multiplicity)]
    return dict(sorted(factors.items()))


def product_of(factorization: dict[int, int]) -> int:
    """Return the number whose factorisation is given."""
    result = 1
    for p, e in factorization.items():
        result *= p**e
    return result


def lcm_of_factorizations(*factorizations: dict[int, int]) -> dict[int, int]:
    """Factorisation of the least common multiple (the largest exponent of each prime)."""
    result: dict[int, int] = {}
    for factorization in factorizations:
        for p, e in factorization.items():
            result[p] = max(result.get(p, 0), e)
    return dict(sorted(result.items()))


# -- orders ----------------------------------------------------------------------------

def minimal_exponent(multiple: dict[int, int], is_identity: Callable[[int], bool]) -> dict[int, int]:
    """Smallest ``k`` dividing ``N`` with ``is_identity(k)``, where ``N`` is given factored.

    The exponents ``k`` with ``g^k = 1`` for an element ``g`` of a group form
    the multiples of the order of ``g``; given a multiple ``N`` of the order,
    the order is found by dividing ``N`` by each prime for as long as
    ``g^(N/p) = 1`` still holds. ``is_identity(k)`` must report ``g^k = 1``.

    Returns
    -------
    dict
        The factorisation of the order.
    """
    exponents = dict(multiple)
    value = product_of(exponents)
    for p in list(exponents):
        while exponents[p] and is_identity(value // p):
            value //= p
            exponents[p] -= 1
    return {p: e for p, e in exponents.items() if e}


def carmichael_lambda_factorization(factorization: dict[int, int], *,
                                    budget: int = DEFAULT_FACTOR_BUDGET) -> dict[int, int]:
    """Factorisation of Carmichael's ``lambda(n)``, given the factorisation of ``n``.

    ``lambda(2) = 1``, ``lambda(4) = 2``, ``lambda(2^e) = 2^(e-2)`` for e >= 3,
    ``lambda(p^e) = p^(e-1) (p - 1)`` for odd p, and lambda of a product of
    coprime prime powers is the lcm of theirs (Carmichael 1910). Factoring
    ``p - 1`` may raise :class:`FactoringBudgetExceeded`.
    """
    parts = []
    for p, e in factorization.items():
        if p == 2:
            parts.append({2: e - 2} if e >= 3 else {2: e - 1})
        else:
            part = factorize(p - 1, budget=budget)
            if e > 1:
                part[p] = e - 1
            parts.append(part)
    return {p: e for p, e in lcm_of_factorizations(*parts).items() if e}


def carmichael_lambda(n: int, factorization: dict[int, int] | None = None, *,
                      budget: int = DEFAULT_FACTOR_BUDGET) -> int:
    """Carmichael's function: the largest multiplicative order of any unit modulo ``n``.

    Examples
    --------
    >>> carmichael_lambda(2**31 - 1), carmichael_lambda(2**32), carmichael_lambda(15)
    (2147483646, 1073741824, 4)
    """
    if n < 1:
        raise ValueError(f"n must be >= 1; got {n}")
    factorization = factorization or factorize(n, budget=budget)
    return product_of(carmichael_lambda_factorization(factorization, budget=budget))


def multiplicative_order_factorization(a: int, n: int, factorization: dict[int, int] | None = None, *,
                                       budget: int = DEFAULT_FACTOR_BUDGET) -> dict[int, int]:
    """Factorisation of the multiplicative order of ``a`` modulo ``n`` (see :func:`multiplicative_order`)."""
    if n < 1:
        raise ValueError(f"n must be >= 1; got {n}")
    if gcd(a, n) != 1:
        raise ValueError(f"a must be coprime to n for a multiplicative order; gcd({a}, {n}) = {gcd(a, n)}")
    multiple = carmichael_lambda_factorization(factorization or factorize(n, budget=budget), budget=budget)
    return minimal_exponent(multiple, lambda k: pow(a, k, n) == 1 % n)


def multiplicative_order(a: int, n: int, factorization: dict[int, int] | None = None, *,
                         budget: int = DEFAULT_FACTOR_BUDGET) -> int:
    """Smallest ``k >= 1`` with ``a^k = 1 (mod n)``, for ``a`` coprime to ``n``.

    ``factorization`` (of ``n``) saves factoring it again; ``budget`` bounds
    the factoring (see :func:`factorize`). The order divides ``lambda(n)``;
    it is found from the factorisation of
    ``lambda(n)`` by :func:`minimal_exponent` in O(log(lambda) * number of
    prime factors) modular powers.

    Examples
    --------
    >>> multiplicative_order(16807, 2**31 - 1)   # 16807 = 7^5 is a primitive root
    2147483646
    >>> multiplicative_order(65539, 2**31)      # RANDU: 65539 = 3 (mod 8)
    536870912
    """
    return product_of(multiplicative_order_factorization(a, n, factorization, budget=budget))
