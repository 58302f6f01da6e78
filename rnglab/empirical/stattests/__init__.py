"""Empirical tests of any source, one family per module, registered by name in ``TESTS``.

Import this package to register every test.
"""

from . import birthday, collision, correlation, fourier, frequency, hamming, knuth, matrix_rank, runs  # noqa: F401  (Marsaglia, TestU01, NIST)  # noqa: F401  (Knuth, TAOCP vol. 2, 3.3.2)
from .base import TESTS, EmpiricalResult, ResolutionError, chi_square, get_test, register

__all__ = ["TESTS", "EmpiricalResult", "ResolutionError", "chi_square", "get_test", "register"]
