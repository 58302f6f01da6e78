"""The spectral test of multiple recursive generators and their combinations, exactly.

An MRG ``x_n = (a_1 x_{n-1} + ... + a_k x_{n-k}) mod m`` has every output a linear form of
its initial state s in ``Z_m^k``: ``x_j = c_j . s (mod m)`` with ``c_j = e_j`` for j < k and
``c_j = a_1 c_{j-1} + ... + a_k c_{j-k}``. The t-tuples of outputs at the coordinates
``i_1 < ... < i_t`` (1-based lags) over all states form, scaled by m, the lattice
``{(c_{i_1 - 1} . s, ..., c_{i_t - 1} . s)} + m Z^t``; its m-dual

    L* = { h in Z^t : h_1 c_{i_1 - 1} + ... + h_t c_{i_t - 1} = 0 (mod m) }

holds the directions of the families of parallel hyperplanes that cover the points,
``1/|h|`` apart (L'Ecuyer and Couture, INFORMS J. Computing 9(2), 1997). ``nu^2``, the
squared length of a shortest non-zero h, is computed exactly (integer vectors, an exact
LLL reduction and an enumeration whose margin covers its rounding: see
:mod:`rnglab.algebra.lattice`), for successive coordinates t = 1..T by growing one reduced
basis (:func:`~rnglab.algebra.spectral.grown_reduced_bases`, the LCG's own path with k = 1),
and for projections and lacunary indices from a basis built for each coordinate set.

**t <= k.** For successive coordinates t <= k the points are every grid point
``Z_m^t / m``: the dual is ``m Z^t``, nu^2 = m^2, and S_t = 1 by convention (LatMRG's
``l_t / m``); ``filled`` marks these rows.

**Combinations.** Components with pairwise coprime moduli m_j, combined by a difference,
a sum, or Wichmann and Hill's sum of fractions, have (up to a small perturbation of the
output, which the lattice ignores) the lattice of one MRG: the sum of fractions
``sum_j d_j x_{j,n} / m_j mod 1`` is exactly the output of the MRG of modulus
``m = m_1 m_2 ...``, order the largest k_j, whose coefficient a_i is ``a_{j,i}`` modulo each
m_j (Chinese remainder theorem; a_{j,i} = 0 beyond k_j). L'Ecuyer, "Combined multiple
recursive random number generators", Operations Research 44(5), 1996; L'Ecuyer and
Tezuka, Math. Comp. 57 (1991) for LCGs.

**Figures of merit** (normalisations: :mod:`rnglab.algebra.normalizers`): ``M_T``, the
smallest S_t over t = k+1..T; LatMRG's ``M_{T, t_2, ..., t_d}``, also over the projections on
coordinate sets I = {1, i_2, ..., i_s} with i_s <= t_s (s = 2..d), the successive set
{1..s} left out as it is already counted (L'Ecuyer, Operations Research 47(1), 1999, eq. (4));
an MRG's lattice is the same from any starting index, so sets beginning at 1 suffice.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction

from rnglab.algebra.bkz import bkz_reduction
from rnglab.algebra.lattice import IntegralLLL, guided_reduction, shortest_vector
from rnglab.algebra.normalizers import NORMALIZATIONS, normalized_merit
from rnglab.algebra.spectral import BKZ_FROM, MAX_DIMENSION, grown_reduced_bases, plane_count
from rnglab.core.results import Result
from rnglab.generators.mrg import Combination, Recurrence

#: Largest equivalent modulus, in bits (the LCG path's limit on m^k, the dual's determinant).
MAX_DETERMINANT_BITS = 500

#: Most projections one figure of merit may ask for.
MAX_PROJECTIONS = 20_000

CONVENTION = "t <= k: the points fill the grid, nu^2 = m^2 and S_t = 1 by convention"


@dataclasses.dataclass(frozen=True)
class LatticeFigures(Result):
    """The figures of one coordinate set: 1-based lags, exact nu^2, S, hyperplanes, a shortest vector.

    ``filled`` is True where the points fill the grid (successive t <= k): nu^2 = m^2, S = 1.
    ``planes`` is the fewest parallel hyperplanes covering the points (the L1 figure), or None.
    """

    coordinates: tuple[int, ...]
    nu2: int
    S: float | None
    planes: int | None
    witness: tuple[int, ...]
    filled: bool


@dataclasses.dataclass(frozen=True)
class MRGSpectralResult(Result):
    """Spectral test of an MRG or a combination (see the module docstring).

    ``m`` and ``a`` are those of the (equivalent) MRG, ``source`` says where they came from;
    ``dims`` the successive (or lacunary) coordinate sets; ``M`` the smallest S over them above
    k; ``projections`` and ``M_projections`` (the min over both) LatMRG's M_{t_1, ..., t_d}.
    """

    m: int
    a: tuple[int, ...]
    k: int
    source: str
    norm: str
    norm_note: str
    convention: str
    lacunary: tuple[int, ...] | None
    dims: tuple[LatticeFigures, ...]
    M: float | None
    projections: tuple[LatticeFigures, ...]
    M_projections: float | None


# --------------------------------------------------------------------------- the recurrence

def equivalent_recurrence(combination: Combination) -> tuple[Recurrence, str]:
    """The MRG whose lattice a combination has (CRT of the coefficients), and a sentence saying so."""
    components = combination.components
    if len(components) == 1:
        return components[0], "the MRG itself"
    moduli = [c.m for c in components]
    if any(math.gcd(p, q) != 1 for p, q in itertools.combinations(moduli, 2)):
        raise ValueError(f"the components' moduli must be pairwise coprime for the CRT equivalent; got {moduli}")
    m, k = math.prod(moduli), max(c.order for c in components)
    coefficients = [0] * k
    for component in components:
        rest = m // component.m
        unit = rest * pow(rest, -1, component.m)
        for i, value in enumerate(component.a):
            coefficients[i] += value % component.m * unit
    return (Recurrence(m, tuple(v % m for v in coefficients)),
            f"CRT equivalent of {len(components)} components (L'Ecuyer 1996): m = "
            + " * ".join(map(str, moduli)) + f", order {k}")


def output_coefficients(recurrence: Recurrence) -> Iterator[list[int]]:
    """Yield c_0, c_1, ...: ``x_j = c_j . (x_0, ..., x_{k-1}) (mod m)``."""
    m, k = recurrence.m, recurrence.order
    recent = [[int(i == j) for j in range(k)] for i in range(k)]
    yield from recent
    while True:
        c = [sum(a * row[j] for a, row in zip(recurrence.a, reversed(recent))) % m for j in range(k)]
        recent = recent[1:] + [c]
        yield c


def coefficients_at(recurrence: Recurrence, lags: Iterable[int]) -> list[list[int]]:
    """``c_{i-1}`` for each 1-based lag i: the first row of the companion matrix power A^(i-1)."""
    return [recurrence.jump_matrix(lag - 1)[0] for lag in lags]


# --------------------------------------------------------------------------- general dual basis

def _primal_echelon(columns: list[list[int]], m: int) -> list[list[int]]:
    """Upper-triangular basis of ``{(c_1 . s, ..., c_t . s)} + m Z^t`` (the points scaled by m).

    Column by column, the generators (the k rows ``(c_1[r], ..., c_t[r])`` and ``m e_j``)
    are combined by Euclid's algorithm into one pivot row; entries right of the column are
    reduced modulo m (adding multiples of the m e_i still to come, lattice vectors).
    """
    t = len(columns)
    rows = [[c[r] % m for c in columns] for r in range(len(columns[0]))]
    basis = []
    for j in range(t):
        rows.append([m if i == j else 0 for i in range(t)])
        while True:
            pivot = min((row for row in rows if row[j]), key=lambda row: abs(row[j]))
            if sum(1 for row in rows if row[j]) == 1:
                break
            rows = [pivot] + [_reduced(row, pivot, j, m) for row in rows if row is not pivot]
        basis.append(pivot)
        rows = [row for row in rows if row is not pivot and any(row)]
    return basis


def _reduced(row: list[int], pivot: list[int], j: int, m: int) -> list[int]:
    """``row - q pivot`` with q = row[j] // pivot[j], entries right of j taken modulo m."""
    q = row[j] // pivot[j]
    return row[:j] + [row[j] - q * pivot[j]] + [(x - q * y) % m for x, y in zip(row[j + 1:], pivot[j + 1:])]


def dual_basis(columns: list[list[int]], m: int) -> list[list[int]]:
    """A basis of the m-dual ``{h : sum_j h_j c_j = 0 (mod m)}``: the rows of ``m B^(-T)``.

    B is the upper-triangular primal basis of :func:`_primal_echelon`; as the primal lattice
    contains m Z^t, ``m B^(-T)`` is an integer matrix (lower triangular).
    """
    B = _primal_echelon(columns, m)
    t = len(B)
    inverse = [[Fraction(0)] * t for _ in range(t)]
    for j in range(t - 1, -1, -1):  # back-substitution, B upper triangular
        inverse[j][j] = Fraction(1, B[j][j])
        for i in range(j - 1, -1, -1):
            total = sum(B[i][l] * inverse[l][j] for l in range(i + 1, j + 1))
            inverse[i][j] = -total / B[i][i]
    return [[int(m * inverse[j][i]) for j in range(t)] for i in range(t)]


def shortest_dual_vector(columns: list[list[int]], m: int) -> tuple[int, tuple[int, ...], tuple]:
    """Exact nu^2, a shortest vector and the reduced basis data of the m-dual of these columns."""
    reduction = IntegralLLL(dual_basis(columns, m))
    if len(reduction.basis) > 1:
        reduction = guided_reduction(reduction, 1, None)
    if len(reduction.basis) >= BKZ_FROM:
        reduction = bkz_reduction(reduction)
    mu, B = reduction.gram_schmidt()
    nu2, witness = shortest_vector(reduction.basis, mu, B)
    return nu2, witness, (reduction.basis, mu, B)


# --------------------------------------------------------------------------- figures

def _filled(coordinates, m, planes_up_to) -> LatticeFigures:
    t = len(coordinates)
    return LatticeFigures(tuple(coordinates), m * m, 1.0, m if t <= planes_up_to else None,
                          (m,) + (0,) * (t - 1), True)


def _figures(coordinates, nu2, witness, reduced, recurrence, norm, planes_up_to) -> LatticeFigures:
    t = len(coordinates)
    planes = plane_count(*reduced, witness)[0] if t <= planes_up_to else None
    S = normalized_merit(nu2, recurrence.m, recurrence.order, t, norm)
    return LatticeFigures(tuple(coordinates), nu2, S, planes, witness, False)


def successive_figures(recurrence: Recurrence, dims: list[int], norm: str, planes_up_to: int,
                       progress: Callable[[int, int], None] | None = None) -> list[LatticeFigures]:
    """Figures of the coordinates {1..t} for t in ``dims`` (sorted), by one growing reduced basis."""
    m, k = recurrence.m, recurrence.order
    figures = [_filled(range(1, t + 1), m, planes_up_to) for t in dims if t <= k]
    previous = m * m
    coefficients = itertools.islice(output_coefficients(recurrence), k, None)
    for t, basis, mu, B in grown_reduced_bases(m, k, coefficients, dims[-1]):
        nu2, witness = shortest_vector(basis, mu, B, known=previous)
        previous = nu2  # nu_t is at most nu_(t-1): the shorter vector padded with 0
        if t in dims:
            figures.append(_figures(range(1, t + 1), nu2, witness, (basis, mu, B), recurrence, norm,
                                    planes_up_to))
        if progress is not None:
            progress(t - k, dims[-1] - k)
    return figures


def lacunary_figures(recurrence: Recurrence, lags: list[int], dims: list[int], norm: str,
                     planes_up_to: int, progress=None) -> list[LatticeFigures]:
    """Figures of the first t lacunary lags ``lags[:t]`` for t in ``dims`` (each basis built anew)."""
    columns = coefficients_at(recurrence, lags[:dims[-1]])
    figures = []
    for done, t in enumerate(dims, 1):
        nu2, witness, reduced = shortest_dual_vector(columns[:t], recurrence.m)
        figures.append(_figures(lags[:t], nu2, witness, reduced, recurrence, norm, planes_up_to))
        if progress is not None:
            progress(done, len(dims))
    return figures


def projection_sets(bounds: list[int]) -> list[tuple[int, ...]]:
    """LatMRG's coordinate sets: for s = 2, 3, ... (``bounds[s - 2]`` = t_s), every
    ``{1, i_2, ..., i_s}`` with ``i_s <= t_s``, except the successive ``{1, ..., s}``."""
    sets = []
    for s, bound in enumerate(bounds, 2):
        for rest in itertools.combinations(range(2, bound + 1), s - 1):
            if rest != tuple(range(2, s + 1)):
                sets.append((1,) + rest)
    return sets


def projection_figures(recurrence: Recurrence, bounds: list[int], norm: str, planes_up_to: int,
                       progress=None) -> list[LatticeFigures]:
    """Figures of every set of :func:`projection_sets` (each basis built anew)."""
    sets = projection_sets(bounds)
    needed = max((max(s) for s in sets), default=1)
    coefficients = list(itertools.islice(output_coefficients(recurrence), needed))
    figures = []
    for done, coordinates in enumerate(sets, 1):
        columns = [coefficients[i - 1] for i in coordinates]
        nu2, witness, reduced = shortest_dual_vector(columns, recurrence.m)
        figures.append(_figures(coordinates, nu2, witness, reduced, recurrence, norm, planes_up_to))
        if progress is not None:
            progress(done, len(sets))
    return figures


def _check(recurrence: Recurrence, dims: list[int], norm: str, lacunary, projections) -> None:
    if norm not in NORMALIZATIONS:
        raise ValueError(f"normalisation must be one of {', '.join(NORMALIZATIONS)}; got {norm!r}")
    if (recurrence.m ** recurrence.order).bit_length() > MAX_DETERMINANT_BITS:
        raise ValueError(f"m^k must be below 2^{MAX_DETERMINANT_BITS}; got m^k of "
                         f"{(recurrence.m ** recurrence.order).bit_length()} bits")
    if not dims or not all(1 <= t <= MAX_DIMENSION for t in dims):
        raise ValueError(f"dimensions must be in [1, {MAX_DIMENSION}]; got {dims}")
    if lacunary is not None and (len(lacunary) < dims[-1] or list(lacunary) != sorted(set(lacunary))
                                 or lacunary[0] < 1):
        raise ValueError(f"lacunary lags must be increasing positive integers, at least as many as the "
                         f"largest dimension ({dims[-1]}); got {len(lacunary)}")
    if projections:
        if not all(2 <= t <= MAX_DIMENSION for t in projections) or len(projections) > MAX_DIMENSION:
            raise ValueError(f"projection bounds t_2, t_3, ... must be in [2, {MAX_DIMENSION}]; got {projections}")
        if any(t < s for s, t in enumerate(projections, 2)):
            raise ValueError(f"t_s must be at least s (s = 2, 3, ...); got {projections}")
        count = len(projection_sets(list(projections)))
        if count > MAX_PROJECTIONS:
            raise ValueError(f"at most {MAX_PROJECTIONS} projections; {projections} asks for {count}")


def mrg_spectral_test(combination: Combination, dims: Iterable[int] = range(1, 9), *, norm: str = "bestlat",
                      lacunary: Iterable[int] | None = None, projections: Iterable[int] = (),
                      planes_up_to: int = 8,
                      progress: Callable[[int, int], None] | None = None) -> MRGSpectralResult:
    """The spectral test of an MRG or a combination, exactly, with LatMRG's figures of merit.

    Parameters
    ----------
    combination : Combination
        An MRG (one component) or a combination; a combination is replaced by its CRT
        equivalent (:func:`equivalent_recurrence`).
    dims : iterable of int
        Dimensions t in [1, 64] of the successive coordinates {1..t} (or, with ``lacunary``,
        of its first t lags).
    norm : {"bestlat", "laminated", "rogers"}
        The constants gamma_t of S_t (:mod:`rnglab.algebra.normalizers`).
    lacunary : iterable of int, optional
        Increasing 1-based lags ``i_1 < i_2 < ...`` of the outputs taken (e.g. 1, 2, 3,
        d+1, d+2, d+3, ...: the outputs read with a stride).
    projections : iterable of int
        ``t_2, t_3, ..., t_d`` of LatMRG's M_{T, t_2, ..., t_d} (see :func:`projection_sets`).
    planes_up_to : int
        Count the covering hyperplanes (L1 figure) for sets of at most this many coordinates.
    progress : callable, optional
        ``progress(done, total)`` after each dimension (then each projection).

    Returns
    -------
    MRGSpectralResult

    References
    ----------
    P. L'Ecuyer and R. Couture, "An implementation of the lattice and spectral tests for
    multiple recursive linear random number generators", INFORMS J. Computing 9(2), 1997.
    P. L'Ecuyer, "Good parameters and implementations for combined multiple recursive random
    number generators", Operations Research 47(1), 1999.
    """
    recurrence, source = equivalent_recurrence(combination)
    dims, projections = sorted(set(dims)), list(projections)
    lags = None if lacunary is None else [int(v) for v in lacunary]
    _check(recurrence, dims, norm, lags, projections)
    if lags is None:
        figures = successive_figures(recurrence, dims, norm, planes_up_to, progress)
    else:
        figures = lacunary_figures(recurrence, lags, dims, norm, planes_up_to, progress)
    merits = [f.S for f in figures if not f.filled and f.S is not None]
    found = projection_figures(recurrence, projections, norm, planes_up_to, progress) if projections else []
    everything = merits + [f.S for f in found if f.S is not None]
    return MRGSpectralResult(
        m=recurrence.m, a=recurrence.a, k=recurrence.order, source=source, norm=norm,
        norm_note=NORMALIZATIONS[norm], convention=CONVENTION, lacunary=None if lags is None else tuple(lags),
        dims=tuple(figures), M=min(merits) if merits else None, projections=tuple(found),
        M_projections=min(everything) if found and everything else None)
