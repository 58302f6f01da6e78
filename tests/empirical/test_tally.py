"""Every test with a tally: read in pieces along one stream, its result equals the test run on the same samples at
once, for sources of 64, 32 and 31 bits and each battery's options."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.empirical.battery import get_battery
from rnglab.empirical.stattests.base import TESTS, Tally, get_test
from rnglab.generators import as_generator

#: Sources of each resolution: whole 64-bit words, 32-bit words, and 31 bits (range 2^31 - 2, not a power of two).
SOURCES = ("pcg64", "mt19937", "minstd")


def tallied_entries():
    """The entries of ``small`` and ``standard`` whose test has a tally, once per test and options."""
    seen, entries = set(), []
    for battery in ("small", "standard", "smallcrush"):
        for entry in get_battery(battery).entries:
            key = (entry.test, repr(entry.options), entry.bits)
            if get_test(entry.test).tally is not None and key not in seen:
                seen.add(key)
                entries.append(entry)
    return entries


def entry_id(entry):
    options = ",".join(f"{k}={v}" for k, v in entry.options.items())
    return f"{entry.test}[{options}]" + (f"low={entry.bits.low}" if entry.bits else "")


def smallest_valid_size(entry, source) -> int:
    """The entry's battery size halved while its tally still accepts it (validity rules hold)."""
    tally = make_tally(entry, source)
    n = entry.n
    while n > 1:
        try:
            tally.check(n // 2)
        except ValueError:
            break
        n //= 2
    return n


def make_tally(entry, source) -> Tally:
    """The entry's tally on what it reads of ``source`` (:meth:`~rnglab.empirical.battery.Entry.view`), which the
    tally must then be extended with."""
    return get_test(entry.test).tally(entry.view(source), **entry.options)


def equal(a, b) -> bool:
    """Counts and labels exactly, through dicts; floats to 1e-12 relative: a sum of floats read in other pieces is
    rounded in another order."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, str):
        return a == b
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-12, atol=0.0, equal_nan=True))
    return bool(np.array_equal(a, b))


def same(a, b) -> bool:
    """The same result: statistic, p-value, parameters and every detail."""
    if a.test != b.test or a.params != b.params or a.details.keys() != b.details.keys():
        return False
    return equal(a.statistic, b.statistic) and equal(a.pvalue, b.pvalue) and \
        all(equal(a.details[k], b.details[k]) for k in a.details)


def pieces_result(entry, name, seed, steps):
    source = as_generator(name).make(seed)
    view = entry.view(source)
    tally = make_tally(entry, view)
    for n in steps:
        tally.extend(view, n)
    return tally.result(), source


def at_once_result(entry, name, seed, n):
    source = as_generator(name).make(seed)
    return get_test(entry.test)(entry.view(source), n, **entry.options), source


def test_the_tests_with_tallies_are_the_tests_of_the_batteries():
    assert {name for name, test in TESTS.items() if test.tally is not None} >= {"frequency"}


@pytest.mark.parametrize("name", SOURCES)
@pytest.mark.parametrize("entry", tallied_entries(), ids=entry_id)
def test_a_tally_read_in_pieces_equals_the_test_at_once(entry, name):
    source = as_generator(name).make(1)
    try:
        n = 4 * smallest_valid_size(entry, source)
        make_tally(entry, source).check(n)
    except ValueError:
        pytest.skip("the test refuses this source's resolution")
    steps = [n // 4, n // 4, n // 2 + 1, n - 3, n]
    pieces, read_in_pieces = pieces_result(entry, name, 7, steps)
    whole, read_at_once = at_once_result(entry, name, 7, n)
    assert same(pieces, whole)
    # and the same stream continues: the next output is the same
    assert read_in_pieces.random_raw(4).tolist() == read_at_once.random_raw(4).tolist()


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_random_pieces_equal_the_test_at_once(data):
    entry = data.draw(st.sampled_from(tallied_entries()), label="entry")
    name = data.draw(st.sampled_from(SOURCES), label="source")
    source = as_generator(name).make(1)
    try:
        first = smallest_valid_size(entry, source)
        make_tally(entry, source).check(first)
    except ValueError:
        return
    steps = sorted(data.draw(st.lists(st.integers(first, 3 * first), min_size=1, max_size=4), label="steps"))
    pieces, _ = pieces_result(entry, name, 3, steps)
    whole, _ = at_once_result(entry, name, 3, steps[-1])
    assert same(pieces, whole)


def test_a_tally_checks_the_rule_before_it_reads():
    source = as_generator("pcg64").make(1)
    tally = get_test("frequency").tally(source, d=256)
    with pytest.raises(ValueError, match="n / 256 >= 5"):
        tally.extend(source, 1000)
    assert tally.samples == 0 and source.random_raw(1)[0] == as_generator("pcg64").make(1).random_raw(1)[0]
    assert dataclasses.is_dataclass(tally.extend(source, 1280).result())


@pytest.mark.parametrize("name", SOURCES)
@pytest.mark.parametrize("entry", tallied_entries(), ids=entry_id)
def test_a_tally_counts_from_one_sample_on_below_its_rule(entry, name):
    """A run until it fails counts from the stream's start, before the samples are enough for the test's rule:
    pieces of 1, 2, 3, ... samples, unchecked, then the rest, equal the test at once."""
    source = as_generator(name).make(1)
    try:
        n = smallest_valid_size(entry, source)
        make_tally(entry, source).check(n)
    except ValueError:
        pytest.skip("the test refuses this source's resolution")
    pieces, whole = as_generator(name).make(9), as_generator(name).make(9)
    view = entry.view(pieces)
    tally = make_tally(entry, view)
    for size in (1, 2, 3, 5, 8, 13, 21):
        tally.extend(view, min(size, n), checked=False)
    tally.extend(view, n)
    assert same(tally.result(), get_test(entry.test)(entry.view(whole), n, **entry.options))
    assert pieces.random_raw(3).tolist() == whole.random_raw(3).tolist()
