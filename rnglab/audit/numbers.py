"""Numbers as the report writes them: big integers as powers of two, probabilities in scientific notation."""

from __future__ import annotations

import math


def power(value: float | None) -> str:
    """``2^225.58`` for a big number, the integer itself below 10^6 (``-`` for None)."""
    if value is None:
        return "-"
    if value < 10**6:
        return f"{value:,}" if float(value).is_integer() else f"{value:.4g}"
    if isinstance(value, int) and value & (value - 1) == 0:
        return f"2^{value.bit_length() - 1}"
    return f"2^{math.log2(value):.2f}"


def probability(value: float) -> str:
    """A probability: ``0`` or ``1`` exactly, else three significant digits."""
    return f"{value:.3g}" if value in (0, 1) or 1e-3 <= value else f"{value:.3e}"


def duration(seconds: float) -> str:
    """Seconds in the largest unit that keeps the number readable (years beyond a year; 2^k years beyond 10^6)."""
    units = (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60), ("s", 1))
    for name, size in units:
        if seconds >= size or name == "s":
            amount = seconds / size
            return f"{power(amount)} {name}" if amount >= 10**6 else f"{amount:.3g} {name}"
    return f"{seconds:.3g} s"
