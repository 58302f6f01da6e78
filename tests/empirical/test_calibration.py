"""Calibration (issue 13): no battery test raises more false alarms than nominal on an ideal source of any resolution.

Fast checks of the helpers, and (slow, ``pytest -m slow``, about 2 minutes on
an idle 2-core machine) the ``smoke`` and ``validation`` batteries 20 times and
the ``small`` battery once on ideal sources of every resolution rnglab serves.
``bench/bench_calibration.py`` runs more replications and writes the table that the
documentation's validation page includes.
"""

import pytest

from rnglab.empirical.battery import Battery, Entry, get_battery
from rnglab.empirical.calibration import RESOLUTIONS, Calibration, calibrate, out_of_line, rate_interval

CASES = list(RESOLUTIONS)


def test_rate_interval_is_clopper_pearson():
    # Clopper-Pearson 95 % for 0 of 100: [0, 1 - 0.025^(1/100)] = [0, 0.03622]; 3 of 1000: [0.000619, 0.008742].
    assert rate_interval(0, 100) == (0.0, pytest.approx(1 - 0.025 ** (1 / 100)))
    low, high = rate_interval(3, 1000)
    assert low == pytest.approx(0.000619, abs=1e-6) and high == pytest.approx(0.008742, abs=1e-6)


def test_out_of_line_is_the_binomial_upper_tail():
    # Nominal 0.2 % of 1000: P(X >= 8) = 1.1e-3 is in line, P(X >= 9) = 2.4e-4 is not; 100 of 100 is.
    assert not out_of_line(8, 1000) and out_of_line(9, 1000) and out_of_line(100, 100)


def test_alarms_count_both_ends():
    calibration = Calibration("b", 2, ("x", "y"), ((0.5, 0.0005, 0.9996), (0.002, 0.5, 0.5)))
    assert calibration.alarms() == [2, 0]


def test_calibrate_runs_every_entry_on_independent_sources():
    battery = Battery("one", "", (Entry("max-of-t", 50000, {"t": 6, "d": 10000}),))
    calibration = calibrate(battery, 2**15, 3)
    assert calibration.labels == ("max-of-t",) and len(set(calibration.pvalues[0])) == 3
    assert calibration.alarms() == [0]  # the textbook equal cells: p = 0, 3 of 3, at 2^15


@pytest.mark.slow
@pytest.mark.parametrize("resolution", CASES)
def test_batteries_keep_their_false_alarm_rate(resolution):
    for battery, replications in (("smoke", 20), ("validation", 20), ("small", 1)):
        calibration = calibrate(get_battery(battery), RESOLUTIONS[resolution], replications)
        alarms = calibration.alarms()
        assert not out_of_line(sum(alarms), replications * len(alarms)), (battery, calibration.labels, alarms)
        assert max(alarms) <= 2, (battery, calibration.labels, alarms)
