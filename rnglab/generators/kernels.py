"""Compiled kernels (numba) for the hot loop of :meth:`rnglab.generators.LCG.random_raw`.

One loop, :func:`lane_kernel`, fills an output array from a state ``x``: it
steps ``x`` by the map ``(a, c)`` to the first ``L`` states, which become
``L`` independent lanes, then advances every lane by the jump ``(A, C) =
(a^L, c (a^(L-1) + ... + 1))`` to write each following row of ``L`` values,
applying the output function ``(x >> shift) & mask`` as it writes. The lanes
are a short array that stays in the L1 cache, stepped by a loop of fixed
length that LLVM turns into branch-free (and, for the power-of-two step,
vector) code: the lanes have no dependency chain between them, as in a C loop
over independent lanes. The step is one of three arithmetics:

- :func:`step_power_of_two`: a modulus 2^e <= 2^64, states kept modulo 2^64
  (the output mask keeps the bits below 2^e);
- :func:`step_small`: Shoup's multiplication on 32-bit words for m < 2^32;
- :func:`step_wide`: Shoup's multiplication on 64-bit words (a 128-bit
  product's high word) for m <= 2^63 (:data:`WIDE_LIMIT`).

Each takes ``(x, multiplier, quotient, increment, modulus)`` with the Shoup
quotient precomputed by :func:`shoup_quotient`. All constants are
``np.uint64``: numba turns mixed uint64/int64 arithmetic into float64, which
would silently lose bits.

References
----------
V. Shoup, NTL, ``MulModPrecon``; D. Harvey, "Faster arithmetic for
number-theoretic transforms", J. Symbolic Comput. 60 (2014), section 2.
"""

from __future__ import annotations

import functools

import numpy as np

from rnglab.core.compiled import device, fingerprint, njit
from rnglab.reduction.maps import multiply_128

#: Largest modulus served by :func:`step_wide` (its remainders before correction lie in [0, 2m)).
WIDE_LIMIT = 2**63

#: Lanes of the fill loop: 256 states (2 KiB) stay in the L1 cache; from 64 to 1024 lanes ran at the same speed,
#: 16384 lanes (the rows of the numpy path) 10-50 % slower, 8 lanes 2x slower (``bench/results/generators.md``).
LANES = 256

#: Word size of Shoup's quotient ``floor(A 2^bits / m)`` for the small and wide steps.
QUOTIENT_BITS = {"small": 32, "wide": 64}

_SHIFT32 = np.uint64(32)


@device
def _plus_below(r, c, modulus):  # pragma: no cover - compiled
    """``(r + c) mod m`` for ``r`` in ``[0, 2m)`` and ``c`` in ``[0, m)``: two conditional subtractions."""
    if r >= modulus:
        r -= modulus
    r += c
    if r >= modulus:
        r -= modulus
    return r


@device
def step_power_of_two(x, multiplier, quotient, increment, modulus):  # pragma: no cover - compiled
    """``(A x + C) mod 2^64``: right modulo any 2^e <= 2^64 in its low e bits (``quotient``, ``modulus`` unused)."""
    return x * multiplier + increment


@device
def step_small(x, multiplier, quotient, increment, modulus):  # pragma: no cover - compiled
    """``(A x + C) mod m`` for m < 2^32 by Shoup's multiplication on 32-bit words, with no division.

    With ``A' = floor(A 2^32 / m) < 2^32`` (``quotient``) and a state ``x < m``,
    ``q = floor(x A' / 2^32)`` is ``floor(A x / m)`` or one less, so ``A x - q m`` (exact in
    uint64: ``A x < 2^64``) lies in ``[0, 2m)``: one conditional subtraction, and one more
    after adding ``C < m``. A hardware division costs several times the three products
    (``bench/results/generators.md``).
    """
    return _plus_below(x * multiplier - ((x * quotient) >> _SHIFT32) * modulus, increment, modulus)


@device
def step_wide(x, multiplier, quotient, increment, modulus):  # pragma: no cover - compiled
    """``(A x + C) mod m`` for any m <= 2^63 by Shoup's multiplication on 64-bit words.

    With ``A' = floor(A 2^64 / m)`` (``quotient``), ``q = floor(x A' / 2^64)``
    is the quotient ``floor(A x / m)`` or one less, so ``A x - q m`` (wrapping
    uint64 arithmetic) is exact and lies in ``[0, 2m)``; one conditional
    subtraction reduces it, and adding ``C < m`` needs one more.
    """
    return _plus_below(x * multiplier - multiply_128(x, quotient)[0] * modulus, increment, modulus)


#: The step of each arithmetic kind (see :func:`rnglab.generators.affine.arithmetic_kind`; "wide": m <= 2^63).
STEPS = {"pow2": step_power_of_two, "small": step_small, "wide": step_wide}


def shoup_quotient(kind: str, multiplier: int, m: int) -> np.uint64:
    """Shoup's precomputed quotient ``floor(A 2^bits / m)`` of the step ``kind`` (0 for a power of two)."""
    bits = QUOTIENT_BITS.get(kind)
    return np.uint64(0 if bits is None else (multiplier << bits) // m)


@functools.cache
def lane_kernel(step):
    """The compiled fill loop around ``step`` (one of :data:`STEPS`).

    ``fill(x, step_map, jump_map, modulus, shift, mask, out)`` writes to ``out``
    the outputs of the states after ``x`` and returns the last state written
    (modulo 2^64 for a power of two). ``step_map`` and ``jump_map`` are
    ``(multiplier, quotient, increment)`` of one step and of ``L =``
    :data:`LANES` steps. Lane ``j`` of row ``r`` holds the state
    ``x_{1 + r L + j}``: the first row by ``L`` single steps, each later one
    the row before advanced by the jump, so ``out`` is the sequence in order.
    ``settings``, the closure numba's disk cache keys on, holds the lanes and
    the :func:`~rnglab.core.compiled.fingerprint` of the step (which calls code
    in other files: a change there compiles anew).
    """
    settings = (LANES, fingerprint(step))

    @njit(cache=True, nogil=True)
    def fill(x, step_map, jump_map, modulus, shift, mask, out):  # pragma: no cover - compiled
        row = np.empty(min(settings[0], out.size), dtype=np.uint64)
        for j in range(row.size):
            x = step(x, step_map[0], step_map[1], step_map[2], modulus)
            row[j] = x
            out[j] = (x >> shift) & mask
        for start in range(row.size, out.size, row.size):
            block = out[start:start + row.size]
            for j in range(block.size):
                x = step(row[j], jump_map[0], jump_map[1], jump_map[2], modulus)
                row[j] = x
                block[j] = (x >> shift) & mask
        return row[(out.size - 1) % row.size]

    return fill
