"""Calibration: how often each test of a battery raises a false alarm on an ideal source of a given resolution.

A test's verdict is worth something only if its false-alarm rate on a source
that satisfies the null hypothesis is the nominal one. The sources here are
:func:`rnglab.generators.ideal_source` (numpy's unbiased integers in
``[0, R)``) at the resolutions rnglab serves; any excess of alarms is the
test's artefact at that resolution (as max-of-t's was at ``R = 2^15``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scipy import stats

from rnglab.core.results import Result
from rnglab.empirical.battery import Battery, result_labels, run_battery
from rnglab.generators.adapters import ideal_source

#: The resolutions rnglab serves: MSVC's 15 bits, 16 bits, MINSTD's prime modulus, 2^31, 32-bit words,
#: doubles, 64-bit words, and a range that is not a power of two.
RESOLUTIONS = {"2^15": 2**15, "2^16": 2**16, "2^31-1": 2**31 - 1, "2^31": 2**31, "2^32": 2**32,
               "2^53": 2**53, "2^64": 2**64, "3*2^30": 3 * 2**30}

#: The "unusual" grade: ``min(p, 1 - p) < 1e-3`` (TestU01's window), so the nominal rate is ``2e-3``.
UNUSUAL = 1e-3


@dataclass(frozen=True)
class Calibration(Result):
    """The p-values of every entry of a battery over ``replications`` ideal sources of one resolution.

    Attributes
    ----------
    battery : str
    range_size : int
    labels : tuple of str
        The entries' labels (:func:`rnglab.empirical.battery.result_labels`).
    pvalues : tuple of tuple of float
        ``pvalues[i][j]``: entry ``i`` on the source seeded ``first_seed + j``.
    """

    battery: str
    range_size: int
    labels: tuple
    pvalues: tuple

    def alarms(self, threshold: float = UNUSUAL) -> list[int]:
        """Per entry, the replications whose p-value is within ``threshold`` of 0 or 1."""
        return [sum(min(p, 1 - p) < threshold for p in row) for row in self.pvalues]


def calibrate(battery: Battery, range_size: int, replications: int, first_seed: int = 0,
              on_progress: Callable[[int], None] | None = None) -> Calibration:
    """Run ``battery`` on ``replications`` independent ideal sources of resolution ``range_size``."""
    rows, labels = None, ()
    for replication in range(replications):
        result = run_battery(lambda seed: ideal_source(range_size, seed), battery, first_seed + replication)
        labels = labels or tuple(result_labels(result.results))
        rows = rows or [[] for _ in result.results]
        for row, entry in zip(rows, result.results):
            row.append(entry.pvalue)
        if on_progress:
            on_progress(replication + 1)
    return Calibration(battery.name, range_size, labels, tuple(tuple(row) for row in rows))


def rate_interval(alarms: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson (exact binomial) confidence interval of a rate observed as ``alarms / trials``.

    ``[B(a/2; k, n - k + 1), B(1 - a/2; k + 1, n - k)]`` with ``B`` the beta
    quantile, ``a = 1 - level`` (C. J. Clopper, E. S. Pearson, Biometrika 26, 1934).
    """
    tail = (1 - level) / 2
    low = 0.0 if alarms == 0 else float(stats.beta.ppf(tail, alarms, trials - alarms + 1))
    high = 1.0 if alarms == trials else float(stats.beta.ppf(1 - tail, alarms + 1, trials - alarms))
    return low, high


def out_of_line(alarms: int, trials: int, nominal: float = 2 * UNUSUAL, alpha: float = 1e-3) -> bool:
    """Whether ``alarms`` in ``trials`` is too many for the nominal rate: binomial upper tail below ``alpha``."""
    return bool(stats.binom.sf(alarms - 1, trials, nominal) < alpha)
