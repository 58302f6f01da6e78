"""The weight distribution's interval probability (rnglab.empirical.stattests.weights), exact at the resolution read.

By hand: MSVC's 2^15 levels put exactly 1/8 of them in [0, 1/8); MINSTD's L = 2^31 - 2 levels put
``ceil(L / 8) = 2^28`` of them there, ``P = 2^28 / L = 1/8 + 1/(4 L)``; 10 kept bits (1024 levels) put
``ceil(307.2) - ceil(102.4) = 205`` in [0.1, 0.3).
"""

from fractions import Fraction

from rnglab.empirical.stattests.weights import interval_probability
from rnglab.generators import make_source
from rnglab.streams.gateway import BitSelection, select


def test_power_of_two_levels_are_exact():
    assert interval_probability(make_source("msvc"), 0.0, 0.125) == 0.125


def test_minstd_s_levels_are_one_quarter_level_off():
    levels = 2**31 - 2
    probability = interval_probability(make_source("minstd"), 0.0, 0.125)
    assert probability == 2**28 / levels
    assert Fraction(2**28, levels) == Fraction(1, 8) + Fraction(1, 4 * levels)


def test_a_bit_selection_sets_the_levels():
    assert interval_probability(select(make_source("minstd"), BitSelection(keep=10)), 0.1, 0.3) == 205 / 1024
    assert interval_probability(make_source("pcg64"), 0.0, 0.5) == 0.5  # 2^53 levels read
    assert interval_probability(make_source("pcg64"), 0.25, 0.75) == 0.5
