"""Numbers as the pages write them (rnglab.pages.numbers): exact below 10^6 and near powers of two, else log2."""

import pytest

from rnglab.pages.numbers import YEAR, duration, duration_of_bits, power, probability


@pytest.mark.parametrize("value, written", [
    (999_999, "999,999"), (0.5, "0.5"), (None, "-"),
    (2**31 - 2, "2^31 - 2"), (2**64, "2^64"),
    (10**7, "2^23.25"),  # log2(10^7) = 23.2535
    (3 * 2**40 + 5, "2^41.58"),  # log2(3) + 40 = 41.585
])
def test_power(value, written):
    assert power(value) == written


def test_probability_keeps_three_digits():
    assert [probability(p) for p in (0, 1, 0.5, 1e-5, 0.0123456)] == ["0", "1", "0.5", "1.000e-05", "0.0123"]


def test_durations_take_the_largest_readable_unit():
    assert [duration(s) for s in (0.5, 90, 86_400)] == ["0.5 s", "1.5 minutes", "1 days"]
    assert duration(YEAR * 2**30) == "2^30.00 years"
    assert YEAR == 31_557_600  # a Julian year


def test_durations_beyond_a_float_go_through_log2():
    # 2^20000 s = 2^(20000 - log2(31557600)) years, log2(31557600) = 24.9115
    assert duration_of_bits(20_000) == "2^19975.09 years"
    assert duration_of_bits(10) == "17.1 minutes"  # 1024 s
