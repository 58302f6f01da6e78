"""Search for MRG coefficients (orders 2 and 3) with good lattice structure: the best M_T.

Like LatMRG's ``seek`` programs (random search): draw coefficient vectors ``(a_1, ..., a_k)``
with each a_i uniform in [0, m) (a_k != 0), compute S_t for t = k+1..T on the MRG's m-dual
lattice (:mod:`rnglab.algebra.mrg_spectral`), and keep the ``top`` best by
``M_T = min_t S_t``. As in the LCG search (:mod:`rnglab.algebra.multipliers`), a candidate is
dropped at the first dimension whose S_t falls below the current ``top``-th best: the
enumeration stops at the first dual vector shorter than the bound that S_t implies, so most
candidates cost one or two small reductions. With ``full_period``, m must be prime and only
coefficients whose characteristic polynomial is primitive modulo m (period m^k - 1, Knuth
3.2.2; :mod:`rnglab.algebra.mrg_period`) are kept; the factors of m - 1 and of
(m^k - 1)/(m - 1) are found once.

Reference: P. L'Ecuyer, "Good parameters and implementations for combined multiple recursive
random number generators", Operations Research 47(1), 1999; L'Ecuyer, Blouin and Couture,
"A search for good multiple recursive random number generators", ACM TOMACS 3(2), 1993.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import time
from collections.abc import Callable, Iterable

import numpy as np

from rnglab.algebra.lattice import shortest_vector
from rnglab.algebra.mrg_period import primitivity_conditions
from rnglab.algebra.mrg_spectral import MAX_DETERMINANT_BITS, output_coefficients
from rnglab.algebra.multipliers import current_threshold, keep_best, uniform_below
from rnglab.algebra.normalizers import NORMALIZATIONS, gamma, normalized_merit
from rnglab.algebra.numtheory import factorize, is_probable_prime
from rnglab.algebra.spectral import grown_reduced_bases
from rnglab.core.results import Result
from rnglab.generators.mrg import Recurrence

#: Orders searched.
ORDERS = (2, 3)

#: Highest search dimension (bestlat and laminated are tabulated to 48).
MAX_SEARCH_DIMENSION = 48


@dataclasses.dataclass(frozen=True)
class MRGCoefficients(Result):
    """One coefficient vector found: its S_t (t = k+1..T ascending) and M = min S_t."""

    a: tuple[int, ...]
    M: float
    S: tuple[float, ...]


@dataclasses.dataclass(frozen=True)
class MRGSearchResult(Result):
    """Outcome of :func:`search_mrg`: the best coefficient vectors, best first."""

    m: int
    k: int
    dims: tuple[int, ...]
    norm: str
    full_period: bool
    seed: int
    top: int
    examined: int
    seconds: float
    per_second: float
    best: tuple[MRGCoefficients, ...]


def rejection_bound(threshold: float, m: int, k: int, t: int, norm: str) -> int:
    """Smallest integer nu^2 with S_t >= threshold (t > k): S_t < threshold iff nu^2 < this."""
    return math.ceil(threshold**2 * gamma(norm, t) * math.exp(2 * k * math.log(m) / t))


def merits_above(recurrence: Recurrence, dims: list[int], norm: str, threshold: float) -> list[float] | None:
    """S_t of the recurrence for every t in dims (all > k), or None once one is below threshold."""
    m, k = recurrence.m, recurrence.order
    merits = []
    coefficients = itertools.islice(output_coefficients(recurrence), k, None)
    for t, basis, mu, B in grown_reduced_bases(m, k, coefficients, dims[-1]):
        if t not in dims:
            continue
        found = shortest_vector(basis, mu, B, rejection_bound(threshold, m, k, t, norm))
        if found is None:
            return None
        merits.append(normalized_merit(found[0], m, k, t, norm))
    return merits


def _primitivity_test(m: int, k: int, full_period: bool) -> Callable[[Recurrence], bool] | None:
    """A test of full period for the coefficients, with the factors found once; None if not asked."""
    if not full_period:
        return None
    if not is_probable_prime(m):
        raise ValueError(f"--full-period needs a prime modulus; got m = {m}")
    p_minus_1, r_factors = factorize(m - 1), factorize((m**k - 1) // (m - 1))
    return lambda recurrence: all(c.holds for c in primitivity_conditions(recurrence, p_minus_1, r_factors))


def _check(m: int, k: int, dims: list[int], norm: str, top: int, candidates: int) -> None:
    if isinstance(m, bool) or not isinstance(m, int) or m < 3 or (m**k).bit_length() > MAX_DETERMINANT_BITS:
        raise ValueError(f"m must be an integer >= 3 with m^k below 2^{MAX_DETERMINANT_BITS}; got {m}")
    if k not in ORDERS:
        raise ValueError(f"the MRG search takes orders {ORDERS}; got {k}")
    if norm not in NORMALIZATIONS:
        raise ValueError(f"normalisation must be one of {', '.join(NORMALIZATIONS)}; got {norm!r}")
    if not dims or not all(k < t <= MAX_SEARCH_DIMENSION for t in dims):
        raise ValueError(f"search dimensions must be in [k + 1, {MAX_SEARCH_DIMENSION}] = [{k + 1}, "
                         f"{MAX_SEARCH_DIMENSION}]; got {dims}")
    if top < 1 or candidates < 1:
        raise ValueError(f"top and candidates must be >= 1; got {top} and {candidates}")


def search_mrg(m: int, k: int, dims: Iterable[int], top: int = 10, candidates: int = 1000,
               seed: int | None = None, norm: str = "bestlat", full_period: bool = False,
               progress: Callable[[int, int], None] | None = None) -> MRGSearchResult:
    """Random coefficient vectors of order k modulo m with the best ``M_T = min_t S_t``.

    Parameters
    ----------
    m : int
        Modulus (prime with ``full_period``).
    k : {2, 3}
        Order.
    dims : iterable of int
        Dimensions t in [k + 1, 48].
    top, candidates : int
        How many to keep, how many to draw (duplicates examined once).
    seed : int, optional
        Seed of the numpy Generator; drawn from the OS and reported if None.
    norm : {"bestlat", "laminated", "rogers"}
    full_period : bool
        Keep only primitive characteristic polynomials (period m^k - 1).
    progress : callable, optional
        ``progress(done, total)``, about a hundred times.

    Returns
    -------
    MRGSearchResult
    """
    dims = sorted(set(dims))
    _check(m, k, dims, norm, top, candidates)
    primitive = _primitivity_test(m, k, full_period)
    seed = int(np.random.SeedSequence().entropy) if seed is None else seed
    rng = np.random.default_rng(seed)
    best: list = []
    seen: set = set()
    start = time.perf_counter()
    for done in range(1, candidates + 1):
        a = tuple(uniform_below(rng, m) for _ in range(k - 1)) + (1 + uniform_below(rng, m - 1),)
        if a not in seen:
            seen.add(a)
            recurrence = Recurrence(m, a)
            merits = merits_above(recurrence, dims, norm, current_threshold(best, top))
            if merits is not None and (primitive is None or primitive(recurrence)):
                keep_best(best, (min(merits), a, merits), top)
        if progress is not None and (done % max(1, candidates // 100) == 0 or done == candidates):
            progress(done, candidates)
    seconds = time.perf_counter() - start
    found = tuple(MRGCoefficients(a=a, M=merit, S=tuple(merits))
                  for merit, a, merits in sorted(best, key=lambda b: (-b[0], b[1])))
    return MRGSearchResult(m=m, k=k, dims=tuple(dims), norm=norm, full_period=full_period, seed=seed, top=top,
                           examined=len(seen), seconds=seconds,
                           per_second=len(seen) / seconds if seconds > 0 else math.inf, best=found)
