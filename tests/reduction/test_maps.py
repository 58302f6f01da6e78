"""The compiled arithmetic the reducers' maps share."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.reduction.maps import multiply_128

WORDS = st.integers(0, 2**64 - 1) | st.sampled_from([0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1])


@settings(max_examples=300, deadline=None)
@given(WORDS, WORDS)
def test_multiply_128_equals_python_integers(x, y):
    high, low = multiply_128(np.uint64(x), np.uint64(y))
    assert (int(high), int(low)) == divmod(x * y, 2**64)
