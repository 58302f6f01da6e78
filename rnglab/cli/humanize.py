"""Numbers for a person to read; ``--json`` keeps them exact.

A 40-digit fraction or integer on a terminal helps nobody: fractions longer
than a table cell become decimals, powers of two are written ``2^64``, huge
integers get a mantissa and exponent, and rows that say the same thing are
shown once under every name that shares them.
"""

from __future__ import annotations

from fractions import Fraction

#: Longest exact fraction ("p/q") shown as is; longer ones become a decimal.
FRACTION_WIDTH = 24
#: Smallest power of two written as ``2^k`` (smaller ones read well in decimal).
POWER_OF_TWO_FROM = 16
#: Distance to a power of two still written from it (``2^31-1``).
NEAR_POWER = 1000
#: Most digits of an integer shown as is.
INTEGER_DIGITS = 15


def fraction(value: Fraction | str | int, near: Fraction | int | None = None) -> str:
    """``p/q`` when it fits in :data:`FRACTION_WIDTH` characters, else a decimal.

    With ``near`` (the value it would have without bias: ``1/n``, a ratio of 1), a
    long fraction is written as its offset from it, ``1/3 + 1.08e-20``, so that a
    tiny bias is not rounded away.
    """
    exact = Fraction(value)
    text = str(exact)
    if len(text) <= FRACTION_WIDTH:
        return text
    if near is None or exact == near:
        return f"{float(exact):.6g}"
    offset = exact - near
    return f"{Fraction(near)} {'+' if offset > 0 else '-'} {float(abs(offset)):.3g}"


def integer(value: int) -> str:
    """``2^64`` (or ``2^64+1``, ``2^31-1``: within :data:`NEAR_POWER` of one) from 2^16;
    ``2.965e+39`` beyond 15 digits; else the digits."""
    if value >= 1 << POWER_OF_TWO_FROM:
        for exponent in (value.bit_length() - 1, value.bit_length()):
            offset = value - (1 << exponent)
            if abs(offset) < NEAR_POWER:
                return f"2^{exponent}" + (f"{offset:+d}" if offset else "")
    if abs(value) >= 10**INTEGER_DIGITS:
        return f"{value:.4g}" if abs(value) < 10**300 else f"about 2^{abs(value).bit_length() - 1}"
    return str(value)
