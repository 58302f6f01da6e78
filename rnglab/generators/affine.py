"""Exact affine maps ``x -> (A x + C) mod m`` on Python integers and on arrays.

An LCG step is the affine map ``(a, c)``; ``k`` steps are the affine map
``(a^k, c (a^(k-1) + ... + a + 1))``, computed here by binary powering of the
map itself, so no inverse of ``a - 1`` is needed (Knuth, TAOCP vol. 2,
3.2.1, eq. (6); Brown, "Random number generation with arbitrary strides",
Trans. ANS 71, 1994).

Arrays use the cheapest exact arithmetic for the modulus:

* ``"pow2"``  m = 2^e <= 2^64: uint64 wrap-around; states are kept modulo
  2^64 and masked only when read (the low e bits agree);
* ``"small"`` m <= 2^32: uint64 products are exact, then ``%``;
* ``"longdouble"`` m <= 2^62, where numpy's long double has a 64-bit
  mantissa (x86-64 Linux): the quotient ``floor((A x + C) / m)`` estimated
  in long double is off by at most one, and the remainder is computed
  exactly in wrapping uint64 arithmetic and corrected;
* ``"object"`` anything else: Python integers in object arrays, exact and slow.
"""

from __future__ import annotations

import numpy as np

LONGDOUBLE_LIMIT = 2**62


def compose(first: tuple[int, int], second: tuple[int, int], m: int) -> tuple[int, int]:
    """Return the affine map "apply ``first``, then ``second``", modulo ``m``."""
    a1, c1 = first
    a2, c2 = second
    return (a2 * a1) % m, (a2 * c1 + c2) % m


def binary_power(element, exponent: int, identity, multiply):
    """``element^exponent`` under the associative ``multiply``, by repeated squaring (O(log exponent) products)."""
    result = identity
    while exponent:
        if exponent & 1:
            result = multiply(result, element)
        element = multiply(element, element)
        exponent >>= 1
    return result


def affine_power(a: int, c: int, m: int, k: int) -> tuple[int, int]:
    """Return ``(A, C)`` with ``x_{n+k} = (A x_n + C) mod m`` for the LCG ``(a, c, m)``.

    Binary powering of the affine map: O(log k) multiplications of integers
    below ``m``, valid whether or not ``a - 1`` is invertible modulo ``m``.
    """
    if k < 0:
        raise ValueError(f"jump distance must be >= 0; got {k}")
    return binary_power((a % m, c % m), k, (1 % m, 0), lambda first, second: compose(first, second, m))


def arithmetic_kind(m: int) -> str:
    """Name the array arithmetic used for modulus ``m`` (see the module docstring)."""
    if m & (m - 1) == 0 and m <= 2**64:
        return "pow2"
    if m <= 2**32:
        return "small"
    if m <= LONGDOUBLE_LIMIT and np.finfo(np.longdouble).nmant >= 63:
        return "longdouble"
    return "object"


def state_dtype(m: int) -> np.dtype:
    """Array dtype that holds states modulo ``m``."""
    return np.dtype(object) if arithmetic_kind(m) == "object" else np.dtype(np.uint64)


def _longdouble_step(x: np.ndarray, A: int, C: int, m: int) -> np.ndarray:
    estimate = (np.longdouble(A) * x.astype(np.longdouble) + np.longdouble(C)) / np.longdouble(m)
    quotient = np.floor(estimate).astype(np.uint64)
    quotient -= quotient > 0                       # now quotient <= the true quotient
    r = x * np.uint64(A) + np.uint64(C) - quotient * np.uint64(m)   # exact mod 2^64, in [0, 3m)
    r -= np.uint64(m) * (r >= np.uint64(m))
    r -= np.uint64(m) * (r >= np.uint64(m))
    return r


def affine_step(x: np.ndarray, A: int, C: int, m: int) -> np.ndarray:
    """Return ``(A x + C) mod m`` for an array of states ``x`` (exact).

    For ``"pow2"`` moduli the result is only correct modulo ``m`` (it is
    kept modulo 2^64); read it through :func:`reduce_states`.
    """
    kind = arithmetic_kind(m)
    if kind == "pow2":
        out = x * np.uint64(A % 2**64)
        out += np.uint64(C % 2**64)
        return out
    if kind == "small":
        out = x * np.uint64(A)
        out += np.uint64(C)
        out %= np.uint64(m)
        return out
    if kind == "longdouble":
        return _longdouble_step(x, A, C, m)
    return (x * A + C) % m


def reduce_states(x: np.ndarray, m: int) -> np.ndarray:
    """Return the states ``x`` reduced into ``[0, m)`` (a no-op except for pow2 moduli)."""
    if arithmetic_kind(m) == "pow2" and m < 2**64:
        return x & np.uint64(m - 1)
    return x


def as_state_array(values, m: int) -> np.ndarray:
    """Convert Python integers in ``[0, m)`` to the state array dtype for ``m``."""
    if state_dtype(m) == object:
        out = np.empty(len(values), dtype=object)
        out[:] = [int(v) for v in values]
        return out
    return np.asarray(values, dtype=np.uint64)
