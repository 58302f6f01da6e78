"""The discrete Fourier transform test (NIST SP 800-22 rev. 1a, 2.6): NIST's example, the statistic against a DFT
summed term by term, the transform's length and memory, and the refusals.

The good-generator and bad-generator table (RANDU fails) is in test_marsaglia.py.
"""

import math
import subprocess
import sys

import numpy as np
import pytest
import scipy.fft
from empirical.stattests.test_marsaglia import fixed_source
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from rnglab.empirical.stattests import get_test
from rnglab.empirical.stattests.fourier import (
    BYTES_PER_BIT,
    MAX_BITS,
    count_below,
    fourier,
    fourier_statistic,
    transform_in_place,
    transform_length,
)
from rnglab.generators import make_source
from rnglab.streams.gateway import bits


def test_fourier_statistic_by_hand():
    # NIST SP 800-22 2.6.8's input 1001010011: moduli |f_0..f_4| = 0, 2, 4.47, 2, 4.47 are all below
    # T = sqrt(10 ln 20) = 5.47, so N1 = 5 and d = (5 - 4.75) / sqrt(10 0.95 0.05 / 4) = 0.7255.
    # (The document prints N1 = 4, which its own threshold does not give.)
    statistic, below, expected = fourier_statistic(np.array([1, 0, 0, 1, 0, 1, 0, 0, 1, 1], dtype=np.uint8))
    assert below == 5 and expected == 4.75 and statistic == pytest.approx(0.25 / math.sqrt(0.11875))


def test_fourier_of_a_pure_tone_fails():
    # bits 0101... : all the energy sits in one coefficient, so too many moduli fall below T
    result = fourier(fixed_source([0x55], 8), 4096)
    assert result.pvalue > 1 - 1e-10


def test_fourier_transforms_a_length_with_small_prime_factors():
    n = 2**7 * 17 * 61681 // 64  # 2^1 * 17 * 61681 = 2 097 154: prime factor 61 681
    length = transform_length(n)
    assert length == scipy.fft.prev_fast_len(n, real=True) == 2_097_152 and length <= n
    result = get_test("fourier")(make_source("pcg64", 5), n)
    assert result.details["transform_length"] == length
    assert result.statistic == fourier_statistic(bits(make_source("pcg64", 5), length))[0]
    assert get_test("fourier")(make_source("randu", 1), n).pvalue > 1 - 1e-10  # RANDU still fails (too few peaks)


def test_fourier_refuses_more_than_it_can_hold():
    with pytest.raises(ValueError, match=r"at most 2\^27 .* would need 1\.5 GB"):
        get_test("fourier")(make_source("randu", 1), 134_217_856)
    assert transform_length(MAX_BITS) == MAX_BITS


PEAK = """
import resource, sys
import scipy.fft
from rnglab.empirical.stattests import get_test
from rnglab.generators import make_source
source = make_source("pcg64", 1)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
get_test("fourier")(source, int(sys.argv[1]))
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024 / int(sys.argv[1]))
"""


def peak_per_bit(n: int) -> float:
    """Peak memory of the Fourier test at ``n`` bits, in bytes per bit, in a fresh interpreter (scipy.fft loaded)."""
    return float(subprocess.run([sys.executable, "-c", PEAK, str(n)], capture_output=True, text=True,
                                check=True).stdout)


def test_fourier_memory_is_bounded_for_a_length_with_a_large_prime_factor():
    # 2^23 + 9 = 8388617 is prime: Bluestein's algorithm needed about 160 bytes per bit, the 5-smooth length 33.
    assert peak_per_bit(2**23 + 9) < 40


@pytest.mark.parametrize("n, most", [(2**24, 6), (5**10, BYTES_PER_BIT)])
def test_fourier_memory_per_bit(n, most):
    # one residue class of the spectrum at a time: 4.8 bytes a bit measured at 2^24, sixteen classes (the real FFT
    # with its moduli array took 33); a power of 5 has five classes, 11 bytes a bit at 5^11
    assert peak_per_bit(n) < most


def plain_count(stream, bound):
    """N1 the direct way: the moduli of the first n/2 coefficients of the real FFT of the signs, below sqrt(bound)."""
    moduli = np.abs(scipy.fft.rfft(2.0 * stream - 1.0)[: len(stream) // 2])
    return int(np.count_nonzero(moduli < math.sqrt(bound)))


@pytest.mark.parametrize("n", [1000, 2**16, 2**4 * 3**3 * 5**2, 2 * 3**6 * 5**3, 3**7, 3**4 * 5**5, 5**7, 2**21 * 3,
                               1009, 2 * 509])
def test_count_below_equals_the_real_fft_count(n):
    # even lengths with odd factors, odd lengths (folds of 9, 15, 5), powers of two, a prime (no fold), twice a prime
    # (a fold of 2); at NIST's threshold and at the median's
    stream = bits(make_source("pcg64", n), n)
    for bound in (n * math.log(20), n * math.log(2)):
        assert count_below(stream, bound) == plain_count(stream, bound)


@pytest.mark.parametrize("n", [1, 2, 7, 12, 360, 1001, 2**10 * 3 * 5])
def test_transform_in_place_is_the_dft_in_four_step_order(n):
    values = np.random.default_rng(n).standard_normal(n) + 1j * np.random.default_rng(n + 1).standard_normal(n)
    expected = np.fft.fft(values)
    grid = transform_in_place(values)
    assert np.shares_memory(grid, values)
    rows = grid.shape[0]
    assert rows * grid.shape[1] == n and rows <= math.isqrt(n)
    np.testing.assert_allclose(grid.T.ravel(), expected, rtol=0, atol=1e-12 * n)


def dft_statistic(stream):
    """``(d, N1, N0)`` by the definition: ``|sum_k x_k e^(-2 pi i j k / n)|`` for ``j < n/2``, ``x = 2 e - 1``."""
    n = len(stream)
    signs = 2.0 * np.asarray(stream, dtype=np.float64) - 1.0
    k = np.arange(n)
    moduli = [abs(sum(signs * np.exp(-2j * math.pi * j * k / n))) for j in range(n // 2)]
    below = sum(modulus < math.sqrt(n * math.log(20)) for modulus in moduli)
    return (below - 0.95 * n / 2) / math.sqrt(n * 0.95 * 0.05 / 4), below, 0.95 * n / 2


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=2, max_size=64))
def test_fourier_statistic_equals_the_dft_summed_term_by_term(stream):
    statistic, below, expected = fourier_statistic(np.array(stream, dtype=np.uint8))
    reference = dft_statistic(stream)
    assert (below, expected) == reference[1:] and statistic == pytest.approx(reference[0], rel=1e-12, abs=1e-12)


def test_fourier_p_value_is_the_lower_normal_tail_and_nists_the_two_sided():
    result = fourier(make_source("pcg64", 11), 1000)  # 1000 = 2^3 5^3: transformed whole
    assert result.details["transform_length"] == 1000 and result.params["n"] == 1000
    assert result.pvalue == stats.norm.cdf(result.statistic)
    assert result.details["nist_pvalue"] == pytest.approx(math.erfc(abs(result.statistic) / math.sqrt(2)))


def test_transform_length_is_the_largest_5_smooth_length():
    # 1009 is prime: 1000 = 2^3 5^3 is the 5-smooth number below it; 1024 and 3^7 = 2187 are their own
    assert [transform_length(n) for n in (1009, 1024, 2187, 2188)] == [1000, 1024, 2187, 2187]


def test_fourier_needs_a_thousand_bits():
    with pytest.raises(ValueError, match=r"n >= 1000 bits \(NIST SP 800-22, 2.6.7\); got 999"):
        fourier(make_source("pcg64", 1), 999)
