"""Birthday spacings (rnglab.empirical.stattests.birthday): equal circular spacings counted by hand.

Birthdays 0, 2, 4, 7 in a year of 10 days: spacings 2, 2, 3 and around the circle 10 - 7 + 0 = 3; sorted 2, 2, 3, 3:
two repeats. In a year of 8 days the circular spacing is 1: 1, 2, 2, 3, one repeat (TestU01's smarsa_BirthdaySpacings
statistic, the circular spacing included).
"""

import numpy as np

from rnglab.empirical.stattests.birthday import equal_spacings


def test_circular_spacings_by_hand():
    assert equal_spacings(np.array([7, 0, 4, 2], dtype=np.uint64), 10) == 2
    assert equal_spacings(np.array([7, 0, 4, 2], dtype=np.uint64), 8) == 1


def test_all_equal_spacings_and_shared_birthdays():
    assert equal_spacings(np.array([0, 25, 50, 75], dtype=np.uint64), 100) == 3
    assert equal_spacings(np.array([5, 5, 5, 9], dtype=np.uint64), 12) == 1  # spacings 0, 0, 4, 8


def test_the_birthdays_become_their_sorted_spacings_in_place():
    birthdays = np.array([9, 1, 6], dtype=np.uint64)  # sorted 1, 6, 9: spacings 5, 3 and around 12 - 9 + 1 = 4
    assert equal_spacings(birthdays, 12) == 0
    assert birthdays.tolist() == [3, 4, 5]  # no second array of n spacings
