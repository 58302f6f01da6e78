"""Adapters (rnglab.generators.adapters): other generators as rnglab sources, reading what they really give.

Known answers: MT19937 from ``init_genrand(5489)`` (std::mt19937's default seed) first returns 3499211612, and its
10000th output is 4123659995 (the C++ standard's check, [rand.predef]); CPython's ``random.Random(42)``
and numpy's PCG64 are their own references.
"""

import random

import numpy as np
import pytest

from rnglab.generators.adapters import (
    CallableSource,
    NumpySource,
    PythonRandomSource,
    ideal_source,
    mt19937_init_genrand,
)


def test_init_genrand_is_std_mt19937():
    words = mt19937_init_genrand(5489).random_raw(10_000)
    assert int(words[0]) == 3499211612 and int(words[-1]) == 4123659995
    with pytest.raises(ValueError, match=r"\[0, 2\^32 - 1\] for MT19937"):
        mt19937_init_genrand(2**32)


def test_numpy_outputs_are_the_bit_generator_s():
    source = NumpySource(np.random.PCG64(9))
    assert source.random_raw(4).tolist() == np.random.PCG64(9).random_raw(4).tolist()
    assert (source.low, source.high) == (0, 2**64 - 1)


def test_python_random_outputs_are_getrandbits_32():
    source = PythonRandomSource(42)
    reference = random.Random(42)
    assert source.random_raw(5).tolist() == [reference.getrandbits(32) for _ in range(5)]


def test_a_callable_declares_its_range():
    source = CallableSource(lambda size: np.arange(size, dtype=np.uint64) % 7, 0, 6, vectorized=True)
    assert source.random_raw(9).tolist() == [0, 1, 2, 3, 4, 5, 6, 0, 1] and (source.low, source.high) == (0, 6)
    ideal = ideal_source(10, seed=3)
    values = ideal.random_raw(1000)
    assert (ideal.low, ideal.high) == (0, 9) and values.min() >= 0 and values.max() <= 9
    assert values.tolist() == np.random.Generator(np.random.PCG64(3)).integers(0, 10, size=1000).tolist()
    with pytest.raises(ValueError, match="outside its declared range"):
        CallableSource(lambda: 7, 0, 6).random_raw(1)
