"""Knuth's spectral test: exact lattice figures of a linear congruential generator.

The t-tuples ``(x_n, x_{n+1}, ..., x_{n+t-1}) / m`` of an LCG ``x -> (a x + c) mod m``
lie on a translate of the lattice ``L_t = {k (1, a, ..., a^(t-1)) / m} + Z^t``. Its dual is

    L*_t = { s in Z^t : s_1 + a s_2 + ... + a^(t-1) s_t = 0 (mod m) },

and every dual vector ``s`` sorts the points onto the parallel hyperplanes ``s . u = k``,
which lie ``1/|s|`` apart. The spectral test (Knuth, TAOCP vol. 2, 3.3.4) reports, for each
dimension t:

- ``nu2`` = nu_t^2, the squared length of a shortest non-zero dual vector, an exact integer,
  with one shortest vector as ``witness``; ``nu`` and ``log2_nu`` (bits of accuracy);
  ``1/nu`` is the largest distance between adjacent covering hyperplanes;
- Knuth's ``mu = pi^(t/2) nu^t / (Gamma(t/2 + 1) m)``;
- the normalised figure of merit ``S = nu / (gamma_t^(1/2) m^(1/t))`` with Hermite's
  constant gamma_t (see :func:`hermite_constant`), and ``M = min_t S_t`` as in
  L'Ecuyer's tables;
- ``planes``, the fewest parallel hyperplanes that cover every point in ``[0, 1)^t``
  (see :func:`plane_count`).

**Exactness.** The basis of L*_t is built for each t from the reduced basis of t - 1
and LLL-reduced in exact integer arithmetic (the integral LLL of de Weger, Cohen's
Algorithm 2.6.7: no rounding at all). A compiled floating-point LLL runs first as a
guide: it only chooses integer row operations, which are applied exactly, so the exact
reduction that follows usually has nothing left to do but confirm the result; whatever
the guide's rounding, the basis is exact and exactly reduced. Its Gram–Schmidt data,
each correctly rounded to a double from its exact rational value, guide a
Schnorr–Euchner enumeration (compiled for the shortest vector) that visits every
lattice vector whose *computed* squared length is within the current bound times
``1 + 2^-20``; the bound is the length of the shortest vector found so far, exact or
as computed. The vectors found are measured again in integers, so ``nu2`` is exact,
and the margin of ``2^-20`` exceeds the rounding of the enumeration's few dozen double
operations per level (relative error about ``t 2^-53`` on a size-reduced basis, where
``|mu| <= 1/2``) by many orders of magnitude: no vector of length ``<= nu`` is pruned.
The results are checked against brute force and against the unguided reduction and the
uncompiled enumeration in the tests, and against fplll in ``bench/bench_spectral.py``.

**Which modulus.** The increment c plays no role: it only translates the points. The
lattice modulus is m, except for a multiplicative generator (c = 0) with m = 2^e and an
odd seed: then ``x_n - x_0 = x_0 (a^n - 1)`` are exactly the multiples of
``g = gcd(a - 1, m)``, so the points lie on a translate of the lattice of modulus ``m / g``
(compare Knuth 3.3.4, exercise 20): ``2^(e-2)`` for ``a = 5 (mod 8)``, ``2^(e-1)`` for
``a = 3 (mod 8)`` (not m/4: checked by brute force on the actual point sets in the tests),
and the multiplier is reduced modulo it. ``lattice_m`` overrides the rule.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterable

from rnglab.algebra.bkz import bkz_reduction
from rnglab.algebra.lattice import (
    IntegralLLL,
    canonical,
    dot,
    enumerate_short_vectors,
    guided_reduction,
    lll_reduce,
    shortest_vector,
)
from rnglab.core.params import describe_int
from rnglab.core.results import Result

#: Largest dimension accepted.
MAX_DIMENSION = 64

#: First dimension whose basis gets BKZ preprocessing (below, LLL leaves the enumeration cheap).
BKZ_FROM = 30

#: Largest lattice modulus, in bits: the dual lattice has determinant m, so its squared
#: Gram–Schmidt lengths, rounded to doubles for the enumeration, can reach m^2 < 2^1000
#: (within double range, 2^1024) but not much more (a = 3, m = 2^600 + 1 overflows).
MAX_MODULUS_BITS = 500

#: Center densities of the densest known lattice packings, delta_t, for t = 9..23, as
#: (numerator, denominator, square-root factor): delta = num / (den * sqrt(root)).
#: Conway & Sloane, *Sphere Packings, Lattices and Groups*, 3rd ed., Table 1.2
#: (laminated lattices Lambda_t; K11, K12, K13 in 11..13).
_DENSEST_KNOWN = {
    9: (1, 16, 2), 10: (1, 16, 3), 11: (1, 18, 3), 12: (1, 27, 1), 13: (1, 18, 3),
    14: (1, 16, 3), 15: (1, 16, 2), 16: (1, 16, 1), 17: (1, 16, 2), 18: (1, 8, 3),
    19: (1, 8, 2), 20: (1, 8, 1), 21: (1, 4, 2), 22: (1, 2, 3), 23: (1, 2, 1),
}

#: gamma_t^t, exact, for t = 2..8 (Lagrange, Gauss, Korkine–Zolotarev, Blichfeldt).
_HERMITE_POWER = {2: 4 / 3, 3: 2.0, 4: 4.0, 5: 8.0, 6: 64 / 3, 7: 64.0, 8: 256.0}



@dataclasses.dataclass(frozen=True)
class DimensionFigures(Result):
    """The spectral-test figures of one dimension t (see the module docstring)."""

    t: int
    nu2: int
    nu: float
    log2_nu: float
    mu: float
    S: float | None
    planes: int | None
    witness: tuple[int, ...]
    planes_vector: tuple[int, ...] | None


@dataclasses.dataclass(frozen=True)
class SpectralResult(Result):
    """Spectral test of an LCG: one :class:`DimensionFigures` per dimension.

    ``M`` is the minimum of ``S`` over the dimensions where ``S`` is defined;
    ``lattice_rule`` says how ``lattice_m`` was chosen and ``hermite`` where the
    constants gamma_t came from.
    """

    a: int
    m: int
    c: int
    lattice_m: int
    lattice_rule: str
    dims: tuple[DimensionFigures, ...]
    M: float | None
    hermite: str


# --------------------------------------------------------------------------- constants

def hermite_constant(t: int) -> float | None:
    """Hermite's constant gamma_t, or the best known value, for t in [1, 24].

    gamma_t^t = 4/3, 2, 4, 8, 64/3, 64, 256 for t = 2..8 (exact) and gamma_24 = 4
    (exact: Cohn & Kumar, *Annals of Math.* 170 (2009)). For t = 9..23 the value is
    ``4 delta_t^(2/t)`` from the densest *known* lattice packing (Conway & Sloane,
    Table 1.2), a lower bound on gamma_t, as in L'Ecuyer's tables. Returns None above 24.
    """
    if t == 1:
        return 1.0
    if t in _HERMITE_POWER:
        return _HERMITE_POWER[t] ** (1.0 / t)
    if t == 24:
        return 4.0
    if t in _DENSEST_KNOWN:
        numerator, denominator, root = _DENSEST_KNOWN[t]
        density = numerator / (denominator * math.sqrt(root))
        return 4.0 * density ** (2.0 / t)
    return None


def hermite_note(dims: Iterable[int]) -> str:
    """Say where the constants gamma_t used for these dimensions come from."""
    dims = list(dims)
    notes = ["gamma_t exact for t <= 8 and t = 24"]
    if any(9 <= t <= 23 for t in dims):
        notes.append("densest known lattice (Conway & Sloane, Table 1.2) for 9 <= t <= 23, "
                     "a lower bound on gamma_t")
    if any(t > 24 for t in dims):
        notes.append("S not defined above t = 24")
    return "; ".join(notes)


# --------------------------------------------------------------------------- conventions

def lattice_modulus(a: int, m: int, c: int = 0) -> tuple[int, str]:
    """Return the modulus of the lattice the generator's points lie on, and the rule used.

    For c = 0, m = 2^e and odd a (odd seed), ``m / gcd(a - 1, m)``; otherwise m.
    See the module docstring.
    """
    if c == 0 and m & (m - 1) == 0 and a % 2 == 1 and m > 4:
        reduced = m // math.gcd(a - 1, m)
        if reduced != m:
            return reduced, (f"c = 0, m = 2^{m.bit_length() - 1}, odd seed: "
                             f"m / gcd(a - 1, m) = 2^{reduced.bit_length() - 1}")
    return m, "m"


def _check_parameters(a: int, m: int, dims: list[int], modulus_name: str = "m") -> None:
    for name, value in (("a", a), (modulus_name, m)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an integer; got {type(value).__name__}")
    if not 2 <= m < 2**MAX_MODULUS_BITS:
        raise ValueError(f"{modulus_name} must be in [2, 2^{MAX_MODULUS_BITS}); got {describe_int(m)}")
    if not dims:
        raise ValueError("dims must name at least one dimension")
    for t in dims:
        if not 2 <= t <= MAX_DIMENSION:
            raise ValueError(f"dimensions must be in [2, {MAX_DIMENSION}]; got {t}")


# --------------------------------------------------------------------------- lattice basis

def dual_basis(a: int, m: int, t: int) -> list[list[int]]:
    """The triangular basis of L*_t: ``m e_1`` and ``e_i - a^(i-1) e_1`` (i = 2..t)."""
    rows = [[m] + [0] * (t - 1)]
    for i in range(1, t):
        row = [0] * t
        row[0], row[i] = -pow(a, i, m), 1
        rows.append(row)
    return rows


# --------------------------------------------------------------------------- hyperplanes

def planes_of_direction(s) -> int:
    """Number of hyperplanes ``s . u = k`` (k integer) that meet the cube ``[0, 1)^t``.

    With P the sum of the positive and N the sum of the absolute values of the negative
    coordinates of s, ``s . u`` takes the values of ``(-N, P)`` (plus 0 if N or P is 0),
    so the count is ``P + N - 1`` when s has coordinates of both signs, else ``P + N``.
    """
    positive = sum(v for v in s if v > 0)
    negative = -sum(v for v in s if v < 0)
    return positive + negative - (1 if positive and negative else 0)


def plane_count(basis, mu, B, start) -> tuple[int, tuple[int, ...]]:
    """Fewest parallel hyperplanes covering the lattice points in ``[0, 1)^t``.

    Minimises :func:`planes_of_direction` over the non-zero dual vectors. For the m
    points of the lattice (the t-tuples of a full-period generator with c = 0) this is
    exactly the number of distinct planes that hold points (checked by brute force in
    the tests); a translate (c != 0) can need one plane more or fewer. A direction
    that beats the current best count C has ``|s|_1 <= C`` and so ``|s|_2^2 <= C^2``:
    the enumeration of that ball, shrinking as C improves, is exhaustive. ``start`` is
    a dual vector to begin with (the shortest one). Returns ``(count, direction)``.
    """
    best = [planes_of_direction(start), canonical(start)]

    def visit(vector):
        count, direction = planes_of_direction(vector), canonical(vector)
        if (count, dot(direction, direction), direction) < (best[0], dot(best[1], best[1]), best[1]):
            best[:] = [count, direction]
        return best[0] ** 2

    enumerate_short_vectors(basis, mu, B, best[0] ** 2, visit)
    return best[0], best[1]


# --------------------------------------------------------------------------- figures

def figure_of_merit(nu2: int, lattice_m: int, t: int) -> float | None:
    """``S_t = nu_t / (gamma_t^(1/2) m^(1/t))``, computed through logarithms."""
    gamma = hermite_constant(t)
    if gamma is None:
        return None
    return math.exp(0.5 * math.log(nu2) - 0.5 * math.log(gamma) - math.log(lattice_m) / t)


def knuth_mu(nu2: int, lattice_m: int, t: int) -> float:
    """Knuth's ``mu_t = pi^(t/2) nu^t / (Gamma(t/2 + 1) m)``, computed through logarithms."""
    log_mu = (0.5 * t * math.log(math.pi) + 0.5 * t * math.log(nu2)
              - math.lgamma(t / 2 + 1) - math.log(lattice_m))
    return math.exp(log_mu)


def _figures(t, nu2, witness, lattice_m, planes) -> DimensionFigures:
    log2_nu = 0.5 * math.log2(nu2)
    count, direction = planes if planes else (None, None)
    return DimensionFigures(
        t=t, nu2=nu2, nu=math.sqrt(nu2), log2_nu=log2_nu, mu=knuth_mu(nu2, lattice_m, t),
        S=figure_of_merit(nu2, lattice_m, t), planes=count, witness=witness,
        planes_vector=direction)


def grown_reduced_bases(m: int, k: int, outputs: Iterable[list[int]], last: int):
    """Yield ``(t, basis, mu, B)`` with an LLL-reduced basis of the m-dual lattice, t = k+1..last.

    The points ``(x_0, ..., x_(t-1))`` of a recurrence of order k modulo m are the images
    of its states ``s`` in ``Z_m^k``: ``x_j = c_j . s (mod m)`` with ``c_j = e_j`` for
    j < k. Their m-dual lattice, ``{h in Z^t : sum_j h_j c_j = 0 (mod m)}``, contains
    ``m Z^k`` in its first k coordinates and, for each j >= k, ``e_j - c_j`` (the vector
    ``-c_j`` in the first k coordinates), and these t vectors form a basis (determinant
    m^k). ``outputs`` yields ``c_k, c_(k+1), ...``. The vectors of dimension t + 1 whose
    last coordinate is 0 are those of dimension t padded with 0, so each basis is the
    previous reduced one grown by ``e_t - c_t``, which keeps the numbers small, then
    reduced by :func:`guided_reduction` (and, from t = :data:`BKZ_FROM` on, improved by
    :func:`~rnglab.algebra.bkz.bkz_reduction`, which makes the enumeration much cheaper). A
    basis handed out is never changed afterwards. For an LCG (k = 1) ``c_j = a^j``: Knuth's basis ``m e_1``, ``e_j - a^(j-1) e_1``.
    """
    reduction = IntegralLLL([[m if i == j else 0 for j in range(k)] for i in range(k)])
    floats = None
    for t, c in zip(range(k + 1, last + 1), outputs):
        reduction.extend([-v for v in c] + [0] * (t - 1 - k) + [1])
        reduction = guided_reduction(reduction, t - 1, floats)
        if t >= BKZ_FROM:
            reduction = bkz_reduction(reduction)
        floats = mu, B = reduction.gram_schmidt()
        yield t, reduction.basis, mu, B


def reduced_bases(a: int, m: int, last: int):
    """Yield ``(t, basis, mu, B)`` with an LLL-reduced basis of L*_t, for t = 2..last
    (:func:`grown_reduced_bases` with k = 1 and ``c_j = a^j mod m``)."""
    return grown_reduced_bases(m, 1, ([pow(a, j, m)] for j in itertools.count(1)), last)


def spectral_test(a: int, m: int, c: int = 0, dims: Iterable[int] = range(2, 9), *,
                  lattice_m: int | None = None, planes_up_to: int = 10,
                  progress: Callable[[int, int], None] | None = None) -> SpectralResult:
    """Knuth's spectral test of the LCG (a, c, m) in the given dimensions, exactly.

    Parameters
    ----------
    a, m, c : int
        Multiplier, modulus and increment (c only selects the lattice convention).
    dims : iterable of int
        Dimensions t, each in [2, 64]; default 2..8.
    lattice_m : int, optional
        Override the lattice modulus (default: :func:`lattice_modulus`).
    planes_up_to : int
        Count the covering hyperplanes for t up to this (their search grows quickly
        with t); ``planes`` is None above it.
    progress : callable, optional
        Called as ``progress(done, total)`` after each dimension.

    Returns
    -------
    SpectralResult

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., section 3.3.4. P. L'Ecuyer, "Tables of linear
    congruential generators of different sizes and good lattice structure",
    Math. Comp. 68 (1999). C. P. Schnorr and M. Euchner, Math. Programming 66 (1994).
    """
    dims = sorted(set(dims))
    _check_parameters(a, m, dims)
    if lattice_m is None:
        lattice_m, rule = lattice_modulus(a, m, c)
    else:
        _check_parameters(a, lattice_m, dims, "lattice_m")
        if m % lattice_m:
            raise ValueError(f"lattice_m must divide m (the points lie on a lattice that contains m Z^t); "
                             f"{describe_int(lattice_m)} does not divide m = {describe_int(m)}")
        rule = "given"
    reduced_a = a % lattice_m
    figures = []
    for t, basis, mu, B in reduced_bases(reduced_a, lattice_m, dims[-1]):
        if t in dims:
            nu2, witness = shortest_vector(basis, mu, B)
            planes = plane_count(basis, mu, B, witness) if t <= planes_up_to else None
            figures.append(_figures(t, nu2, witness, lattice_m, planes))
        if progress is not None:
            progress(t - 1, dims[-1] - 1)
    merits = [f.S for f in figures if f.S is not None]
    return SpectralResult(a=a, m=m, c=c, lattice_m=lattice_m, lattice_rule=rule,
                          dims=tuple(figures), M=min(merits) if merits else None,
                          hermite=hermite_note(dims))


# --------------------------------------------------------------------------- primal points

def pairs_in_window(a: int, m: int, side: int) -> list[tuple[int, int]]:
    """All points ``(x, a x mod m)`` of the 2-D lattice with both coordinates in [0, side).

    These are the successive pairs ``(x_n, x_(n+1))`` of a full-period generator with
    c = 0 that fall in the window (a corner of the square, scaled by m). They are
    enumerated from an LLL-reduced basis of ``{(x, a x)} + m Z^2``, so the cost follows
    the number of points, whatever the size of m.
    """
    basis = [[1, a % m], [0, m]]
    lll_reduce(basis)
    (p1, p2), (q1, q2) = basis
    determinant = p1 * q2 - p2 * q1
    corners = [(0, 0), (side, 0), (0, side), (side, side)]
    # Coefficients (i, j) with (x, y) = i p + j q, by Cramer's rule at the corners.
    i_values = [(x * q2 - y * q1) / determinant for x, y in corners]
    j_values = [(p1 * y - p2 * x) / determinant for x, y in corners]
    points = []
    for i in range(math.floor(min(i_values)) - 1, math.ceil(max(i_values)) + 2):
        for j in range(math.floor(min(j_values)) - 1, math.ceil(max(j_values)) + 2):
            x, y = i * p1 + j * q1, i * p2 + j * q2
            if 0 <= x < side and 0 <= y < side:
                points.append((x, y))
    return points
