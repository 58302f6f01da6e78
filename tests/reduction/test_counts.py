"""Exact counts of range reduction (rnglab.reduction.counts) against enumeration of every source value.

Known answer: MSVC's ``rand() % 52`` on 32768 values (32768 = 52 * 630 + 8) gives the 8 cards 0..7 631 source
values each and the other 44 cards 630. Java's ``nextInt(52)`` on ``next(31)`` (the top 31 of 32 bits) accepts
``floor(2^31 / 52)`` values per card, each reached by 2 of the 2^32 words; CPython's ``_randbelow(52)`` reads
the top ``bit_length(52) = 6`` bits: 2^26 words per card.
"""

import numpy as np
import pytest

from rnglab.reduction.counts import (
    bitmask_counts,
    float_multiply_counts,
    java_nextint_counts,
    modulo_counts,
    multiply_shift_counts,
    python_randbelow_counts,
    remainder_rejecting_counts,
)


def classes_of(values: np.ndarray, n: int) -> tuple:
    """``(count, multiplicity)`` pairs, largest count first, of the outputs ``values`` reach."""
    counts, multiplicity = np.unique(np.bincount(values, minlength=n), return_counts=True)
    return tuple(sorted(zip(counts.tolist(), multiplicity.tolist()), reverse=True))


ENUMERATED = {
    modulo_counts: lambda x, n, R: x % n,
    multiply_shift_counts: lambda x, n, R: x * n // R,
    float_multiply_counts: lambda x, n, R: (x.astype(np.float64) * n / R).astype(np.int64),
}


@pytest.mark.parametrize("counts", list(ENUMERATED))
@pytest.mark.parametrize("n, R", [(52, 2**15), (7, 2**15), (10, 2**16 - 1), (1000, 12345), (3, 3)])
def test_biased_counts_equal_enumeration(counts, n, R):
    values = ENUMERATED[counts](np.arange(R, dtype=np.int64), n, R)
    result = counts("method", n, R)
    assert result.classes == classes_of(values, n) and result.rejected == 0 and result.accepted == R
    favoured = np.flatnonzero(np.bincount(values, minlength=n) == result.classes[0][0])
    assert list(result.favoured) == (favoured[:64].tolist() if len(result.classes) > 1 else [])  # 64 listed at most


def test_msvc_rand_mod_52():
    result = modulo_counts("modulo", 52, 32768)
    assert result.classes == ((631, 8), (630, 44)) and result.favoured == tuple(range(8))
    assert result.favoured_description == "the 8 smallest outputs 0..7"


def test_multiply_shift_spreads_the_favoured_outputs():
    result = multiply_shift_counts("multiply-shift", 52, 32768)
    assert [int(v) for v in result.favoured] == [0, 6, 13, 19, 26, 32, 39, 45]


def test_rejecting_methods_give_every_output_the_same_count():
    threshold = remainder_rejecting_counts("threshold", 52, 32768)
    assert threshold.classes == ((630, 52),) and threshold.rejected == 8 and threshold.favoured == ()
    assert java_nextint_counts("java-nextint", 52, 2**32).classes == ((2 * (2**31 // 52), 52),)
    assert java_nextint_counts("java-nextint", 64, 2**32).classes == ((2**26, 64),)
    assert python_randbelow_counts("python-randbelow", 52, 2**32).classes == ((2**26, 52),)
    assert bitmask_counts("bitmask", 52, 2**32).classes == ((2**26, 52),)
    assert bitmask_counts("bitmask", 52, 2**32).rejected == 12 * 2**26
