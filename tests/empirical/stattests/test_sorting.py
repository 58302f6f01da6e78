"""The radix sort of the spacing and collision tests: numpy's sort, in place, for every width of key."""

import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rnglab.empirical.stattests.sorting import SCRATCH_LOCK, SPLIT_SIZE, radix_sort


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(st.sampled_from([np.uint64, np.uint32, np.uint16, np.uint8]), st.integers(0, 3000)))
def test_radix_sort_equals_numpy_s_sort_in_place(values):
    expected = np.sort(values)
    assert radix_sort(values) is values and np.array_equal(values, expected)


@pytest.mark.parametrize("values", [
    np.array([], dtype=np.uint64), np.array([7], dtype=np.uint64), np.zeros(100, dtype=np.uint64),
    np.array([2**64 - 1, 0, 2**63, 1], dtype=np.uint64), np.array([2**32 - 1, 5, 2**31], dtype=np.uint32),
    np.random.default_rng(3).integers(0, 2**60, 2**17, dtype=np.uint64),  # six passes of 11 bits
    np.random.default_rng(3).integers(0, 2**33, 2**17, dtype=np.uint64),  # three: the result is in the scratch
])
def test_radix_sort_edges_and_pass_counts(values):
    assert radix_sort(values.copy()).tolist() == sorted(values.tolist())


def _split_cases():
    rng = np.random.default_rng(7)
    size = SPLIT_SIZE + 12345
    # the top digit of 60 bits drawn from a geometric law: most parts are large, the far ones hold a few values
    skewed = (rng.geometric(0.01, size).astype(np.uint64) % 2048) << np.uint64(49) | rng.integers(0, 2**49, size,
                                                                                                    dtype=np.uint64)
    return [rng.integers(0, 2**bits, size, dtype=np.uint64) for bits in (12, 21, 31, 42, 60, 64)] + [
        rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32), skewed,
        np.zeros(size, dtype=np.uint64) + np.uint64(2**40)]


@pytest.mark.parametrize("values", _split_cases(), ids=["12 bits: 1 pass a part", "21: 1", "31: 2, copied back",
                                                        "42: 4", "60: 5", "64: 6", "32 in uint32", "skewed parts",
                                                        "all equal"])
def test_the_split_into_parts_sorts_as_numpy(values):
    """From SPLIT_SIZE values on, one pass on the top digit and each part sorted apart (by digits, odd and even
    counts of passes, or by insertion): the same order as numpy's sort, in the same array."""
    expected = np.sort(values)
    assert radix_sort(values) is values and np.array_equal(values, expected)


def test_radix_sort_refuses_what_is_not_unsigned():
    with pytest.raises(TypeError, match="unsigned"):
        radix_sort(np.array([3, -1]))


def test_a_sort_waits_for_the_scratch_another_sort_holds():
    """Sorts in threads side by side (a run until it fails sorts its birthday-spacings and collision samples at
    once) hold one scratch array, as large as the values, at a time: a sort waits while another holds it."""
    values = np.random.default_rng(5).integers(0, 2**60, SPLIT_SIZE, dtype=np.uint64)
    expected = np.sort(values)
    sorter = threading.Thread(target=radix_sort, args=(values,))
    with SCRATCH_LOCK:
        sorter.start()
        sorter.join(timeout=0.5)
        assert sorter.is_alive() and not np.array_equal(values, expected)
    sorter.join()
    assert np.array_equal(values, expected)
