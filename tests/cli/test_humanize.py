"""Numbers for people (rnglab.cli.humanize): hand-computed cases."""

from fractions import Fraction

from rnglab.cli.humanize import fraction, integer
from rnglab.pages.tables import collapse


def test_short_fractions_stay_exact_long_ones_become_decimals():
    assert fraction("631/32768") == "631/32768"
    assert fraction(Fraction(2**70 + 1, 3 * 2**70)) == "0.333333"


def test_a_long_fraction_near_its_unbiased_value_shows_the_offset():
    # modulo 3 from R = 2^64: 2^64 = 3 * 6148914691236517205 + 1, so output 0 has one value more:
    # p = 6148914691236517206 / 2^64 = 1/3 + (1 - 1/3) / 2^64 = 1/3 + 3.61e-20
    p = Fraction(6148914691236517206, 2**64)
    assert fraction(p, Fraction(1, 3)) == "1/3 + 3.61e-20"
    assert fraction(Fraction(6148914691236517205, 2**64), Fraction(1, 3)) == "1/3 - 1.81e-20"
    assert fraction(Fraction(6148914691236517206, 6148914691236517205), 1) == "1 + 1.63e-19"


def test_integers():
    assert integer(2**64) == "2^64" and integer(2**32) == "2^32"
    assert integer(2**64 + 1) == "2^64+1" and integer(2**31 - 1) == "2^31-1" and integer(2**32 - 999) == "2^32-999"
    assert integer(65535) == "65535" and integer(1024) == "1024" and integer(2**32 - 1000) == "4294966296"
    assert integer(2964997501730992367139975619393160740864) == "2.965e+39"
    assert integer(999_999_999_999_999) == "999999999999999"
    assert integer(3**700) == "about 2^1109"


def test_identical_rows_collapse_in_order():
    rows = [["modulo", "no", 1], ["threshold", "yes", 0], ["multiply-shift", "no", 1], ["lemire", "yes", 0],
            ["bitmask", "yes", 2]]
    assert collapse(rows) == [["modulo, multiply-shift", "no", 1], ["threshold, lemire", "yes", 0],
                              ["bitmask", "yes", 2]]


def test_human_bytes_uses_the_largest_binary_unit():
    from rnglab.core.params import human_bytes

    assert [human_bytes(x) for x in (0, 1023, 1024, 1295, 3 * 2**19, 25 * 2**40)] == \
        ["0 bytes", "1023 bytes", "1 KiB", "1.26 KiB", "1.5 MiB", "25 TiB"]
