"""State recovery by lattice reduction: every LCG state consistent with partial outputs.

The constraints of :mod:`rnglab.recovery.clues`, ``A_j X + B_j + G_j t_j mod M_j in
[lo_j, hi_j]``, are solved in three steps.

1. **Low bits first.** For ``m = 2^e`` the low ``L`` bits of every state depend
   on the low ``L`` bits of ``X`` only; constraints of modulus ``2^L`` or less
   (the bits a ``% 2^k`` draw reveals exactly) are solved by trying all ``2^L``
   low parts at once (``L <= 22``). Writing ``X = X_L + 2^L z``, every other
   constraint is divided by ``2^L``; one whose remaining range is a single value
   and whose ``t`` has an odd coefficient is solved for ``t``, which becomes an
   interval constraint on ``z`` (a die roll ``nextInt(6)`` on Java: the low bit
   of ``next(31)`` fixes 18 state bits, then ``t`` = (the roll's quotient) is an
   affine function of the 30 high bits that must lie in ``[0, 2^31 / 6)``).
2. **One lattice.** Coordinates ``z``, each ``t_j`` and each ``A_j z + B_j + G_j
   t_j + M_j k_j``, each scaled so that its allowed range spans about ``2^K``;
   the solution is a lattice vector in a box around a known centre, a closest
   vector problem, embedded as a shortest vector problem (Kannan 1987) and
   LLL-reduced exactly (:mod:`rnglab.algebra.lattice`).
3. **Enumeration.** The Schnorr--Euchner enumeration visits the embedded vectors
   up to a radius that grows from the expected length of the solution; those with
   embedding coordinate ``+-E`` give candidates, and a candidate is kept when the
   generator, replayed with the real reducer, reproduces every observation.

References
----------
D. E. Knuth, Deciphering a linear congruential encryption, IEEE Trans. Inf. Theory 31, 1985.
A. M. Frieze, J. Hastad, R. Kannan, J. C. Lagarias, A. Shamir, Reconstructing truncated integer
variables satisfying linear congruences, SIAM J. Comput. 17(2), 1988.
R. Kannan, Minkowski's convex body theorem and integer programming, Math. Oper. Res. 12, 1987.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rnglab.algebra.lattice import IntegralLLL, guided_reduction, short_vectors
from rnglab.core.results import Result
from rnglab.draws.bounded import draw_bounded_reference
from rnglab.generators import LCG, GeneratorSpec
from rnglab.recovery.clues import Clue, Constraint, check_clues, check_solvable, constraints, information_bits
from rnglab.reduction.reducers import Reducer

#: Most low bits solved by trying every value.
MAX_LOW_BITS = 22
#: Most low parts carried into the lattice (more: the low bits are not determined yet).
MAX_LOW_PARTS = 64
#: Most lattice vectors enumerated per radius (by the Gaussian heuristic).
MAX_VISITS = 1_000_000
#: Enumeration radii, as multiples of the solution's expected squared length.
RADII = (1.2, 2.0, 3.0)
#: Largest modulus for which the unknowns' rows are added at once, then reduced (measured: the
#: floating-point guide keeps up with the whole block for Java's 2^48; for 2^64 it gives up, and
#: one row at a time, each reduced before the next, keeps the numbers small and is faster).
BLOCK_MODULUS = 2**48
#: Most states reported.
MAX_STATES = 1000


class InsufficientObservations(ValueError):
    """The observations carry fewer bits than the state has: no method can single the state out."""


@dataclass(frozen=True)
class LatticeSolution:
    """States (before the first observed output) consistent with every observation.

    Attributes
    ----------
    states : list of int
        Each state ``X`` that reproduces every clue (the state the first observed output is read from).
    information_bits : float
        Bits the observations carry (see :func:`rnglab.recovery.clues.information_bits`).
    state_bits : float
        ``log2 m``.
    dimension : int
        Dimension of the lattice reduced (0 when the low bits decided everything).
    complete : bool
        False when a radius was not enumerated (more than :data:`MAX_VISITS` vectors expected),
        none gave a solution, or more than :data:`MAX_STATES` states were found.
    """

    states: list
    information_bits: float
    state_bits: float
    dimension: int
    complete: bool


def needed_observations(info: float, state_bits: float, count: int) -> int:
    """How many more observations like these reach the state's bits (at their mean information)."""
    if info >= state_bits or count == 0:
        return 0
    return math.ceil((state_bits - info) / (info / count)) if info > 0 else -1


def check_information(spec: GeneratorSpec, clues: list[Clue]) -> float:
    """Return the clues' information bits; raise :class:`InsufficientObservations` below ``log2 m``."""
    info, state_bits = information_bits(spec, clues), math.log2(spec.m)
    if info < state_bits:
        more = needed_observations(info, state_bits, len(clues))
        hint = f"about {more} more like these" if more > 0 else "observations that carry information"
        raise InsufficientObservations(
            f"the observations carry {info:.1f} bits and the state has {state_bits:.0f}: about 2^{state_bits - info:.1f} "
            f"states fit them; give {hint}")
    return info


def solve(spec: GeneratorSpec, reducer: Reducer, clues: list[Clue]) -> LatticeSolution:
    """Every state ``X`` of the LCG ``spec`` whose outputs from ``X`` on show ``clues`` (one per output).

    Raises
    ------
    ValueError
        For a generator that is not a suitable LCG, a clue outside its range, or
        :class:`InsufficientObservations` when the clues carry fewer bits than the state.
    """
    check_solvable(spec)
    check_clues(spec, reducer, clues)
    info = check_information(spec, clues)
    system = constraints(spec, reducer, clues)
    low_bits, parts = _low_parts(spec.m, system)
    if len(parts) > MAX_LOW_PARTS:
        raise InsufficientObservations(f"{len(parts)} values of the low {low_bits} state bits fit the observations: "
                                       "give more observations")
    states, dimension, complete = [], 0, True
    for part in parts:
        found, dimension, done = _solve_high(spec, system, low_bits, part)
        complete &= done
        states += [x for x in found if reproduces(spec, reducer, clues, x)]
    return LatticeSolution(sorted(set(states))[:MAX_STATES], info, math.log2(spec.m), dimension,
                           complete and len(states) <= MAX_STATES)


def seeded_state(spec: GeneratorSpec, first: int) -> int:
    """The state one step before ``first`` (the state the first output is read from): ``(x - c) a^-1 mod m``."""
    return (first - spec.c) * pow(spec.a, -1, spec.m) % spec.m


def seeds_of(spec: GeneratorSpec, states: list[int]) -> list[int] | None:
    """The seed of each seeded state, where the seeding convention can be inverted (Java's XOR, or the state itself)."""
    name = spec.seeding.name
    if name == "java":
        return [s ^ 0x5DEECE66D for s in states]
    return list(states) if name in ("state", "uint32") else None


@dataclass(frozen=True)
class OutputRecovery(Result):
    """States of an LCG consistent with partial outputs or draws, and what follows.

    Attributes
    ----------
    generator, reducer : str
    observations : int
    bound : int or None
        The bound of the draws (None: outputs, known exactly or by their top bits).
    information_bits, state_bits : float
    states : list of int
        The state after the last observation, one per solution.
    initial_states : list of int
        The state before the first observation (the seeded state, if it was the first).
    seeds : list of int or None
        The seed of each initial state where the seeding can be inverted.
    predicted : list of list of int
        The next draws (or outputs) of each solution.
    complete : bool
        False when the enumeration was cut short.
    """

    generator: str
    reducer: str
    observations: int
    bound: int | None
    information_bits: float
    state_bits: float
    states: list
    initial_states: list
    seeds: list | None
    predicted: list
    complete: bool


def recover_from_outputs(spec: GeneratorSpec, reducer: Reducer, clues: list[Clue], predict: int = 10) -> OutputRecovery:
    """:func:`solve`, then each solution stepped to the end of the observations and ``predict`` values on."""
    solution = solve(spec, reducer, clues)
    bound = clues[-1].bound
    initial = [seeded_state(spec, x) for x in solution.states]
    states, predicted = [], []
    for state in initial:
        source = source_at(spec, state)
        for clue in clues:
            _observe(source, clue.bound, reducer)
        states.append(source.x)
        predicted.append([_observe(source, bound, reducer) for _ in range(predict)])
    return OutputRecovery(spec.name, reducer.name, len(clues), bound, solution.information_bits, solution.state_bits,
                          states, initial, seeds_of(spec, initial), predicted, solution.complete)


def reproduces(spec: GeneratorSpec, reducer: Reducer, clues: list[Clue], state: int) -> bool:
    """Replay the LCG from ``state`` with the real reducer (rejections included): does it show every clue?"""
    source = source_at(spec, seeded_state(spec, state))
    return all(clue.low <= _observe(source, clue.bound, reducer) <= clue.high for clue in clues)


def source_at(spec: GeneratorSpec, state: int) -> LCG:
    """The LCG of ``spec`` in state ``state`` (its next output is read from ``a state + c``)."""
    source = LCG(a=spec.a, c=spec.c, m=spec.m, seed=1, output=spec.output, low=spec.low)
    source.x = state
    return source


def _observe(source: LCG, bound: int | None, reducer: Reducer) -> int:
    """The next output, or the next draw below ``bound``."""
    if bound is None:
        return source.next_raw()
    return int(draw_bounded_reference(source, bound, 1, reducer).values[0])
# -- step 1: the low bits -----------------------------------------------------------------

def _low_parts(m: int, system: list[Constraint]) -> tuple[int, list[int]]:
    """``(L, parts)``: the low ``L`` bits of ``X`` solved by trying them all (``L = 0``: nothing to solve)."""
    if m & (m - 1):
        return 0, [0]
    cap = min([MAX_LOW_BITS, m.bit_length() - 1] + [_two_adic(c.G) for c in system if c.T > 1])
    small = [c for c in system if c.M <= 1 << cap and c.T == 1]
    if not small:
        return 0, [0]
    bits = max(c.M.bit_length() - 1 for c in small)
    parts = np.arange(1 << bits, dtype=np.uint64)
    keep = np.ones(len(parts), dtype=bool)
    for c in small:
        x = (parts * np.uint64(c.A) + np.uint64(c.B)) & np.uint64(c.M - 1)
        keep &= (x >= np.uint64(c.lo)) & (x <= np.uint64(c.hi))
    return bits, [int(p) for p in parts[keep]]


def _two_adic(value: int) -> int:
    return (value & -value).bit_length() - 1 if value else 10**9


def _lift(system: list[Constraint], bits: int, part: int) -> list[Constraint] | None:
    """The constraints on ``z`` with ``X = part + 2^bits z``; None if one of them cannot hold."""
    out, unit = [], 1 << bits
    for c in system:
        if c.M <= unit:
            continue
        epsilon = (c.A * part + c.B) % unit
        lo, hi = -((epsilon - c.lo) // unit), (c.hi - epsilon) // unit
        if lo > hi:
            return None
        M = c.M >> bits
        lifted = Constraint(c.A % M, (c.A * part + c.B - epsilon) // unit % M, M, lo, hi, (c.G >> bits) % M, c.T)
        out.append(_solved_for_t(lifted))
    return out


def _solved_for_t(c: Constraint) -> Constraint:
    """``A z + B + G t = v mod M`` with odd ``G`` and ``M = 2^j``: ``t = G^-1 (v - B - A z)`` in ``[0, T)``."""
    if c.T == 1 or c.lo != c.hi or c.G % 2 == 0 or c.M & (c.M - 1):
        return c
    inverse = pow(c.G, -1, c.M)
    return Constraint(-inverse * c.A % c.M, inverse * (c.lo - c.B) % c.M, c.M, 0, min(c.T, c.M) - 1)


# -- step 2 and 3: the lattice and its enumeration -----------------------------------------

@dataclass(frozen=True)
class System:
    """Unknowns in boxes ``[lo, hi]`` and equations ``sum(coefficients * unknowns) + B mod M in [lo, hi]``."""

    boxes: list
    equations: list


def _solve_high(spec: GeneratorSpec, system: list[Constraint], bits: int, part: int) -> tuple[list[int], int, bool]:
    """The states ``part + 2^bits z`` whose ``z`` satisfies the lifted constraints (lattice and enumeration)."""
    lifted = _lift(system, bits, part) if bits else [c for c in system if not c.implied]
    if lifted is None:
        return [], 0, True
    span = spec.m >> bits
    if span == 1:
        return [part], 0, True
    linear, recover_z = _linear_system(lifted, span)
    reduction, weights, scale = _reduced_embedding(linear)
    mu, B = reduction.gram_schmidt()
    solutions, complete = _enumerate(reduction.basis, mu, B, scale, weights, linear.boxes)
    found = {recover_z(values) % span for values in solutions}
    return [part + (z << bits) for z in sorted(found)], len(B), complete


def _linear_system(system: list[Constraint], span: int):
    """The constraints as a :class:`System`, and the map from its unknowns' values back to ``z``.

    The unknowns are ``z`` (in ``[0, span)``) and each ``t``. When a constraint
    of modulus ``span`` has an invertible ``A`` (the *pivot*), ``z`` is replaced by
    that constraint's value ``u = A z + B + G t mod span``, whose box is the
    constraint's own range: ``z = A^-1 (u - B - G t)``. The lattice loses its widest
    coordinate, and its entries shrink by as many bits.
    """
    with_t = [j for j, c in enumerate(system) if c.T > 1]
    column = {j: 1 + i for i, j in enumerate(with_t)}
    boxes = [(0, span - 1)] + [(0, system[j].T - 1) for j in with_t]
    rows = []
    for j, c in enumerate(system):
        coefficients = [c.A] + [0] * len(with_t)
        if c.T > 1:
            coefficients[column[j]] = c.G
        rows.append((coefficients, c.B, c.M, c.lo, c.hi))
    pivot = next((j for j, c in enumerate(system) if c.M == span and math.gcd(c.A, span) == 1), None)
    if pivot is None:
        return System(boxes, rows), lambda values: values[0]
    coefficients, B, _, lo, hi = rows.pop(pivot)
    inverse = pow(coefficients[0], -1, span)
    # z = inverse (u - B - sum_(i>0) coefficients[i] t_i): substitute into every other equation
    substituted = [coefficient * inverse for coefficient in coefficients]
    rows = [([a * inverse % M] + [(x - a * y) % M for x, y in zip(others, substituted[1:])], (b - a * inverse * B) % M,
             M, low, high) for (a, *others), b, M, low, high in rows]
    boxes[0] = (lo, hi)

    def recover_z(values):
        return inverse * (values[0] - B - sum(x * y for x, y in zip(coefficients[1:], values[1:])))
    return System(boxes, rows), recover_z


def _reduced_embedding(system: System):
    """The embedded lattice, LLL-reduced exactly, with its weights and embedding constant ``E = 2^K``.

    Coordinates are doubled so that centres are integers: a value ``v`` with box
    ``[lo, hi]`` is the coordinate ``w (2 v - lo - hi)``, at most ``w (hi - lo) <= 2^K`` in size.
    They are laid out equations first, then the unknowns in reverse, then ``E``: the
    rows ``2 w_j M_j e_j`` are orthogonal (already reduced), and each later row (an
    unknown's, then the target's) brings one new coordinate, so the basis is grown and
    reduced (:func:`rnglab.algebra.lattice.guided_reduction`) in steps: the unknowns' rows
    in one block when every modulus is at most :data:`BLOCK_MODULUS`, else one at a
    time, which keeps the numbers the floating-point guide sees small.

    Returns
    -------
    reduction : IntegralLLL
    weights : list of int
        One per unknown (in the boxes' order).
    scale : int
        ``E``.
    """
    boxes, equations = system.boxes, system.equations
    ranges = [hi - lo + 1 for lo, hi in boxes] + [hi - lo + 1 for *_, lo, hi in equations]
    K = max(ranges).bit_length() + 1
    weights = [(1 << K) // r for r in ranges]
    box_weights, equation_weights = weights[:len(boxes)], weights[len(boxes):]
    q = len(equations)
    reduction = IntegralLLL([[2 * M * w if i == j else 0 for i in range(q)]
                             for j, ((_, _, M, _, _), w) in enumerate(zip(equations, equation_weights))])
    floats = reduction.gram_schmidt()
    order, growth = list(reversed(range(len(boxes)))), len(boxes) if max(e[2] for e in equations) <= BLOCK_MODULUS else 1
    for start in range(0, len(order), growth):
        first = len(reduction.basis)
        for i in order[start:start + growth]:
            row = [2 * (coefficients[i] % M) * w for (coefficients, _, M, _, _), w in zip(equations, equation_weights)]
            reduction.extend(row + [0] * (len(boxes) - 1 - i) + [2 * box_weights[i]])
        reduction = guided_reduction(reduction, first, floats if len(reduction.basis) == first + 1 else None)
        floats = reduction.gram_schmidt()
    centres = [w * (lo + hi - 2 * B) for (_, B, _, lo, hi), w in zip(equations, equation_weights)]
    centres += [w * (lo + hi) for (lo, hi), w in reversed(list(zip(boxes, box_weights)))]
    reduction.extend([-c for c in centres] + [1 << K])
    reduction = guided_reduction(reduction, len(reduction.basis) - 1, floats)
    return reduction, box_weights, 1 << K


def _enumerate(basis, mu, B, scale: int, weights: list[int], boxes: list) -> tuple[list[list[int]], bool]:
    """The unknowns' values of the embedded vectors with last coordinate ``+-scale``.

    The radius grows through :data:`RADII` times the solution's expected squared
    length (coordinates uniform in ``[-2^K, 2^K]``: ``2^2K / 3`` each, plus ``E^2``)
    until some are found; a radius holding more than :data:`MAX_VISITS` lattice
    vectors by the Gaussian heuristic is not enumerated (the result is then incomplete).
    """
    expected = (len(basis) - 1) * scale * scale // 3 + scale * scale
    log_volume = sum(math.log(b) for b in B) / 2
    for factor in RADII:
        bound = int(expected * factor)
        if _expected_count(len(basis), bound, log_volume) > MAX_VISITS:
            return [], False
        found = {}
        for vector in short_vectors(basis, mu, B, bound):
            if abs(vector[-1]) == scale:
                unknowns = vector[-2:-2 - len(boxes):-1]
                values = _values_of(unknowns if vector[-1] > 0 else [-v for v in unknowns], weights, boxes)
                if values is not None:
                    found[tuple(values)] = values
        if found:
            return list(found.values())[:MAX_STATES + 1], len(found) <= MAX_STATES
    return [], False


def _expected_count(dimension: int, bound: int, log_volume: float) -> float:
    """Lattice vectors of squared length at most ``bound``: the ball's volume over the determinant."""
    log_ball = dimension / 2 * math.log(math.pi) - math.lgamma(dimension / 2 + 1) + dimension / 2 * math.log(bound)
    return math.exp(min(log_ball - log_volume, 700.0))


def _values_of(vector: list[int], weights: list[int], boxes: list) -> list[int] | None:
    """The unknowns ``v`` from their coordinates ``w (2 v - lo - hi)``, if each is in its box."""
    values = []
    for coordinate, weight, (lo, hi) in zip(vector, weights, boxes):
        doubled, remainder = divmod(coordinate, weight)
        if remainder or (doubled + lo + hi) % 2 or not lo <= (doubled + lo + hi) // 2 <= hi:
            return None
        values.append((doubled + lo + hi) // 2)
    return values
