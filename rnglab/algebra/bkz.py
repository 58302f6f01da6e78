"""Block Korkine--Zolotarev (BKZ) preprocessing, compiled, as a guide to the exact enumeration.

The Schnorr--Euchner enumeration of :mod:`rnglab.algebra.lattice` visits a number of nodes
that falls steeply as the basis gets better; LLL alone leaves it large from about 40
dimensions on. BKZ (Schnorr and Euchner 1994) improves the basis block by block: for each
j, the shortest vector of the lattice projected on the block ``b_j, ..., b_(j+beta-1)``
(found by the same compiled enumeration) replaces ``b_j`` when it is clearly shorter than
``b_j*``, and LLL tidies up. Here it only *chooses a basis*: it works on a copy of an
LLL-reduced integer basis in int64 (checking every entry against overflow) with doubles
for its Gram--Schmidt data, and its result is reduced again by the exact integral LLL
before the exact enumeration runs on it; whatever its rounding, the lattice is the same
(every row operation is unimodular, in integers) and the figures stay exact. If an entry
would leave ``(-2^24, 2^24)`` it gives up and the LLL basis is used.

The block's shortest vector ``v = sum x_i b_(j+i)`` (its coefficients have gcd 1) enters
the basis by unimodular 2 x 2 steps on pairs of rows (extended Euclid on ``x_i, x_l``),
which leave one row equal to ``+-v``; it is moved to position j.

References
----------
C. P. Schnorr and M. Euchner, Lattice basis reduction: improved practical algorithms and
solving subset sum problems, Math. Programming 66 (1994). The fplll development team,
fplll, a lattice reduction library (BKZ with LLL preprocessing).
"""

from __future__ import annotations

import numpy as np

from rnglab.algebra.lattice import GUIDE_MAX_STEPS, IntegralLLL, _float_lll, _shortest_candidates
from rnglab.core.compiled import njit

#: Block size beta of the preprocessing (fplll's common choice for enumeration preprocessing).
BLOCK = 10

#: Most BKZ tours over the basis.
TOURS = 8

#: Largest absolute entry the int64 guide may create (Gram entries stay below 2^63 up to 64 rows).
ENTRY_LIMIT = 2.0**24

#: A block vector replaces b_j only if its projected squared length is below this fraction of B_j.
IMPROVEMENT = 0.99


@njit(cache=True, nogil=True)
def _gram_schmidt(basis):  # pragma: no cover - compiled
    """``mu`` and ``B`` of an int64 basis in doubles (its Gram matrix is exact for small entries)."""
    n = basis.shape[0]
    gram = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            total = 0
            for l in range(basis.shape[1]):
                total += basis[i, l] * basis[j, l]
            gram[i, j] = float(total)
    mu, B = np.zeros((n, n)), np.zeros(n)
    for i in range(n):
        for j in range(i):
            value = gram[i, j]
            for l in range(j):
                value -= mu[j, l] * mu[i, l] * B[l]
            mu[i, j] = value / B[j]
        value = gram[i, i]
        for l in range(i):
            value -= mu[i, l] * mu[i, l] * B[l]
        B[i] = value
    return mu, B


@njit(cache=True, nogil=True)
def _largest(basis):  # pragma: no cover - compiled
    largest = 0.0
    for i in range(basis.shape[0]):
        for j in range(basis.shape[1]):
            largest = max(largest, abs(float(basis[i, j])))
    return largest


@njit(cache=True, nogil=True)
def _product(U, basis):  # pragma: no cover - compiled
    """``U basis`` in int64 (the caller bounds the entries)."""
    n, columns = U.shape[0], basis.shape[1]
    result = np.zeros((n, columns), np.int64)
    for i in range(n):
        for l in range(n):
            if U[i, l] != 0:
                for j in range(columns):
                    result[i, j] += U[i, l] * basis[l, j]
    return result


@njit(cache=True, nogil=True)
def _insert(basis, j, x):  # pragma: no cover - compiled
    """Make row j of ``basis`` equal to ``+-sum_i x_i basis[j + i]`` by unimodular row steps."""
    x = x.copy()
    while True:
        first, second = -1, -1
        for i in range(x.size):
            if x[i] != 0:
                if first < 0:
                    first = i
                elif second < 0:
                    second = i
        if second < 0:
            break
        a, b = x[first], x[second]
        # extended Euclid: p a + q b = g
        old_r, r, old_s, s, old_t, t = a, b, 1, 0, 0, 1
        while r != 0:
            quotient = old_r // r
            old_r, r = r, old_r - quotient * r
            old_s, s = s, old_s - quotient * s
            old_t, t = t, old_t - quotient * t
        g, p, q = old_r, old_s, old_t
        u, v = a // g, b // g
        row_a, row_b = basis[j + first].copy(), basis[j + second].copy()
        basis[j + first] = u * row_a + v * row_b  # carries g times the pair's part of the vector
        basis[j + second] = -q * row_a + p * row_b  # det [[u, v], [-q, p]] = u p + v q = 1
        x[first], x[second] = g, 0
    for i in range(x.size):
        if x[i] != 0:
            row = basis[j + i].copy()
            for l in range(j + i, j, -1):
                basis[l] = basis[l - 1]
            basis[j] = row
            return


@njit(cache=True, nogil=True)
def _bkz(basis, block, tours, delta):  # pragma: no cover - compiled
    """BKZ tours on an int64 basis, in place; False if an entry would leave the limit."""
    n = basis.shape[0]
    for _ in range(tours):
        changed = False
        for j in range(n - 1):
            end = min(j + block, n)
            mu, B = _gram_schmidt(basis)
            found, count, done = _shortest_candidates(mu[j:end, j:end].copy(), B[j:end].copy(),
                                                      IMPROVEMENT * B[j], 0.0)
            if not done or count == 0:
                continue
            _insert(basis, j, found[count - 1])
            if _largest(basis) >= ENTRY_LIMIT:
                return False
            mu, B = _gram_schmidt(basis)
            U, finished = _float_lll(mu, B, delta, np.int64(GUIDE_MAX_STEPS))  # an int64, not a literal: one compile
            if not finished or float(n) * _largest(U) * _largest(basis) >= ENTRY_LIMIT:
                return False
            basis[:, :] = _product(U, basis)
            changed = True
        if not changed:
            return True
    return True


def bkz_reduction(reduction: IntegralLLL, block: int = BLOCK) -> IntegralLLL:
    """A BKZ-preprocessed, exactly LLL-reduced basis of the lattice of ``reduction`` (or it, unchanged).

    Runs :func:`_bkz` on a copy when every entry is below ``2^20`` (so that the Gram
    matrix is exact in doubles), then the exact integral LLL on its result.
    """
    try:
        basis = np.array(reduction.basis, dtype=np.int64)
    except OverflowError:
        return reduction
    if _largest(basis) >= 2.0**20 or basis.shape[0] <= block or basis.shape[0] > 64:
        return reduction
    if not _bkz(basis, block, TOURS, float(reduction.delta)):
        return reduction
    improved = IntegralLLL(basis.tolist(), reduction.delta)
    improved.run()
    return improved
