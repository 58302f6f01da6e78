"""glibc's ``rand()``: the additive feedback generator of ``random_r`` (TYPE_3), not an LCG.

With its default 128-byte state, glibc's ``random()`` (and ``rand()``, which
calls it) keeps 34 words and computes

.. math::

    r_i = 16807\\, r_{i-1} \\bmod (2^{31} - 1) \\quad (1 \\le i \\le 30), \\qquad r_0 = s,

    r_i = r_{i-31} \\quad (31 \\le i \\le 33), \\qquad
    r_i = (r_{i-3} + r_{i-31}) \\bmod 2^{32} \\quad (i \\ge 34),

and returns :math:`o_k = r_{k+344} \\gg 1`: ``srandom(s)`` throws the first 310
values of the feedback away. The seed is a C ``unsigned int`` taken as a signed
``int32_t`` (so seeds from 2^31 up are negative in the first recurrence, which
C's truncating division handles), and ``srandom(0)`` acts as ``srandom(1)``.
``srand(1)`` gives 1804289383, 846930886, 1681692777, 1714636915, ...

It is not linear congruential: period, spectral test and lattice recovery do
not apply. Its period is about ``16 (2^31 - 1)`` (glibc's comment).

References
----------
glibc ``stdlib/random_r.c`` (``__srandom_r``, ``__random_r``, TYPE_3: degree 31, separation 3).
P. Selinger, "The GLIBC random number generator", 2007 (the recurrence above).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rnglab.core.compiled import njit
from rnglab.generators.adapters import check_state_tag
from rnglab.generators.base import LaneBatch, Source

#: Degree and separation of the TYPE_3 trinomial x^31 + x^3 + 1.
DEGREE, SEPARATION = 31, 3
#: Values of the feedback discarded by ``srandom`` (10 * degree).
DISCARDED = 10 * DEGREE
#: Seeds ``srand`` takes: a C ``unsigned int``.
SEED_HIGH = 2**32 - 1


def initial_words(seed: int) -> list[int]:
    """``r_0 .. r_30`` for ``srand(seed)``, computed as glibc computes them (Schrage, signed 32-bit).

    ``word = 16807 * lo - 2836 * hi`` with ``hi, lo`` the truncated quotient and
    remainder of ``word / 127773``, plus ``2^31 - 1`` when negative: exact
    ``16807 word mod (2^31 - 1)`` without overflow (Park and Miller 1988).
    """
    word = seed if seed else 1
    word = word - 2**32 if word >= 2**31 else word  # int32_t word = seed
    words = [word]
    for _ in range(DEGREE - 1):
        hi, lo = int(word / 127773), word - 127773 * int(word / 127773)  # C truncates towards zero
        word = 16807 * lo - 2836 * hi
        word += 2147483647 if word < 0 else 0
        words.append(word)
    return [w % 2**32 for w in words]


def initial_rings(seeds) -> np.ndarray:
    """:func:`initial_words` for many seeds at once: shape ``(len(seeds), 31)``, uint32 (vectorised Schrage)."""
    word = np.asarray(seeds, dtype=np.int64)
    word = np.where(word == 0, 1, word)
    word = np.where(word >= 2**31, word - 2**32, word)  # int32_t word = seed
    rings = np.empty((len(word), DEGREE), dtype=np.int64)
    rings[:, 0] = word
    for i in range(1, DEGREE):
        hi = np.sign(word) * (np.abs(word) // 127773)  # C's quotient truncates towards zero
        word = 16807 * (word - 127773 * hi) - 2836 * hi
        word = np.where(word < 0, word + 2147483647, word)
        rings[:, i] = word
    return (rings % 2**32).astype(np.uint32)


@njit(cache=True, nogil=True)
def fill_additive(ring, position, out):  # pragma: no cover - compiled
    """Write ``out[k] = r >> 1`` for the next values ``r = ring[p + 28] + ring[p]`` (uint32 ring of 31).

    Returns the new position of the oldest word.
    """
    for k in range(out.size):
        value = np.uint32(ring[(position + DEGREE - SEPARATION) % DEGREE] + ring[position])  # modulo 2^32
        ring[position] = value
        out[k] = value >> np.uint32(1)
        position = (position + 1) % DEGREE
    return position


class GlibcRandom(Source):
    """glibc ``rand()`` after ``srand(seed)``: outputs in ``[0, 2^31 - 1]`` (RAND_MAX 2147483647).

    Parameters
    ----------
    seed : int, optional
        The ``unsigned int`` given to ``srand`` (default 1: a program that never calls ``srand``).
    name : str, optional
    """

    low, high = 0, 2**31 - 1

    def __init__(self, seed: int = 1, name: str = "glibc"):
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be an integer; got {type(seed).__name__}")
        if not 0 <= seed <= SEED_HIGH:
            raise ValueError(f"seed must be in [0, 2^32 - 1] (srand takes an unsigned int); got {seed}")
        self.seed, self.name = int(seed), name
        words = initial_words(self.seed)
        self._ring = np.array(words, dtype=np.uint32)  # r_0 .. r_30
        self._position = SEPARATION  # r_31 .. r_33 are r_0 .. r_2: the ring already holds them
        super().__init__()
        self._generate(DISCARDED)

    def _generate(self, size: int) -> np.ndarray:
        out = np.empty(size, dtype=np.uint32)
        self._position = fill_additive(self._ring, self._position, out)
        return out.astype(np.uint64)

    @property
    def state(self) -> dict[str, Any]:
        order = np.roll(self._ring, -self._position)
        return {"generator": self.name, "words": [int(v) for v in order], "pending": [int(v) for v in self._pending]}

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        check_state_tag(value, self.name)
        words = value["words"]
        if len(words) != DEGREE or not all(0 <= int(w) < 2**32 for w in words):
            raise ValueError(f"a glibc state is {DEGREE} words in [0, 2^32)")
        self._ring, self._position = np.array(words, dtype=np.uint32), 0
        self._pending = np.asarray(value.get("pending", []), dtype=np.uint64)


class GlibcBatch(LaneBatch):
    """Many glibc ``rand()`` generators, one per seed (a lane), stepped together or lane by lane.

    The batch counterpart of :class:`GlibcRandom` for the seed search: lane ``i``
    yields exactly what ``GlibcRandom(seeds[i])`` yields (tested). Each lane keeps
    its own ring position, so lanes can consume different numbers of values.

    Parameters
    ----------
    seeds : array of int
        ``srand`` seeds in ``[0, 2^32 - 1]``.
    name : str, optional
    """

    low, high = 0, 2**31 - 1

    def __init__(self, seeds, name: str = "glibc"):
        seeds = np.asarray(seeds)
        if len(seeds) and (int(seeds.min()) < 0 or int(seeds.max()) > SEED_HIGH):
            raise ValueError("seeds must be in [0, 2^32 - 1] (srand takes an unsigned int)")
        self.name, self.rings = name, initial_rings(seeds)
        self.lanes = len(seeds)
        self.positions = np.full(self.lanes, SEPARATION, dtype=np.int64)
        self.outputs = np.zeros(self.lanes, dtype=np.uint64)
        for _ in range(DISCARDED):
            self.next_raw()

    def next_raw(self, mask: np.ndarray | None = None) -> np.ndarray:
        """Step the lanes selected by ``mask`` (all by default); return every lane's latest output (a copy)."""
        lanes = self.selected_lanes(mask)
        oldest = self.positions[lanes]
        value = self.rings[lanes, (oldest + DEGREE - SEPARATION) % DEGREE] + self.rings[lanes, oldest]  # mod 2^32
        self.rings[lanes, oldest] = value
        self.positions[lanes] = (oldest + 1) % DEGREE
        self.outputs[lanes] = value >> np.uint32(1)
        return self.outputs.copy()
