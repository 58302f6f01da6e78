"""Second-level testing's Anderson-Darling statistic (rnglab.empirical.secondlevel) by hand and at the published
critical points of its limiting law.

By hand: one p-value 1/2 gives ``A^2 = -1 - (ln 1/2 + ln 1/2) = 2 ln 2 - 1``. The limiting law of A^2 has the
critical values 1.933, 2.492 and 3.857 at 0.90, 0.95 and 0.99 (M. A. Stephens, JASA 69, 1974, table 1A; Marsaglia
and Marsaglia, J. Stat. Software 9(2), 2004, whose approximation the module uses).
"""

import math

import numpy as np
import pytest

from rnglab.empirical.secondlevel import anderson_darling_uniform


def test_one_p_value_by_hand():
    statistic, _ = anderson_darling_uniform([0.5])
    assert statistic == pytest.approx(2 * math.log(2) - 1, rel=1e-15)


def test_the_statistic_is_symmetric_and_ignores_order():
    sample = [0.1, 0.35, 0.5, 0.62, 0.9]
    mirrored = [1 - p for p in sample]
    assert anderson_darling_uniform(sample)[0] == pytest.approx(anderson_darling_uniform(mirrored)[0], rel=1e-12)
    assert anderson_darling_uniform(sample[::-1]) == anderson_darling_uniform(sample)


@pytest.mark.parametrize("critical, level", [(1.933, 0.10), (2.492, 0.05), (3.857, 0.01)])
def test_p_values_at_the_critical_points(critical, level):
    # a sample of 1000 whose statistic is the critical value: the midpoints (i - 1/2) / n (A^2 = 1 / (12 n))
    # tilted by u -> u^g, g found by bisection (A^2 grows as g falls below 1)
    n = 1000
    base = (np.arange(1, n + 1) - 0.5) / n
    low, high = 0.0, 1.0
    for _ in range(60):
        g = (low + high) / 2
        statistic = anderson_darling_uniform(base**g)[0]
        low, high = (low, g) if statistic < critical else (g, high)
    statistic, p = anderson_darling_uniform(base**((low + high) / 2))
    assert statistic == pytest.approx(critical, abs=1e-6)
    assert p == pytest.approx(level, abs=2e-3)
