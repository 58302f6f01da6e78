"""Map and compact a chunk of draws in one compiled pass, for the reducers most used on power-of-two ranges.

:func:`rnglab.reduction.draw.draw_bounded` maps a chunk of source offsets with
a reducer's vectorised map (:mod:`rnglab.reduction.maps`) and then keeps the
accepted values: four or five passes of numpy over the chunk. For one bound
``n`` on ``R = 2^bits`` offsets (uint64), :func:`compact` does it in one loop:
map a draw, keep it when accepted, stop at the ``wanted``-th kept value or at
:data:`~rnglab.reduction.draw.STUCK_REJECTIONS` rejections in a row. Its
values and draws are those of the reducer's map (tested against it).

Codes (a reducer's :attr:`~rnglab.reduction.reducers.Reducer.compact_code`):

=====  ================  ==========================================================
0      ``lemire``        ``m = x n``; keep ``m mod R >= R mod n``; value ``m div R``
1      ``bitmask``       ``v = x & (2^ceil(log2 n) - 1)``; keep ``v < n``
2      ``java-nextint``  ``r = x >> 1``; ``(n r) >> 31`` for a power of two ``n``, else ``r mod n``,
                         kept for ``r < 2^31 - (2^31 mod n)`` (``R = 2^32`` only)
=====  ================  ==========================================================
"""

from __future__ import annotations

import numpy as np

from ..compiled import njit
from .maps import multiply_128, range_mod, smear_mask

LEMIRE, BITMASK, JAVA_NEXTINT = 0, 1, 2


@njit(cache=True, nogil=True, inline="always")
def lemire_32(x, n, threshold):  # pragma: no cover - compiled
    """``lemire`` on ``R = 2^32``: ``(m div 2^32, m mod 2^32 >= threshold)`` for ``m = x n`` (below 2^64)."""
    product = x * n
    return product >> np.uint64(32), (product & np.uint64(0xFFFFFFFF)) >= threshold


@njit(cache=True, nogil=True, inline="always")
def lemire_64(x, n, threshold):  # pragma: no cover - compiled
    """``lemire`` on ``R = 2^64``: the 128-bit product's high word, kept when its low word is ``>= threshold``."""
    high, low = multiply_128(x, n)
    return high, low >= threshold


@njit(cache=True, nogil=True, inline="always")
def bitmask_one(x, n, mask):  # pragma: no cover - compiled
    """``bitmask``: ``x & mask``, kept below ``n``."""
    value = x & mask
    return value, value < n


@njit(cache=True, nogil=True, inline="always")
def java_nextint_one(x, n, limit):  # pragma: no cover - compiled
    """``java-nextint`` on ``next(32)`` words: ``limit`` 0 for a power-of-two ``n``, else ``2^31 - (2^31 mod n)``."""
    r = x >> np.uint64(1)
    if limit == 0:
        return (r * n) >> np.uint64(31), True
    return r % n, r < limit


@njit(cache=True, nogil=True, inline="always")
def reduce_one(code, x, n, bits, parameter):  # pragma: no cover - compiled
    """``(value, accepted)`` for one draw ``x`` by the method ``code`` (see the module's table)."""
    if code == LEMIRE:
        return lemire_64(x, n, parameter) if bits == 64 else lemire_32(x, n, parameter)
    if code == BITMASK:
        return bitmask_one(x, n, parameter)
    return java_nextint_one(x, n, parameter)


@njit(cache=True, nogil=True, inline="always")
def _draw(raw, i, halves, lead, spare):  # pragma: no cover - compiled
    """Draw ``i`` of a block: the kept half, then each output's low and high halves; or output ``i``."""
    if not halves:
        return raw[i]
    if i < lead:
        return spare
    j = i - lead
    return (raw[j >> 1] >> np.uint64(32 * (j & 1))) & np.uint64(0xFFFFFFFF)


@njit(cache=True, nogil=True)
def _compact_kernel(code, raw, halves, spare, n, bits, parameter, out, limits):  # pragma: no cover - compiled
    """Map the draws in order, writing kept values to ``out[start:]``; return ``(kept, used, streak)``.

    The draws are ``raw`` (``halves`` false) or the ``spare`` half (when
    ``spare >= 0``) and the halves of ``raw``. ``parameter`` is the threshold
    (``lemire``), the mask (``bitmask``) or the rejection bound
    ``2^31 - (2^31 mod n)`` (``java-nextint``; 0 for a power of two ``n``).
    ``limits = (start, wanted, streak, stuck)``: stops after ``wanted`` kept
    values or when ``streak``, the rejections in a row, reaches ``stuck``.
    """
    start, wanted, streak, stuck = limits
    lead = 1 if halves and spare >= 0 else 0
    total = lead + (2 * raw.size if halves else raw.size)
    kept, used, kept_half = 0, 0, np.uint64(max(spare, 0))
    while used < total and kept < wanted:
        value, accepted = reduce_one(code, _draw(raw, used, halves, lead, kept_half), n, bits, parameter)
        used += 1
        if accepted:
            out[start + kept] = value
            kept += 1
            streak = 0
        else:
            streak += 1
            if streak >= stuck:
                break
    return kept, used, streak


def compact_parameter(code: int, n: int, range_size: int) -> int:
    """The kernel's per-bound constant (see :func:`_compact_kernel`)."""
    if code == LEMIRE:
        return int(range_mod(range_size, n))
    if code == BITMASK:
        return smear_mask(n)
    return 0 if n & (n - 1) == 0 else 2**31 - 2**31 % n


def compact(code: int, block, n: int, range_size: int, out: np.ndarray, place: tuple[int, int],
            run: tuple[int, int]) -> tuple[int, int, int]:
    """Map the draws of a :class:`~rnglab.reduction.words.WordBlock` (uint64, ``R = 2^32`` or ``2^64``) and keep
    the accepted values in ``out[start:]``, ``place = (start, wanted)``, ``run = (streak, stuck)``.

    Returns ``(kept, used, streak)``: values written (at most ``wanted``, which
    must fit in ``out``), draws read (the rest are untouched), and rejections
    in a row at the end; ``streak`` reaching ``stuck`` stops the loop (the caller raises).
    """
    bits = range_size.bit_length() - 1
    spare = -1 if block.spare is None else int(block.spare)
    return _compact_kernel(code, block.raw, block.narrow, spare, np.uint64(n), np.uint64(bits),
                           np.uint64(compact_parameter(code, n, range_size)), out, (*place, *run))


def compacts(code: int | None, dtype: np.dtype, n, range_size: int) -> bool:
    """True when :func:`compact` serves this reducer code, draws and bound: one integer ``n``, uint64 offsets,
    ``R = 2^32`` (every code) or ``R = 2^64`` (``lemire``, ``bitmask``)."""
    return code is not None and dtype == np.uint64 and not isinstance(n, np.ndarray) and int(n) < 2**64 and \
        (range_size == 2**32 or (range_size == 2**64 and code != JAVA_NEXTINT))
