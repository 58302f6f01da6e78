"""The population count of a 64-bit word, compiled: shared by the Hamming-weight and BCFN tests' kernels.

A module of its own, registering no test, so that importing it does not change the order in which the tests
register (the order ``rnglab test --help`` lists them in).
"""

from __future__ import annotations

import numpy as np

from rnglab.core.compiled import njit

#: Masks of the SWAR population count (bit pairs, nibbles, bytes) and the byte-summing multiplier.
PAIRS, NIBBLES, BYTES, BYTE_SUM = (np.uint64(0x5555555555555555), np.uint64(0x3333333333333333),
                                   np.uint64(0x0F0F0F0F0F0F0F0F), np.uint64(0x0101010101010101))


@njit(cache=True, nogil=True)
def popcount(word):  # pragma: no cover - compiled
    """The number of ones of a uint64: the classical SWAR population count (sums of bit pairs, nibbles, then
    bytes), which LLVM compiles to the processor's ``popcnt``."""
    one, two, four, top = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)
    word -= (word >> one) & PAIRS
    word = (word & NIBBLES) + ((word >> two) & NIBBLES)
    word = (word + (word >> four)) & BYTES
    return (word * BYTE_SUM) >> top
