"""``rnglab seeds`` (rnglab.cli.seeds): seed-space sizes of a window, and the chance two tables share a seed.

Worked by hand: ``time(0)`` over a day has 86,400 seeds (log2 = 16.3987...); milliseconds over 90 minutes
5,400,000; 1,000 tables on 86,400 equally likely seeds share one with probability
``1 - exp(-C(1000, 2) / 86400)`` = 0.99691514... (the birthday bound, Poisson approximation).
"""

import json
import math

import pytest
from cli_runs import run


def test_a_day_of_seconds_and_a_thousand_tables(capsys):
    status, out, _ = run(["seeds", "time-s", "--window", "1d", "--tables", "1000", "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and data["seeds"] == 86_400 and data["bits"] == pytest.approx(math.log2(86_400), abs=1e-12)
    assert data["sizes"] == {"minute": 60, "day": 86_400, "year": 31_536_000}
    assert data["collision"]["probability"] == pytest.approx(-math.expm1(-math.comb(1000, 2) / 86_400), rel=1e-12)
    assert data["collision"]["tables"] == 1000


def test_milliseconds_since_midnight_over_ninety_minutes(capsys):
    status, out, _ = run(["seeds", "ms-midnight", "--window", "90m"], capsys)
    assert status == 0 and "window 90m: 5400000 seeds (22.4 bits)" in out
    assert math.log2(5_400_000) == pytest.approx(22.36, abs=0.01)


def test_an_unknown_policy_is_one_line_and_status_2(capsys):
    status, _, err = run(["seeds", "time-minutes"], capsys)
    assert status == 2 and err.startswith("Error: ") and err.count("\n") == 1
