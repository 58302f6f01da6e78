"""The Mersenne Twisters' seeding undone: a seed from the words after the first twist (MT19937 and MT19937-64).

``init_genrand`` fills the words with ``mt[0] = s``,
``mt[i] = f (mt[i-1] ^ mt[i-1] >> (w - 2)) + i`` (``f`` odd); the first output
twists them. The twist renews word ``k`` as ``src ^ T(old[k]_upper | old[k+1]_lower)``,
``src`` being ``old[k + m]`` for ``k < n - m`` and the renewed ``words[k - (n - m)]``
after, with ``T(y) = (y >> 1) ^ (A if y odd)``; the top bit of ``A`` is set, so the
top bit of ``T(y)`` says whether ``y`` was odd and ``T`` is inverted. Renewed words
``k`` and ``k - (n - m)`` give ``y_k`` for ``k >= n - m``, hence the old words above
``n - m``; they give ``y_1``, ``y_2`` and so old word 2, without reading renewed word 0
(whose low bits a recovery may not know). Two steps of ``init_genrand`` undone give
the seed: ``x ^ x >> (w - 2)`` is its own inverse and ``f`` has an inverse modulo ``2^w``.

References
----------
M. Matsumoto and T. Nishimura, "Mersenne twister", ACM TOMACS 8(1), 1998 (``mt19937ar.c``, ``init_genrand``);
T. Nishimura, "Tables of 64-bit Mersenne twisters", ACM TOMACS 10(4), 2000 (``mt19937-64.c``, ``init_genrand64``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Twister:
    """A Mersenne Twister's shape: ``n`` words of ``width`` bits, offset ``m``, twist matrix ``A``, the upper
    mask, and ``init_genrand``'s multiplier ``f``."""

    name: str
    words: int
    offset: int
    matrix_a: int
    upper: int
    width: int
    multiplier: int

    @property
    def mask(self) -> int:
        return 2**self.width - 1

    @property
    def lower(self) -> int:
        return self.mask ^ self.upper


MT19937 = Twister("mt19937", 624, 397, 0x9908B0DF, 0x80000000, 32, 1812433253)
MT19937_64 = Twister("mt19937_64", 312, 156, 0xB5026F5AA96619E9, 0xFFFFFFFF80000000, 64, 6364136223846793005)


def init_genrand(seed: int, twister: Twister = MT19937) -> list[int]:
    """The words after ``init_genrand(seed)``: ``mt[i] = f (mt[i-1] ^ mt[i-1] >> (w - 2)) + i``."""
    words, shift = [seed], twister.width - 2
    for i in range(1, twister.words):
        words.append((twister.multiplier * (words[-1] ^ (words[-1] >> shift)) + i) & twister.mask)
    return words


def _untwisted(value: int, twister: Twister) -> int:
    """``y`` from ``T(y) = (y >> 1) ^ (A if y odd)``: the top bit of ``T(y)`` says whether ``y`` was odd."""
    odd = value >> (twister.width - 1)
    return (((value ^ (twister.matrix_a * odd)) << 1) | odd) & twister.mask


def word_before_twist(words: Sequence[int], i: int, twister: Twister = MT19937) -> int:
    """Word ``i`` (``2 <= i < n - m``) before the twist that gave ``words``, without reading ``words[0]``."""
    late = twister.words - twister.offset

    def mixed_late(k: int) -> int:
        return _untwisted(words[k] ^ words[k - late], twister)

    def old_late(k: int) -> int:
        return (mixed_late(k) & twister.upper) | (mixed_late(k - 1) & twister.lower)

    def mixed_early(k: int) -> int:
        return _untwisted(words[k] ^ old_late(k + twister.offset), twister)
    return (mixed_early(i) & twister.upper) | (mixed_early(i - 1) & twister.lower)


def seed_candidate(words: Sequence[int], twister: Twister = MT19937) -> int:
    """The only seed whose first twist can have given ``words`` (word 2 before it, two seeding steps undone); the
    caller checks it by seeding."""
    seed, shift, inverse = word_before_twist(words, 2, twister), twister.width - 2, pow(twister.multiplier, -1,
                                                                                         2**twister.width)
    for i in (2, 1):
        mixed = ((seed - i) * inverse) & twister.mask
        seed = mixed ^ (mixed >> shift)
    return seed
