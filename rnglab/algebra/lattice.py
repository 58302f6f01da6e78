"""Exact lattice reduction and enumeration: the integral LLL, its compiled floating-point guide,
and the Schnorr--Euchner enumeration of short vectors.

**Exactness.** A basis (rows of Python integers) is LLL-reduced in exact integer
arithmetic (the integral LLL of de Weger, Cohen's Algorithm 2.6.7: no rounding at
all). A compiled floating-point LLL runs first as a guide: it only chooses integer row
operations, which are applied exactly, so the exact reduction that follows usually has
nothing left to do but confirm the result; whatever the guide's rounding, the basis is
exact and exactly reduced. Its Gram--Schmidt data, each correctly rounded to a double
from its exact rational value, guide a Schnorr--Euchner enumeration (compiled for the
shortest vector) that visits every lattice vector whose *computed* squared length is
within the current bound times ``1 + 2^-20``; the vectors found are measured again in
integers, so lengths are exact, and the margin exceeds the rounding of the enumeration's
few dozen double operations per level by many orders of magnitude.

References
----------
H. Cohen, *A Course in Computational Algebraic Number Theory*, Springer, 1993, 2.6.
C. P. Schnorr and M. Euchner, Lattice basis reduction, Math. Programming 66, 1994.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from rnglab.core.compiled import njit

#: Lovász's constant delta of the LLL reduction.
DELTA = Fraction(99, 100)

#: Most steps the floating-point guide may take for one dimension before giving up.
GUIDE_MAX_STEPS = 100_000

#: Relative safety margin of the enumeration bound against floating-point rounding.
ENUMERATION_MARGIN = 2.0**-20


def dot(u: list[int], v: list[int]) -> int:
    """The integer dot product of two vectors."""
    return sum(map(operator.mul, u, v))


class IntegralLLL:
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
                 gram: list[list[int]] | None = None):
        self.basis, self.delta, self.d, self.lam = basis, delta, [1], []
        if gram is None:
            gram = [[dot(u, v) for v in basis[:k + 1]] for k, u in enumerate(basis)]
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
        self._add_row(len(self.basis) - 1, [dot(row, other) for other in self.basis])

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
    reduction = IntegralLLL(basis, Fraction(delta))
    reduction.run()
    return reduction.gram_schmidt()


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _largest(matrix, first, stop):  # pragma: no cover - compiled
    """The largest absolute entry of rows ``first..stop-1`` of an int64 matrix, as a double."""
    largest = 0.0
    for i in range(first, stop):
        for j in range(matrix.shape[1]):
            largest = max(largest, abs(float(matrix[i, j])))
    return largest


@njit(cache=True, nogil=True)
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


def _apply(U: np.ndarray, reduction: IntegralLLL) -> IntegralLLL:
    """The exact reduction data of the basis ``U C`` (C the basis of ``reduction``)."""
    try:
        R, gram, exact = _int64_products(U, np.array(reduction.basis, dtype=np.int64))
    except OverflowError:  # an entry of C beyond int64
        exact = False
    if exact:
        return IntegralLLL(R.tolist(), reduction.delta, gram.tolist())
    basis = U.astype(object) @ np.array(reduction.basis, dtype=object)
    return IntegralLLL(basis.tolist(), reduction.delta)


def guided_reduction(reduction: IntegralLLL, k: int, floats: tuple | None) -> IntegralLLL:
    """LLL-reduce exactly a basis whose rows before k are reduced, guided by :func:`_float_lll`.

    Parameters
    ----------
    reduction : IntegralLLL
        The basis and its exact data; rows ``0..k-1`` LLL-reduced, row k the last.
    k : int
        The new row.
    floats : tuple, optional
        ``(mu, B)`` of rows ``0..k-1`` as floats (from the previous dimension), if known.

    Returns
    -------
    IntegralLLL
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


def canonical(vector) -> tuple[int, ...]:
    """Sign-normalise a vector so that its first non-zero coordinate is positive."""
    for v in vector:
        if v:
            return tuple(vector) if v > 0 else tuple(-w for w in vector)
    return tuple(vector)


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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
        bound = min(bound, dot(vector, vector))
        return bound

    enumerate_short_vectors(basis, mu, B, bound, visit)
    return vectors


def short_vectors(basis, mu, B, bound: int) -> list[list[int]]:
    """Every non-zero lattice vector (one of each pair +-v) of squared length at most ``bound``, exactly.

    The compiled enumeration of :func:`shortest_vector` with a radius that does not
    shrink (an infinite margin), or :func:`enumerate_short_vectors` where it gives up.
    The caller bounds the count: about ``V_d bound^(d/2) / det`` vectors (Gaussian heuristic).
    """
    radius = bound * (1.0 + ENUMERATION_MARGIN)
    found, count, done = _shortest_candidates(np.array(mu), np.array(B), radius, np.inf)
    if done:
        vectors = [_combination(x, basis) for x in found[:count].tolist()]
        return [v for v in vectors if dot(v, v) <= bound]
    vectors: list[list[int]] = []

    def visit(vector):
        if dot(vector, vector) <= bound:
            vectors.append(vector)
        return bound

    enumerate_short_vectors(basis, mu, B, bound, visit)
    return vectors


def shortest_vector(basis, mu, B, reject_below: int | None = None, known: int | None = None):
    """Exact nu^2 and the canonical shortest vector of the lattice with this reduced basis.

    With ``reject_below``, returns None if nu^2 is below it (used to prune a
    multiplier search), at once if the first basis vector is. ``known`` is the squared
    length of some lattice vector (e.g. a shortest vector of a sublattice), which
    starts the enumeration with a smaller radius than the first basis vector's.
    """
    bound = dot(basis[0], basis[0])
    if known is not None:
        bound = min(bound, known)
    if reject_below is not None and bound < reject_below:
        return None
    vectors = _short_candidates(basis, mu, B, bound)
    lengths = [dot(vector, vector) for vector in vectors]
    best = min(lengths)
    if reject_below is not None and best < reject_below:
        return None
    return best, min(canonical(v) for v, length in zip(vectors, lengths) if length == best)
