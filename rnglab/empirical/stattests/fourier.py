"""The discrete Fourier transform test on bits (NIST SP 800-22 rev. 1a, 2.6).

Not to be confused with Knuth's spectral test (``rnglab spectral``), which is
a property of an LCG's multiplier and modulus, not an empirical test.
"""

from __future__ import annotations

import cmath
import math

import numpy as np

from rnglab.core.laws import norm_cdf
from rnglab.empirical.stattests.base import EmpiricalResult, gateway_params, register, require
from rnglab.generators.base import Source
from rnglab.streams.gateway import bits, selection_of

#: NIST's fraction of the n/2 peaks expected below the threshold.
BELOW_FRACTION = 0.95

#: Peak memory of the test per bit transformed, its bits included, measured (ru_maxrss) at 5^11 bits, the worst case
#: (10.98): the bits (1 byte each) and the words they are cut from, folded five to a number (0.4), one residue class
#: of the spectrum at a time (16 / 5, :func:`count_below`). A multiple of 16 folds sixteen: 4.8 bytes a bit at 2^24
#: (the plain real FFT with its moduli took 33).
BYTES_PER_BIT = 11

#: Most bits one transform may take: 2^27 bits need about 1.5 GB (``BYTES_PER_BIT``).
MAX_BITS = 2**27

#: Coefficients twiddled and counted at a time (1 MiB of complex128).
BLOCK = 2**16

#: The most residue classes the spectrum is cut into (:func:`count_below`): a class of a 5-smooth length n holds
#: 16 n / r bytes, r = 16 for a multiple of 16, 15 for an odd multiple of 15.
FOLD = 16


def fourier_statistic(stream: np.ndarray) -> tuple[float, int, float]:
    r"""Return ``(d, N1, N0)`` for a 0/1 array: the normalised count of DFT peaks below the threshold.

    ``X = 2 e - 1``; ``S = |DFT(X)|``; ``T = sqrt(n ln(1/0.05))``;
    ``N1`` = number of the first ``n/2`` moduli below ``T`` (counted as
    ``|X_k|^2 < T^2``); ``N0 = 0.95 n / 2``;
    ``d = (N1 - N0) / sqrt(n 0.95 0.05 / 4)``.

    The spectrum is never held whole: :func:`count_below` transforms it a
    residue class of ``k`` at a time and counts each a block at a time.
    """
    n = len(stream)
    below = count_below(stream, math.log(1 / (1 - BELOW_FRACTION)) * n)
    expected = BELOW_FRACTION * n / 2
    return (below - expected) / math.sqrt(n * BELOW_FRACTION * (1 - BELOW_FRACTION) / 4), below, expected


def count_below(stream: np.ndarray, bound: float) -> int:
    r"""The number of ``k < n/2`` with ``|X_k|^2 < bound``, ``X`` the DFT of the signs ``x = 2 e - 1`` of ``stream``.

    The coefficients are taken a residue class of ``k`` modulo :math:`r` at a
    time (:func:`folded_class`; :math:`r` the largest divisor of ``n`` up to
    :data:`FOLD`), each class one transform of length :math:`L = n/r`, so
    that :math:`16 L` bytes are held instead of the :math:`8 n` of the whole
    spectrum, with the bits folded :math:`r` to a 16-bit number
    (:func:`bit_patterns`, :math:`2 L` bytes). The signs are real,
    :math:`X_{n-k} = \bar X_k`: the class of
    :math:`r - s` holds the moduli of the class of :math:`s`, and only the
    classes :math:`s \le r/2` are transformed. With :math:`C` the count over
    every :math:`0 \le k < n`, :math:`c_0` and :math:`c_h` whether
    :math:`X_0` and :math:`X_h`, :math:`h = \lfloor n/2 \rfloor`, are below,
    the count over :math:`k < h` is :math:`(C + c_0 - c_h)/2` for an even
    ``n`` and :math:`(C + c_0)/2 - c_h` for an odd one.
    """
    n = len(stream)
    fold = max(d for d in range(1, FOLD + 1) if n % d == 0)
    half = n // 2
    edge = (half % fold, half // fold) if half % fold <= fold // 2 else (fold - half % fold, (n - half) // fold)
    patterns, total, zero, middle = bit_patterns(stream, fold), 0, 0, 0
    for residue in range(fold // 2 + 1):
        grid = transform_in_place(folded_class(patterns, fold, residue))
        below = sum(_count(grid[rows], bound) for rows in _row_blocks(grid, 0))
        total += below if residue == 0 or 2 * residue == fold else 2 * below
        if residue == 0:
            zero = _count(_coefficient(grid, 0), bound)
        if residue == edge[0]:
            middle = _count(_coefficient(grid, edge[1]), bound)
    return (total + zero - middle) // 2 if n % 2 == 0 else (total + zero) // 2 - middle


def bit_patterns(stream: np.ndarray, fold: int) -> np.ndarray:
    """The ``fold``-bit numbers :math:`p_{j'} = \\sum_{q < r} e_{j' + qL} 2^q` of the bits of ``stream`` (``n = r L``)."""
    rows = stream.reshape(fold, len(stream) // fold)
    patterns = np.zeros(rows.shape[1], dtype=np.uint16)
    for row in range(fold):
        patterns += rows[row] * np.uint16(1 << row)
    return patterns


def folded_class(patterns: np.ndarray, fold: int, residue: int) -> np.ndarray:
    r"""The sequence whose DFT is the class ``residue`` of the DFT of the signs ``x = 2 e - 1`` of the bits that
    :func:`bit_patterns` folded ``fold`` to a number.

    With :math:`n = r L` (``r = fold``), :math:`s` = ``residue`` and
    :math:`j = j' + q L`, decimation in frequency gives
    :math:`X_{rm+s} = \sum_{j' < L} y_{j'} e^{-2\pi i j' m / L}` for

    .. math:: y_{j'} = e^{-2\pi i j' s / n} \sum_{q < r} x_{j' + qL}\, e^{-2\pi i q s / r}
              = e^{-2\pi i j' s / n}\, t_s(p_{j'}),

    where :math:`t_s(p) = 2 \sum_{q:\ \text{bit } q \text{ of } p} e^{-2\pi i q s / r} - r [s = 0]`,
    a table of :math:`2^r` values, looked up by each :math:`p_{j'}`.

    References
    ----------
    A. V. Oppenheim and R. W. Schafer, *Discrete-Time Signal Processing*, 3rd ed. (2010), 9.4 (decimation in frequency).
    """
    table = np.zeros(1, dtype=np.complex128)
    for row in range(fold):
        table = np.concatenate([table, table + 2 * cmath.exp(-2j * math.pi * (row * residue % fold) / fold)])
    if residue == 0:
        table -= fold
    folded = np.empty(len(patterns), dtype=np.complex128)
    for start in range(0, len(patterns), BLOCK):
        block = slice(start, min(start + BLOCK, len(patterns)))
        twiddle = np.exp(-2j * math.pi * residue / (fold * len(patterns)) * np.arange(block.start, block.stop))
        np.multiply(table[patterns[block]], twiddle, out=folded[block])
    return folded


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


def _coefficient(grid: np.ndarray, index: int) -> complex:
    """Coefficient ``index`` of :func:`transform_in_place`'s array (``C[k1, k2]`` is coefficient ``k1 + N1 k2``)."""
    return grid[index % grid.shape[0], index // grid.shape[0]]


def _count(coefficients, bound: float) -> int:
    """How many of ``coefficients`` (an array or one number) have ``|X|^2 < bound``."""
    return int(np.count_nonzero(np.real(coefficients) ** 2 + np.imag(coefficients) ** 2 < bound))


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
    bytes per bit (a power of 5; a multiple of 16 about half as much).
    """
    require(n <= MAX_BITS,
            f"the Fourier test transforms at most 2^27 = {MAX_BITS} bits (about {BYTES_PER_BIT} bytes per bit: "
            f"n = {n} would need {n * BYTES_PER_BIT / 1e9:.1f} GB); got n = {n}")
    import scipy.fft

    return scipy.fft.prev_fast_len(n, real=True)
