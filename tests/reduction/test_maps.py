"""The compiled arithmetic the reducers' maps share."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.reduction.maps import _power_of_two_kernel, multiply_128, split_scaled

WORDS = st.integers(0, 2**64 - 1) | st.sampled_from([0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1])


@settings(max_examples=300, deadline=None)
@given(WORDS, WORDS)
def test_multiply_128_equals_python_integers(x, y):
    high, low = multiply_128(np.uint64(x), np.uint64(y))
    assert (int(high), int(low)) == divmod(x * y, 2**64)


@settings(max_examples=200, deadline=None)
@given(bits=st.integers(1, 64), data=st.data())
def test_a_few_scaled_products_by_numpy_equal_the_kernel_and_python_integers(bits, data):
    # a process where no kernel has run forms its first products by numpy (shuffle pcg64 --seed 1 then
    # imports no numba): the same split_scaled on arrays, its uint64 arithmetic wrapping as the kernel's
    x = np.array(data.draw(st.lists(st.integers(0, 2**bits - 1), min_size=1, max_size=8)), dtype=np.uint64)
    n = np.array([data.draw(st.integers(1, 2**bits))], dtype=np.uint64) if bits < 64 else \
        np.array([data.draw(WORDS.filter(bool))], dtype=np.uint64)
    threshold = np.array([data.draw(st.integers(0, 2**bits - 1))], dtype=np.uint64)
    low_mask = np.uint64(2**bits - 1)
    quotient, remainder = split_scaled(x, n, np.uint64(bits), low_mask)
    compiled_quotient, keep = np.empty_like(x), np.empty(x.size, dtype=bool)
    _power_of_two_kernel(x, n, bits, threshold, compiled_quotient, keep)
    expected = [divmod(int(v) * int(n[0]), 2**bits) for v in x.tolist()]
    assert list(zip(quotient.tolist(), remainder.tolist())) == expected
    assert compiled_quotient.tolist() == quotient.tolist() and keep.tolist() == (remainder >= threshold).tolist()
