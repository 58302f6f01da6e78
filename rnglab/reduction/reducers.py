"""The reducer registry: one entry per range-reduction method, carrying every facet of it.

An entry is the method's name, whether it is unbiased, its vectorised map
(:mod:`rnglab.reduction.maps`), its domain rule (the ``(n, R)`` it cannot serve),
its exact counts (:mod:`rnglab.reduction.counts`) and its one-draw map for
compiled loops (:mod:`rnglab.reduction.scalar`), which every compiled path
(draws, deals, the seed search on CPU and GPU) calls: a kernel is compiled for
the map itself, not for a position in this table. Adding a reducer is adding
an entry (see docs/guides/extending.md); every layer above reads it
from the one object passed down.

The registry reads integers only, never a source, so it sits under the
generators: a generator's own bounded call (MSVC's ``rand() % n``, Java's
``nextInt``) is one of these entries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rnglab.core.registry import Registry
from rnglab.reduction import counts, scalar
from rnglab.reduction.maps import (
    bitmask_map,
    check_bound,
    float_multiply_domain,
    float_multiply_map,
    java_nextint_domain,
    java_nextint_map,
    lemire_map,
    modulo_map,
    multiply_shift_map,
    python_randbelow_domain,
    python_randbelow_map,
    threshold_map,
    threshold_openbsd_map,
)
from rnglab.reduction.scalar import Scalar


@dataclass(frozen=True)
class Reducer:
    """A named range-reduction method with all its facets.

    Attributes
    ----------
    name : str
        Registry name (the catalog's ``bounded`` field uses these).
    unbiased : bool
        True when every output is exactly equally likely for every ``(R, n)``.
    description, reference : str
    map : callable
        ``map(x, n, R) -> (values, accepted)``: offsets ``x`` in ``[0, R)``
        (uint64 array), a bound ``n`` (int, or a uint64 array broadcastable
        with ``x``); values in ``[0, n)`` (uint64) and a bool array.
    counts : callable
        ``counts(name, n, R) -> ExactCounts``: how many source values reach each output.
    count_array : callable or None
        ``count_array(n, R)``: the per-output counts when outputs differ
        (``None`` for the unbiased methods: their one class repeats).
    domain : callable or None
        ``domain(n, R)`` raises ``ValueError`` for what the method cannot serve
        beyond ``1 <= n <= R`` (``None``: every such pair).
    scalar : Scalar or None
        The one-draw map that compiled loops call (:mod:`rnglab.reduction.scalar`);
        ``None``: the method runs vectorised only (and the searches take their slower paths).
    """

    name: str
    unbiased: bool
    description: str
    reference: str
    map: Callable
    counts: Callable
    count_array: Callable | None = None
    domain: Callable | None = None
    scalar: Scalar | None = None

    def check(self, n, range_size: int) -> None:
        """Raise ``ValueError`` naming the rule unless the method serves bound(s) ``n`` on ``R`` values."""
        check_bound(n, range_size)
        if self.domain is not None:
            self.domain(n if not isinstance(n, np.ndarray) else n.max(initial=1), range_size)

    def serves_range(self, range_size: int) -> bool:
        """Whether the method serves sources of ``R`` values at all: :meth:`check` at ``n = 1`` (the rules of
        its domain on ``R`` alone: java-nextint reads ``R = 2^32``, python-randbelow a power of two)."""
        try:
            self.check(1, range_size)
        except ValueError:
            return False
        return True

    def __str__(self) -> str:
        return self.name


#: The reducer registry: name -> :class:`Reducer` (the compiled kernels are keyed by a reducer's one-draw map,
#: not by its position here). ``as_reducer(name)`` resolves a name.
REDUCERS: Registry[Reducer] = Registry("reducer", {r.name: r for r in (
    Reducer("modulo", False, "x mod n: the classic rand() % n", "C idiom; Knuth, TAOCP vol. 2, 3.4.1",
            modulo_map, counts.modulo_counts, counts.modulo_count_array, scalar=scalar.MODULO),
    Reducer("float-multiply", False, "(int)(n * x / R) in IEEE double, as C computes it",
            "C idiom (int)(n * (rand() / (RAND_MAX + 1.0))); Numerical Recipes in C, 2nd ed., 7.1",
            float_multiply_map, counts.float_multiply_counts, counts.float_multiply_count_array,
            float_multiply_domain, scalar.FLOAT_MULTIPLY),
    Reducer("multiply-shift", False, "floor(x n / R), (x n) >> bits for R = 2^bits (Delphi Random(n))",
            "Borland Delphi System.Random; Lemire, ACM TOMACS 29(1), 2019, section 3", multiply_shift_map,
            counts.multiply_shift_counts, counts.multiply_shift_count_array, scalar=scalar.MULTIPLY_SHIFT),
    Reducer("threshold", True, "reject the top R mod n values, then x mod n (Java's style)",
            "java.util.Random.nextInt; Lemire 2019, Algorithm 3", threshold_map, counts.remainder_rejecting_counts,
            scalar=scalar.THRESHOLD),
    Reducer("threshold-openbsd", True, "reject x < R mod n, then x mod n (arc4random_uniform)",
            "OpenBSD lib/libc/crypt/arc4random_uniform.c", threshold_openbsd_map, counts.remainder_rejecting_counts,
            scalar=scalar.THRESHOLD_OPENBSD),
    Reducer("bitmask", True, "mask to the next power of two >= n, reject values >= n",
            "numpy random_interval (masked rejection); Lemire 2019, section 2", bitmask_map,
            counts.bitmask_counts, scalar=scalar.BITMASK),
    Reducer("lemire", True, "Lemire's nearly divisionless multiply-and-reject",
            "D. Lemire, Fast random integer generation in an interval, ACM TOMACS 29(1), 2019", lemire_map,
            counts.remainder_rejecting_counts, scalar=scalar.LEMIRE),
    Reducer("java-nextint", True, "java.util.Random.nextInt(bound) from next(31) = x >> 1",
            "Java SE API specification, java.util.Random.nextInt(int)", java_nextint_map, counts.java_nextint_counts,
            domain=java_nextint_domain, scalar=scalar.JAVA_NEXTINT),
    Reducer("python-randbelow", True, "top bit_length(n) bits of a word, reject values >= n (CPython randrange, "
            "shuffle)", "CPython Lib/random.py, Random._randbelow_with_getrandbits; Modules/_randommodule.c "
            "getrandbits (genrand_uint32() >> (32 - k))", python_randbelow_map, counts.python_randbelow_counts,
            domain=python_randbelow_domain, scalar=scalar.PYTHON_RANDBELOW),
)})
"""Every reduction method by name."""
DEFAULT_REDUCER = REDUCERS["lemire"]
"""The reducer of a draw that names none: Lemire's, as numpy's ``Generator.integers``."""


def as_reducer(value: str | Reducer) -> Reducer:
    """The reducer named ``value`` (a registry name), or ``value`` itself when it is one already (for the edges:
    the command line and the loaders).

    Raises
    ------
    ValueError
        For an unknown name, with the list of names.
    """
    return value if isinstance(value, Reducer) else REDUCERS[value]
