"""Knuth's runs-up test (TAOCP vol. 2, 3.3.2 G): by hand, the run counts across chunks and reads against the
definition, Knuth's constants, and the refusals.

The good-generator, bad-generator and validity tables of every Knuth test are in test_knuth.py.
"""

from fractions import Fraction
from math import factorial

import numpy as np
import pytest
from empirical.stattests.test_knuth import chunked_examples, cycling, reader, tiny_chunks  # noqa: F401 - a fixture
from hypothesis import given
from hypothesis import strategies as st

from rnglab.empirical.stattests import get_test
from rnglab.empirical.stattests.runs import MIN_VALUES, RUN_RATES, RUN_WEIGHTS, add_runs, closed_counts, runs_up
from rnglab.generators import ideal_source, make_source
from rnglab.streams.gateway import BitSelection, select


def test_runs_up_by_hand():
    # 1,2,3 then 0,1,2,3 repeated: one run of length 3, then runs of 4; n = 100 000 = 3 + 4 * 24999 + 1 ends
    # with a run "0" of length 1: counts (1, 0, 1, 24999, 0, 0).
    n = MIN_VALUES
    quarter = (n - 3) // 4
    result = runs_up(cycling([1, 2, 3, 0], 1023), n)  # 1024 levels: n <= L^2
    assert result.details["observed"].tolist() == [1, 0, 1, quarter, 0, 0]
    deviation = np.array([1, 0, 1, quarter, 0, 0]) - n * RUN_RATES
    assert result.statistic == pytest.approx(deviation @ RUN_WEIGHTS @ deviation / (n - 6))
    assert result.pvalue == 0.0


def run_up_counts(read, n):
    """The runs-up tally's counts of ``n`` values read at once, the open run closed."""
    counts, state = np.zeros(7, dtype=np.int64), np.zeros(2)
    add_runs(read, n, True, state, counts)
    return closed_counts(counts, state)


def test_run_up_counts_of_a_short_sequence():
    # 0.1 0.5 | 0.3 | 0.3 0.9 | 0.2: a tie ends a run; lengths 2, 1, 2, 1.
    assert run_up_counts(reader([0.1, 0.5, 0.3, 0.3, 0.9, 0.2]), 6).tolist() == [2, 2, 0, 0, 0, 0]


@pytest.mark.usefixtures("tiny_chunks")
@chunked_examples
@given(st.lists(st.floats(min_value=0, max_value=1, exclude_max=True), min_size=2, max_size=60))
def test_run_counts_across_chunks_equal_the_whole(values):
    starts = [0] + [j for j in range(1, len(values)) if values[j] <= values[j - 1]] + [len(values)]
    lengths = np.minimum(np.diff(starts), 6)
    expected = np.bincount(lengths, minlength=7)[1:]
    assert run_up_counts(reader(values), len(values)).tolist() == expected.tolist()


def test_runs_up_refuses_a_source_with_too_few_levels():
    with pytest.raises(ValueError, match=r"n <= L\^2 = 65536 values from a source of L = 256 levels"):
        get_test("runs-up")(select(ideal_source(2**32, 1), BitSelection(low=8)), 100_000)
    assert 1e-3 < get_test("runs-up")(ideal_source(2**15, 2), 10**7).pvalue < 1 - 1e-3


@pytest.mark.usefixtures("tiny_chunks")
@chunked_examples
@given(st.lists(st.floats(0, 1, exclude_max=True), min_size=2, max_size=60), st.data())
def test_runs_up_read_in_pieces_equal_the_whole(values, data):
    cuts = sorted(data.draw(st.lists(st.integers(0, len(values)), max_size=4)))
    counts, state, read = np.zeros(7, dtype=np.int64), np.zeros(2), reader(values)
    for start, stop in zip([0, *cuts], [*cuts, len(values)]):
        add_runs(read, stop - start, start == 0, state, counts)
    starts = [0] + [j for j in range(1, len(values)) if values[j] <= values[j - 1]] + [len(values)]
    expected = np.bincount(np.minimum(np.diff(starts), 6), minlength=7)[1:]
    assert closed_counts(counts, state).tolist() == expected.tolist()


def test_run_rates_are_knuths_b():
    # Knuth 3.3.2 G, eq. (11): b_i = i/(i+1)! - (i+1)/(i+2)! for i < 6 and b_6 = 6/7! (1/6, 5/24, ..., 1/840, as he
    # prints them); they sum to 1/2, the expected runs per value.
    exact = [Fraction(i, factorial(i + 1)) - Fraction(i + 1, factorial(i + 2)) for i in range(1, 6)]
    exact.append(Fraction(6, factorial(7)))
    assert RUN_RATES.tolist() == [float(rate) for rate in exact] and sum(exact) == Fraction(1, 2)


def test_run_weights_are_symmetric_as_knuth_prints_them():
    assert np.array_equal(RUN_WEIGHTS, RUN_WEIGHTS.T) and RUN_WEIGHTS[0, 0] == 4529.4 and RUN_WEIGHTS[5, 5] == 172860


def test_runs_up_refuses_fewer_values_than_its_tail_needs():
    with pytest.raises(ValueError, match=f"the runs-up test needs n >= {MIN_VALUES} values"):
        runs_up(make_source("pcg64", 1), MIN_VALUES - 1)
