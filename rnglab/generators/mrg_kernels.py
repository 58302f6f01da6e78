"""Compiled stepping of (combined) MRGs for every modulus below 2^63, exact to the last bit.

Each component's state is one row of a ``(components, k_max)`` uint64 array,
oldest value first; a batch of generators, one per seed, is a
``(lanes * components, k_max)`` array, stepped lane by lane. The sum
``a_1 x_{n-1} + ... + a_k x_{n-k}`` (coefficients reduced into [0, m)) is
formed in one of three ways, chosen per component when the kernel's arguments
are built (:func:`plan`):

``summed``
    ``sum_i a_i (m - 1) < 2^64``: the whole sum in 64 bits, reduced once (as a C loop does);
``direct``
    ``a_i (m - 1) < 2^64`` for every i: each product reduced, then added modulo m;
``wide``
    any a_i < m < 2^63: each product ``a_i x`` taken exactly in 128 bits (four 32-bit
    partial products) and reduced by :func:`_reduce_wide`, two estimates of the
    quotient in double precision and no division.

Sums of two values below m < 2^63 never overflow 64 bits. The output follows
:meth:`~rnglab.generators.mrg.Combination.combine`; for ``difference`` the
kernel takes combinations whose z = x_1 - x_2 - ... stays above -2^63 (the
subtracted moduli sum below 2^63), and ``fraction`` a product of moduli below
2^63. The step is written out in the one loop (:func:`_run`): helpers for it,
even inlined, or a branch on z between components, cost half the speed.
"""

from __future__ import annotations

import functools

import numpy as np

from rnglab.core.compiled import njit

#: Rule codes of the kernel.
COMBINE_CODES = {"single": 0, "difference": 1, "fraction": 2}
#: Ways of forming a component's sum (see the module notes).
SUMMED, DIRECT, WIDE = 0, 1, 2
#: Fewer outputs than this are stepped in Python: building the kernel's arrays costs more.
SMALL_DRAW = 16
#: Moduli, the wrap, the subtracted moduli's sum and the product of moduli (``fraction``) the kernel takes are below it.
WORD_LIMIT = 2**63


def fits_words(combination) -> bool:
    """True when the compiled kernel computes this combination exactly."""
    if any(c.m >= WORD_LIMIT for c in combination.components):
        return False
    if combination.rule == "difference":  # z = x_1 - x_2 - ... stays above -2^63
        return combination.wrap_value < WORD_LIMIT and sum(c.m - 1 for c in combination.components[1:]) < WORD_LIMIT
    return combination.rule != "fraction" or combination.modulus_product < WORD_LIMIT


@njit(cache=True, nogil=True, inline="always")
def _product(a, x):  # pragma: no cover - compiled
    """``(high, low)`` 64-bit words of the exact product of two uint64, from four 32-bit partial products."""
    mask = np.uint64(0xFFFFFFFF)
    thirty_two = np.uint64(32)
    a_low, a_high, x_low, x_high = a & mask, a >> thirty_two, x & mask, x >> thirty_two
    low_low, high_low, low_high = a_low * x_low, a_high * x_low, a_low * x_high
    middle = (low_low >> thirty_two) + (high_low & mask) + (low_high & mask)
    high = a_high * x_high + (high_low >> thirty_two) + (low_high >> thirty_two) + (middle >> thirty_two)
    return high, (middle << thirty_two) | (low_low & mask)


@njit(cache=True, nogil=True, inline="always")
def _reduce_wide(a, x, m, inverse):  # pragma: no cover - compiled
    """``a x mod m`` for a, x < m < 2^63, exactly.

    p = a x < 2^126 in 128 bits; q_1 = trunc(p / m) in double precision is off by
    less than 2^12, so r = p - q_1 m (exact, in 128 bits) satisfies |r| < 2^13 m, its
    high word is a small signed number, and q_2 = floor(r / m) in double precision
    leaves r - q_2 m in (-2^24, m + 2^24); one addition or subtraction of m ends it
    (these ranges stay apart modulo 2^64 because m < 2^63).
    """
    two_64 = 18446744073709551616.0
    high, low = _product(a, x)
    estimate = (np.float64(high) * two_64 + np.float64(low)) * inverse
    quotient = np.uint64(estimate)  # below 2^63 (1 + 2^-50): a uint64
    product_high, product_low = _product(quotient, m)
    remainder_low = low - product_low
    remainder_high = np.int64(high - product_high - np.uint64(low < product_low))
    second = np.int64(np.floor((np.float64(remainder_high) * two_64 + np.float64(remainder_low)) * inverse))
    value = remainder_low - np.uint64(second) * m
    if value >= np.uint64(0xFFFFFFFF00000000):  # negative
        return value + m
    return value - m if value >= m else value


@njit(cache=True, nogil=True)
def _run(states, lanes, count, orders, coefficients, ways, moduli, inverses, code, wrap, cofactors,
         out):  # pragma: no cover - compiled
    """Step generator ``lane`` (rows ``lane * components + j``) ``count`` times for each of ``lanes``,
    writing its outputs to ``out[lane + n]``: one generator is ``lanes = [0]``, a batch ``count = 1``."""
    components = orders.shape[0]
    for lane in lanes:
        for n in range(count):
            total = np.int64(0)
            for j in range(components):
                row, m, k = lane * components + j, moduli[j], orders[j]
                acc = np.uint64(0)
                if ways[j] == SUMMED:
                    for i in range(k):
                        acc += coefficients[j, i] * states[row, k - 1 - i]
                    acc %= m
                else:
                    for i in range(k):
                        if coefficients[j, i] != 0:
                            if ways[j] == DIRECT:
                                term = coefficients[j, i] * states[row, k - 1 - i] % m
                            else:
                                term = _reduce_wide(coefficients[j, i], states[row, k - 1 - i], m, inverses[j])
                            acc = acc + term if acc + term < m else acc + term - m
                for i in range(k - 1):
                    states[row, i] = states[row, i + 1]
                states[row, k - 1] = acc
                if code == 0:
                    total = np.int64(acc)
                elif code == 1:
                    total = np.int64(acc) if j == 0 else total - np.int64(acc)
                else:
                    total = np.int64((np.uint64(total) + acc * cofactors[j]) % cofactors[components])
            if code == 1 and total <= 0:
                total = total + wrap if total > -wrap else total + ((-total) // wrap + 1) * wrap
            out[lane + n] = np.uint64(total)


def _way(component) -> int:
    reduced = [a % component.m for a in component.a]
    if sum(reduced) * (component.m - 1) < 2**64:
        return SUMMED
    return DIRECT if max(reduced) * (component.m - 1) < 2**64 else WIDE


def _inverse(component, way: int) -> float:
    return 1.0 / component.m if way == WIDE else 0.0


@functools.lru_cache(maxsize=64)
def plan(combination) -> tuple[int, tuple]:
    """``(k_max, arguments)``: the kernels' constant arguments for ``combination`` (built once per combination)."""
    components = combination.components
    width = max(c.order for c in components)
    coefficients = np.zeros((len(components), width), dtype=np.uint64)
    for j, component in enumerate(components):
        coefficients[j, :component.order] = [a % component.m for a in component.a]
    ways = np.array([_way(c) for c in components], dtype=np.int64)
    inverses = np.array([_inverse(c, way) for c, way in zip(components, ways)])
    moduli = np.array([c.m for c in components], dtype=np.uint64)
    product = combination.modulus_product if combination.rule == "fraction" else 1
    cofactors = np.array([product // c.m if combination.rule == "fraction" else 0 for c in components] + [product],
                         dtype=np.uint64)
    wrap = np.int64(combination.wrap_value if combination.rule == "difference" else 0)
    orders = np.array([c.order for c in components], dtype=np.int64)
    return width, (orders, coefficients, ways, moduli, inverses, COMBINE_CODES[combination.rule], wrap, cofactors)


def state_rows(states: list[tuple[int, ...]], width: int) -> np.ndarray:
    """The components' states as a ``(components, width)`` uint64 array (oldest first, zero-padded)."""
    rows = np.zeros((len(states), width), dtype=np.uint64)
    for j, state in enumerate(states):
        rows[j, :len(state)] = state
    return rows


def fill_combined(combination, states: list[tuple[int, ...]], out: np.ndarray) -> list[tuple[int, ...]]:
    """Fill ``out`` with the next outputs; return the components' new states (oldest first)."""
    width, arguments = plan(combination)
    rows = state_rows(states, width)
    _run(rows, np.zeros(1, dtype=np.int64), len(out), *arguments, out)
    return [tuple(int(v) for v in rows[j, :len(state)]) for j, state in enumerate(states)]


def fill_lanes(combination, states: np.ndarray, lanes: np.ndarray, out: np.ndarray) -> None:
    """Step generator ``lane`` (rows ``lane * components + j``) once for each of ``lanes``; its output to ``out[lane]``."""
    _run(states, lanes, 1, *plan(combination)[1], out)
