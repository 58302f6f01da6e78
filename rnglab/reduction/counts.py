"""Exact counts of range reduction: how many of ``R`` equally likely source values reach each output.

For a source of ``R`` equally likely values and a bound ``n``, every reducer
sends ``c_v`` source values to output ``v`` and rejects the rest. Closed forms
(``q = floor(R / n)``, ``r = R mod n``):

* ``modulo``: outputs ``0 .. r-1`` get ``q + 1`` values, the others ``q``;
* ``multiply-shift``: ``c_v = ceil((v+1) R / n) - ceil(v R / n)``, again
  ``r`` outputs with ``q + 1``, spread evenly over ``[0, n)``;
* ``threshold``, ``threshold-openbsd``, ``lemire``: ``q`` each, ``r`` rejected;
* ``bitmask`` with ``b = 2^ceil(log2 n)``: ``floor(R / b)`` each (1 when ``b > R``);
* ``java-nextint`` (``R = 2^32``): ``2 floor(2^31 / n)`` each, or ``2^32 / n``
  for a power of two;
* ``float-multiply`` has no closed form: ``x -> trunc(fl(fl(x n) / R))`` is
  monotone, so ``c_v = f_{v+1} - f_v`` with ``f_v`` the first ``x`` reaching
  ``v``, found by a compiled binary search per output that starts in a
  narrow bracket (a few evaluations of the double-precision map each).

Each reducer of the registry (:mod:`rnglab.reduction.reducers`) carries its
count function; :func:`rnglab.draws.bias.brute_force_counts` is the
reference they are tested against.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import numpy as np

from rnglab.core.compiled import njit
from rnglab.core.results import Result
from rnglab.reduction.maps import float_multiply_domain, java_nextint_domain, python_randbelow_domain

#: Largest n for which per-output counts are built as an array (float-multiply, plots, lists).
ARRAY_LIMIT = 2**25
#: Most favoured outputs listed explicitly.
LIST_LIMIT = 64


@dataclass(frozen=True)
class ExactCounts(Result):
    """How many of the ``R`` source values each output of ``[0, n)`` receives.

    Attributes
    ----------
    method : str
    n, range : int
    classes : tuple of (count, multiplicity)
        ``multiplicity`` outputs receive ``count`` source values each.
    rejected : int
        Source values rejected (``R - sum of counts``).
    favoured : tuple of int
        The outputs with the largest count (at most 64 listed; empty when all are equal).
    favoured_description : str
    """

    method: str
    n: int
    range: int
    classes: tuple
    rejected: int
    favoured: tuple
    favoured_description: str

    @property
    def accepted(self) -> int:
        """Source values that produce an output: ``R - rejected``."""
        return self.range - self.rejected


def _two_level(method, n, R, favoured, description) -> ExactCounts:
    q, r = divmod(R, n)
    classes = tuple((c, m) for c, m in ((q + 1, r), (q, n - r)) if m)
    return ExactCounts(method, n, R, classes, 0, tuple(favoured), description if r else "none: n divides R")


def _uniform(method, n, R, each) -> ExactCounts:
    return ExactCounts(method, n, R, ((each, n),), R - each * n, (), "none: every output is equally likely")


def _multiply_shift_favoured(n: int, R: int) -> np.ndarray:
    """The first favoured outputs of multiply-shift (at most 64, searched below ``2^20``).

    With ``s_v = (-v R) mod n``, ``c_v = q + 1`` exactly when ``s_v < r``
    (since ``c_v = q + (r + s_{v+1} - s_v) / n`` and ``s_{v+1} = (s_v - r) mod n``);
    as ``R = r (mod n)``, the test is ``(-v r) mod n < r``.
    """
    r = R % n
    if r == 0:
        return np.empty(0, dtype=np.int64)
    length = min(n, -(-LIST_LIMIT * n // r) + 2, 2**20)
    v = np.arange(length, dtype=object if max(length * r, n) >= 2**63 else np.int64)
    favoured = v[(-(v * r)) % n < r][:LIST_LIMIT]
    return favoured.astype(np.int64)


def approximate(value: Fraction, digits: int = 4) -> str:
    """A non-negative rational of any size to ``digits`` significant digits (``1.234e-1200``), as the ``g`` format."""
    if not value:
        return "0"
    return f"{Decimal(value.numerator) / Decimal(value.denominator):.{digits}g}"


def modulo_counts(method: str, n: int, R: int) -> ExactCounts:
    """``x mod n``: outputs ``0 .. r-1`` get ``q + 1`` values, the others ``q``."""
    r = R % n
    return _two_level(method, n, R, range(min(r, LIST_LIMIT)), f"the {r} smallest outputs 0..{r - 1}")


def multiply_shift_counts(method: str, n: int, R: int) -> ExactCounts:
    """``floor(x n / R)``: ``c_v = ceil((v+1) R / n) - ceil(v R / n)``, ``r`` outputs with ``q + 1`` spread evenly."""
    r = R % n
    spacing = f"about every {approximate(Fraction(n, r))} outputs" if r else ""
    return _two_level(method, n, R, _multiply_shift_favoured(n, R),
                      f"{r} outputs spread evenly over [0, n), {spacing}: v with "
                      "ceil((v+1)R/n) - ceil(vR/n) = floor(R/n) + 1")


def float_multiply_counts(method: str, n: int, R: int) -> ExactCounts:
    """``trunc(fl(fl(x n) / R))``: no closed form; the classes of the counts, built ``2^25`` outputs at a time.

    Memory stays bounded for any ``n`` (``rnglab reduce java --n 10^9`` takes
    about 10 s): each block of outputs gets its counts from
    :func:`float_multiply_first_reach`, and only the distinct counts, their
    multiplicities and the first favoured outputs are kept.
    """
    classes: dict[int, int] = {}
    favoured, best = [], -1
    for start in range(0, n, ARRAY_LIMIT):
        counts = np.diff(float_multiply_first_reach(n, R, start, min(start + ARRAY_LIMIT, n)).astype(np.int64))
        values, multiplicities = np.unique(counts, return_counts=True)
        for value, multiplicity in zip(values.tolist(), multiplicities.tolist()):
            classes[value] = classes.get(value, 0) + multiplicity
        if values[-1] > best:
            best, favoured = int(values[-1]), []
        if values[-1] == best and len(favoured) < LIST_LIMIT:
            favoured += (start + np.flatnonzero(counts == best)[:LIST_LIMIT - len(favoured)]).tolist()
    if len(classes) == 1:
        favoured, description = [], "none: every output is equally likely"
    else:
        description = (f"{classes[best]} outputs spread over [0, n) (the first few: "
                       f"{', '.join(map(str, favoured[:8]))})")
    ordered = tuple(sorted(classes.items(), reverse=True))
    return ExactCounts(method, n, R, ordered, R - sum(c * m for c, m in ordered), tuple(favoured), description)


def remainder_rejecting_counts(method: str, n: int, R: int) -> ExactCounts:
    """``threshold``, ``threshold-openbsd``, ``lemire``: ``floor(R / n)`` each, ``R mod n`` rejected."""
    return _uniform(method, n, R, R // n)


def bitmask_counts(method: str, n: int, R: int) -> ExactCounts:
    """Mask to ``b = 2^ceil(log2 n)``: ``floor(R / b)`` each (1 when ``b > R``)."""
    block = 1 << (n - 1).bit_length()
    return _uniform(method, n, R, R // block if block <= R else 1)


def python_randbelow_counts(method: str, n: int, R: int) -> ExactCounts:
    """Top ``k = bit_length(n)`` bits: ``R / 2^k`` each; ``R - n R / 2^k`` rejected (half or more for ``n = 2^j``)."""
    python_randbelow_domain(n, R)
    return _uniform(method, n, R, R >> n.bit_length())


def java_nextint_counts(method: str, n: int, R: int) -> ExactCounts:
    """``nextInt(n)`` on ``R = 2^32``: ``2 floor(2^31 / n)`` each, ``2^32 / n`` for a power of two."""
    java_nextint_domain(n, R)
    return _uniform(method, n, R, R // n if n & (n - 1) == 0 else 2 * (2**31 // n))


@njit(cache=True, nogil=True)
def _float_multiply_reaches(x, v, n, R):
    """``float-multiply(x) >= v``, with ``x = R`` counting as reached (every operation an IEEE double)."""
    return x >= R or np.floor(float(x) * float(n) / float(R)) >= v


@njit(cache=True, nogil=True)
def _first_reach_kernel(n, R, start, stop, out):
    for v in range(start, stop + 1):
        estimate = int(np.floor(v * (R / n)))
        low, high = max(estimate - 8, 0), min(estimate + 8, R)
        if not _float_multiply_reaches(high, v, n, R) or (low > 0 and _float_multiply_reaches(low - 1, v, n, R)):
            low, high = 0, R
        while low < high:
            middle = low + (high - low) // 2
            if _float_multiply_reaches(middle, v, n, R):
                high = middle
            else:
                low = middle + 1
        out[v - start] = low


def float_multiply_first_reach(n: int, R: int, start: int = 0, stop: int | None = None) -> np.ndarray:
    """``f_v``: the smallest ``x`` in ``[0, R]`` with ``float-multiply(x) >= v``, for ``v = start .. stop`` (``f_n = R``).

    ``stop`` defaults to ``n``. A binary search per ``v``, valid because the
    double-precision map is monotone (each rounding is). It starts in a
    bracket of +-8 around ``v R / n`` (the roundings move ``f_v`` by at
    most ``R 2^-52 <= 2``), checked at both ends; a bracket that fails the
    check is widened to ``[0, R]``. Compiled: about 10 ns per output.
    """
    float_multiply_domain(n, R)
    stop = n if stop is None else stop
    first = np.empty(stop - start + 1, dtype=np.int64)
    _first_reach_kernel(n, R, start, stop, first)
    return first.astype(np.uint64)


def count_dtype(R: int, n: int):
    """int64 when every ``c_v <= R`` and the products ``v R`` fit, else Python integers (object)."""
    return np.int64 if R * (n + 1) < 2**63 else object


def modulo_count_array(n: int, R: int) -> np.ndarray:
    """``c_v = q + 1`` for ``v < R mod n``, else ``q``."""
    q, r = divmod(R, n)
    counts = np.full(n, q, dtype=count_dtype(R, n))
    counts[:r] += 1
    return counts


def multiply_shift_count_array(n: int, R: int) -> np.ndarray:
    """``c_v = ceil((v+1) R / n) - ceil(v R / n)``."""
    v = np.arange(n + 1, dtype=count_dtype(R, n))
    return np.diff(-((-v * R) // n))


def float_multiply_count_array(n: int, R: int) -> np.ndarray:
    """``c_v = f_{v+1} - f_v`` with ``f_v`` from :func:`float_multiply_first_reach` (``R <= 2^53``)."""
    return np.diff(float_multiply_first_reach(n, R).astype(np.int64))
