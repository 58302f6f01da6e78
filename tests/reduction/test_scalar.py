"""Each reducer's one-draw map (rnglab.reduction.scalar) equals its vectorised map, value and acceptance.

The maps run here as plain Python on numpy uint64 scalars (as numba's CUDA simulator runs them); the
compiled paths that call them are tested against the vectorised maps in tests/draws/test_reduce.py,
tests/shuffles/test_algorithms.py and tests/recovery/test_crack.py. Ranges: powers of two, and the
moduli of MINSTD (2^31 - 2) and of a small odd range, where bitmask's incomplete top block and
lemire's division matter.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rnglab.core.compiled import njit
from rnglab.reduction.reducers import REDUCERS
from rnglab.reduction.scalar import float_remainder, span

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


def served(reducer, range_size, seed):
    """``(n, offsets, parameter)`` for every bound of :func:`cases` the reducer serves on ``R``; skips when none."""
    bounds, offsets = cases(range_size, np.random.default_rng(seed))
    chosen = [(n, offsets, np.uint64(reducer.scalar.parameter(n, range_size)))
              for n in bounds if serves(reducer, n, range_size)]
    if not chosen:
        pytest.skip(f"{reducer.name} serves no bound on R = {range_size} (its domain, or a map exact up to 2^32 only)")
    return chosen


@pytest.mark.parametrize("name", [name for name, entry in REDUCERS.items() if entry.scalar is not None])
@pytest.mark.parametrize("range_size", RANGES)
def test_the_one_draw_map_equals_the_vectorised_map(name, range_size):
    reducer, (size, bits) = REDUCERS[name], span(range_size)
    for n, offsets, parameter in served(reducer, range_size, 11):
        values, accepted = reducer.map(np.array(offsets, dtype=np.uint64), n, range_size)
        with np.errstate(over="ignore"):
            ours = [reducer.scalar.reduce(np.uint64(x), np.uint64(n), parameter, size, bits) for x in offsets]
        assert [int(v) for v, keep in ours if keep] == [int(v) for v in values[accepted]], n
        assert [bool(keep) for _, keep in ours] == accepted.tolist(), n


# -- the lane forms (the seed search's lock step): equal to the one-draw map on R = 2^bits <= 2^32 --------------

LANE_RANGES = [2, 2**15, 2**31, 2**32]


@pytest.mark.parametrize("name", [name for name, entry in REDUCERS.items() if entry.scalar is not None])
@pytest.mark.parametrize("range_size", LANE_RANGES)
def test_the_lane_form_equals_the_one_draw_map(name, range_size):
    reducer, (size, bits) = REDUCERS[name], span(range_size)
    for n, offsets, parameter in served(reducer, range_size, 12):
        with np.errstate(over="ignore"):
            ours = [reducer.scalar.lanes(np.uint64(x), np.uint64(n), parameter, 1.0 / np.float64(n), bits)
                    for x in offsets]
            theirs = [reducer.scalar.reduce(np.uint64(x), np.uint64(n), parameter, size, bits) for x in offsets]
        assert [(int(v), bool(k)) for v, k in ours if k] == [(int(v), bool(k)) for v, k in theirs if k], n
        assert [bool(k) for _, k in ours] == [bool(k) for _, k in theirs], n


@given(n=st.integers(1, 2**32), quotient=st.integers(0, 2**32), step=st.integers(-2, 2))
def test_the_float_remainder_is_exact_next_to_every_multiple(n, quotient, step):
    # q n - 2 .. q n + 2: where floor(fl(x fl(1/n))) can be one off, before the correction
    x = quotient * n + step
    if 0 <= x < 2**32:
        assert int(float_remainder(np.uint64(x), np.uint64(n), 1.0 / np.float64(n))) == x % n


@njit()
def _remainders_disagree(first, stop, bounds):  # pragma: no cover - compiled
    """How many ``(x, n)``, ``first <= x < stop``, ``n`` in ``bounds``, where :func:`float_remainder` differs
    from ``%``."""
    wrong = 0
    for n in bounds:
        reciprocal = 1.0 / np.float64(n)
        for x in range(first, stop):
            wrong += float_remainder(np.uint64(x), n, reciprocal) != np.uint64(x) % n
    return wrong


@pytest.mark.parametrize("first, stop, bounds", [
    (0, 2**16, range(1, 65)),  # every offset of a 15- or 16-bit rand() for every deck-sized bound
    (0, 2**20, range(2**16 - 32, 2**16 + 33)),  # quotients up to 16
    (2**32 - 2**16, 2**32, range(1, 65)),  # the largest offsets
    (2**32 - 2**12, 2**32, range(2**31 - 32, 2**31 + 33)),  # quotient 1 beside 2, the largest bounds
])
def test_the_float_remainder_is_exact_on_every_offset_of_these_ranges(first, stop, bounds):
    assert _remainders_disagree(first, stop, np.array(bounds, dtype=np.uint64)) == 0


def lane_loop(lanes):
    """A compiled loop over lanes that calls the lane form ``lanes`` (inlined in numba's IR) at two places, as the
    lock step's free and judged steps do."""
    @njit()
    def loop(x, n, parameter, bits, out):  # pragma: no cover - compiled
        reciprocal = 1.0 / np.float64(n)
        for lane in range(x.size):
            value, accepted = lanes(x[lane], n, parameter, reciprocal, bits)
            out[lane] = value if accepted else n
        for lane in range(x.size):
            value, accepted = lanes(x[lane], n, parameter, reciprocal, bits)
            out[lane] += value if accepted else n
    return loop


@pytest.mark.parametrize("name", [name for name, entry in REDUCERS.items() if entry.scalar is not None])
def test_a_lane_form_compiles_into_a_loop_without_a_warning_from_numba(name):
    # java-nextint's lane form had a branch (a conditional expression, "or"): numba's SSA check warned
    # "variable 'java_nextint_lanes_..._vphi...' is not in scope" (NumbaIRAssumptionWarning) where it was inlined
    reducer, (size, bits), x = REDUCERS[name], span(2**32), np.arange(0, 2**32, 2**26, dtype=np.uint64)
    out = np.empty_like(x)
    parameter = np.uint64(reducer.scalar.parameter(52, 2**32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lane_loop(reducer.scalar.lanes)(x, np.uint64(52), parameter, bits, out)
    with np.errstate(over="ignore"):
        expected = [reducer.scalar.reduce(v, np.uint64(52), parameter, size, bits) for v in x]
    assert out.tolist() == [2 * (int(v) if keep else 52) for v, keep in expected]
