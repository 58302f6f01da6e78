"""One draw at a time: a reducer's map of one word, for every compiled loop (CPU and GPU).

The vectorised maps (:mod:`rnglab.reduction.maps`) map arrays; the functions
here map one offset ``x`` in ``[0, R)`` to ``(value, accepted)`` inside a
compiled loop. Each reducer that compiled code serves carries its own
:class:`Scalar` (:attr:`rnglab.reduction.reducers.Reducer.scalar`): the map,
and the per-bound constant it reads, computed once in Python. Every compiled
path calls them: the one-pass map-and-compact (:mod:`rnglab.draws.compact`),
the draws from a numpy BitGenerator (:mod:`rnglab.draws.direct`), the LCG
deals (:mod:`rnglab.shuffles.kernels`) and the seed search on CPU and GPU
(:mod:`rnglab.recovery.search_kernels`, :mod:`rnglab.recovery.gpu`). A kernel
is compiled per map (the function itself is its identity, whatever the
registry's order), so adding a reducer is adding its entry.

Signature of a map: ``reduce(x, n, parameter, size, bits) -> (value, accepted)``,
all uint64: the offset, the bound ``n``, the constant ``parameter(n, R)``,
and the source's range as ``size = R mod 2^64`` and ``bits = log2 R`` when
``R`` is a power of two (else 0) (:func:`span`). Products ``x n`` are exact
in uint64 for ``R <= 2^32``; a map that also serves whole 64-bit words
(``R = 2^64``, ``size = 0``) says so (:attr:`Scalar.whole_words`).

=====================  =====================================  ==================================================
reducer                ``parameter(n, R)``                    map
=====================  =====================================  ==================================================
``modulo``             ``floor((2^64 - 1) / n) + 1``          ``x mod n`` (a direct remainder, no division)
``float-multiply``     0                                      ``floor(fl(fl(x) fl(n)) / fl(R))``
``multiply-shift``     0                                      ``x n div R``
``threshold``          ``R - 1 - (R mod n)``                  ``x mod n``, kept for ``x <= parameter``
``threshold-openbsd``  ``R mod n``                            ``x mod n``, kept for ``x >= parameter``
``bitmask``            mask ``2^ceil(log2 n) - 1``            ``x & mask``, kept below ``n`` in a complete block
``lemire``             ``R mod n``                            ``m = x n``: ``m div R``, kept for ``m mod R >= parameter``
``java-nextint``       0 (``n`` a power of two),              ``r = x >> 1``: ``(n r) >> 31``, or ``r mod n``
                       else ``2^31 - (2^31 mod n)``           kept for ``r < parameter``
``python-randbelow``   ``log2 R - bit_length(n)``             ``x >> parameter``, kept below ``n``
=====================  =====================================  ==================================================

*Lane forms.* A map may also carry the same map written for lanes of seeds
in lock step (:attr:`Scalar.lanes`, the seed search's vector loop,
:mod:`rnglab.recovery.search_kernels`): no branch, no division, so that
LLVM's loop vectorizer turns a loop over lanes into SIMD. Its signature is
``lanes(x, n, parameter, reciprocal, bits) -> (value, accepted)``, with
``reciprocal = fl(1 / n)`` (computed once per bound, not per lane) and
``R = 2^bits``, ``1 <= bits <= 32``: it serves sources whose range is a power
of two up to 2^32 only, and equals ``reduce`` there (tests/reduction/test_scalar.py).
A remainder is taken by the float reciprocal with an exact correction
(:func:`float_remainder`).

References: D. Lemire, "Fast random integer generation in an interval",
ACM TOMACS 29(1), 2019; numpy's ``random_bounded_uint64``; the Java SE
``Random.nextInt(int)`` specification; CPython's ``Random._randbelow``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rnglab.core.compiled import device
from rnglab.reduction.maps import multiply_128, smear_mask

ONE = np.uint64(1)
ZERO = np.uint64(0)
THIRTY_ONE = np.uint64(31)
THIRTY_TWO = np.uint64(32)
LOW_HALF = np.uint64(0xFFFFFFFF)
LARGEST_EXACT = 2**32


@dataclass(frozen=True)
class Scalar:
    """A reducer's one-draw map for compiled loops.

    Attributes
    ----------
    reduce : callable
        A :func:`~rnglab.core.compiled.device` function ``(x, n, parameter, size, bits) -> (value, accepted)``
        (see the module's table).
    parameter : callable
        ``parameter(n, R) -> int``: the per-bound constant ``reduce`` reads (in ``[0, 2^64)``).
    whole_words : bool
        True when ``reduce`` also serves ``R = 2^64`` (besides every ``R <= 2^32``).
    lanes : callable or None
        The lane form of ``reduce`` (see the module's text): ``lanes(x, n, parameter, reciprocal, bits)``,
        equal to ``reduce`` for ``R = 2^bits <= 2^32``; ``None``: the map has none.
    """

    reduce: Callable
    parameter: Callable
    whole_words: bool = False
    lanes: Callable | None = None

    def serves(self, range_size: int) -> bool:
        """Whether the map is exact for sources of ``R`` values."""
        return range_size <= LARGEST_EXACT or (self.whole_words and range_size == 2**64)


def span(range_size: int) -> tuple[np.uint64, np.uint64]:
    """``(R mod 2^64, log2 R)``, the second 0 when ``R`` is not a power of two: how a map reads the range."""
    power = range_size & (range_size - 1) == 0
    return np.uint64(range_size % 2**64), np.uint64(range_size.bit_length() - 1 if power else 0)


@device(inline=False)
def split_product(x, n, size, bits):  # pragma: no cover - compiled
    """``(x n div R, x n mod R)``: the 128-bit product's words for ``R = 2^64``, a shift for ``R = 2^bits``.

    Not inlined in numba's IR (:func:`~rnglab.core.compiled.device`): with :func:`multiply_128` it is the
    deepest chain of calls a map makes, typed again at every inlined call otherwise.
    """
    if size == ZERO:
        return multiply_128(x, n)
    product = x * n
    if bits != ZERO:
        return product >> bits, product & (size - ONE)
    return product // size, product % size


@device
def modulo_one(x, n, inverse, size, bits):  # pragma: no cover - compiled
    """``modulo``: ``x mod n``, always kept, without a division (``x, n <= 2^32``).

    Lemire, Kaser and Kurz's direct remainder: with ``M = floor((2^64 - 1) / n) + 1``
    (mod 2^64), ``x mod n = (((M x) mod 2^64) n) div 2^64`` for every 32-bit ``x`` and
    ``n``; the high word of the product by ``n < 2^33`` is taken from its two
    32-bit halves, exactly. (D. Lemire, O. Kaser, N. Kurz, "Faster remainder by
    direct computation", Software: Practice and Experience 49(6), 2019.)
    """
    low = inverse * x
    return ((low >> THIRTY_TWO) * n + (((low & LOW_HALF) * n) >> THIRTY_TWO)) >> THIRTY_TWO, True


@device
def float_multiply_one(x, n, parameter, size, bits):  # pragma: no cover - compiled
    """``float-multiply``: ``floor(fl(fl(x) fl(n)) / fl(R))`` in IEEE double (``R <= 2^53``: its domain)."""
    return np.uint64(np.floor(np.float64(x) * np.float64(n) / np.float64(size))), True


@device
def multiply_shift_one(x, n, parameter, size, bits):  # pragma: no cover - compiled
    """``multiply-shift``: ``x n div R``, always kept."""
    return split_product(x, n, size, bits)[0], True


@device
def threshold_one(x, n, parameter, size, bits):  # pragma: no cover - compiled
    """``threshold``: ``x mod n``, kept below ``R - (R mod n)`` (``x <= parameter``)."""
    return x % n, x <= parameter


@device
def threshold_openbsd_one(x, n, parameter, size, bits):  # pragma: no cover - compiled
    """``threshold-openbsd``: ``x mod n``, kept for ``x >= R mod n``."""
    return x % n, x >= parameter


@device
def bitmask_one(x, n, mask, size, bits):  # pragma: no cover - compiled
    """``bitmask``: ``x & mask``, kept below ``n`` when ``x``'s block of ``mask + 1`` values lies inside ``[0, R)``.

    A block wider than ``R`` (``mask >= R``) is the only one; for ``R`` a
    power of two every block is complete (``size = 0``: ``R = 2^64``).
    """
    value = x & mask
    return value, value < n and (mask >= size or (x | mask) < size)


@device
def lemire_one(x, n, threshold, size, bits):  # pragma: no cover - compiled
    """``lemire``: ``m = x n``; value ``m div R``, kept for ``m mod R >= R mod n``."""
    quotient, remainder = split_product(x, n, size, bits)
    return quotient, remainder >= threshold


@device
def java_nextint_one(x, n, limit, size, bits):  # pragma: no cover - compiled
    """``java-nextint`` on ``next(32)`` words: ``limit`` 0 for a power-of-two ``n``, else ``2^31 - (2^31 mod n)``."""
    r = x >> ONE
    if limit == ZERO:
        return (r * n) >> THIRTY_ONE, True
    return r % n, r < limit


@device
def python_randbelow_one(x, n, shift, size, bits):  # pragma: no cover - compiled
    """``python-randbelow``: the top ``bit_length(n)`` bits of ``R = 2^b`` (``x >> shift``), kept below ``n``."""
    value = x >> shift
    return value, value < n


@device
def float_remainder(x, n, reciprocal):  # pragma: no cover - compiled
    """``x mod n`` for ``0 <= x < 2^32`` and ``1 <= n <= 2^32``, by the float reciprocal ``fl(1 / n)`` and an exact
    correction (IEEE double, round to nearest; no division, no branch).

    With ``u = 2^-53``, ``reciprocal = (1 / n)(1 + d1)`` and the product
    ``p = fl(x reciprocal) = (x / n)(1 + d1)(1 + d2)``, ``|d1|, |d2| <= u``, so
    ``|p - x / n| <= (x / n)(2u + u^2) < 2^32 2^-52.99 < 2^-20``: the quotient
    ``q = floor(p)`` is ``floor(x / n)`` or one off it, either way. ``q n <= x + n
    <= 2^33`` is an integer below 2^53, so ``r = x - q n`` is computed exactly
    (each product and difference is an integer exactly representable), and lies
    in ``[-n, 2n)``: one conditional ``+ n`` and one ``- n`` give ``x mod n``.
    ``x`` converts to double exactly (``x < 2^53``).
    """
    whole, bound = np.float64(x), np.float64(n)
    remainder = whole - np.floor(whole * reciprocal) * bound
    remainder = remainder + bound if remainder < 0.0 else remainder
    return np.uint64(remainder - bound if remainder >= bound else remainder)


@device
def modulo_lanes(x, n, inverse, reciprocal, bits):  # pragma: no cover - compiled
    """Lane form of :func:`modulo_one`: ``x mod n``, always kept."""
    return float_remainder(x, n, reciprocal), True


@device
def float_multiply_lanes(x, n, parameter, reciprocal, bits):  # pragma: no cover - compiled
    """Lane form of :func:`float_multiply_one` (the same expression, ``R = 2^bits``)."""
    return float_multiply_one(x, n, parameter, ONE << bits, bits)


@device
def multiply_shift_lanes(x, n, parameter, reciprocal, bits):  # pragma: no cover - compiled
    """Lane form of :func:`multiply_shift_one`: ``x n >> bits`` (exact: ``x n < 2^64``)."""
    return (x * n) >> bits, True


@device
def threshold_lanes(x, n, parameter, reciprocal, bits):  # pragma: no cover - compiled
    """Lane form of :func:`threshold_one`."""
    return float_remainder(x, n, reciprocal), x <= parameter


@device
def threshold_openbsd_lanes(x, n, parameter, reciprocal, bits):  # pragma: no cover - compiled
    """Lane form of :func:`threshold_openbsd_one`."""
    return float_remainder(x, n, reciprocal), x >= parameter


@device
def bitmask_lanes(x, n, mask, reciprocal, bits):  # pragma: no cover - compiled
    """Lane form of :func:`bitmask_one`: for ``R`` a power of two every block of ``mask + 1`` values is complete."""
    value = x & mask
    return value, value < n


@device
def lemire_lanes(x, n, threshold, reciprocal, bits):  # pragma: no cover - compiled
    """Lane form of :func:`lemire_one`: ``m = x n`` (below 2^64); ``m >> bits``, kept for ``m mod 2^bits >= threshold``."""
    product = x * n
    return product >> bits, (product & ((ONE << bits) - ONE)) >= threshold


@device
def java_nextint_lanes(x, n, limit, reciprocal, bits):  # pragma: no cover - compiled
    """Lane form of :func:`java_nextint_one`: both of its forms computed (``r < 2^31``), one selected by a mask.

    No branch: a conditional expression or an ``or`` here is one in numba's IR,
    and inlined into the lock step its value was out of scope for numba's SSA
    check (``NumbaIRAssumptionWarning``).
    """
    r = x >> ONE
    power = limit == ZERO
    remainder, power_mask = float_remainder(r, n, reciprocal), ZERO - np.uint64(power)  # all ones where power
    return remainder ^ ((remainder ^ ((r * n) >> THIRTY_ONE)) & power_mask), power | (r < limit)


@device
def python_randbelow_lanes(x, n, shift, reciprocal, bits):  # pragma: no cover - compiled
    """Lane form of :func:`python_randbelow_one` (the same expression)."""
    return python_randbelow_one(x, n, shift, ZERO, bits)


def inverse_parameter(n: int, range_size: int) -> int:
    """``M = floor((2^64 - 1) / n) + 1`` modulo 2^64, the direct remainder's multiplier."""
    return ((2**64 - 1) // n + 1) % 2**64


def no_parameter(n: int, range_size: int) -> int:
    """The maps that read no constant."""
    return 0


def threshold_parameter(n: int, range_size: int) -> int:
    """``R - 1 - (R mod n)``, the largest kept offset."""
    return range_size - 1 - range_size % n


def remainder_parameter(n: int, range_size: int) -> int:
    """``R mod n``."""
    return range_size % n


def mask_parameter(n: int, range_size: int) -> int:
    """The mask ``2^ceil(log2 n) - 1``."""
    return smear_mask(n)


def java_parameter(n: int, range_size: int) -> int:
    """0 for a power of two ``n``, else the rejection bound ``2^31 - (2^31 mod n)``."""
    return 0 if n & (n - 1) == 0 else 2**31 - 2**31 % n


def shift_parameter(n: int, range_size: int) -> int:
    """``log2 R - bit_length(n)``: the shift that leaves the top ``bit_length(n)`` bits."""
    return range_size.bit_length() - 1 - n.bit_length()


MODULO = Scalar(modulo_one, inverse_parameter, lanes=modulo_lanes)
FLOAT_MULTIPLY = Scalar(float_multiply_one, no_parameter, lanes=float_multiply_lanes)
MULTIPLY_SHIFT = Scalar(multiply_shift_one, no_parameter, lanes=multiply_shift_lanes)
THRESHOLD = Scalar(threshold_one, threshold_parameter, lanes=threshold_lanes)
THRESHOLD_OPENBSD = Scalar(threshold_openbsd_one, remainder_parameter, lanes=threshold_openbsd_lanes)
BITMASK = Scalar(bitmask_one, mask_parameter, whole_words=True, lanes=bitmask_lanes)
LEMIRE = Scalar(lemire_one, remainder_parameter, whole_words=True, lanes=lemire_lanes)
JAVA_NEXTINT = Scalar(java_nextint_one, java_parameter, lanes=java_nextint_lanes)
PYTHON_RANDBELOW = Scalar(python_randbelow_one, shift_parameter, lanes=python_randbelow_lanes)


@device
def rejections_after(streak, accepted):  # pragma: no cover - compiled
    """Rejections in a row after a draw: 0 when it was kept, else one more (every redrawing loop's count)."""
    return 0 if accepted else streak + 1
