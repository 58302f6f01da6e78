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
import math
import operator
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Optional

import numba
import numpy as np

from rnglab.params import describe_int
from rnglab.results import Result

#: Lovász's constant delta of the LLL reduction.
DELTA = Fraction(99, 100)

#: Most steps the floating-point guide may take for one dimension before giving up.
GUIDE_MAX_STEPS = 100_000

#: Relative safety margin of the enumeration bound against floating-point rounding.
ENUMERATION_MARGIN = 2.0**-20

#: Largest dimension accepted.
MAX_DIMENSION = 64

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
    S: Optional[float]
    planes: Optional[int]
    witness: tuple[int, ...]
    planes_vector: Optional[tuple[int, ...]]


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
    M: Optional[float]
    hermite: str


# --------------------------------------------------------------------------- constants

def hermite_constant(t: int) -> Optional[float]:
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


def _dot(u: list[int], v: list[int]) -> int:
    return sum(map(operator.mul, u, v))


class _IntegralLLL:
    """LLL reduction in exact integer arithmetic (Cohen, *A Course in Computational
    Algebraic Number Theory*, Algorithm 2.6.7, de Weger's integral LLL).

    Instead of the Gram–Schmidt data mu_kj and B_k it keeps the integers
    ``d[i]`` (the Gram determinant of the first i rows, ``d[0] = 1``) and
    ``lam[k][j] = d[j + 1] mu_kj`` (j < k); then ``B_k = d[k + 1] / d[k]``. Every
    division below is exact, so no rounding ever enters the reduction.

    The data of every row is computed as the row is added (from the Gram matrix
    ``gram``, if given, else from the rows), so a reduced basis can be grown by one
    vector (:meth:`extend`) and reduced again from the new row on: the rows before it
    are still reduced, and their data unchanged.
    """

    def __init__(self, basis: list[list[int]], delta: Fraction = DELTA,
                 gram: Optional[list[list[int]]] = None):
        self.basis, self.delta, self.d, self.lam = basis, delta, [1], []
        if gram is None:
            gram = [[_dot(u, v) for v in basis[:k + 1]] for k, u in enumerate(basis)]
        for k, gram_row in enumerate(gram):
            self._add_row(k, gram_row)

    def _add_row(self, k: int, gram_row: list[int]) -> None:
        """Incremental Gram–Schmidt: lam[k][:k] and d[k + 1] from ``<b_k, b_j>`` (j <= k)."""
        d = self.d
        lamk = [0] * len(self.basis)
        for j in range(k + 1):
            u = gram_row[j]
            lamj = self.lam[j] if j < k else lamk
            for i in range(j):
                u = (d[i + 1] * u - lamk[i] * lamj[i]) // d[i]
            lamk[j] = u
        d.append(lamk[k])
        self.lam.append(lamk)

    def extend(self, row: list[int]) -> None:
        """Pad the rows (and their data) with a zero coordinate and append ``row``.

        The padded rows keep their dot products, hence their Gram–Schmidt data.
        New row lists are made, so a basis handed out before stays as it was.
        """
        self.basis = [old + [0] for old in self.basis] + [row]
        for lamk in self.lam:
            lamk.append(0)
        self._add_row(len(self.basis) - 1, [_dot(row, other) for other in self.basis])

    def run(self, k: int = 1) -> None:
        """The LLL loop from row k on (the rows before k must already be reduced).

        Lovász's condition ``B_k >= (delta - mu_k,k-1^2) B_(k-1)`` reads
        ``q (d_(k+1) d_(k-1) + lam_k,k-1^2) >= p d_k^2`` for delta = p/q, and the
        left-hand bracket over d_k is d_k after the swap (Cohen's SWAPI).
        """
        basis, d, lam = self.basis, self.d, self.lam
        p, q = self.delta.numerator, self.delta.denominator
        k, n = max(k, 1), len(basis)
        while k < n:
            lamk = lam[k]
            if 2 * abs(lamk[k - 1]) > d[k]:
                self._reduce(k, k - 1)
            c, dk = lamk[k - 1], d[k]
            swapped = d[k - 1] * d[k + 1] + c * c
            if q * swapped < p * dk * dk:
                self._swap(k, swapped // dk)
                k = max(k - 1, 1)
                continue
            for l in range(k - 2, -1, -1):
                if 2 * abs(lamk[l]) > d[l + 1]:
                    self._reduce(k, l)
            k += 1

    def size_reduce(self, k: int) -> None:
        """Make |mu_kl| <= 1/2 for every l < k (row k minus multiples of the rows before)."""
        lamk, d = self.lam[k], self.d
        for l in range(k - 1, -1, -1):
            if 2 * abs(lamk[l]) > d[l + 1]:
                self._reduce(k, l)

    def _reduce(self, k: int, l: int) -> None:
        """Row k -= r row l with r the integer nearest mu_kl (called when |mu_kl| > 1/2)."""
        lamk, laml, dl = self.lam[k], self.lam[l], self.d[l + 1]
        r = (2 * lamk[l] + dl) // (2 * dl)
        self.basis[k] = [x - r * y for x, y in zip(self.basis[k], self.basis[l])]
        lamk[l] -= r * dl
        for i in range(l):
            lamk[i] -= r * laml[i]

    def _swap(self, k: int, new_d: int) -> None:
        """Exchange rows k - 1 and k; ``new_d`` is d[k] afterwards.

        The lam rows are exchanged whole: the entries before k - 1 swap places, as they
        should; lam_k,k-1 stays (it is read from the old row k, now at k - 1); the
        entries at or after a row's own index are never used.
        """
        basis, lam, d = self.basis, self.lam, self.d
        basis[k - 1], basis[k] = basis[k], basis[k - 1]
        lam[k - 1], lam[k] = lam[k], lam[k - 1]
        c = lam[k][k - 1] = lam[k - 1][k - 1]
        dk, dk1 = d[k], d[k + 1]
        for lami in lam[k + 1:]:
            old = lami[k]
            lami[k] = new = (dk1 * lami[k - 1] - c * old) // dk
            lami[k - 1] = (new_d * old + c * new) // dk1
        d[k] = new_d

    def row_floats(self, k: int) -> tuple[list[float], float]:
        """``mu_kj`` (j < k, then zeros) and ``B_k`` as floats, correctly rounded."""
        d = self.d
        mu = list(map(operator.truediv, self.lam[k][:k], d[1:k + 1]))
        return mu + [0.0] * (len(self.basis) - k), d[k + 1] / d[k]

    def gram_schmidt(self) -> tuple[list, list]:
        """``mu`` and ``B`` as floats, each correctly rounded from its exact value."""
        rows = [self.row_floats(k) for k in range(len(self.basis))]
        return [mu for mu, _ in rows], [B for _, B in rows]


def lll_reduce(basis: list[list[int]], delta: Fraction = DELTA) -> tuple[list, list]:
    """LLL-reduce ``basis`` in place, exactly (integer arithmetic throughout, unguided).

    Returns ``(mu, B)``: the Gram–Schmidt coefficients and squared lengths of the
    reduced basis as floats, each correctly rounded from its exact rational value.
    """
    reduction = _IntegralLLL(basis, Fraction(delta))
    reduction.run()
    return reduction.gram_schmidt()


@numba.njit(cache=True, nogil=True)
def _float_lll(mu, B, delta, max_steps):  # pragma: no cover - compiled
    """Textbook LLL on Gram–Schmidt data in doubles, recording its row operations.

    ``mu`` (lower triangle) and ``B`` are updated in place with the classical formulas
    (Cohen, Algorithm 2.6.3: full size reduction of row k, Lovász's test, the swap's
    update). Returns ``(U, done)``: the unimodular int64 matrix of the row operations
    made, exact whatever the rounding (only its quality depends on it), and False for
    ``done`` if it gave up: more than ``max_steps`` steps, or an entry of U that could
    leave ``(-2^62, 2^62)``.
    """
    n = B.shape[0]
    U = np.zeros((n, n), np.int64)
    for i in range(n):
        U[i, i] = 1
    k, steps = 1, 0
    while k < n:
        steps += 1
        if steps > max_steps:
            return U, False
        for l in range(k - 1, -1, -1):
            r = np.rint(mu[k, l])
            if r == 0.0:
                continue
            if not abs(r) * _largest(U, l, l + 1) + _largest(U, k, k + 1) < 2.0**62:
                return U, False
            q = np.int64(r)
            for i in range(n):
                U[k, i] -= q * U[l, i]
            for j in range(l):
                mu[k, j] -= r * mu[l, j]
            mu[k, l] -= r
        c = mu[k, k - 1]
        if B[k] >= (delta - c * c) * B[k - 1]:
            k += 1
            continue
        swapped = B[k] + c * c * B[k - 1]
        mu[k, k - 1] = c * B[k - 1] / swapped
        B[k] *= B[k - 1] / swapped
        B[k - 1] = swapped
        for i in range(n):
            U[k, i], U[k - 1, i] = U[k - 1, i], U[k, i]
        for j in range(k - 1):
            mu[k, j], mu[k - 1, j] = mu[k - 1, j], mu[k, j]
        for i in range(k + 1, n):
            old = mu[i, k]
            mu[i, k] = mu[i, k - 1] - c * old
            mu[i, k - 1] = old + mu[k, k - 1] * mu[i, k]
        k = max(k - 1, 1)
    return U, True


@numba.njit(cache=True, nogil=True)
def _largest(matrix, first, stop):  # pragma: no cover - compiled
    """The largest absolute entry of rows ``first..stop-1`` of an int64 matrix, as a double."""
    largest = 0.0
    for i in range(first, stop):
        for j in range(matrix.shape[1]):
            largest = max(largest, abs(float(matrix[i, j])))
    return largest


@numba.njit(cache=True, nogil=True)
def _int64_products(U, C):  # pragma: no cover - compiled
    """``R = U C`` and the lower triangle of ``R R^T`` in int64, and whether both are exact.

    A product is formed only if no partial sum can reach 2^62 (inner dimension times
    the largest absolute entries, bounded in doubles); otherwise the flag is False.
    """
    n = U.shape[0]
    R, G = np.zeros((n, n), np.int64), np.zeros((n, n), np.int64)
    if not n * _largest(U, 0, n) * _largest(C, 0, n) < 2.0**62:
        return R, G, False
    for i in range(n):
        for l in range(n):
            for j in range(n):
                R[i, j] += U[i, l] * C[l, j]
    if not n * _largest(R, 0, n) ** 2 < 2.0**62:
        return R, G, False
    for i in range(n):
        for j in range(i + 1):
            for l in range(n):
                G[i, j] += R[i, l] * R[j, l]
    return R, G, True


def _apply(U: np.ndarray, reduction: _IntegralLLL) -> _IntegralLLL:
    """The exact reduction data of the basis ``U C`` (C the basis of ``reduction``)."""
    try:
        R, gram, exact = _int64_products(U, np.array(reduction.basis, dtype=np.int64))
    except OverflowError:  # an entry of C beyond int64
        exact = False
    if exact:
        return _IntegralLLL(R.tolist(), reduction.delta, gram.tolist())
    basis = U.astype(object) @ np.array(reduction.basis, dtype=object)
    return _IntegralLLL(basis.tolist(), reduction.delta)


def _guided_reduction(reduction: _IntegralLLL, k: int, floats: Optional[tuple]) -> _IntegralLLL:
    """LLL-reduce exactly a basis whose rows before k are reduced, guided by :func:`_float_lll`.

    Parameters
    ----------
    reduction : _IntegralLLL
        The basis and its exact data; rows ``0..k-1`` LLL-reduced, row k the last.
    k : int
        The new row.
    floats : tuple, optional
        ``(mu, B)`` of rows ``0..k-1`` as floats (from the previous dimension), if known.

    Returns
    -------
    _IntegralLLL
        An exactly LLL-reduced basis of the same lattice, with its exact data.

    Notes
    -----
    Row k is first size-reduced exactly, so the guide's multipliers stay small and its
    data are accurate. The guide's matrix U is applied in integers, and the exact LLL
    then runs on ``U C`` from the start, as a check that usually changes nothing. If
    the guide gives up, or the data do not fit in doubles, the exact LLL does the whole
    work from row k.
    """
    reduction.size_reduce(k)
    try:
        if floats is None:
            mu, B = reduction.gram_schmidt()
        else:
            row_mu, row_B = reduction.row_floats(k)
            mu, B = [row + [0.0] for row in floats[0]] + [row_mu], floats[1] + [row_B]
    except OverflowError:
        reduction.run(k)
        return reduction
    U, done = _float_lll(np.array(mu), np.array(B), float(reduction.delta), GUIDE_MAX_STEPS)
    if not done:
        reduction.run(k)
        return reduction
    reduction = _apply(U, reduction)
    reduction.run()
    return reduction


# --------------------------------------------------------------------------- enumeration

def _combination(coefficients: list[int], basis: list[list[int]]) -> list[int]:
    """The lattice vector ``sum_j coefficients[j] basis[j]``, exactly."""
    vector = [0] * len(basis[0])
    for x, row in zip(coefficients, basis):
        if x:
            vector = [v + x * r for v, r in zip(vector, row)]
    return vector


def enumerate_short_vectors(basis, mu, B, bound: int, visit: Callable) -> None:
    """Schnorr–Euchner enumeration of the lattice vectors of squared length <= bound.

    Visits (one of each pair +-v of) the non-zero vectors whose computed squared length
    is at most ``bound (1 + ENUMERATION_MARGIN)``; ``visit(v)`` gets the exact integer
    vector and returns the new exact bound, or None to stop. The centre of level k is
    ``-sum_(j > k) mu_jk x_j``, taken from the columns of ``mu``.
    """
    n = len(B)
    columns = list(zip(*mu))
    x, dx, ddx = [0] * n, [0] * n, [0] * n
    center, partial = [0.0] * n, [0.0] * (n + 1)
    radius = bound * (1.0 + ENUMERATION_MARGIN)
    x[0], k = 1, 0
    while True:
        y = x[k] - center[k]
        length = partial[k + 1] + y * y * B[k]
        if length <= radius and k > 0:
            partial[k] = length
            k -= 1
            center[k] = c = -sum(map(operator.mul, columns[k][k + 1:], x[k + 1:]))
            x[k] = round(c)
            dx[k] = ddx[k] = 1 if c >= x[k] else -1
            continue
        if length <= radius:
            bound = visit(_combination(x, basis))
            if bound is None:
                return
            radius = bound * (1.0 + ENUMERATION_MARGIN)
        else:
            k += 1
            if k == n:
                return
        if partial[k + 1] == 0.0:
            x[k] += 1
        else:
            x[k] += dx[k]
            ddx[k] = -ddx[k]
            dx[k] = ddx[k] - dx[k]


def _canonical(vector) -> tuple[int, ...]:
    """Sign-normalise a vector so that its first non-zero coordinate is positive."""
    for v in vector:
        if v:
            return tuple(vector) if v > 0 else tuple(-w for w in vector)
    return tuple(vector)


@numba.njit(cache=True, nogil=True)
def _shortest_candidates(mu, B, radius, margin):  # pragma: no cover - compiled
    """Schnorr–Euchner enumeration in doubles, the radius shrinking to each vector found.

    The loop of :func:`enumerate_short_vectors`, compiled, for the shortest vector:
    each vector found, of computed squared length l, makes the radius
    ``min(radius, l (1 + margin))``. Returns ``(X, count, done)``: the first ``count``
    rows of X are the coefficient vectors found whose computed length is within the
    final radius, and ``done`` is False if a centre left ``(-2^52, 2^52)`` (its
    coefficients would not be exact).
    """
    n = B.shape[0]
    x, dx, ddx = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    center, partial = np.zeros(n), np.zeros(n + 1)
    found, lengths, count = np.zeros((8, n), np.int64), np.zeros(8), 0
    x[0], k = 1, 0
    while True:
        y = x[k] - center[k]
        length = partial[k + 1] + y * y * B[k]
        if length <= radius and k > 0:
            partial[k] = length
            k -= 1
            c = 0.0
            for j in range(k + 1, n):
                c -= mu[j, k] * x[j]
            if not abs(c) < 2.0**52:
                return found, 0, False
            center[k], x[k] = c, np.int64(np.rint(c))
            dx[k] = ddx[k] = 1 if c >= x[k] else -1
            continue
        if length <= radius:
            radius = min(radius, length * (1.0 + margin))
            count = _keep_within(found, lengths, count, radius)
            if count == lengths.size:
                found, lengths = _grown(found, lengths)
            for j in range(n):
                found[count, j] = x[j]
            lengths[count] = length
            count += 1
        else:
            k += 1
            if k == n:
                return found, _keep_within(found, lengths, count, radius), True
        if partial[k + 1] == 0.0:
            x[k] += 1
        else:
            x[k] += dx[k]
            ddx[k] = -ddx[k]
            dx[k] = ddx[k] - dx[k]


@numba.njit(cache=True, nogil=True)
def _keep_within(found, lengths, count, radius):  # pragma: no cover - compiled
    """Move the first ``count`` rows with ``lengths <= radius`` to the front; return how many."""
    kept = 0
    for i in range(count):
        if lengths[i] <= radius:
            for j in range(found.shape[1]):
                found[kept, j] = found[i, j]
            lengths[kept] = lengths[i]
            kept += 1
    return kept


@numba.njit(cache=True, nogil=True)
def _grown(found, lengths):  # pragma: no cover - compiled
    """Copies of ``found`` and ``lengths`` with room for twice as many rows."""
    rows = 2 * lengths.size
    more, longer = np.zeros((rows, found.shape[1]), np.int64), np.zeros(rows)
    for i in range(lengths.size):
        for j in range(found.shape[1]):
            more[i, j] = found[i, j]
        longer[i] = lengths[i]
    return more, longer


def _short_candidates(basis, mu, B, bound: int) -> list[list[int]]:
    """Lattice vectors (one of each pair +-v) among which are all the shortest ones.

    ``bound`` is the squared length of a lattice vector. The vectors come from
    :func:`_shortest_candidates` (compiled), or, if it gives up, from
    :func:`enumerate_short_vectors` with the bound shrinking to each exact length. A
    vector of computed length l shrinks the radius to ``l (1 + margin)``: as l is
    within a relative ``t 2^-53`` or so of the exact length (see the module docstring),
    no vector at least as short is excluded.
    """
    radius = bound * (1.0 + ENUMERATION_MARGIN)
    found, count, done = _shortest_candidates(np.array(mu), np.array(B), radius, ENUMERATION_MARGIN)
    if done:
        return [_combination(x, basis) for x in found[:count].tolist()]
    vectors: list[list[int]] = []

    def visit(vector):
        nonlocal bound
        vectors.append(vector)
        bound = min(bound, _dot(vector, vector))
        return bound

    enumerate_short_vectors(basis, mu, B, bound, visit)
    return vectors


def shortest_vector(basis, mu, B, reject_below: Optional[int] = None):
    """Exact nu^2 and the canonical shortest vector of the lattice with this reduced basis.

    With ``reject_below``, returns None if nu^2 is below it (used to prune a
    multiplier search), at once if the first basis vector is.
    """
    bound = _dot(basis[0], basis[0])
    if reject_below is not None and bound < reject_below:
        return None
    vectors = _short_candidates(basis, mu, B, bound)
    lengths = [_dot(vector, vector) for vector in vectors]
    best = min(lengths)
    if reject_below is not None and best < reject_below:
        return None
    return best, min(_canonical(v) for v, length in zip(vectors, lengths) if length == best)


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
    best = [planes_of_direction(start), _canonical(start)]

    def visit(vector):
        count, direction = planes_of_direction(vector), _canonical(vector)
        if (count, _dot(direction, direction), direction) < (best[0], _dot(best[1], best[1]), best[1]):
            best[:] = [count, direction]
        return best[0] ** 2

    enumerate_short_vectors(basis, mu, B, best[0] ** 2, visit)
    return best[0], best[1]


# --------------------------------------------------------------------------- figures

def figure_of_merit(nu2: int, lattice_m: int, t: int) -> Optional[float]:
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


def reduced_bases(a: int, m: int, last: int):
    """Yield ``(t, basis, mu, B)`` with an LLL-reduced basis of L*_t, for t = 2..last.

    The vectors of L*_(t+1) whose last coordinate is 0 are those of L*_t padded with 0,
    and ``e_(t+1) - a^t e_1`` has last coordinate 1, so together they form a basis:
    each basis is the previous reduced one grown by that vector, which keeps the
    numbers small, then reduced by :func:`_guided_reduction`. A basis handed out is
    never changed afterwards.
    """
    reduction, floats = _IntegralLLL([[m]]), None
    for t in range(2, last + 1):
        reduction.extend([-pow(a, t - 1, m)] + [0] * (t - 2) + [1])
        reduction = _guided_reduction(reduction, t - 1, floats)
        floats = mu, B = reduction.gram_schmidt()
        yield t, reduction.basis, mu, B


def spectral_test(a: int, m: int, c: int = 0, dims: Iterable[int] = range(2, 9), *,
                  lattice_m: Optional[int] = None, planes_up_to: int = 10,
                  progress: Optional[Callable[[int, int], None]] = None) -> SpectralResult:
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
