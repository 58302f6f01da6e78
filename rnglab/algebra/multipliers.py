"""Search for LCG multipliers with good lattice structure (the best M_T = min_t S_t).

Like L'Ecuyer's "tables of good lattice structure": draw random multipliers of the right
residue class, compute the normalised figures of merit S_t (see :mod:`rnglab.algebra.spectral`)
dimension by dimension, and keep the ``top`` best by ``M_T``. A candidate is abandoned as
soon as one S_t falls below the current ``top``-th best M_T: the enumeration of that
dimension stops at the first dual vector shorter than the threshold, so most candidates
cost one or two small lattice reductions.

Candidates, for m = 2^e: with c = 0, ``a = 3`` or ``5 (mod 8)`` (maximal period 2^(e-2)
for odd seeds; the lattice modulus is then m / gcd(a - 1, m), see
:func:`rnglab.algebra.spectral.lattice_modulus`); with c odd, ``a = 1 (mod 4)`` (full period,
Hull–Dobell). For other moduli, any a in [2, m) prime to m (no period condition imposed).

Reference: P. L'Ecuyer, "Tables of linear congruential generators of different sizes and
good lattice structure", Math. Comp. 68 (1999), 249–260.
"""

from __future__ import annotations

import dataclasses
import heapq
import math
import time
from collections.abc import Callable, Iterable

import numpy as np

from rnglab.algebra.lattice import shortest_vector
from rnglab.algebra.spectral import MAX_MODULUS_BITS, figure_of_merit, hermite_constant, lattice_modulus, reduced_bases
from rnglab.core.params import describe_int
from rnglab.core.results import Result

INCREMENTS = ("odd", "0")

#: Highest search dimension (Hermite constants are known or tabulated up to 24).
MAX_SEARCH_DIMENSION = 24


@dataclasses.dataclass(frozen=True)
class Multiplier(Result):
    """One multiplier found: its figures of merit S_t (dims ascending) and M = min S_t."""

    a: int
    M: float
    S: tuple[float, ...]
    lattice_m: int


@dataclasses.dataclass(frozen=True)
class SearchResult(Result):
    """Outcome of :func:`search_multipliers`: the best multipliers, best first."""

    m: int
    increment: str
    dims: tuple[int, ...]
    seed: int
    top: int
    examined: int
    seconds: float
    per_second: float
    best: tuple[Multiplier, ...]


def uniform_below(rng: np.random.Generator, bound: int) -> int:
    """A uniform integer in [0, bound), of any size, by rejection from 32-bit words."""
    bits = max(bound - 1, 1).bit_length()
    words = (bits + 31) // 32
    while True:
        value = 0
        for word in rng.integers(0, 2**32, size=words, dtype=np.uint64).tolist():
            value = (value << 32) | word
        value >>= 32 * words - bits
        if value < bound:
            return value


def draw_multiplier(rng: np.random.Generator, m: int, increment: str) -> int:
    """Draw one candidate multiplier of the residue class the module docstring gives."""
    if m & (m - 1) == 0 and m >= 16:
        if increment == "0":
            return 8 * uniform_below(rng, m // 8) + (3 if rng.integers(2) else 5)
        return 4 * uniform_below(rng, m // 4 - 1) + 5
    while True:
        a = 2 + uniform_below(rng, m - 2)
        if math.gcd(a, m) == 1:
            return a


def _rejection_bound(threshold: float, lattice_m: int, t: int) -> int:
    """Smallest integer nu^2 with S_t >= threshold: S_t < threshold iff nu^2 < this."""
    gamma = hermite_constant(t)
    return math.ceil(threshold**2 * gamma * math.exp(2 * math.log(lattice_m) / t))


def merits_above(a: int, lattice_m: int, dims: list[int], threshold: float):
    """The S_t of multiplier a for every t in dims, or None once one is below threshold."""
    merits = []
    for t, basis, mu, B in reduced_bases(a % lattice_m, lattice_m, dims[-1]):
        if t not in dims:
            continue
        found = shortest_vector(basis, mu, B, _rejection_bound(threshold, lattice_m, t))
        if found is None:
            return None
        merits.append(figure_of_merit(found[0], lattice_m, t))
    return merits


def check_search(m: int, increment: str, dims: list[int], top: int, candidates: int) -> None:
    """Refuse a search's arguments, naming the rule (``dims`` sorted)."""
    if not isinstance(m, int) or not 16 <= m < 2**MAX_MODULUS_BITS:
        raise ValueError(f"m must be an integer in [16, 2^{MAX_MODULUS_BITS}); got {describe_int(m)}")
    if increment not in INCREMENTS:
        raise ValueError(f"increment must be one of {INCREMENTS}; got {increment!r}")
    if not dims or not all(2 <= t <= MAX_SEARCH_DIMENSION for t in dims):
        raise ValueError(f"search dimensions must be in [2, {MAX_SEARCH_DIMENSION}]; got {dims}")
    if top < 1:
        raise ValueError(f"top must be >= 1; got {top}")
    if candidates < 1:
        raise ValueError(f"candidates must be >= 1; got {candidates}")


def search_multipliers(m: int, increment: str = "odd", dims: Iterable[int] = range(2, 9),
                       top: int = 10, candidates: int = 10_000, seed: int | None = None,
                       progress: Callable[[int, int], None] | None = None) -> SearchResult:
    """Find multipliers with the best ``M_T = min_t S_t`` among random candidates.

    Parameters
    ----------
    m : int
        Modulus (at least 16).
    increment : {"odd", "0"}
        Whether the generators have an odd increment or none (multiplicative).
    dims : iterable of int
        Dimensions in [2, 24]; default 2..8 (M_8).
    top : int
        How many multipliers to keep.
    candidates : int
        How many candidates to draw (duplicates are drawn but examined once).
    seed : int, optional
        Seed of the numpy Generator; drawn from the OS and reported if None.
    progress : callable, optional
        ``progress(done, total)``, called about a hundred times.

    Returns
    -------
    SearchResult
        The best multipliers, best first, with the count examined and the rate.
    """
    dims = sorted(set(dims))
    check_search(m, increment, dims, top, candidates)
    seed = int(np.random.SeedSequence().entropy) if seed is None else seed
    rng = np.random.default_rng(seed)
    best: list[tuple[float, int, int, list[float], int]] = []
    seen: set[int] = set()
    start = time.perf_counter()
    for done in range(1, candidates + 1):
        a = draw_multiplier(rng, m, increment)
        if a not in seen:
            seen.add(a)
            consider(a, m, increment, dims, top, best)
        if progress is not None and (done % max(1, candidates // 100) == 0 or done == candidates):
            progress(done, candidates)
    seconds = time.perf_counter() - start
    found = tuple(Multiplier(a=a, M=merit, S=tuple(merits), lattice_m=lattice_m)
                  for merit, _, a, merits, lattice_m in sorted(best, reverse=True))
    return SearchResult(m=m, increment=increment, dims=tuple(dims), seed=seed, top=top,
                        examined=len(seen), seconds=seconds,
                        per_second=len(seen) / seconds if seconds > 0 else math.inf, best=found)


def consider(a: int, m: int, increment: str, dims: list[int], top: int, best: list) -> None:
    """Evaluate candidate a against the current top-k heap ``best`` and keep it if better.

    ``best`` holds ``(M, -a, a, S, lattice_m)``: better means a larger ``M``, then a
    smaller ``a``, so that the top ``k`` do not depend on the order of the candidates
    (a chunked search, :mod:`rnglab.algebra.multiplier_chunks`, finds the same).
    """
    lattice_m, _ = lattice_modulus(a, m, 0 if increment == "0" else 1)
    merits = merits_above(a, lattice_m, dims, current_threshold(best, top))
    if merits is None:
        return
    keep_best(best, (min(merits), -a, a, merits, lattice_m), top)


def keep_best(best: list, entry: tuple, top: int) -> None:
    """Keep ``entry`` in the min-heap ``best`` of the ``top`` best so far.

    ``entry`` starts with its figure of merit and a tie-break key (a larger key wins a tie), so that
    the ``top`` kept do not depend on the order in which the candidates come.
    """
    if len(best) < top:
        heapq.heappush(best, entry)
    elif entry[:2] > best[0][:2]:
        heapq.heapreplace(best, entry)


def current_threshold(best: list, top: int) -> float:
    """The figure a candidate must beat: the ``top``-th best so far, or 0 while fewer are kept."""
    return best[0][0] if len(best) == top else 0.0
