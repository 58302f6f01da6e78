"""The radix sort of the spacing and collision tests: numpy's sort, in place, for every width of key."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rnglab.empirical.stattests.sorting import radix_sort


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


def test_radix_sort_refuses_what_is_not_unsigned():
    with pytest.raises(TypeError, match="unsigned"):
        radix_sort(np.array([3, -1]))
