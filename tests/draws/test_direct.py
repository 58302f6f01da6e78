"""Bounded draws straight from a numpy BitGenerator (rnglab.draws.direct): numpy's ``Generator.integers``,
values and state, for Lemire's method on 32-bit words (``n <= 2^32``) and on whole 64-bit outputs."""

import numpy as np
import pytest

from rnglab.draws.bounded import STUCK_REJECTIONS
from rnglab.draws.direct import draw_direct
from rnglab.reduction.reducers import REDUCERS

LEMIRE = REDUCERS["lemire"]


@pytest.mark.parametrize("n", [52, 6, 2**31 + 7, 2**32])
def test_narrow_lemire_is_numpy_integers(n):
    bit_generator = np.random.PCG64(11)
    out = np.zeros(40, dtype=np.uint64)
    kept, _, streak, spare = draw_direct(LEMIRE, bit_generator, 2**32, n, out, (0, 40), (0, STUCK_REJECTIONS),
                                         (True, None))
    reference = np.random.Generator(np.random.PCG64(11))
    assert kept == 40 and streak == 0 and out.tolist() == reference.integers(0, n, size=40).tolist()
    # numpy keeps the unused high half; so does the draw, and both continue alike
    assert (spare is not None) == reference.bit_generator.state["has_uint32"]
    if spare is not None:
        assert spare == reference.bit_generator.state["uinteger"]
    assert bit_generator.random_raw() == reference.bit_generator.random_raw()


@pytest.mark.parametrize("n", [2**32 + 1, 2**40 + 3, 2**63 + 5])
def test_wide_lemire_is_numpy_integers(n):
    bit_generator = np.random.PCG64(5)
    out = np.zeros(20, dtype=np.uint64)
    kept, used, _, _ = draw_direct(LEMIRE, bit_generator, 2**64, n, out, (0, 20), (0, STUCK_REJECTIONS),
                                   (False, None))
    reference = np.random.Generator(np.random.PCG64(5)).integers(0, n, size=20, dtype=np.uint64)
    assert kept == 20 and used >= 20 and out.tolist() == reference.tolist()
