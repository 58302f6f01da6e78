"""The discrete Fourier transform test on bits (NIST SP 800-22 rev. 1a, 2.6).

Not to be confused with Knuth's spectral test (``rnglab spectral``), which is
a property of an LCG's multiplier and modulus, not an empirical test.
"""

from __future__ import annotations

import math

import numpy as np

from rnglab.core.laws import norm_cdf
from rnglab.empirical.stattests.base import EmpiricalResult, gateway_params, register, require
from rnglab.generators.base import Source
from rnglab.streams.gateway import bits, selection_of

#: NIST's fraction of the n/2 peaks expected below the threshold.
BELOW_FRACTION = 0.95

#: Peak memory of the test per bit transformed, its bits included, measured (ru_maxrss) on an odd length, the worst
#: case (5^11 bits: 19.9): the signs as one complex128 array of ``n`` (16 bytes a bit) transformed in place
#: (:func:`count_below`), the bits (1) and the words they are cut from. An even length packs its signs two to a complex
#: number: 10.6 bytes a bit at 2^24 (the plain real FFT with its moduli took 33).
BYTES_PER_BIT = 20

#: Most bits one transform may take: 2^27 bits need about 2.7 GB (``BYTES_PER_BIT``).
MAX_BITS = 2**27

#: Coefficients recovered and counted at a time (1 MiB of complex128).
BLOCK = 2**16


def fourier_statistic(stream: np.ndarray) -> tuple[float, int, float]:
    r"""Return ``(d, N1, N0)`` for a 0/1 array: the normalised count of DFT peaks below the threshold.

    ``X = 2 e - 1``; ``S = |DFT(X)|``; ``T = sqrt(n ln(1/0.05))``;
    ``N1`` = number of the first ``n/2`` moduli below ``T`` (counted as
    ``|X_k|^2 < T^2``); ``N0 = 0.95 n / 2``;
    ``d = (N1 - N0) / sqrt(n 0.95 0.05 / 4)``.

    The coefficients are never held as one array of moduli:
    :func:`count_below` transforms the signs in place and counts them a block
    at a time.
    """
    n = len(stream)
    below = count_below(stream, math.log(1 / (1 - BELOW_FRACTION)) * n)
    expected = BELOW_FRACTION * n / 2
    return (below - expected) / math.sqrt(n * BELOW_FRACTION * (1 - BELOW_FRACTION) / 4), below, expected


def count_below(stream: np.ndarray, bound: float) -> int:
    r"""The number of ``k < n/2`` with ``|X_k|^2 < bound``, ``X`` the DFT of the signs ``x = 2 e - 1`` of ``stream``.

    An even length packs the signs two to a complex number,
    :math:`z_j = x_{2j} + i x_{2j+1}`, :math:`N = n/2` of them (8 bytes a
    bit), transformed in place (:func:`transform_in_place`); each wanted
    coefficient of the real signal is recovered from :math:`Z = \mathrm{DFT}_N(z)`
    (the even and odd samples' transforms are :math:`(Z_k + \bar Z_{N-k})/2`
    and :math:`(Z_k - \bar Z_{N-k})/2i`):

    .. math:: X_k = \frac{Z_k + \bar Z_{N-k}}{2} - i e^{-2\pi i k/n} \frac{Z_k - \bar Z_{N-k}}{2},
              \qquad 0 \le k < N,\ Z_N = Z_0.

    An odd length transforms the signs as complex numbers of zero imaginary part (16 bytes a bit).

    References
    ----------
    W. H. Press et al., *Numerical Recipes*, 3rd ed. (2007), 12.3.1 (the FFT of two real functions at once).
    """
    n = len(stream)
    if n % 2:
        grid = transform_in_place(complex_signs(stream))
        return sum(_count(grid[rows], bound, _indices(rows, grid.shape) < n // 2) for rows in _row_blocks(grid, 0))
    grid = transform_in_place(complex_signs(stream[0::2], stream[1::2]))
    total = _count(_real_coefficients(grid[0], _partner_of_row_zero(grid[0]), _indices(slice(0, 1), grid.shape), n),
                   bound)
    rows = grid.shape[0]
    for block in _row_blocks(grid, 1):
        partner = grid[rows - block.stop + 1:rows - block.start + 1][::-1, ::-1]
        total += _count(_real_coefficients(grid[block], partner, _indices(block, grid.shape), n), bound)
    return total


def complex_signs(real_bits: np.ndarray, imaginary_bits: np.ndarray | None = None) -> np.ndarray:
    """The complex128 array ``(2 r - 1) + i (2 s - 1)`` of two 0/1 arrays (``i 0`` without ``imaginary_bits``)."""
    signs = np.zeros(len(real_bits), dtype=np.complex128)
    for part, values in ((signs.real, real_bits), (signs.imag, imaginary_bits)):
        if values is not None:
            np.multiply(values, 2.0, out=part)
            part -= 1.0
    return signs


def transform_in_place(values: np.ndarray) -> np.ndarray:
    r"""The DFT :math:`Z_k = \sum_j z_j e^{-2\pi i jk/N}` of ``values``, computed in their memory, as an
    :math:`N_1 \times N_2` array ``C`` with ``C[k1, k2]`` :math:`= Z_{k_1 + N_1 k_2}`.

    The four-step algorithm: with :math:`j = N_2 j_1 + j_2` and :math:`k = k_1 + N_1 k_2`,

    .. math:: Z_k = \sum_{j_2} e^{-2\pi i j_2 k_2 / N_2}\, e^{-2\pi i j_2 k_1 / N}
              \sum_{j_1} z_{N_2 j_1 + j_2} e^{-2\pi i j_1 k_1 / N_1}:

    the columns of ``values`` seen as :math:`N_1 \times N_2` are transformed,
    multiplied by the twiddle factors, then the rows. ``N1`` is the divisor
    of :math:`N` nearest :math:`\sqrt N` from below, so that pocketfft's
    scratch and tables (``scipy.fft``) hold about :math:`\sqrt N` numbers,
    not :math:`N` of each, as one transform of length :math:`N` would.

    References
    ----------
    D. H. Bailey, "FFTs in external or hierarchical memory", *J. Supercomputing* 4 (1990), 23-35.
    """
    import scipy.fft  # about 0.3 CPU s of imports that only a Fourier test needs, not the registry it is in

    length = len(values)
    rows = max(d for d in range(1, math.isqrt(length) + 1) if length % d == 0)
    grid = scipy.fft.fft(values.reshape(rows, length // rows), axis=0, overwrite_x=True)
    for block in _row_blocks(grid, 0):
        row_index = np.arange(block.start, block.stop)[:, None]
        grid[block] *= np.exp(-2j * math.pi / length * (row_index * np.arange(grid.shape[1]) % length))
    return scipy.fft.fft(grid, axis=1, overwrite_x=True)


def _row_blocks(grid: np.ndarray, first: int):
    """Slices of the rows of ``grid`` from ``first`` on, about :data:`BLOCK` numbers each."""
    rows, columns = grid.shape
    step = max(1, BLOCK // columns)
    return [slice(start, min(start + step, rows)) for start in range(first, rows, step)]


def _indices(block: slice, shape: tuple) -> np.ndarray:
    """``k = k1 + N1 k2`` of the rows ``block`` of :func:`transform_in_place`'s array."""
    return np.arange(block.start, block.stop)[:, None] + shape[0] * np.arange(shape[1])


def _partner_of_row_zero(row: np.ndarray) -> np.ndarray:
    """:math:`Z_{N-k}` for the :math:`Z_k` of row 0, ``k = N1 k2``: ``row[(-k2) mod N2]``."""
    return np.roll(row[::-1], 1)


def _real_coefficients(packed: np.ndarray, partner: np.ndarray, k: np.ndarray, n: int) -> np.ndarray:
    """:math:`X_k` from :math:`Z_k` (``packed``) and :math:`Z_{N-k}` (``partner``) (:func:`count_below`)."""
    mirrored = np.conj(partner)
    return (packed + mirrored) / 2 - 1j * np.exp(-2j * math.pi / n * k) * (packed - mirrored) / 2


def _count(coefficients: np.ndarray, bound: float, wanted: np.ndarray | bool = True) -> int:
    """How many of the ``wanted`` ``coefficients`` have ``|X|^2 < bound``."""
    return int(np.count_nonzero((coefficients.real ** 2 + coefficients.imag ** 2 < bound) & wanted))


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
    bytes per bit (an odd length; an even one about half as much).
    """
    require(n <= MAX_BITS,
            f"the Fourier test transforms at most 2^27 = {MAX_BITS} bits (about {BYTES_PER_BIT} bytes per bit: "
            f"n = {n} would need {n * BYTES_PER_BIT / 1e9:.1f} GB); got n = {n}")
    import scipy.fft

    return scipy.fft.prev_fast_len(n, real=True)
