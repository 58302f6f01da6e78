"""Validation of the whole battery (slow): uniform p-values on a good generator, failures on bad ones.

Run with ``python -m pytest tests/empirical/test_validation.py -m slow``.
"""

import functools

import numpy as np
import pytest
from scipy import stats

from rnglab.empirical.battery import get_battery, result_labels, run_battery
from rnglab.generators import make_source
from rnglab.streams.gateway import BitSelection, select

#: Every bit of each output.
ALL_BITS = BitSelection()
REPLICATIONS = 200

pytestmark = pytest.mark.slow


ENTRIES = get_battery("validation").entries


@functools.cache
def pcg64_pvalues() -> np.ndarray:
    """First-level p-values of the validation battery on PCG64, one row per seed 0..199, one column per test."""
    runs = [run_battery(lambda seed: make_source("pcg64", seed), get_battery("validation"), seed) for seed in range(REPLICATIONS)]
    return np.array([[r.pvalue for r in run.results] for run in runs])


@pytest.mark.parametrize("index", range(len(ENTRIES)), ids=[entry.test for entry in ENTRIES])
def test_pcg64_pvalues_are_uniform(index):
    pvalues = pcg64_pvalues()[:, index]
    assert stats.kstest(pvalues, "uniform").pvalue > 0.001
    assert abs(np.mean(pvalues) - 0.5) < 4 * np.sqrt(1 / 12 / REPLICATIONS)


def test_false_alarm_rate_matches_the_window():
    # every test: P(p outside [0.001, 0.999]) = 0.002 under the null; 16 tests x 200 runs give 6.4 expected
    pvalues = pcg64_pvalues().ravel()
    alarms = int(np.sum((pvalues < 0.001) | (pvalues > 0.999)))
    assert stats.binom.cdf(alarms, len(pvalues), 0.002) > 1e-4 and stats.binom.sf(alarms - 1, len(pvalues), 0.002) > 1e-4


def failures(name, selection=ALL_BITS, seed=12345):
    """Tests of the small battery whose p-value is a FAIL (beyond 1e-10 from either end)."""
    result = run_battery(lambda s: select(make_source(name, s), selection), get_battery("small"), seed)
    return {label for label, r in zip(result_labels(result.results), result.results)
            if min(r.pvalue, 1 - r.pvalue) < 1e-10}


def test_minstd_fails_as_in_smallcrush():
    # L'Ecuyer and Simard, TestU01 (ACM TOMS 33(4), 2007), SmallCrush on LCG(2^31-1, 16807):
    # birthday spacings, collision and maximum-of-t fail
    assert {"birthday-spacings d=2^30 t=2", "collision", "max-of-t"} <= failures("minstd")


def test_randu_fails_birthday_collision_and_three_dimensions():
    # RANDU's triples lie on 15 planes (Knuth 3.3.4): the 3-dimensional serial tests fail
    assert {"birthday-spacings d=2^30 t=2", "collision", "serial", "serial-overlapping"} <= failures("randu")


@pytest.mark.parametrize("name", ["ansic", "msvc"])
def test_fifteen_bit_rand_fails_birthday_and_collision(name):
    assert {"birthday-spacings d=2^30 t=2", "collision"} <= failures(name)


def test_msvc_full_state_fails():
    # the whole 32-bit state of MSVC's LCG: low bits with short periods
    assert len(failures("lcg:a=214013,c=2531011,m=2^32")) >= 3


@pytest.mark.parametrize("name", ["ranqd1", "glibc_type0", "drand48"])
def test_low_bits_of_power_of_two_lcgs_fail(name):
    # bit k of a power-of-two LCG has period at most 2^(k+1) (Knuth 3.2.1.1)
    assert {"frequency", "serial", "fourier", "hamming-weight"} <= failures(name, BitSelection(low=8))


@pytest.mark.parametrize("name, expected", [("pcg64", set()), ("mt19937", {"linear-complexity low=1"})])
def test_good_generators_pass_the_small_battery(name, expected):
    # MT19937 fails only the linear complexity of its low bit (19,937, its state size: its real weakness)
    assert failures(name) == expected
