"""One bounded draw of an LCG in compiled code (CPU and GPU): step, read the output, reduce, redraw if rejected.

The deal kernels (:mod:`rnglab.shuffles.kernels`) and the seed search
(:mod:`rnglab.recovery.search_kernels`, :mod:`rnglab.recovery.gpu`) draw
through :func:`draw_value`. It serves an LCG whose modulus is a power of two
(up to 2^64) or at most 2^32, with the output ``(x >> shift) & mask`` minus
its declared ``low``, through any reducer whose one-draw map
(:attr:`~rnglab.reduction.reducers.Reducer.scalar`) is exact on the source's
``R`` (:func:`serves`).

The generator comes in at run time, as a uint64 vector of
:data:`GENERATOR_FIELDS` (:func:`kernel_fields`): one kernel per reducer
serves every generator. The bounds come as a table of ``(n, parameter(n, R))``
per draw (:func:`bound_table`).

A source that rejects :data:`~rnglab.draws.bounded.STUCK_REJECTIONS` draws in a
row is stuck (an LCG in a fixed point on a rejected output): :func:`draw_value`
then reports 0 draws, and its callers stop.

All arithmetic is uint64: numba turns mixed uint64/int64 arithmetic into
float64, which would silently lose bits.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from rnglab.core.compiled import device
from rnglab.generators import LCG, LCGBatch
from rnglab.generators.affine import arithmetic_kind
from rnglab.reduction.reducers import Reducer
from rnglab.reduction.scalar import rejections_after, span

#: Fields of the generator vector passed to the kernels: the LCG's ``a`` and ``c``; ``modulus`` (0 for
#: m = 2^e, whose states are kept with ``state_mask = m - 1``); the output ``(x >> shift) & output_mask``
#: and its declared ``low``; the range ``R`` as ``range_size = R mod 2^64`` and ``range_bits = log2 R``
#: for a power of two, else 0 (:func:`rnglab.reduction.scalar.span`).
GENERATOR_FIELDS = ("a", "c", "modulus", "state_mask", "shift", "output_mask", "low", "range_size", "range_bits")

#: The generator vector's fields by name, as the kernels read them.
Fields = namedtuple("Fields", GENERATOR_FIELDS)

ZERO = np.uint64(0)


def serves(generator: LCG | LCGBatch, reducer: Reducer) -> bool:
    """Whether :func:`draw_value` serves this LCG (or batch) and reducer.

    Served: a modulus that is a power of two (up to 2^64) or at most 2^32,
    and a reducer that takes the outputs' ``R`` (its domain,
    :meth:`~rnglab.reduction.reducers.Reducer.serves_range`: the rule
    :func:`~rnglab.draws.bounded.draw_bounded` applies) with a one-draw map
    exact on it (:meth:`rnglab.reduction.scalar.Scalar.serves`: every
    ``R <= 2^32``, and whole 64-bit words for ``lemire`` and ``bitmask``).
    """
    return arithmetic_kind(generator.m) in ("pow2", "small") and reducer.scalar is not None and \
        reducer.scalar.serves(generator.range_size) and reducer.serves_range(generator.range_size)


def kernel_fields(generator: LCG | LCGBatch) -> np.ndarray:
    """An LCG's or a batch's parameters as :data:`GENERATOR_FIELDS` (uint64)."""
    pow2 = arithmetic_kind(generator.m) == "pow2"
    shift, mask = generator.output.shift_and_mask(generator.m)
    return np.array([generator.a, generator.c, 0 if pow2 else generator.m, generator.m - 1 if pow2 else 0, shift,
                     mask, generator.low, *span(generator.range_size)], dtype=np.uint64)


def bound_table(bounds: np.ndarray, reducer: Reducer, range_size: int) -> np.ndarray:
    """Per draw, the bound ``n`` and the reducer's constant ``parameter(n, R)``: uint64, shape ``(draws, 2)``."""
    rows = [(b, reducer.scalar.parameter(b, range_size)) for b in map(int, bounds)]
    return np.array(rows, dtype=np.uint64).reshape(len(rows), 2)


@device
def as_fields(generator):  # pragma: no cover - compiled
    """The generator vector as named scalars (:data:`Fields`: registers, not memory the compiler must reload)."""
    return Fields(generator[0], generator[1], generator[2], generator[3], generator[4], generator[5],
                  generator[6], generator[7], generator[8])


@device
def advance(x, fields):  # pragma: no cover - compiled
    """One LCG step: ``(a x + c) mod m``; ``modulus == 0`` marks m = 2^e (masked wrap-around)."""
    y = fields.a * x + fields.c
    if fields.modulus == ZERO:
        return y & fields.state_mask
    return y % fields.modulus


@device(inline=False)
def draw_value(reduce, x, n, parameter, fields, limit):  # pragma: no cover - compiled
    """Step until ``reduce`` accepts; return ``(value, new state, outputs drawn)``.

    ``reduce`` is a reducer's one-draw map, ``parameter`` its constant for ``n``.
    After ``limit`` rejections in a row the source is stuck: ``(0, state, 0)``.

    Not inlined in numba's IR (:func:`~rnglab.core.compiled.device`): the seed
    search calls it from a dozen places, and typing its loop, the map and the
    map's products again at each made most of the kernel's compile time
    (called instead: a third to a seventh of it, by the reducer). The step and
    the map stay inlined in it, so its loop is as tight as before: the
    lock-step searches ran at the same rates, the scalar path (``minstd``)
    within a few per cent, the shared machine's noise.
    """
    drawn, streak = 0, 0
    while streak < limit:
        x = advance(x, fields)
        drawn += 1
        offset = ((x >> fields.shift) & fields.output_mask) - fields.low
        value, accepted = reduce(offset, n, parameter, fields.range_size, fields.range_bits)
        streak = rejections_after(streak, accepted)
        if accepted:
            return value, x, drawn
    return ZERO, x, 0
