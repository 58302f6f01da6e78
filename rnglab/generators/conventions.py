"""Seeding conventions: how a library turns the seed a program passes into a state.

``srand(1)`` on MSVC stores 1; ``new java.util.Random(1)`` stores
``(1 ^ 0x5DEECE66D) mod 2^48``; ``srand48(1)`` stores ``(1 << 16) | 0x330E``.
Each convention maps a seed to an initial state, for one seed or an array of
seeds (a batch of generators, one per seed), and declares which seeds the
library accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rnglab.core.registry import Registry
from rnglab.generators.vb import randomize_hash

JAVA_MULTIPLIER = 0x5DEECE66D


def _identity(seed):
    return seed


def _java_scramble(seed):
    # java.util.Random(long seed): this.seed = (seed ^ 0x5DEECE66DL) & ((1L << 48) - 1)
    if isinstance(seed, np.ndarray):
        return (seed.astype(np.uint64) ^ np.uint64(JAVA_MULTIPLIER)) & np.uint64(2**48 - 1)
    return (seed ^ JAVA_MULTIPLIER) % 2**48


def _srand48(seed):
    # srand48(long seedval): X = (seedval's low 32 bits << 16) | 0x330E (POSIX drand48)
    if isinstance(seed, np.ndarray):
        return ((seed.astype(np.uint64) & np.uint64(2**32 - 1)) << np.uint64(16)) | np.uint64(0x330E)
    return ((seed % 2**32) << 16) | 0x330E


def _zero_means_one(seed):
    # glibc srandom_r and C++ linear_congruential_engine replace a zero seed with 1
    if isinstance(seed, np.ndarray):
        return np.where(seed == 0, np.uint64(1), seed.astype(np.uint64))
    return 1 if seed == 0 else seed


def _vb_randomize(seed):
    # VB's Randomize reads a 32-bit word w and keeps h = (w ^ w >> 16) & 0xFFFF in bits 8..23 of Rnd's
    # 24-bit state (rnglab.generators.vb); a fresh program's state has a zero low byte, so the state is
    # h << 8 (a word below 2^16 is its own hash)
    if isinstance(seed, np.ndarray):
        return randomize_hash(seed) << np.uint64(8)
    return randomize_hash(seed) << 8


@dataclass(frozen=True)
class SeedConvention:
    """A named map from program seeds to generator states.

    Attributes
    ----------
    name : str
    low, high : int or None
        Inclusive range of seeds the library accepts; ``None`` means "the
        generator's valid states" (checked by the generator itself).
    transform : callable
        Maps a Python integer or a numpy array of seeds to states.
    """

    name: str
    low: int | None
    high: int | None
    transform: Callable

    def check(self, seed: int) -> int:
        """Validate a seed against the convention's range and return it."""
        if self.low is not None and not self.low <= seed <= self.high:
            raise ValueError(f"seed must be in [{self.low}, {self.high}] for {self.name} seeding; got {seed}")
        return seed

    def to_state(self, seed: int) -> int:
        """Return the state a program's ``seed`` produces (Python integer)."""
        return int(self.transform(self.check(int(seed))))

    def to_states(self, seeds: np.ndarray) -> np.ndarray:
        """Return the states for an array of seeds (one per batch lane)."""
        seeds = integer_array(seeds)
        if self.low is not None and len(seeds) and (seeds.min() < self.low or seeds.max() > self.high):
            raise ValueError(f"seeds must be in [{self.low}, {self.high}] for {self.name} seeding")
        if seeds.dtype == object and self.low is not None:  # in range, so each fits 64 bits as C and Java cast it
            seeds = np.array([int(v) % 2**64 for v in seeds], dtype=np.uint64)
        return self.transform(seeds.astype(np.uint64, copy=False) if seeds.dtype != object else seeds)


def integer_array(values) -> np.ndarray:
    """``values`` as an integer array, exactly: Python integers that fit no common
    numpy integer type (2^63 beside a negative or small value, which numpy would
    round to float64) are kept as an object array.

    Raises ``TypeError`` for values that are not integers.
    """
    array = np.asarray(values)
    if array.dtype.kind in "iuO":
        return array
    exact = np.asarray(values, dtype=object)
    if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in exact.ravel()):
        return exact
    raise TypeError(f"seeds must be integers; got an array of {array.dtype}")


CONVENTIONS: Registry[SeedConvention] = Registry("seeding convention", {
    "state": SeedConvention("state", None, None, _identity),
    "uint32": SeedConvention("uint32", 0, 2**32 - 1, _identity),
    "java": SeedConvention("java", -(2**63), 2**64 - 1, _java_scramble),
    "srand48": SeedConvention("srand48", 0, 2**32 - 1, _srand48),
    "zero-means-one": SeedConvention("zero-means-one", 0, 2**32 - 1, _zero_means_one),
    "vb-randomize": SeedConvention("vb-randomize", 0, 2**32 - 1, _vb_randomize),
})
"""Registry of seeding conventions by name (see ``rnglab/data/catalog.toml``)."""


def convention(name: str) -> SeedConvention:
    """Look up a seeding convention by name."""
    return CONVENTIONS[name]
