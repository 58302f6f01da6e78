"""Map and compact a chunk of draws in one compiled pass, for the reducers most used on power-of-two ranges.

:func:`rnglab.draws.bounded.draw_bounded` maps a chunk of source offsets with
a reducer's vectorised map (:mod:`rnglab.reduction.maps`) and then keeps the
accepted values: four or five passes of numpy over the chunk. For one bound
``n`` on ``R = 2^bits`` offsets (uint64), :func:`compact` does it in one loop:
map a draw, keep it when accepted, stop at the ``wanted``-th kept value or at
:data:`~rnglab.draws.bounded.STUCK_REJECTIONS` rejections in a row. Its
values and draws are those of the reducer's map (tested against it).

The per-draw arithmetic and the codes are :mod:`rnglab.reduction.scalar`'s.
"""

from __future__ import annotations

import numpy as np

from rnglab.core.compiled import njit
from rnglab.reduction.maps import range_mod, smear_mask
from rnglab.reduction.scalar import BITMASK, JAVA_NEXTINT, LEMIRE, reduce_one


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
    """Map the draws of a :class:`~rnglab.draws.words.WordBlock` (uint64, ``R = 2^32`` or ``2^64``) and keep
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
