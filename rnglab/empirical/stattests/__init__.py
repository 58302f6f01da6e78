"""Empirical tests of any source, one family per module, registered by name in ``TESTS``.

Import this package to register every test.
"""

from . import birthday, collision, correlation, fourier, frequency, gcd, hamming, knuth, linear, matrix_rank, runs  # noqa: F401
from .base import TESTS, EmpiricalResult, chi_square, get_test, register

__all__ = ["TESTS", "EmpiricalResult", "chi_square", "get_test", "register"]
