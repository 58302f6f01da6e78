"""The reducer registry (rnglab.reduction.reducers): each entry's map reaches every output exactly as often as
its counts say, enumerated over every source value of small ranges, and names resolve with one error message."""

import numpy as np
import pytest

from rnglab.reduction.reducers import REDUCERS, Reducer, as_reducer

CASES = [(52, 2**15), (6, 2**12), (10, 2**16), (7, 7), (5, 2**16)]


def served(reducer: Reducer, n: int, R: int) -> bool:
    try:
        reducer.check(n, R)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("name", [name for name in REDUCERS if name != "java-nextint"])  # R = 2^32 only: below
def test_the_map_reaches_each_output_as_often_as_the_counts_say(name):
    reducer = REDUCERS[name]
    checked = 0
    for n, R in CASES:
        if not served(reducer, n, R):
            continue
        values, accepted = reducer.map(np.arange(R, dtype=np.uint64), n, R)
        reached = np.bincount(values[accepted].astype(np.int64), minlength=n)
        counts, multiplicity = np.unique(reached, return_counts=True)
        result = reducer.counts(name, n, R)
        assert result.classes == tuple(sorted(zip(counts.tolist(), multiplicity.tolist()), reverse=True)), (n, R)
        assert result.rejected == R - int(accepted.sum())
        assert len(result.classes) == 1 or not reducer.unbiased  # an unbiased method has one class
        checked += 1
    assert checked


def java_next_int(word: int, n: int) -> tuple[int, bool]:
    """OpenJDK's ``Random.nextInt(bound)`` on one ``next(32)`` word: ``next(31)`` is its top 31 bits."""
    bits = word >> 1
    if n & (n - 1) == 0:
        return (n * bits) >> 31, True
    value = bits % n
    return value, bits - value + (n - 1) < 2**31


@pytest.mark.parametrize("n", [52, 10, 64, 2**30 + 1])
def test_java_nextint_is_openjdk_s_loop(n):
    edge = 2 * (2**31 - 2**31 % n)  # the first word whose next(31) is rejected
    words = [0, 1, 2, 2**31, edge - 2, edge - 1, edge, edge + 1, 2**32 - 1, 123_456_789, 3_000_000_001]
    values, accepted = REDUCERS["java-nextint"].map(np.array(words, dtype=np.uint64), n, 2**32)
    expected = [java_next_int(word, n) for word in words]
    assert [(int(v), bool(a)) if a else (None, False) for v, a in zip(values, accepted)] == \
        [(v, True) if a else (None, False) for v, a in expected]


def test_the_unbiased_methods_are_the_rejecting_ones():
    assert {name for name, reducer in REDUCERS.items() if not reducer.unbiased} == \
        {"modulo", "float-multiply", "multiply-shift"}


def test_names_resolve_once_and_unknown_names_list_the_choices():
    assert as_reducer("lemire") is REDUCERS["lemire"] and as_reducer(REDUCERS["modulo"]) is REDUCERS["modulo"]
    assert str(REDUCERS["bitmask"]) == "bitmask"
    with pytest.raises(ValueError, match="unknown reducer 'mod'; choose from modulo, float-multiply"):
        as_reducer("mod")


def test_a_bound_above_the_range_is_refused():
    with pytest.raises(ValueError):
        REDUCERS["modulo"].check(2**15 + 1, 2**15)
