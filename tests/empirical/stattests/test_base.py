"""What every empirical test shares (rnglab.empirical.stattests.base): Pearson's chi-square on Knuth's dice
example, its validity rule, and the registry's lookups.

Knuth, TAOCP vol. 2, 3.3.1 A: 144 throws of two dice with sums 2..12 observed 2, 4, 10, 12, 22, 29, 21, 15, 14, 9, 6
against 144 p_s = 4, 8, 12, 16, 20, 24, 20, 16, 12, 8, 4 give V = 7 7/48 with 10 degrees of freedom.
"""

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from rnglab.empirical.stattests.base import check_sample, chi_square, get_test, register


def test_knuth_s_dice():
    observed = [2, 4, 10, 12, 22, 29, 21, 15, 14, 9, 6]
    expected = [4, 8, 12, 16, 20, 24, 20, 16, 12, 8, 4]
    statistic, pvalue, df = chi_square(np.array(observed), np.array(expected), min_expected=4)
    assert statistic == pytest.approx(float(Fraction(7) + Fraction(7, 48)), rel=1e-15) and df == 10
    assert pvalue == pytest.approx(stats.chi2.sf(7 + 7 / 48, 10), rel=1e-12)
    assert chi_square(np.array(observed), np.array(expected), ddof=2, min_expected=4)[2] == 8


def test_small_expected_counts_are_refused():
    with pytest.raises(ValueError, match="every expected count must be >= 5 for the chi-square approximation; "
                                         "the smallest is 4"):
        chi_square(np.array([5, 5]), np.array([4.0, 6.0]))
    with pytest.raises(ValueError, match="chi-square needs >= 2 matching categories"):
        chi_square(np.array([5]), np.array([5.0]))


def test_the_registry():
    assert get_test("frequency").test_name == "frequency"
    with pytest.raises(ValueError, match="unknown test 'frequence'; choose from "):
        get_test("frequence")
    with pytest.raises(ValueError, match="test 'frequency' is registered twice"):
        register("frequency")(lambda source, n: None)
    with pytest.raises(ValueError):
        check_sample("n", 3, 10)
    assert check_sample("n", 10, 10) == 10
