"""Verdicts on p-values: a two-sided suspect window and PractRand-style graded levels.

Tests return p-values, never verdicts; the report layer (the CLI and
``rnglab report``) reads them through these functions, whose thresholds are
arguments. A p-value is judged by its distance to the nearer end,
``q = min(p, 1 - p)``: a statistic far too good (``p`` near 1, points too
evenly spread, as on an LCG's lattice) is as suspect as one far too bad.

References
----------
P. L'Ecuyer, R. Simard, TestU01 user guide: the battery summary lists the
p-values outside [0.001, 0.999]. C. Doty-Humphrey, PractRand: results graded
from "normal" and "unusual" through "suspicious" to "FAIL".
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

#: The grades, from best to worst.
GRADES = ("normal", "unusual", "suspicious", "very suspicious", "FAIL")

#: TestU01's default suspect window.
DEFAULT_WINDOW = (0.001, 0.999)


@dataclass(frozen=True)
class Thresholds:
    """Distances ``q = min(p, 1 - p)`` below which a p-value earns each grade after "normal".

    Defaults: unusual below 1e-3 (outside TestU01's window), suspicious below
    1e-5, very suspicious below 1e-7, FAIL below 1e-10.
    """

    unusual: float = 1e-3
    suspicious: float = 1e-5
    very_suspicious: float = 1e-7
    fail: float = 1e-10

    def __post_init__(self) -> None:
        levels = (self.unusual, self.suspicious, self.very_suspicious, self.fail)
        if not all(0 < b < a <= 0.5 for a, b in itertools.pairwise(levels)):
            raise ValueError(f"thresholds must decrease within (0, 0.5]: unusual > suspicious > "
                             f"very_suspicious > fail > 0; got {levels}")


def tail_distance(pvalue: float) -> float:
    """``min(p, 1 - p)``: how far into either tail a p-value lies."""
    if not 0 <= pvalue <= 1:
        raise ValueError(f"a p-value must be in [0, 1]; got {pvalue}")
    return min(pvalue, 1 - pvalue)


def grade(pvalue: float, thresholds: Thresholds = Thresholds()) -> str:
    """Grade a p-value: ``normal``, ``unusual``, ``suspicious``, ``very suspicious`` or ``FAIL``.

    Examples
    --------
    >>> grade(0.5), grade(1e-4), grade(1 - 1e-6), grade(1e-12)
    ('normal', 'unusual', 'suspicious', 'FAIL')
    """
    q = tail_distance(pvalue)
    levels = (thresholds.unusual, thresholds.suspicious, thresholds.very_suspicious, thresholds.fail)
    return GRADES[sum(q < level for level in levels)]


def is_suspect(pvalue: float, window: tuple[float, float] = DEFAULT_WINDOW) -> bool:
    """True when the p-value lies outside the two-sided window ``[low, high]`` (default [0.001, 0.999])."""
    low, high = window
    if not 0 <= low < high <= 1:
        raise ValueError(f"the window must satisfy 0 <= low < high <= 1; got [{low}, {high}]")
    tail_distance(pvalue)
    return pvalue < low or pvalue > high


def format_pvalue(pvalue: float) -> str:
    """Format a p-value TestU01-style: ``0.4321``, ``3.2e-07``, ``1 - 4.1e-06``, ``eps``, ``1 - eps``."""
    q = tail_distance(pvalue)
    if pvalue == q:
        return "eps" if pvalue < 1e-300 else (f"{pvalue:.4f}" if pvalue >= 0.01 else f"{pvalue:.1e}")
    return "1 - eps" if q < 1e-15 else (f"{pvalue:.4f}" if q >= 0.01 else f"1 - {q:.1e}")
