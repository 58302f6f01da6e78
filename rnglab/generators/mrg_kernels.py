"""Compiled stepping of (combined) MRGs for moduli below 2^62, exact to the last bit.

Each component's state is one row of a ``(components, k_max)`` uint64 array,
oldest value first. The sum ``a_1 x_{n-1} + ... + a_k x_{n-k}`` (coefficients
reduced into [0, m)) is reduced once when it cannot reach 2^64; else each
product ``a_i x`` is reduced, taken directly when ``a_i (m - 1) < 2^64`` and
otherwise by double-and-add (``2r < 2^63`` never overflows),
so every modulus below 2^62 is exact; larger ones use the Python-integer path
of :class:`~rnglab.generators.mrg.MRG`.
"""

from __future__ import annotations

import functools

import numpy as np

from ..compiled import njit

#: Rule codes of the kernel.
COMBINE_CODES = {"single": 0, "difference": 1, "fraction": 2}
#: Fewer outputs than this are stepped in Python: building the kernel's arrays costs more.
SMALL_DRAW = 16
#: Largest modulus (and, for ``fraction``, product of moduli) the kernel takes.
WORD_LIMIT = 2**62


def fits_words(combination) -> bool:
    """True when the compiled kernel computes this combination exactly."""
    if any(c.m >= WORD_LIMIT for c in combination.components):
        return False
    return combination.rule != "fraction" or combination.modulus_product < WORD_LIMIT


@njit(cache=True, nogil=True, inline="always")
def _multiply_mod(a, x, m, direct):  # pragma: no cover - compiled
    if direct:
        return (a * x) % m
    result = np.uint64(0)
    while x:
        if x & np.uint64(1):
            result = (result + a) % m
        a = (a + a) % m
        x >>= np.uint64(1)
    return result


@njit(cache=True, nogil=True)
def _fill(states, orders, coefficients, summed, direct, moduli, code, wrap, cofactors, out):  # pragma: no cover
    components = states.shape[0]
    for n in range(out.shape[0]):
        total = np.int64(0)
        for j in range(components):
            m = moduli[j]
            k = orders[j]
            acc = np.uint64(0)
            if summed[j]:  # the whole sum fits in 64 bits: one reduction, as a C loop does
                for i in range(k):
                    acc += coefficients[j, i] * states[j, k - 1 - i]
                acc %= m
            else:
                for i in range(k):
                    acc = (acc + _multiply_mod(coefficients[j, i], states[j, k - 1 - i], m, direct[j])) % m
            for i in range(k - 1):
                states[j, i] = states[j, i + 1]
            states[j, k - 1] = acc
            if code == 0:
                total = np.int64(acc)
            elif code == 1:
                total = np.int64(acc) if j == 0 else total - np.int64(acc)
            else:
                total = np.int64((np.uint64(total) + acc * cofactors[j]) % cofactors[components])
        if code == 1:
            while total <= 0:
                total += wrap
        out[n] = np.uint64(total)


@functools.lru_cache(maxsize=64)
def _plan(combination) -> tuple:
    """The kernel's constant arguments for ``combination`` (built once per combination)."""
    components = combination.components
    width = max(c.order for c in components)
    coefficients = np.zeros((len(components), width), dtype=np.uint64)
    for j, component in enumerate(components):
        coefficients[j, :component.order] = [a % component.m for a in component.a]
    summed = np.array([sum(a % c.m for a in c.a) * (c.m - 1) < 2**64 for c in components])
    direct = np.array([max(a % c.m for a in c.a) * (c.m - 1) < 2**64 for c in components])
    moduli = np.array([c.m for c in components], dtype=np.uint64)
    product = combination.modulus_product if combination.rule == "fraction" else 1
    cofactors = np.array([product // c.m if combination.rule == "fraction" else 0 for c in components] + [product],
                         dtype=np.uint64)
    wrap = np.int64(combination.wrap_value if combination.rule == "difference" else 0)
    orders = np.array([c.order for c in components], dtype=np.int64)
    return width, (orders, coefficients, summed, direct, moduli, COMBINE_CODES[combination.rule], wrap, cofactors)


def fill_combined(combination, states: list[tuple[int, ...]], out: np.ndarray) -> list[tuple[int, ...]]:
    """Fill ``out`` with the next outputs; return the components' new states (oldest first)."""
    width, arguments = _plan(combination)
    rows = np.zeros((len(states), width), dtype=np.uint64)
    for j, state in enumerate(states):
        rows[j, :len(state)] = state
    _fill(rows, *arguments, out)
    return [tuple(int(v) for v in rows[j, :len(state)]) for j, state in enumerate(states)]
