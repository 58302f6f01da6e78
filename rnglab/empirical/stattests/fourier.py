"""The discrete Fourier transform test on bits (NIST SP 800-22 rev. 1a, 2.6).

Not to be confused with Knuth's spectral test (``rnglab spectral``), which is
a property of an LCG's multiplier and modulus, not an empirical test.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.fft

from rnglab.core.laws import norm_cdf
from rnglab.empirical.stattests.base import EmpiricalResult, gateway_params, register, require
from rnglab.generators.base import Source
from rnglab.streams.gateway import bits, selection_of

#: NIST's fraction of the n/2 peaks expected below the threshold.
BELOW_FRACTION = 0.95

#: Peak memory of :func:`fourier_statistic` per bit transformed, measured (ru_maxrss) on a 5-smooth length:
#: the float64 signs (8), the rfft output (8), pocketfft's scratch (8) and the moduli (4), plus the bits.
BYTES_PER_BIT = 33

#: Most bits one transform may take: 2^27 bits need about 4.4 GB (``BYTES_PER_BIT``).
MAX_BITS = 2**27


def fourier_statistic(stream: np.ndarray) -> tuple[float, int, float]:
    """Return ``(d, N1, N0)`` for a 0/1 array: the normalised count of DFT peaks below the threshold.

    ``X = 2 e - 1``; ``S = |DFT(X)|``; ``T = sqrt(n ln(1/0.05))``;
    ``N1`` = number of the first ``n/2`` moduli below ``T``; ``N0 = 0.95 n / 2``;
    ``d = (N1 - N0) / sqrt(n 0.95 0.05 / 4)``.

    The signs are converted in place in one float64 array, the only copy of
    the stream; the real FFT (``scipy.fft.rfft``, half the work of a complex
    one) computes just the ``n/2 + 1`` non-redundant coefficients.
    """
    n = len(stream)
    signs = stream.astype(np.float64)
    signs *= 2.0
    signs -= 1.0
    moduli = np.abs(scipy.fft.rfft(signs)[: n // 2])
    threshold = math.sqrt(math.log(1 / (1 - BELOW_FRACTION)) * n)
    below = int(np.count_nonzero(moduli < threshold))
    expected = BELOW_FRACTION * n / 2
    return (below - expected) / math.sqrt(n * BELOW_FRACTION * (1 - BELOW_FRACTION) / 4), below, expected


@register("fourier")
def fourier(source: Source, n: int) -> EmpiricalResult:
    """Discrete Fourier transform (spectral) test on the first ``n`` bits of the bit stream.

    Bits become ``+-1``; ``N1`` counts the moduli of the first ``n/2`` Fourier
    coefficients below ``T = sqrt(n ln 20)``, a threshold exceeded by 5% of the
    peaks of a random sequence. Under the null hypothesis
    ``d = (N1 - 0.95 n/2) / sqrt(n 0.95 0.05 / 4)`` is approximately standard
    normal (NIST SP 800-22 rev. 1a). Periodic structure makes large peaks, so
    ``d`` falls. The p-value is ``Phi(d)``: small for too many large peaks, near
    1 for too few. NIST's two-sided ``erfc(|d| / sqrt 2)`` is kept in
    ``details["nist_pvalue"]``. NIST recommends ``n >= 1000``; enforced.
    The transform takes the first :func:`transform_length` bits (``n`` itself
    when its prime factors are 2, 3 and 5), at most ``2^27`` (memory).

    Cost: the FFT's ``O(n log n)`` floating-point work, several nanoseconds
    per bit, dwarfs generating the bits (a 64-bit output gives 64 of them in
    a few nanoseconds), so this test costs hundreds of times the generation
    of its sample on any fast source (``bench/results/battery.md``).

    References
    ----------
    A. Rukhin et al., NIST SP 800-22 rev. 1a (2010), section 2.6 and 3.6.
    """
    require(n >= 1000, f"the Fourier test needs n >= 1000 bits (NIST SP 800-22, 2.6.7); got {n}")
    length = transform_length(n)
    statistic, below, expected = fourier_statistic(bits(source, length))
    return EmpiricalResult("fourier", statistic, float(norm_cdf(statistic)),
                           gateway_params(n, selection_of(source)),
                           {"below_threshold": below, "expected_below": expected, "transform_length": length,
                            "nist_pvalue": math.erfc(abs(statistic) / math.sqrt(2))})


def transform_length(n: int) -> int:
    """The number of bits the Fourier test transforms: the largest ``2^a 3^b 5^c <= n``.

    pocketfft (``scipy.fft``) transforms such lengths directly; a length with a
    large prime factor goes through Bluestein's algorithm, about 5 times the
    memory and 8 times the time (160 bytes per bit measured for ``2^24 + 43``;
    ``n = 134 217 856 = 2^7 17 61681`` was killed at 23.5 GB). 5-smooth numbers
    are dense (consecutive ones near ``10^8`` differ by about 1 %), so at most
    a few percent of the ``n`` bits asked for are left out. Lengths above
    :data:`MAX_BITS` are refused: the transform would need ``BYTES_PER_BIT``
    bytes per bit.
    """
    require(n <= MAX_BITS,
            f"the Fourier test transforms at most 2^27 = {MAX_BITS} bits (about {BYTES_PER_BIT} bytes per bit: "
            f"n = {n} would need {n * BYTES_PER_BIT / 1e9:.1f} GB); got n = {n}")
    return scipy.fft.prev_fast_len(n, real=True)
