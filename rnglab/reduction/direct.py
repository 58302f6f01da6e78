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
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic
from numba.np.random.generator_core import next_uint32, next_uint64

from ..compiled import dispatcher, njit
from .compact import BITMASK, JAVA_NEXTINT, LEMIRE, bitmask_one, compact_parameter, java_nextint_one, lemire_32


@intrinsic
def _product_128(typingctx, a, b):  # pragma: no cover - compiled
    """``(high, low)`` words of the exact 128-bit product of two uint64 (one LLVM ``i128`` multiplication)."""
    signature = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, sig, args):
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        high = builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))
        return context.make_tuple(builder, sig.return_type, (high, builder.trunc(product, ir.IntType(64))))

    return signature, codegen


@njit(cache=True, nogil=True, inline="always")
def _lemire_64(x, n, threshold):  # pragma: no cover - compiled
    """:func:`rnglab.reduction.compact.lemire_64` with the machine's 128-bit product."""
    high, low = _product_128(x, n)
    return high, low >= threshold


@njit(cache=True, nogil=True, inline="always")
def _word_32(bit_generator):  # pragma: no cover - compiled
    return np.uint64(next_uint32(bit_generator))


@njit(cache=True, nogil=True, inline="always")
def _word_64(bit_generator):  # pragma: no cover - compiled
    return np.uint64(next_uint64(bit_generator))


#: The per-draw map of each reducer code, for 32- and 64-bit words.
MAPS = {(LEMIRE, 32): lemire_32, (LEMIRE, 64): _lemire_64, (BITMASK, 32): bitmask_one, (BITMASK, 64): bitmask_one,
        (JAVA_NEXTINT, 32): java_nextint_one}


@njit(cache=True, nogil=True)
def _direct_kernel(word, reduce, bit_generator, n, parameter, out, limits):  # pragma: no cover - compiled
    """Draw ``word(bit_generator)`` and map it by ``reduce`` until ``wanted`` values are kept in ``out[start:]``
    or ``streak`` reaches ``stuck``; ``limits = (start, wanted, streak, stuck)``. Returns ``(kept, used, streak)``.

    numba compiles one loop per ``(word, reduce)`` pair. Branch-free
    compaction: every value is written at the next free place and the place
    advances only when it is kept (``out[start + wanted - 1]`` is the last
    place written).
    """
    start, wanted, streak, stuck = limits
    kept, used = 0, 0
    while kept < wanted:
        value, accepted = reduce(word(bit_generator), n, parameter)
        used += 1
        out[start + kept] = value
        kept += accepted
        streak = (streak + 1) * (1 - accepted)
        if streak >= stuck:
            break
    return kept, used, streak


def draw_direct(code: int, bit_generator: np.random.BitGenerator, range_size: int, n: int, out: np.ndarray,
                place: tuple[int, int], run: tuple[int, int]) -> tuple[int, int, int]:
    """Keep ``wanted`` values of reducer ``code`` for bound ``n`` in ``out[start:]``, ``place = (start, wanted)``,
    drawing 32-bit words (``R = 2^32``: ``next_uint32``) or 64-bit outputs (``R = 2^64``); ``run = (streak, stuck)``.

    Returns ``(kept, used, streak)`` as :func:`rnglab.reduction.compact.compact` does.
    """
    bits = range_size.bit_length() - 1
    word = dispatcher(_word_32 if bits == 32 else _word_64)
    return _direct_kernel(word, dispatcher(MAPS[code, bits]), bit_generator, np.uint64(n),
                          np.uint64(compact_parameter(code, n, range_size)), out, (*place, *run))
