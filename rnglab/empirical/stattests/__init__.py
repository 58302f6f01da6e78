"""Empirical tests of any source, one family per module, registered by name in ``TESTS``.

Import this package to register every test.
"""

from rnglab.empirical.stattests import (  # noqa: F401 - importing a module registers its tests
    bcfn,
    birthday,
    collision,
    correlation,
    float_frequency,
    fourier,
    frequency,
    gap16,
    gcd,
    hamming,
    hamming_pairs,
    knuth,
    linear,
    matrix_rank,
    ones,
    random_walk,
    runs,
    weights,
)
from rnglab.empirical.stattests.base import TESTS, EmpiricalResult, ResolutionError, chi_square, get_test, register

__all__ = ["TESTS", "EmpiricalResult", "ResolutionError", "chi_square", "get_test", "register"]
