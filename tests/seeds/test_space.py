"""Seed spaces (rnglab.seeds.space): ranges and policies over windows, worked by hand (times in UTC).

2026-11-22T10:00:00Z is Unix time 1795341600; 05:07:18 is 18,438,000 ms after midnight; a window ``±60s``
holds the 120 start seconds ``[t - 60, t + 60)``.
"""

import numpy as np
import pytest

from rnglab.seeds.space import parse_seed_space, seed_array, seed_dtype, seed_range_space


def test_ranges_include_both_ends_and_merge_where_they_touch():
    space = parse_seed_space("-3..3,100..200,4..9")
    assert space.ranges == ((-3, 10), (100, 201)) and space.size == 13 + 101
    assert str(space) == "seeds -3..9,100..200"
    assert space.seeds().tolist() == [*range(-3, 10), *range(100, 201)]
    assert list(space.chunks(50)) == [(-3, 10), (100, 150), (150, 200), (200, 201)]


def test_expressions_and_the_describe_dict():
    space = parse_seed_space("0..2^32-1")
    assert space.describe() == {"label": "seeds 0..4294967295", "size": 2**32, "ranges": [[0, 2**32]]}
    with pytest.raises(ValueError, match="at most"):
        space.seeds()


def test_policies_over_a_window():
    seconds = parse_seed_space("time-s", "2026-11-22T10:00:00±60s")
    assert seconds.ranges == ((1_795_341_540, 1_795_341_660),) and seconds.size == 120
    millis = parse_seed_space("ms-midnight", "2026-11-22T05:07:18±60s")
    assert millis.ranges == ((18_438_000 - 60_000, 18_438_000 + 60_000),)
    day = parse_seed_space("time-s", "1d", now=1_700_000_000)
    assert day.ranges == ((1_700_000_000 - 86_400, 1_700_000_000),) and str(day) == "time-s over 1d"


@pytest.mark.parametrize("text, window, message", [
    ("5..4", None, "needs A <= B"),
    ("0..9,5..20", None, "seed ranges overlap at 5"),
    ("0..9", "1d", "--window applies to a seed policy"),
    ("os", None, "not enumerable"),
    ("  ", None, "a seed space is a range"),
])
def test_refusals_name_the_rule(text, window, message):
    with pytest.raises(ValueError, match=message):
        parse_seed_space(text, window)


def test_seed_arrays_take_the_smallest_exact_dtype():
    assert seed_dtype(0, 2**64 - 1) == np.uint64 and seed_dtype(-1, 5) == np.int64
    assert seed_dtype(-1, 2**63) == object
    assert seed_array(2**64 - 2, 2**64).tolist() == [2**64 - 2, 2**64 - 1]
    assert seed_range_space([(0, 3), (3, 5)]).ranges == ((0, 5),)
