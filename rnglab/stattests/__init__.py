"""Empirical tests of any source, one family per module, registered by name in ``TESTS``.

Import this package to register every test.
"""

from .base import TESTS, EmpiricalResult, chi_square, get_test, register
from . import birthday, collision, fourier, hamming, matrix_rank  # noqa: F401  (Marsaglia, TestU01, NIST)
from . import correlation, frequency, knuth, runs  # noqa: F401  (Knuth, TAOCP vol. 2, 3.3.2)

__all__ = ["TESTS", "EmpiricalResult", "chi_square", "get_test", "register"]
