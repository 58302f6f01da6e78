"""Verdicts: the two-sided suspect window, graded levels and p-value formatting."""

import pytest

from rnglab.empirical.verdicts import GRADES, Thresholds, format_pvalue, grade, is_suspect


@pytest.mark.parametrize("pvalue, expected", [
    (0.5, "normal"), (0.001, "normal"), (0.999, "normal"),
    (9.9e-4, "unusual"), (1 - 9.9e-4, "unusual"),
    (9.9e-6, "suspicious"), (1 - 9.9e-6, "suspicious"),
    (9.9e-8, "very suspicious"), (1 - 9.9e-8, "very suspicious"),
    (9.9e-11, "FAIL"), (0.0, "FAIL"), (1.0, "FAIL"),
])
def test_grades_are_two_sided(pvalue, expected):
    assert grade(pvalue) == expected


def test_thresholds_are_arguments():
    strict = Thresholds(unusual=0.05, suspicious=0.01, very_suspicious=1e-3, fail=1e-4)
    assert [grade(p, strict) for p in (0.1, 0.02, 0.005, 5e-4, 5e-5)] == list(GRADES)


def test_thresholds_must_decrease():
    with pytest.raises(ValueError, match="thresholds must decrease"):
        Thresholds(unusual=1e-5, suspicious=1e-3)


@pytest.mark.parametrize("pvalue, suspect", [(0.5, False), (0.001, False), (0.999, False),
                                             (0.0009, True), (0.9991, True)])
def test_default_window(pvalue, suspect):
    assert is_suspect(pvalue) is suspect


def test_window_is_an_argument():
    assert is_suspect(0.02, (0.05, 0.95)) and not is_suspect(0.02, (0.01, 0.99))


@pytest.mark.parametrize("call", [lambda: grade(1.5), lambda: is_suspect(-0.1), lambda: is_suspect(0.5, (0.9, 0.1))])
def test_bad_input(call):
    with pytest.raises(ValueError):
        call()


@pytest.mark.parametrize("pvalue, text", [(0.4321, "0.4321"), (3.2e-7, "3.2e-07"), (1 - 4.1e-6, "1 - 4.1e-06"),
                                          (0.0, "eps"), (1.0, "1 - eps"), (0.995, "1 - 5.0e-03")])
def test_format_pvalue(pvalue, text):
    assert format_pvalue(pvalue) == text
