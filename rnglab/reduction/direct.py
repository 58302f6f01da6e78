"""Bounded draws straight from a numpy BitGenerator, in one compiled loop: draw, map, keep.

numba calls a BitGenerator's own ``next_uint32`` / ``next_uint64`` (its C
functions, through ``numba.np.random.generator_core``), so the generator
steps inside the loop exactly as in numpy's ``Generator.integers``: the
32-bit draws of a narrow bound (:mod:`rnglab.reduction.words`) take the half
the BitGenerator keeps (``has_uint32``) and keep the high half of a fresh
output, and nothing is drawn beyond the last value needed. The map is the
one-pass kernel's (:func:`rnglab.reduction.compact.reduce_one`), so the
values equal the reducer's. Importing this module imports numba: it is
imported where a draw first needs it.
"""

from __future__ import annotations

import numpy as np
from numba.np.random.generator_core import next_uint32, next_uint64

from ..compiled import njit
from .compact import compact_parameter, reduce_one


@njit(cache=True, nogil=True)
def _direct_kernel(code, bit_generator, words32, n, bits, parameter, out, limits):  # pragma: no cover - compiled
    """Draw from ``bit_generator`` (``next_uint32`` when ``words32``, else ``next_uint64``) until ``wanted`` values are kept in
    ``out[start:]`` or ``streak`` reaches ``stuck``; ``limits = (start, wanted, streak, stuck)``.
    Returns ``(kept, used, streak)``."""
    start, wanted, streak, stuck = limits
    kept, used = 0, 0
    while kept < wanted:
        x = np.uint64(next_uint32(bit_generator)) if words32 else np.uint64(next_uint64(bit_generator))
        value, accepted = reduce_one(code, x, n, bits, parameter)
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


def draw_direct(code: int, bit_generator: np.random.BitGenerator, range_size: int, n: int, out: np.ndarray,
                place: tuple[int, int], run: tuple[int, int]) -> tuple[int, int, int]:
    """Keep ``wanted`` values of reducer ``code`` for bound ``n`` in ``out[start:]``, ``place = (start, wanted)``,
    drawing 32-bit words (``R = 2^32``: ``next_uint32``) or 64-bit outputs (``R = 2^64``); ``run = (streak, stuck)``.

    Returns ``(kept, used, streak)`` as :func:`rnglab.reduction.compact.compact` does.
    """
    return _direct_kernel(code, bit_generator, range_size == 2**32, np.uint64(n), np.uint64(range_size.bit_length() - 1),
                          np.uint64(compact_parameter(code, n, range_size)), out, (*place, *run))
