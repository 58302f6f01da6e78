"""Map and compact in one compiled pass (rnglab.draws.compact): numpy's ``Generator.integers`` for Lemire on
PCG64's 32-bit halves, and the registry's map (rnglab.reduction.reducers) for every code, draws counted."""

import numpy as np
import pytest

from rnglab.draws.bounded import STUCK_REJECTIONS
from rnglab.draws.compact import compact, compacts
from rnglab.draws.words import WordBlock
from rnglab.reduction.reducers import REDUCERS

LEMIRE, BITMASK, JAVA_NEXTINT = REDUCERS["lemire"], REDUCERS["bitmask"], REDUCERS["java-nextint"]


def test_narrow_lemire_is_numpy_integers():
    raw = np.random.PCG64(3).random_raw(64)
    out = np.zeros(50, dtype=np.uint64)
    kept, used, streak = compact(LEMIRE, WordBlock(raw, True), 52, 2**32, out, (0, 50), (0, STUCK_REJECTIONS))
    expected = np.random.Generator(np.random.PCG64(3)).integers(0, 52, size=50)
    assert (kept, streak) == (50, 0) and out.tolist() == expected.tolist() and 50 <= used <= 128


@pytest.mark.parametrize("name, bits", [("lemire", 64), ("bitmask", 32), ("bitmask", 64), ("java-nextint", 32)])
@pytest.mark.parametrize("n", [52, 1000, 2**31 - 1])
def test_values_and_draws_are_the_map_s(name, bits, n):
    raw = np.random.PCG64(n).random_raw(300) >> np.uint64(64 - bits)
    values, accepted = REDUCERS[name].map(raw, n, 2**bits)
    out = np.zeros(100, dtype=np.uint64)
    kept, used, _ = compact(REDUCERS[name], WordBlock(raw, False), n, 2**bits, out, (0, 100), (0, STUCK_REJECTIONS))
    assert kept == 100 and out.tolist() == values[accepted][:100].tolist()
    assert used == int(np.flatnonzero(accepted)[99]) + 1  # nothing read past the 100th kept value


def test_a_streak_of_rejections_stops_the_loop():
    raw = np.full(20, 60, dtype=np.uint64)  # bitmask 63 of n = 52: 60 is rejected every time
    out = np.zeros(5, dtype=np.uint64)
    assert compact(BITMASK, WordBlock(raw, False), 52, 2**32, out, (0, 5), (0, 7)) == (0, 7, 7)


def test_parameters_and_what_the_kernel_serves():
    assert LEMIRE.scalar.parameter(52, 2**32) == 2**32 % 52
    assert BITMASK.scalar.parameter(52, 2**32) == 63
    assert JAVA_NEXTINT.scalar.parameter(52, 2**32) == 2**31 - 2**31 % 52
    assert JAVA_NEXTINT.scalar.parameter(64, 2**32) == 0
    assert compacts(LEMIRE, np.dtype(np.uint64), 52, 2**64)
    assert not compacts(JAVA_NEXTINT, np.dtype(np.uint64), 52, 2**64)  # next(31) of 32-bit words only
    assert not compacts(LEMIRE, np.dtype(object), 52, 2**32)
