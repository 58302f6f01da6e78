"""Tallies whose samples straddle outputs (bit fields, bytes, walks, blocks cut from the bit stream), read in pieces
along one stream, equal the test at once: cases chosen so that a piece ends inside an output, and SmallCrush's
entries on their bits (10 bits an output, the top 30). tests/empirical/test_tally.py covers the batteries `small` and
`standard`."""

import pytest
from empirical.test_tally import equal

from rnglab.empirical.battery import get_battery
from rnglab.empirical.stattests.base import get_test
from rnglab.generators import as_generator
from rnglab.streams.gateway import BitSelection, select

#: (test, n, options, bits): samples of 32, 31 x 33, 3 x 8, 2 x 77, 150, 33 or 2 x 32 bits on outputs of 11 or 10 bits.
STRADDLING = [
    ("hamming-weight", 4000, {"block_bits": 32}, BitSelection(low=11)),
    ("matrix-rank", 2000, {"rows": 31, "columns": 33}, BitSelection(drop=3, keep=10)),
    ("count-ones", 8000, {"t": 3}, BitSelection(low=11)),
    ("hamming-independence", 3000, {"block_bits": 77}, BitSelection(low=10)),
    ("random-walk", 3000, {"length": 150}, BitSelection(low=11)),
    ("float-frequency", 20_000, {"word_bits": 33, "mantissa_bits": 2, "exponents": 8}, BitSelection(low=10)),
    ("gcd", 20_000, {"largest": 20}, BitSelection(low=11)),
]


def fiftieth_or_valid(entry) -> int:
    """A fiftieth of the entry's size, or its whole size where the test's rule refuses that (max-of-t)."""
    tally = get_test(entry.test).tally(select(as_generator("mt19937").make(1), entry.bits or BitSelection()),
                                       **entry.options)
    try:
        tally.check(entry.n // 50)
    except ValueError:
        return entry.n
    return entry.n // 50


SMALLCRUSH = [(e.test, fiftieth_or_valid(e), e.options, e.bits or BitSelection())
              for e in get_battery("smallcrush").entries if get_test(e.test).tally is not None]


def read_in_pieces(test, n, options, bits, name):
    """The tally read in four pieces, the test at once on the same stream, both sources, and whether some
    piece ended inside an output."""
    pieces_source, whole_source = as_generator(name).make(5), as_generator(name).make(5)
    view = select(pieces_source, bits)
    tally, straddled = get_test(test).tally(view, **options), False
    for size in (n // 2 + 1, n // 2 + 2, n - 7, n):
        tally.extend(view, size)
        straddled |= getattr(tally, "reader", None) is not None and tally.reader.held > 0
    whole = get_test(test)(select(whole_source, bits), n, **options)
    return tally.result(), whole, pieces_source, whole_source, straddled


@pytest.mark.parametrize("name", ["mt19937", "minstd"])
@pytest.mark.parametrize("test, n, options, bits", [pytest.param(*case, id=f"{case[0]}:{which}")
                                                    for which, cases in (("straddling", STRADDLING),
                                                                         ("smallcrush", SMALLCRUSH))
                                                    for case in cases])
def test_pieces_that_cut_samples_across_outputs_equal_the_test_at_once(test, n, options, bits, name):
    pieces, whole, pieces_source, whole_source, straddled = read_in_pieces(test, n, options, bits, name)
    assert pieces.params == whole.params and pieces.details.keys() == whole.details.keys()
    assert equal(pieces.statistic, whole.statistic) and equal(pieces.pvalue, whole.pvalue)
    assert all(equal(pieces.details[k], whole.details[k]) for k in pieces.details)
    assert pieces_source.random_raw(3).tolist() == whole_source.random_raw(3).tolist()
    assert straddled or (test, n, options, bits) not in STRADDLING
