"""The audit's grades (rnglab.audit.grades): each question's rule at its thresholds, worked by hand.

A standard deck has 52! orders, log2 52! = 225.58 bits; a seed of time(0) over a day reaches at most 86,400 of
them (16.4 bits): reachability fails, as in the README's Deitel/MSVC audit. 2^42 s is 139,000 Julian years, the
unpredictability pass mark.
"""

import math

import pytest

from rnglab.audit.grades import GRADES, RULES, Rule, finding, overall

LOG2_52_FACTORIAL = math.lgamma(53) / math.log(2)


def test_the_six_questions_in_report_order():
    assert list(RULES) == ["reachability", "scaling", "shuffle", "unpredictability", "repeatability", "raw"]


def test_reachability_passes_at_every_deal_and_warns_from_2_to_the_128():
    rule = RULES["reachability"]
    assert LOG2_52_FACTORIAL == pytest.approx(225.58, abs=0.005)
    assert rule.grade(LOG2_52_FACTORIAL, pass_at=LOG2_52_FACTORIAL) == "pass"
    assert rule.grade(128.0, pass_at=LOG2_52_FACTORIAL) == "warn"
    assert rule.grade(math.log2(86_400), pass_at=LOG2_52_FACTORIAL) == "fail"


@pytest.mark.parametrize("question, values, grades", [
    ("scaling", [math.inf, 40.0, 29.5], ["pass", "warn", "fail"]),
    ("unpredictability", [42.0, 41.0, 25.0, 24.99], ["pass", "warn", "warn", "fail"]),
    ("repeatability", [1e-9, 1e-6, 1.001e-3, 0.997], ["pass", "warn", "fail", "fail"]),
    ("raw", [1e-7, 1e-9, 1e-10, 1e-12], ["pass", "warn", "warn", "fail"]),
])
def test_each_rule_at_its_thresholds(question, values, grades):
    assert [RULES[question].grade(v) for v in values] == grades


def test_the_unpredictability_mark_is_139000_years():
    assert 2**42 / (365.25 * 86_400) == pytest.approx(139_365, abs=1)
    assert "139,000 years" in RULES["unpredictability"].text


def test_a_finding_is_graded_by_its_rule_or_stated():
    graded = finding("scaling", 29.51, "bias detectable after 2^29.51 draws", [["bound", "52"]])
    assert (graded.grade, graded.symbol, graded.number) == ("fail", GRADES["fail"], RULES["scaling"].number)
    stated = finding("shuffle", 12.0, "sampled", [], stated=("warn", "log2 of the shuffles sampled"))
    assert (stated.grade, stated.number, stated.value) == ("warn", "log2 of the shuffles sampled", 12.0)
    assert finding("unpredictability", 60.0, "", [], fails=True).grade == "fail"
    assert overall([graded, stated]) == "fail" and overall([stated]) == "warn" and overall([]) == "pass"


@pytest.mark.parametrize("question, boundary, grade, words", [
    # The rule's text says what a number exactly at a threshold gets: the code's convention (the module notes),
    # "at or beyond pass_at passes, at or beyond warn_at warns". The texts said "more than 2^42 s" (42.0 passes),
    # "more than 2^40" (40.0 warns) and "fail at or above 10^-3" (10^-3 warns).
    ("scaling", 40.0, "warn", "warn when the bias needs at least 2^40 draws"),
    ("shuffle", 40.0, "warn", "warn when its bias needs at least 2^40 shuffles"),
    ("unpredictability", 42.0, "pass", "takes one core at least 2^42 s"),
    ("unpredictability", 25.0, "warn", "warn from 2^25 s"),
    ("repeatability", 1e-9, "pass", "pass at or below 10^-9"),
    ("repeatability", 1e-3, "warn", "warn at or below 10^-3; fail above"),
    ("raw", 1e-7, "pass", "pass when no p-value is beyond 10^-7 from either end"),
    ("raw", 1e-10, "warn", "warn down to 10^-10; fail beyond"),
])
def test_each_rule_s_text_gives_the_grade_the_code_gives_at_its_threshold(question, boundary, grade, words):
    rule = RULES[question]
    assert rule.grade(boundary) == grade and words in rule.text


def test_a_rule_grades_by_its_thresholds():
    rule = Rule("x", "X", "bits", 42.0, 25.0, False, "")
    assert [rule.grade(v) for v in (42.0, 41.9, 25.0, 24.9)] == ["pass", "warn", "warn", "fail"]
    lower = Rule("y", "Y", "p", 1e-9, 1e-3, True, "")
    assert [lower.grade(v) for v in (1e-10, 1e-4, 0.5)] == ["pass", "warn", "fail"]
    assert overall([]) == "pass"


def test_a_stated_grade_keeps_the_rule_and_names_its_number():
    graded = finding("shuffle", 14.3, "h", [])
    assert (graded.grade, graded.number) == ("fail", RULES["shuffle"].number)
    stated = finding("shuffle", 0.42, "h", [], stated=("warn", "a p-value"))
    assert (stated.grade, stated.value, stated.number, stated.rule) == ("warn", 0.42, "a p-value",
                                                                         RULES["shuffle"].text)
