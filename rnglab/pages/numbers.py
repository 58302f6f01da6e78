"""Numbers as the report writes them: sizes and counts as powers of two, identifiers (seeds, states) exactly,
probabilities in scientific notation."""

from __future__ import annotations

import math

from rnglab.core.params import power_of_two_form

#: Below this a number is written out; an integer this close to a power of two is written ``2^k - d``.
WRITTEN_OUT = 10**6


class Exact(int):
    """An integer that names something (a seed, a state): a page writes all its digits, never a power of two.

    Powers of two are for sizes and counts, where the magnitude is what a reader takes in; an identifier is
    copied into a command (``rnglab crack ... --seeds 18438316..18438316``), so every digit counts.
    """


def power(value: float | None) -> str:
    """A number as a reader takes it in: the number itself below 10^6, else a power of two (``-`` for None).

    An integer within min(10^6, value / 2^20) of a power of two is written exactly, ``2^31 - 2``
    or ``2^64``; any other big number as ``2^225.58`` (two decimals of log2).
    """
    if value is None:
        return "-"
    if abs(value) < WRITTEN_OUT:
        return f"{value:,}" if float(value).is_integer() else f"{value:.4g}"
    exact = power_of_two_form(value, min(WRITTEN_OUT, value >> 20)) if isinstance(value, int) and value > 0 else None
    return exact or f"2^{math.log2(value):.2f}"


def probability(value: float) -> str:
    """A probability: ``0`` or ``1`` exactly, else three significant digits."""
    return f"{value:.3g}" if value in (0, 1) or 1e-3 <= value else f"{value:.3e}"


#: A Julian year in seconds.
YEAR = 365.25 * 86400
#: Beyond 2^LARGEST_FLOAT_BITS seconds a duration is handled by its log2 (a float stops near 2^1024).
LARGEST_FLOAT_BITS = 1000


def duration(seconds: float) -> str:
    """Seconds in the largest unit that keeps the number readable (years beyond a year; 2^k years beyond 10^6)."""
    units = (("years", YEAR), ("days", 86400), ("hours", 3600), ("minutes", 60), ("s", 1))
    for name, size in units:
        if seconds >= size or name == "s":
            amount = seconds / size
            return f"{power(amount)} {name}" if amount >= 10**6 else f"{amount:.3g} {name}"
    return f"{seconds:.3g} s"


def duration_of_bits(bits: float) -> str:
    """:func:`duration` of ``2^bits`` seconds, also where that is beyond a float (a search of 2^19968 seeds)."""
    if bits < LARGEST_FLOAT_BITS:
        return duration(2.0**bits)
    return f"2^{bits - math.log2(YEAR):.2f} years"
