"""Each reducer's one-draw map (rnglab.reduction.scalar) equals its vectorised map, value and acceptance.

The maps run here as plain Python on numpy uint64 scalars (as numba's CUDA simulator runs them); the
compiled paths that call them are tested against the vectorised maps in tests/draws/test_reduce.py,
tests/shuffles/test_algorithms.py and tests/recovery/test_crack.py. Ranges: powers of two, and the
moduli of MINSTD (2^31 - 2) and of a small odd range, where bitmask's incomplete top block and
lemire's division matter.
"""

import numpy as np
import pytest

from rnglab.reduction.reducers import REDUCERS
from rnglab.reduction.scalar import span

RANGES = [7, 2**15, 2**31 - 2, 2**32, 2**64]


def cases(range_size, rng):
    """Bounds and offsets: the edges, and random ones."""
    randoms = [int(v) % range_size for v in rng.integers(0, 2**64 - 1, 46, dtype=np.uint64, endpoint=True)]
    bounds = {1, 2, 3, 52, range_size - 1, range_size, range_size // 2 + 1, *(v + 1 for v in randoms[:6])}
    offsets = {0, 1, range_size - 1, range_size - 2, *randoms[6:]}
    return sorted(n for n in bounds if 1 <= n <= min(range_size, 2**64 - 1)), sorted(x for x in offsets if 0 <= x < range_size)


def serves(reducer, n, range_size):
    try:
        reducer.check(n, range_size)
    except ValueError:
        return False
    return reducer.scalar.serves(range_size)


@pytest.mark.parametrize("name", [name for name, entry in REDUCERS.items() if entry.scalar is not None])
@pytest.mark.parametrize("range_size", RANGES)
def test_the_one_draw_map_equals_the_vectorised_map(name, range_size):
    reducer, rng = REDUCERS[name], np.random.default_rng(11)
    bounds, offsets = cases(range_size, rng)
    size, bits = span(range_size)
    checked = 0
    for n in (b for b in bounds if serves(reducer, b, range_size)):
        values, accepted = reducer.map(np.array(offsets, dtype=np.uint64), n, range_size)
        parameter = np.uint64(reducer.scalar.parameter(n, range_size))
        with np.errstate(over="ignore"):
            ours = [reducer.scalar.reduce(np.uint64(x), np.uint64(n), parameter, size, bits) for x in offsets]
        assert [int(v) for v, keep in ours if keep] == [int(v) for v in values[accepted]], n
        assert [bool(keep) for _, keep in ours] == accepted.tolist(), n
        checked += 1
    if not checked:
        pytest.skip(f"{name} serves no bound on R = {range_size} (its domain, or a map exact up to 2^32 only)")
