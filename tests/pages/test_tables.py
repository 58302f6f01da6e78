"""Rows that say the same thing shown once (rnglab.pages.tables), worked by hand."""

from rnglab.pages.tables import collapse


def test_rows_equal_but_for_one_column_are_joined_in_order_of_first_appearance():
    rows = [["modulo", 631, 630], ["lemire", 630, 630], ["multiply-shift", 631, 630], ["bitmask", 630, 630],
            ["float-multiply", 631, 630]]
    assert collapse(rows) == [["modulo, multiply-shift, float-multiply", 631, 630], ["lemire, bitmask", 630, 630]]


def test_another_column_and_cells_compared_as_text():
    rows = [(52, 1, "modulo"), (52, 1, "lemire"), (52, "1", "bitmask"), (53, 1, "modulo")]
    assert collapse(rows, column=2) == [[52, 1, "modulo, lemire, bitmask"], [53, 1, "modulo"]]
    assert collapse([]) == []
    assert rows[0] == (52, 1, "modulo")  # the input rows are left as they were


def test_rows_equal_but_for_one_column_collapse_on_that_column():
    rows = [["15-bit", 52, "modulo", "1 + 0.00159"], ["15-bit", 52, "float-multiply", "1 + 0.00159"],
            ["15-bit", 52, "lemire", "1"], ["32-bit", 52, "modulo", "1 + 1.21e-08"]]
    assert collapse(rows, column=2) == [["15-bit", 52, "modulo, float-multiply", "1 + 0.00159"],
                                        ["15-bit", 52, "lemire", "1"], ["32-bit", 52, "modulo", "1 + 1.21e-08"]]
