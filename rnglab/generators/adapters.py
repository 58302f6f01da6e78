"""Adapters that make other generators look like an rnglab :class:`Source`.

numpy BitGenerators (PCG64, MT19937, Philox, SFC64), Python's
``random.Random``, the operating system's entropy source and any callable
with a declared output range all plug into the same interface.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from rnglab.core.registry import Registry
from rnglab.generators.base import Source, raw_dtype

#: Output width in bits of numpy's ``BitGenerator.random_raw`` for each generator.
NUMPY_WIDTHS: Registry[int] = Registry("BitGenerator", {"PCG64": 64, "PCG64DXSM": 64, "MT19937": 32, "Philox": 64,
                                                         "SFC64": 64})


def mt19937_init_genrand(seed: int) -> np.random.MT19937:
    """MT19937 seeded with the reference ``init_genrand(seed)`` (as C++ ``std::mt19937``).

    numpy's ``MT19937(seed)`` goes through ``SeedSequence``; the legacy
    ``RandomState(seed)`` uses the reference initialisation of Matsumoto and
    Nishimura's ``mt19937ar.c``, whose state we copy.
    """
    if not 0 <= seed < 2**32:
        raise ValueError(f"seed must be in [0, 2^32 - 1] for MT19937; got {seed}")
    bit_generator = np.random.MT19937()
    bit_generator.state = np.random.RandomState(seed).get_state(legacy=False)
    return bit_generator


def check_state_tag(value: Any, name: str) -> None:
    """Refuse a state dictionary that is not tagged with the generator's name (as numpy does)."""
    if not isinstance(value, dict) or value.get("generator") != name:
        raise ValueError(f"state belongs to another generator: its tag must be {name!r}")


class NumpySource(Source):
    """A numpy ``BitGenerator`` as a source of its raw 32- or 64-bit words.

    Parameters
    ----------
    bit_generator : numpy.random.BitGenerator
    name : str, optional
    halves : bool, optional
        Serve the 32-bit words numpy's ``next_uint32`` serves a 64-bit generator
        (what ``Generator.integers`` and ``Generator.shuffle`` read for bounds
        below 2^32): the low half of a 64-bit output, then its high half on the
        next call (numpy's ``has_uint32`` buffer, e.g. ``pcg64_next32``).
    """

    def __init__(self, bit_generator: np.random.BitGenerator, name: str | None = None, halves: bool = False):
        kind = type(bit_generator).__name__
        width = NUMPY_WIDTHS[kind]
        if halves and width != 64:
            raise ValueError(f"{kind} already serves 32-bit words: halves apply to 64-bit generators")
        self.bit_generator, self.halves = bit_generator, halves
        self.name = name or kind.lower()
        self.low, self.high = 0, self.word_high(kind, halves)
        self.NARROW_HALVES = width == 64 and not halves
        self.spare_half = self._kept_half(bit_generator.state) if width == 64 else None
        super().__init__()

    @staticmethod
    def word_high(kind: str, halves: bool = False) -> int:
        """Largest word of a BitGenerator ``kind`` (a key of :data:`NUMPY_WIDTHS`), or of its halves."""
        return 2 ** (32 if halves else NUMPY_WIDTHS[kind]) - 1

    @staticmethod
    def _kept_half(state: dict[str, Any]) -> int | None:
        """The high half numpy's ``next_uint32`` keeps for its next call (``has_uint32``, ``uinteger``).

        rnglab keeps it in :attr:`spare_half` (it splits ``next_uint64``
        outputs itself and never calls ``next_uint32``) and writes it back
        into the state it reports, so the state is numpy's.
        """
        return int(state["uinteger"]) if state.get("has_uint32") else None

    def _halves(self, size: int) -> np.ndarray:
        """``size`` 32-bit words: the kept high half first, then low/high halves of fresh 64-bit words."""
        kept = [] if self.spare_half is None else [self.spare_half]
        fresh = self.bit_generator.random_raw((size - len(kept) + 1) // 2).astype("<u8").view("<u4")
        words = np.concatenate([np.array(kept, dtype=np.uint64), fresh.astype(np.uint64)])
        self.spare_half = int(words[size]) if len(words) > size else None
        return words[:size]

    def direct_generator(self) -> np.random.BitGenerator | None:
        """The BitGenerator, stepped directly by bounded draws (:mod:`rnglab.draws.direct`) once nothing is
        pending; ``None`` when serving halves (they are split here, with the kept half)."""
        return None if self.halves else self.bit_generator

    @classmethod
    def from_seed(cls, kind: str, seed: int, name: str | None = None) -> NumpySource:
        """Build ``numpy.random.<kind>(seed)`` (seeded through ``SeedSequence``)."""
        if kind not in NUMPY_WIDTHS:
            raise NUMPY_WIDTHS.unknown(kind)
        source = cls(getattr(np.random, kind)(seed), name)
        source.seed = seed
        return source

    def _generate(self, size: int) -> np.ndarray:
        return self._halves(size) if self.halves else self.bit_generator.random_raw(size)

    @property
    def state(self) -> dict[str, Any]:
        state = self.bit_generator.state
        if NUMPY_WIDTHS[type(self.bit_generator).__name__] == 64:
            state["has_uint32"], state["uinteger"] = int(self.spare_half is not None), int(self.spare_half or 0)
        return {"generator": self.name, "bit_generator": state, "pending": [int(v) for v in self._pending]}

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        check_state_tag(value, self.name)
        self.bit_generator.state = value["bit_generator"]
        wide = NUMPY_WIDTHS[type(self.bit_generator).__name__] == 64
        self.spare_half = self._kept_half(value["bit_generator"]) if wide else None
        self._pending = np.asarray(value.get("pending", []), dtype=np.uint64)


class PythonRandomSource(Source):
    """Python's ``random.Random`` (MT19937) as a source of ``getrandbits(32)`` words.

    ``getrandbits(32 * k)`` concatenates k successive 32-bit outputs, least
    significant word first (CPython ``_randommodule.c``), so the array path
    reads them all from one call, bit-exact with k calls of ``getrandbits(32)``.

    With ``float53=True`` it serves ``random() * 2^53`` instead: CPython's
    ``random()`` is ``(a 2^26 + b) / 2^53`` with ``a = w_1 >> 5`` and
    ``b = w_2 >> 6`` from two 32-bit words (``random_random``), so each value is
    the 53-bit integer ``(a << 26) + b``, and ``x / 2^53`` is ``random()`` exactly.
    """

    def __init__(self, seed: int | None = None, name: str = "python-random", float53: bool = False):
        self.random = random.Random(seed)
        self.seed, self.name, self.float53 = seed, name, float53
        self.low, self.high = 0, self.word_high(float53)
        super().__init__()

    @staticmethod
    def word_high(float53: bool = False) -> int:
        """Largest value served: a 32-bit word, or ``random() * 2^53``."""
        return 2 ** (53 if float53 else 32) - 1

    def _generate(self, size: int) -> np.ndarray:
        if size == 0:
            return np.empty(0, dtype=np.uint64)
        words = 2 * size if self.float53 else size
        data = self.random.getrandbits(32 * words).to_bytes(4 * words, "little")
        values = np.frombuffer(data, dtype="<u4").astype(np.uint64)
        if not self.float53:
            return values
        return ((values[0::2] >> np.uint64(5)) << np.uint64(26)) + (values[1::2] >> np.uint64(6))

    @property
    def state(self) -> dict[str, Any]:
        return {"generator": self.name, "random_state": self.random.getstate(),
                "pending": [int(v) for v in self._pending]}

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        check_state_tag(value, self.name)
        self.random.setstate(value["random_state"])
        self._pending = np.asarray(value.get("pending", []), dtype=np.uint64)


class OSEntropySource(Source):
    """The operating system's entropy source (``os.urandom``) as 64-bit words.

    Not reproducible by design: it has no seed and its state cannot be saved.
    """

    low, high = 0, 2**64 - 1
    replayable = False

    def __init__(self, name: str = "os"):
        self.name = name
        super().__init__()

    def _generate(self, size: int) -> np.ndarray:
        return np.frombuffer(os.urandom(8 * size), dtype="<u8").astype(np.uint64)

    @property
    def state(self) -> dict[str, Any]:
        return {"generator": self.name, "reproducible": False}


class CallableSource(Source):
    """Any callable that returns integers in a declared range ``[low, high]``.

    Parameters
    ----------
    function : callable
        ``function()`` returns one integer, or, with ``vectorized=True``,
        ``function(size)`` returns ``size`` integers.
    low, high : int
        Declared inclusive output range; values outside it raise ``ValueError``.
    name : str
    vectorized : bool
    """

    def __init__(self, function: Callable, low: int, high: int, name: str = "callable",
                 vectorized: bool = False):
        if not callable(function):
            raise TypeError("function must be callable")
        if not low < high:
            raise ValueError(f"the declared range needs low < high; got [{low}, {high}]")
        self.function, self.low, self.high = function, int(low), int(high)
        self.name, self.vectorized = name, vectorized
        super().__init__()

    def _generate(self, size: int) -> np.ndarray:
        values = self.function(size) if self.vectorized else [self.function() for _ in range(size)]
        out = np.asarray(values, dtype=raw_dtype(self.high))
        if len(out) != size:
            raise ValueError(f"{self.name} returned {len(out)} values; {size} were asked for")
        if size and (out.min() < self.low or out.max() > self.high):
            raise ValueError(f"{self.name} returned a value outside its declared range [{self.low}, {self.high}]")
        return out

    @property
    def state(self) -> dict[str, Any]:
        return {"generator": self.name, "reproducible": False}


def ideal_source(range_size: int, seed: int, low: int = 0) -> CallableSource:
    """An ideal source of resolution ``R``: independent uniform integers in ``[low, low + R)``.

    Drawn with numpy's ``Generator.integers`` on PCG64 (Lemire's unbiased
    bounded draws), so for any ``R <= 2^64`` -- a power of two or not -- the
    outputs are, to the best of anyone's knowledge, i.i.d. discrete uniform.
    This is the null hypothesis of every empirical test at that resolution:
    what a test fails on such a source is the test's artefact (the
    calibration of ``bench/bench_calibration.py`` feeds it to every test).

    Parameters
    ----------
    range_size : int
        ``R``, ``2 <= R <= 2^64``.
    seed : int
        Seed of numpy's ``default_rng``.
    low : int
        Smallest output.
    """
    if not 2 <= range_size <= 2**64:
        raise ValueError(f"the range size must be in [2, 2^64]; got {range_size}")
    generator = np.random.default_rng(seed)
    offset = np.uint64(low)

    def draw(size: int) -> np.ndarray:
        return generator.integers(0, range_size, size, dtype=np.uint64) + offset

    source = CallableSource(draw, low, low + range_size - 1, name=f"ideal:R={range_size}", vectorized=True)
    source.seed = seed
    return source
