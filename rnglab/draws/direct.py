"""Bounded draws straight from a numpy BitGenerator, in one compiled loop: draw, map, keep.

numba calls the BitGenerator's own C functions (``next_uint64``, or
``next_uint32`` for a generator of 32-bit words, through
``numba.np.random.generator_core``), so the generator steps inside the loop
as in numpy's ``Generator.integers``. A narrow draw
(:mod:`rnglab.draws.words`) splits each ``next_uint64`` output itself,
low half first, starting with the source's kept half and handing back the
high half left: the 32-bit words ``next_uint32`` gives, with half the calls.
Nothing is drawn beyond the last value needed. The maps are the one-pass
kernel's (:mod:`rnglab.draws.compact`), so the values equal the
reducer's. Importing this module imports numba: it is imported where a draw
first needs it (:data:`rnglab.draws.bounded.DIRECT_MIN` values or more).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic
from numba.np.random.generator_core import next_uint32, next_uint64

from rnglab.core.compiled import dispatcher, njit
from rnglab.draws.compact import compact_parameter
from rnglab.reduction.scalar import BITMASK, JAVA_NEXTINT, LEMIRE, bitmask_one, java_nextint_one, lemire_32


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
    """:func:`rnglab.draws.compact.lemire_64` with the machine's 128-bit product."""
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
def _direct_kernel(word, reduce, bit_generator, halves, n, parameter, out, limits):  # pragma: no cover - compiled
    """Map draws by ``reduce`` until ``wanted`` values are kept in ``out[start:]`` or ``streak`` reaches ``stuck``.

    The draws are ``word(bit_generator)``, or with ``halves`` the 32-bit
    halves of ``next_uint64``, low half first, after the kept half ``spare``
    (none when negative): what ``next_uint32`` gives, with half the calls.
    ``limits = (start, wanted, streak, stuck, spare)``. Returns
    ``(kept, used, streak, spare)``, ``spare`` the high half left (-1: none).
    numba compiles one loop per ``(word, reduce)`` pair. Branch-free
    compaction: every value is written at the next free place and the place
    advances only when it is kept (``out[start + wanted - 1]`` is the last
    place written).
    """
    start, wanted, streak, stuck, spare = limits
    kept, used, high, waiting = 0, 0, np.uint64(max(spare, 0)), spare >= 0
    while kept < wanted:
        if not halves:
            x = word(bit_generator)
        elif waiting:
            x, waiting = high, False
        else:
            output = _word_64(bit_generator)
            x, high, waiting = output & np.uint64(0xFFFFFFFF), output >> np.uint64(32), True
        value, accepted = reduce(x, n, parameter)
        used += 1
        out[start + kept] = value
        kept += accepted
        streak = (streak + 1) * (1 - accepted)
        if streak >= stuck:
            break
    return kept, used, streak, np.int64(high) if waiting else np.int64(-1)


def draw_direct(code: int, bit_generator: np.random.BitGenerator, range_size: int, n: int, out: np.ndarray,
                place: tuple[int, int], run: tuple[int, int], halves: tuple[bool, int | None]
                ) -> tuple[int, int, int, int | None]:
    """Keep ``wanted`` values of reducer ``code`` for bound ``n`` in ``out[start:]``, ``place = (start, wanted)``,
    ``run = (streak, stuck)``, drawing whole outputs of ``R`` values, or with ``halves = (True, spare)`` the 32-bit
    halves of 64-bit outputs after the kept half ``spare`` (a narrow draw, :mod:`rnglab.draws.words`).

    Returns ``(kept, used, streak)`` as :func:`rnglab.draws.compact.compact` does, and the high half
    left for the next 32-bit draw (``None``: none; with ``halves = (False, spare)``, ``spare`` itself).
    """
    bits = range_size.bit_length() - 1
    split, spare = halves
    word = dispatcher(_word_32 if bits == 32 else _word_64)
    if not split:
        return (*_direct_kernel(word, dispatcher(MAPS[code, bits]), bit_generator, False, np.uint64(n),
                                np.uint64(compact_parameter(code, n, range_size)), out, (*place, *run, -1))[:3], spare)
    kept, used, streak, left = _direct_kernel(word, dispatcher(MAPS[code, bits]), bit_generator, True, np.uint64(n),
                                              np.uint64(compact_parameter(code, n, range_size)), out,
                                              (*place, *run, -1 if spare is None else int(spare)))
    return kept, used, streak, None if left < 0 else int(left)
