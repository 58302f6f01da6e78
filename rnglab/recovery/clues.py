"""What an observer knows of an LCG's outputs, as linear constraints on its state.

A *clue* says one output ``y`` of the stream (or one bounded draw made from it)
is known, or known to lie in an interval. For an LCG ``x_(i+1) = a x_i + c mod m``
whose output is the bit field ``y = (x >> s) mod 2^w``, the state before the
first output is unknown, ``X``; output ``i`` reads ``x_i = A_i X + C_i mod m``
with ``A_i = a^i``, ``C_i = c (a^i - 1) / (a - 1)``. Every clue becomes

    ``A X + B + G t  mod M  in  [lo, hi]``,  with ``t`` an extra unknown in ``[0, T)``

(:class:`Constraint`):

* an output in ``[u, v]``, or a draw of a monotone reducer (``multiply-shift``,
  ``float-multiply``, ``lemire``, Java's ``nextInt`` of a power of two), whose
  preimage is an interval of outputs: ``x_i mod 2^(s+w)`` lies in
  ``[2^s u, 2^s v + 2^s - 1]``, no ``t``;
* a remainder draw ``y' mod n = r`` (``modulo``, ``threshold``, Java's ``nextInt``
  on ``y' = y >> 1``): ``y' = r + n t``, so ``x_i - 2^s' r - 2^s' n t`` is the low
  ``s'`` bits, in ``[0, 2^s')``; for ``n = 2^k q`` on a power-of-two modulus the
  ``k`` low bits of ``y'`` are also stated on their own (modulus ``2^(s'+k)``), so
  they can be solved first (:mod:`rnglab.recovery.lattice`).

The draws are assumed to be accepted at the first output (a rejecting reducer
redraws with probability ``(R mod n) / R``, below ``2^-25`` for a die on Java);
every state found is checked by replaying the real reducer, rejections included.

The information bound: a clue that leaves ``f`` of the field's ``2^w`` values
carries ``w - log2 f`` bits (a draw below ``n``: ``log2 n``); fewer bits in all
than ``log2 m`` leave about ``m / 2^bits`` states, and no method can choose among them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from rnglab.generators import GeneratorSpec
from rnglab.reduction.reducers import Reducer

#: How each reducer's value constrains the output it read (see the module docstring).
REMAINDER_REDUCERS = {"modulo": 0, "threshold": 0, "threshold-openbsd": 0, "java-nextint": 1}
MONOTONE_REDUCERS = ("multiply-shift", "float-multiply", "lemire")


@dataclass(frozen=True)
class Clue:
    """One output, or one bounded draw, known to lie in ``[low, high]``.

    Attributes
    ----------
    low, high : int
        The output (``bound is None``) or the drawn value is in ``[low, high]``
        (``low == high``: known exactly).
    bound : int or None
        For a draw: the bound ``n`` of ``reducer(output, n)``.
    """

    low: int
    high: int
    bound: int | None = None

    @classmethod
    def value(cls, value: int, bound: int | None = None) -> Clue:
        """An output (or a draw below ``bound``) known exactly."""
        return cls(value, value, bound)

    @property
    def unknown(self) -> bool:
        """True for a draw whose value is not known at all (it only advances the stream)."""
        return self.bound is not None and self.low == 0 and self.high == self.bound - 1

    @classmethod
    def top_bits(cls, value: int, known: int, width: int) -> Clue:
        """An output of ``width`` bits whose top ``known`` bits are ``value``."""
        hidden = width - known
        return cls(value << hidden, ((value + 1) << hidden) - 1)


@dataclass(frozen=True)
class Constraint:
    """``A X + B + G t mod M`` lies in ``[lo, hi]`` for some ``t`` in ``[0, T)`` (``G = 0``, ``T = 1``: no ``t``).

    ``implied``: the constraint follows from another one (the low bits of a remainder
    draw), stated apart only so that the low bits can be solved first.
    """

    A: int
    B: int
    M: int
    lo: int
    hi: int
    G: int = 0
    T: int = 1
    implied: bool = False


@dataclass(frozen=True)
class Field:
    """The bits of the state an output shows: ``y = (x >> shift) mod 2^width``, offsets ``y - low``."""

    shift: int
    width: int
    low: int

    @classmethod
    def of(cls, spec: GeneratorSpec) -> Field:
        """The output field of an LCG spec (the whole state for ``output = state``)."""
        source = spec.make(_any_seed(spec))
        if spec.output.kind == "state":
            return cls(0, (spec.m - 1).bit_length(), source.low)
        return cls(spec.output.shift, spec.output.width, source.low)


def _any_seed(spec: GeneratorSpec) -> int:
    low, _ = spec.seed_bounds()
    return spec.default_seed if spec.default_seed is not None else (low or 0)


def check_solvable(spec: GeneratorSpec) -> None:
    """Raise ``ValueError`` unless ``spec`` is an LCG whose outputs the lattice can read.

    Needs an LCG with ``gcd(a, m) = 1`` (the state can be stepped back), and, for a
    modulus that is not a power of two, an output that is the top bits of the state.
    """
    if not spec.is_lcg:
        raise ValueError(f"{spec.name} is not a linear congruential generator: its state cannot be "
                         "recovered by lattice reduction")
    if math.gcd(spec.a, spec.m) != 1:
        raise ValueError(f"{spec.name}: the multiplier must be invertible modulo m to recover a state")
    field = Field.of(spec)
    if not _power_of_two(spec.m) and (1 << (field.shift + field.width)) < spec.m:
        raise ValueError(f"{spec.name}: for m not a power of two the output must be the state's top bits")


def check_clues(spec: GeneratorSpec, reducer: Reducer, clues: list[Clue]) -> None:
    """Raise ``ValueError`` naming the rule for a clue outside its output or draw range."""
    field = Field.of(spec)
    range_size = 1 << field.width if spec.output.kind == "bits" else spec.m - field.low
    for index, clue in enumerate(clues):
        if clue.bound is not None:
            reducer.check(clue.bound, range_size)
            top = clue.bound - 1
        else:
            top = field.low + range_size - 1
        if not (0 if clue.bound is not None else field.low) <= clue.low <= clue.high <= top:
            kind = f"draws below {clue.bound}" if clue.bound is not None else "outputs"
            raise ValueError(f"observation {index + 1}: {kind} are in [0, {top}]; got [{clue.low}, {clue.high}]")
        if clue.bound is not None and clue.low != clue.high and not clue.unknown and reducer.name not in MONOTONE_REDUCERS \
                and not _power_of_two_nextint(reducer, clue.bound):
            raise ValueError(f"observation {index + 1}: a range of draws needs a monotone reducer "
                             f"({', '.join(MONOTONE_REDUCERS)}); {reducer.name} gives a value exactly")
        if clue.bound is not None and reducer.name not in MONOTONE_REDUCERS + tuple(REMAINDER_REDUCERS):
            raise ValueError(f"the lattice recovery reads draws of {', '.join(MONOTONE_REDUCERS)}, "
                             f"{', '.join(REMAINDER_REDUCERS)}; not {reducer.name}")


def information_bits(spec: GeneratorSpec, clues: list[Clue]) -> float:
    """Bits the clues carry: ``sum(w - log2(values allowed))``, ``log2 n`` for an exact draw below ``n``."""
    field = Field.of(spec)
    total = 0.0
    for clue in clues:
        size = clue.bound if clue.bound is not None else 1 << field.width
        total += math.log2(size / (clue.high - clue.low + 1))
    return total


def constraints(spec: GeneratorSpec, reducer: Reducer, clues: list[Clue]) -> list[Constraint]:
    """The constraints on the state ``X`` before the first output (see the module docstring)."""
    field, out = Field.of(spec), []
    A, C = 1, 0
    for clue in clues:
        out += _clue_constraints(spec, field, reducer, clue, A, C)
        A, C = A * spec.a % spec.m, (C * spec.a + spec.c) % spec.m
    return out


def _clue_constraints(spec, field, reducer, clue, A, C) -> list[Constraint]:
    """The clue on the offsets ``y - low``, read from ``x - (low << shift)`` (outputs from 1: minstd)."""
    if clue.unknown:
        return []
    C -= field.low << field.shift
    if clue.bound is None:
        return [_interval(spec, field.shift, field.width, clue.low - field.low, clue.high - field.low, A, C)]
    inner = REMAINDER_REDUCERS.get(reducer.name)
    if inner is None or _power_of_two_nextint(reducer, clue.bound):
        low, high = _preimage(reducer, clue, 1 << field.width)
        return [_interval(spec, field.shift, field.width, low, high, A, C)]
    return _remainder(spec, field.shift + inner, field.width - inner, clue.bound, clue.low, A, C)


def _interval(spec, shift, width, low, high, A, C) -> Constraint:
    """Offsets ``y`` of the field in ``[low, high]``: the state, modulo ``2^(shift+width)``, in an interval."""
    M = min(1 << (shift + width), spec.m) if _power_of_two(spec.m) else spec.m
    return Constraint(A % M, C % M, M, low << shift, min(((high + 1) << shift) - 1, M - 1))


def _remainder(spec, shift, width, n, r, A, C) -> list[Constraint]:
    """``(x >> shift) mod n = r``: ``x - 2^shift (r + n t)`` in ``[0, 2^shift)``, plus the known low bits of ``y``."""
    M = min(1 << (shift + width), spec.m) if _power_of_two(spec.m) else spec.m
    top = min((1 << width) - 1, (spec.m - 1) >> shift)
    out = [Constraint(A % M, (C - (r << shift)) % M, M, 0, (1 << shift) - 1, -(n << shift) % M, (top - r) // n + 1)]
    k = (n & -n).bit_length() - 1
    if k and _power_of_two(spec.m):
        out.insert(0, replace(_interval(spec, shift, k, r % (1 << k), r % (1 << k), A, C), implied=True))
    return out


def _preimage(reducer: Reducer, clue: Clue, range_size: int) -> tuple[int, int]:
    """The offsets ``y`` whose draw (a non-decreasing map of ``y``) lies in ``[clue.low, clue.high]``."""
    def first_reaching(value: int) -> int:
        low, high = 0, range_size
        while low < high:
            middle = (low + high) // 2
            drawn, _ = reducer.map(np.array([middle], dtype=np.uint64), clue.bound, range_size)
            low, high = (middle + 1, high) if int(drawn[0]) < value else (low, middle)
        return low
    start, stop = first_reaching(clue.low), first_reaching(clue.high + 1)
    if start >= stop:
        raise ValueError(f"no output draws {clue.low}..{clue.high} below {clue.bound} with {reducer.name}")
    return start, stop - 1


def _power_of_two_nextint(reducer: Reducer, bound: int) -> bool:
    """Java's ``nextInt`` of a power of two takes the top bits: ``(n next(31)) >> 31``, monotone."""
    return reducer.name == "java-nextint" and bound & (bound - 1) == 0


def _power_of_two(m: int) -> bool:
    return m & (m - 1) == 0
