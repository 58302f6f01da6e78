"""Tallies whose samples run across reads: gap and coupon stop right after their n-th segment (whatever the reads,
outputs skipped or handed back), read in random pieces against a one-value-at-a-time reference.

The pieces tests of runs up, of the serial correlation and of the tape, which use the helpers here, are in
stattests/test_runs.py, stattests/test_correlation.py and streams/test_tape.py."""

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rnglab.empirical.stattests import correlation as correlation_module
from rnglab.empirical.stattests import frequency as frequency_module
from rnglab.empirical.stattests import knuth as knuth_module
from rnglab.empirical.stattests import runs as runs_module
from rnglab.empirical.stattests.knuth import CouponTally, GapTally
from rnglab.generators import CallableSource
from rnglab.streams.gateway import BitSelection, select

pieces_examples = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture
def tiny_chunks(monkeypatch):
    """Read 7 values at a time, so that reads end anywhere in a segment; the serial correlation's shift is fixed
    by its first 5 values, so that reads end before, at and after it."""
    for module in (frequency_module, knuth_module, runs_module):
        monkeypatch.setattr(module, "CHUNK", 7)
    monkeypatch.setattr(correlation_module, "PROBE", 5)


def listed(outputs, high):
    """A source on ``[0, high]`` handing out ``outputs`` in order (then zeros)."""
    data, position = np.asarray(outputs, dtype=np.uint64), [0]

    def draw(size):
        start = position[0]
        position[0] += size
        return np.concatenate([data[start:start + size], np.zeros(max(0, start + size - data.size), np.uint64)])

    return CallableSource(draw, 0, high, vectorized=True)


def reader(values):
    """``read(size)``: the next ``size`` of ``values``."""
    rest = iter(values)
    return lambda size: np.fromiter(itertools.islice(rest, size), dtype=np.float64, count=size)


#: (range high, selection, the bit a test reads from an output or None when the output is skipped). Range 6 has
#: 2 genuine bits: the words skip the outputs 4 and 5 (rnglab.streams.gateway.genuine_words), which the tape must replay.
CASES = {
    "range 8": (7, BitSelection(), lambda x: int(x >= 4)),
    "range 6": (5, BitSelection(), lambda x: int(x >= 3)),
    "range 6, low bit": (5, BitSelection(low=1), lambda x: None if x >= 4 else x & 1),
}


def reference(outputs, bit, n, segment_ends):
    """The first ``n`` segment lengths, the values read and the outputs read up to the ``n``-th segment's end,
    one value at a time: ``segment_ends(state, value)`` returns the new state and whether a segment ended."""
    lengths, length, state, values = [], 0, None, 0
    for index, x in enumerate(outputs):
        value = bit(int(x))
        if value is None:
            continue
        values, length = values + 1, length + 1
        state, ended = segment_ends(state, value)
        if ended:
            lengths.append(length)
            length, state = 0, None
            if len(lengths) == n:
                return lengths, values, index + 1
    raise AssertionError("too few segments")


def gap_ends(state, value):
    return state, value == 0  # a hit: the uniform is in [0, 1/2)


def coupon_ends(state, value):
    seen = (state or frozenset()) | {value}
    return seen, len(seen) == 2


def read_in_pieces(tally, source, steps):
    for n in steps:
        tally.extend(source, n)
    return tally


#: (tally of two classes, the shortest segment's length in values, when a segment ends); a gap's hit is a 0.
SEGMENT_TESTS = {
    "gap": (lambda source: GapTally(source, beta=0.5, t=1), 1, gap_ends),
    "coupon": (lambda source: CouponTally(source, d=2, t=3), 2, coupon_ends),
}


@pytest.mark.parametrize("test", sorted(SEGMENT_TESTS))
@pieces_examples
@given(st.sampled_from(sorted(CASES)), st.integers(0, 2**32), st.lists(st.integers(10, 60), min_size=1, max_size=4))
def test_segments_read_in_pieces_stop_right_after_the_last(tiny_chunks, test, case, seed, steps):
    (high, selection, bit), (make_tally, shortest, segment_ends) = CASES[case], SEGMENT_TESTS[test]
    outputs, steps = np.random.default_rng(seed).integers(0, high + 1, 2000), sorted(steps)
    source = listed(outputs, high)
    view = select(source, selection)  # the stream goes on in source, right after the outputs behind the last word used
    result = read_in_pieces(make_tally(view), view, steps).result()
    lengths, values, position = reference(outputs, bit, steps[-1], segment_ends)
    assert result.details["observed"].tolist() == [lengths.count(shortest), len(lengths) - lengths.count(shortest)]
    assert result.details["values_read"] == values
    assert source.random_raw(3).tolist() == outputs[position:position + 3].tolist()


def test_a_coupon_tally_lumps_the_lengths_at_the_tail_of_its_final_size():
    # t = None: the lumped class depends on n, so the tally counts lengths up to 8 d and lumps them when asked.
    source = listed(np.random.default_rng(5).integers(0, 8, 50_000), 7)
    tally = CouponTally(source, d=4)
    small, large = tally.extend(source, 40).result(), tally.extend(source, 4000).result()
    assert small.params["t"] < large.params["t"] <= 32
    assert small.details["observed"].sum() == 40 and large.details["observed"].sum() == 4000


