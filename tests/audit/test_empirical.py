"""The audit's raw-output section (rnglab.audit.empirical): the battery, run-until-fail budgeted in bytes, each test
counted once, and what a failed test of linearity over GF(2) means for a card game."""

import pytest

from rnglab.audit import from_pipeline, from_table
from rnglab.empirical.battery import get_battery


def test_run_until_fail_finds_randu_and_not_pcg64():
    from rnglab.audit.empirical import until_fail

    bad = until_fail(from_table({"generator": "randu", "seeding": "os", "shuffle": "fisher-yates"}), get_battery("smoke"), 2**26)
    assert bad.stopped == "fail" and bad.bytes_to_fail is not None
    good = until_fail(from_table({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates"}), get_battery("small"), 2**22)
    assert good.bytes_to_fail is None and good.stages


def test_run_until_fail_is_budgeted_in_bytes():
    # The same stages on any machine: a stage that would read more than the budget is not started.
    from rnglab.audit.empirical import UNTIL_FAIL_BYTES, until_fail

    assert UNTIL_FAIL_BYTES == 2**25
    run = until_fail(from_table({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates"}), get_battery("smoke"), 2**20)
    assert run.stages[-1].bytes == 2**20  # the stages are powers of two, the last one the budget
    assert [s.bytes for s in run.stages] == [s.bytes for s in until_fail(
        from_table({"generator": "pcg64", "seeding": "os", "shuffle": "fisher-yates"}), get_battery("smoke"), 2**20).stages]


def test_a_test_failed_by_the_battery_and_by_run_until_fail_counts_once():
    # CPython's MT19937 fails only the linear complexity of its lowest bit; run-until-fail fails the same test,
    # which the audit counted twice ("2 of 30"). Counted: the battery's 27, the scaled chi-square, the position
    # table; the GF(2)-linear failure is said in plain words.
    from rnglab.audit.empirical import raw_output

    raw = raw_output(from_pipeline("python3-shuffle"), get_battery("small"))
    facts = dict(raw.facts)
    assert raw.headline == ("1 of 29 tests FAIL; linear-complexity low=1: outputs linear over GF(2), about 624 of "
                            "them give the whole state (predictable)")
    assert facts["tests failed (FAIL)"] == "1 of 29"
    assert facts["battery"] == "small (27 tests, seed 20261124)"
    assert facts["tests counted"].startswith("29: the small battery's 27, the scaled chi-square and the position table")
    assert raw.table["rows"][-1][0].endswith("FAIL after 262,144 bytes on linear-complexity low=1")  # a 2^k stage
    [note] = [n for n in raw.notes if "GF(2)" in n]
    assert note.startswith("linear-complexity low=1 fails: python's outputs are linear over GF(2)")
    assert "about 624 consecutive outputs (19937 state bits, 32 bits an output)" in note


def test_the_linearity_note_is_only_for_failed_linearity_tests():
    from rnglab.audit.empirical import linearity_note

    target = from_pipeline("python3-shuffle")
    assert linearity_note(target, {"gap-16", "bcfn low=8"}) == []
    assert linearity_note(target, {"matrix-rank low=10", "linear-complexity low=1"})[0].startswith(
        "linear-complexity low=1 and matrix-rank low=10 fail: python's outputs are linear over GF(2)")
    # MSVC's rand() fails the linear complexity of its low bit, but an LCG is not linear over GF(2) (carries).
    [note] = linearity_note(from_pipeline("deitel-msvc"), {"linear-complexity low=1"})
    assert "linear recurrence over GF(2)" in note and note.endswith("msvc as a whole is not linear over GF(2)")


@pytest.mark.slow
def test_a_generator_that_fails_the_battery_fails_the_raw_output():
    # RANDU fails three tests of the smoke battery outright (p = eps); the scaled chi-square and the position
    # table are counted with them, and the grade is decided by the closest p-value, at distance 0 from an end.
    from rnglab.audit.empirical import raw_output

    raw = raw_output(from_table({"generator": "randu", "seeding": "os", "shuffle": "fisher-yates"}),
                     get_battery("smoke"), until_fail_bytes=0)
    assert (raw.grade, raw.value, raw.headline) == ("fail", 0.0, "3 of 16 tests FAIL")
    assert raw.facts == [["battery", "smoke (14 tests, seed 20261124)"],
                         ["tests counted", "16: the smoke battery's 14, the scaled chi-square and the position table"],
                         ["tests failed (FAIL)", "3 of 16"], ["p-value closest to 0 or 1", "eps"]]
    assert [row[0] for row in raw.table["rows"][-2:]] == ["float-multiply draws below 52 (2^20 draws)",
                                                        "position table of 20,000 real shuffles"]
