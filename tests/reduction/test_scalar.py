"""The scalar reduce of compiled loops (rnglab.reduction.scalar): one draw at a time, the same value and
acceptance as the registry's vectorised map (rnglab.reduction.reducers), at the edges of each rule.

Lemire (ACM TOMACS 29(1), 2019, Algorithm 5) keeps ``m = x n`` when ``m mod R >= R mod n``; worked by hand for
``R = 2^32, n = 3``: ``R mod 3 = 1``, so only ``x = 0`` (``m = 0``) is rejected among the first words.
"""

import numpy as np
import pytest

from rnglab.reduction.reducers import REDUCERS
from rnglab.reduction.scalar import BITMASK, JAVA_NEXTINT, LEMIRE, reduce_one


def parameter(code: int, n: int, bits: int) -> int:
    """What each method precomputes once per bound (the module's table)."""
    if code == LEMIRE:
        return 2**bits % n
    if code == BITMASK:
        return (1 << (n - 1).bit_length()) - 1
    return 0 if n & (n - 1) == 0 else 2**31 - 2**31 % n


def words(n: int, bits: int) -> list[int]:
    top = 2**bits
    edges = {0, 1, 2, n - 1, n, top // 2, top - 1, top - 2, top - top % n - 1, top - top % n,
             (top // n) * 3, 123_456_789, (top - 1) // 3}
    return sorted(x for x in edges if x < top)


@pytest.mark.parametrize("name, code, bits", [("lemire", LEMIRE, 32), ("lemire", LEMIRE, 64),
                                              ("bitmask", BITMASK, 32), ("bitmask", BITMASK, 64),
                                              ("java-nextint", JAVA_NEXTINT, 32)])
@pytest.mark.parametrize("n", [3, 52, 64, 2**31 + 1, 1000003])
def test_one_draw_equals_the_vectorised_map(name, code, bits, n):
    if code == JAVA_NEXTINT and n >= 2**31:
        pytest.skip("nextInt takes a positive Java int")
    xs = words(n, bits)
    values, accepted = REDUCERS[name].map(np.array(xs, dtype=np.uint64), n, 2**bits)
    for x, value, keep in zip(xs, values.tolist(), accepted.tolist()):
        got, got_keep = reduce_one(code, np.uint64(x), np.uint64(n), bits, np.uint64(parameter(code, n, bits)))
        assert bool(got_keep) is bool(keep), (x, n)
        if keep:
            assert int(got) == value, (x, n)


def test_lemire_by_hand():
    threshold = 2**32 % 3
    assert [bool(reduce_one(LEMIRE, np.uint64(x), np.uint64(3), 32, np.uint64(threshold))[1]) for x in range(4)] == \
        [False, True, True, True]
    assert int(reduce_one(LEMIRE, np.uint64(2**32 - 1), np.uint64(3), 32, np.uint64(threshold))[0]) == 2
    # 3 x = 2^33 + 1: the low word equals the threshold, which is kept (>=), value 2
    value, kept = reduce_one(LEMIRE, np.uint64(2_863_311_531), np.uint64(3), 32, np.uint64(threshold))
    assert (int(value), bool(kept)) == (2, True)
