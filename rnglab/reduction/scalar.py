"""One draw at a time: the compiled map of the reducers that compiled loops serve, value and acceptance.

The vectorised maps (:mod:`rnglab.reduction.maps`) map arrays; these map one uint64 draw inside a compiled
loop (:mod:`rnglab.draws.compact`, :mod:`rnglab.draws.direct`) and return ``(value, accepted)``.

Codes (a reducer's :attr:`~rnglab.reduction.reducers.Reducer.compact_code`):

=====  ================  ==========================================================
0      ``lemire``        ``m = x n``; keep ``m mod R >= R mod n``; value ``m div R``
1      ``bitmask``       ``v = x & (2^ceil(log2 n) - 1)``; keep ``v < n``
2      ``java-nextint``  ``r = x >> 1``; ``(n r) >> 31`` for a power of two ``n``, else ``r mod n``,
                         kept for ``r < 2^31 - (2^31 mod n)`` (``R = 2^32`` only)
=====  ================  ==========================================================
"""

from __future__ import annotations

import numpy as np

from rnglab.core.compiled import njit
from rnglab.reduction.maps import multiply_128

LEMIRE, BITMASK, JAVA_NEXTINT = 0, 1, 2


@njit(cache=True, nogil=True, inline="always")
def lemire_32(x, n, threshold):  # pragma: no cover - compiled
    """``lemire`` on ``R = 2^32``: ``(m div 2^32, m mod 2^32 >= threshold)`` for ``m = x n`` (below 2^64)."""
    product = x * n
    return product >> np.uint64(32), (product & np.uint64(0xFFFFFFFF)) >= threshold


@njit(cache=True, nogil=True, inline="always")
def lemire_64(x, n, threshold):  # pragma: no cover - compiled
    """``lemire`` on ``R = 2^64``: the 128-bit product's high word, kept when its low word is ``>= threshold``."""
    high, low = multiply_128(x, n)
    return high, low >= threshold


@njit(cache=True, nogil=True, inline="always")
def bitmask_one(x, n, mask):  # pragma: no cover - compiled
    """``bitmask``: ``x & mask``, kept below ``n``."""
    value = x & mask
    return value, value < n


@njit(cache=True, nogil=True, inline="always")
def java_nextint_one(x, n, limit):  # pragma: no cover - compiled
    """``java-nextint`` on ``next(32)`` words: ``limit`` 0 for a power-of-two ``n``, else ``2^31 - (2^31 mod n)``."""
    r = x >> np.uint64(1)
    if limit == 0:
        return (r * n) >> np.uint64(31), True
    return r % n, r < limit


@njit(cache=True, nogil=True, inline="always")
def reduce_one(code, x, n, bits, parameter):  # pragma: no cover - compiled
    """``(value, accepted)`` for one draw ``x`` by the method ``code`` (see the module's table)."""
    if code == LEMIRE:
        return lemire_64(x, n, parameter) if bits == 64 else lemire_32(x, n, parameter)
    if code == BITMASK:
        return bitmask_one(x, n, parameter)
    return java_nextint_one(x, n, parameter)
