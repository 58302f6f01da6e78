"""Linear complexity of one bit of each output, by Berlekamp–Massey, against its exact law."""

from __future__ import annotations

import math

import numpy as np

from rnglab.core.compiled import njit
from rnglab.empirical.stattests.base import EmpiricalResult, gateway_params, register, require
from rnglab.generators.base import Source
from rnglab.streams.gateway import selection_of, words


@njit(cache=True, nogil=True)
def _window(packed, start):  # pragma: no cover - compiled
    """The 64 bits of ``packed`` from bit ``start`` on (bit ``k`` is word ``k // 64``, most significant first)."""
    word, offset = start >> 6, start & 63
    if offset == 0:
        return packed[word]
    return (packed[word] << np.uint64(offset)) | (packed[word + 1] >> np.uint64(64 - offset))


@njit(cache=True, nogil=True)
def _parity(word):  # pragma: no cover - compiled
    """Parity of the number of ones of a uint64."""
    for shift in (32, 16, 8, 4, 2, 1):
        word ^= word >> np.uint64(shift)
    return word & np.uint64(1)


@njit(cache=True, nogil=True)
def _add_shifted(target, source, source_words, shift):  # pragma: no cover - compiled
    """``target ^= source << shift`` on bit indices: bit ``i`` of ``source`` is added to bit ``i + shift``."""
    whole, offset = shift >> 6, shift & 63
    for j in range(source_words):
        word = source[j]
        if offset == 0:
            target[j + whole] ^= word
        else:
            target[j + whole] ^= word >> np.uint64(offset)
            target[j + whole + 1] ^= word << np.uint64(64 - offset)


@njit(cache=True, nogil=True)
def linear_complexity(sequence):  # pragma: no cover - compiled
    """Length of the shortest linear feedback shift register over GF(2) that generates ``sequence``.

    The Berlekamp–Massey algorithm (Massey, IEEE Trans. Inf. Theory 15, 1969):
    after each bit ``s_N`` the discrepancy ``d = sum_(i=0..L) c_i s_(N-i)``
    (mod 2, ``c_0 = 1``) is computed; when it is 1 the connection polynomial
    becomes ``C(x) + x^(N-m) B(x)``, and when moreover ``2L <= N`` the
    complexity jumps to ``N + 1 - L`` and the previous ``C`` is kept as ``B``.
    The polynomials and the reversed sequence are packed 64 coefficients to a
    word, so a discrepancy is ``L/64`` ANDs and a parity: ``O(n^2/128)`` word
    operations in all.

    Parameters
    ----------
    sequence : numpy.ndarray of uint8
        The bits, 0 or 1, ``s_0`` first.

    Returns
    -------
    int
        The linear complexity ``L_n`` of the whole sequence.
    """
    n = sequence.size
    words = (n + 1) // 64 + 2
    reversed_bits = np.zeros(words + 1, dtype=np.uint64)  # bit k is s_(n-1-k): s_(N-i) is bit n-1-N+i
    for k in range(n):
        if sequence[n - 1 - k]:
            reversed_bits[k >> 6] |= np.uint64(1) << np.uint64(63 - (k & 63))
    connection = np.zeros(words, dtype=np.uint64)
    previous = np.zeros(words, dtype=np.uint64)
    connection[0] = previous[0] = np.uint64(1) << np.uint64(63)
    complexity, previous_complexity, last_jump = 0, 0, -1
    for step in range(n):
        base = n - 1 - step
        accumulated = np.uint64(0)
        for j in range((complexity >> 6) + 1):
            accumulated ^= connection[j] & _window(reversed_bits, base + 64 * j)
        if _parity(accumulated) == 0:
            continue
        shift = step - last_jump
        if 2 * complexity <= step:
            kept = (complexity >> 6) + 1
            saved = connection[:kept].copy()
            _add_shifted(connection, previous, (previous_complexity >> 6) + 1, shift)
            previous[:kept] = saved
            previous_complexity = complexity
            complexity, last_jump = step + 1 - complexity, step
        else:
            _add_shifted(connection, previous, (previous_complexity >> 6) + 1, shift)
    return complexity


def complexity_tails(n: int, complexity: int) -> tuple[float, float]:
    """``P(L_n <= l)`` and ``P(L_n >= l)`` for ``n`` independent fair bits.

    The number of binary sequences of length ``n`` with linear complexity
    ``L`` is 1 for ``L = 0``, ``2^(2L-1)`` for ``1 <= L <= n/2`` and
    ``2^(2(n-L))`` for ``n/2 < L <= n`` (Gustavson 1976; Rueppel, *Analysis and
    Design of Stream Ciphers*, 1986, ch. 4). Summing the geometric series,

        ``P(L_n <= l) = (2^(2l+1) + 1) / (3 2^n)``  for ``0 <= l <= n/2``,
        ``P(L_n >= l) = (4^(n-l+1) - 1) / (3 2^n)``  for ``n/2 < l <= n``,

    the other tail being the complement of the neighbouring one. Evaluated
    with ``ldexp``: no integer of ``n`` bits is formed.
    """

    def lower(level: int) -> float:  # P(L <= level), level <= n/2
        return (math.ldexp(1.0, 2 * level + 1 - n) + math.ldexp(1.0, -n)) / 3.0

    def upper(level: int) -> float:  # P(L >= level), level > n/2
        return (math.ldexp(1.0, 2 * (n - level + 1) - n) - math.ldexp(1.0, -n)) / 3.0

    if 2 * complexity <= n:
        at_most = lower(complexity)
        return at_most, 1.0 - (lower(complexity - 1) if complexity else 0.0)
    at_least = upper(complexity)
    return 1.0 - (upper(complexity + 1) if complexity < n else 0.0), at_least


@register("linear-complexity")
def linear_complexity_test(source: Source, n: int, *, bit: int = 0) -> EmpiricalResult:
    """Linear complexity of the sequence formed by one bit of each of ``n`` outputs.

    Bit ``bit`` (0: the most significant of the selected bits) of ``n``
    successive outputs forms a binary sequence whose linear complexity
    ``L_n`` is computed exactly by Berlekamp–Massey. For independent fair bits
    ``L_n`` has the exact law of :func:`complexity_tails`, concentrated within
    a few units of ``n/2`` (mean ``n/2 + (4 + (n mod 2))/18``, variance about
    ``86/81``). The p-value is the mid-p of the upper tail,
    ``P(L_n > l) + P(L_n = l) / 2``: a complexity too low (a short register)
    gives p near 1 and one too high p near 0, both far into a tail for the
    two-sided verdicts, while the central values, which carry most of the
    mass (``P(L_n = n/2)`` is about 1/2), stay near 1/2 (an ordinary tail
    p-value would read 1 half the time).

    A generator that is linear over GF(2) (Mersenne Twister, xorshift, any
    LFSR) produces bit sequences of linear complexity at most its state size
    in bits, 19,937 for MT19937, so from ``n`` a little above twice that the
    test fails it whatever else the generator does well: the failure TestU01's
    Crush and BigCrush record for MT19937 (scomp_LinearComp).

    Parameters
    ----------
    source : Source
    n : int
        Number of outputs read, hence of bits in the sequence (at least 2).
        The cost is ``O(n^2 / 128)`` word operations.
    bit : int
        Position of the bit within the selected bits of each output.

    References
    ----------
    J. L. Massey, "Shift-register synthesis and BCH decoding", IEEE Trans. Inf.
    Theory 15 (1969). R. A. Rueppel, *Analysis and Design of Stream Ciphers*,
    Springer 1986. P. L'Ecuyer, R. Simard, TestU01 user guide, scomp_LinearComp
    (the same statistic on bit ``r`` of each output). NIST SP 800-22 rev. 1a,
    2.10 (a block version).
    """
    require(n >= 2, f"linear-complexity needs n >= 2 bits; got {n}")
    values, width = words(source, n)
    require(0 <= bit < width, f"bit must be in [0, {width - 1}] for {width} selected bits; got {bit}")
    sequence = ((values >> np.uint64(width - 1 - bit)) & np.uint64(1)).astype(np.uint8)
    complexity = int(linear_complexity(sequence))
    at_most, at_least = complexity_tails(n, complexity)
    pvalue = (at_least - at_most + 1.0) / 2  # P(L > l) + P(L = l)/2, with P(L = l) = at_most + at_least - 1
    return EmpiricalResult("linear-complexity", float(complexity - n / 2), pvalue,
                           gateway_params(n, selection_of(source), bit=bit),
                           {"complexity": complexity, "expected": n / 2 + (4 + n % 2) / 18,
                            "p_at_most": at_most, "p_at_least": at_least})
