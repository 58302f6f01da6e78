"""A bit selection is a view of the stream (issue #28): the same statistics as when it was a keyword of every test.

``tests/data/bit_selection/keyword_path.json`` holds the statistics, p-values and parameters that the
keyword path computed (``capture.py`` beside it, run on main at 7183508) for the CLI's selections
(``--drop-bits``, ``--low-bits``) on a 32-bit, a 64-bit, a 15-bit and a non-power-of-two generator, for the batteries'
own bits (SmallCrush's r and s, the low-bit folds), and for runs until failure, whose data is counted
in the generator's outputs. Here each case runs again with the source wrapped once, as the CLI wraps it.
The stages of the three runs until failure were captured again later (``stages_recaptured`` in the file): a fix
of the pacing changed the sizes of the early stages, not the statistics of a test at a given size.
"""

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from rnglab.core.results import to_plain
from rnglab.empirical.battery import get_battery, run_battery
from rnglab.empirical.stattests.knuth import gap
from rnglab.empirical.until_fail import stages
from rnglab.generators.catalog import make_source
from rnglab.streams.gateway import (
    BitSelection,
    SelectedBits,
    bit_fields,
    select,
    selected_source,
    selection_of,
    unselected,
    words,
)

CASES = json.loads((Path(__file__).parents[1] / "data" / "bit_selection" / "keyword_path.json").read_text())["cases"]
#: The cases run by default (one of each kind: --low-bits 8 on the smoke battery, SmallCrush's own bits on
#: MINSTD's non-power-of-two range, a run until failure with --low-bits 8 on MINSTD); the others with -m slow.
DEFAULT = {1, 14, 16}


def as_captured(name: str):
    """The battery as ``capture.py`` ran it: ``small``'s birthday spacings and collision whole (no ``block``) and
    held at 2^23 values (they count in blocks since, for memory)."""
    battery = get_battery(name)

    def captured(entry):
        if "block" not in entry.options:
            return entry
        return dataclasses.replace(entry, options={k: v for k, v in entry.options.items() if k != "block"}, max_n=2**23)

    return dataclasses.replace(battery, entries=tuple(captured(entry) for entry in battery.entries))


def scaled(name: str, scale: int):
    """The battery as ``capture.py`` scaled it."""
    battery = as_captured(name)
    entries = tuple(dataclasses.replace(e, n=min(e.n, max(e.n // scale, 100000))) for e in battery.entries
                    if scale == 1 or (e.test, e.options.get("d")) != ("max-of-t", 100000))
    return dataclasses.replace(battery, entries=entries)


def rows(results) -> list:
    return [[r.test, r.statistic, r.pvalue, to_plain(r.params)] for r in results]


def run_case(case: dict) -> dict:
    selection = BitSelection(**case["selection"])
    if case["kind"] == "battery":
        def factory(seed):
            return select(make_source(case["generator"], seed), selection)

        result = run_battery(factory, scaled(case["battery"], case["scale"]), case["seed"], tests=case["tests"])
        return {"results": rows(result.results), "skipped": [list(s) for s in result.skipped],
                "result_selection": result.selection}
    done = stages(select(make_source(case["generator"], case["seed"]), selection), as_captured(case["battery"]),
                  max_bytes=case["max_bytes"])
    return {"stages": [{"bytes": s.bytes, "bytes_every": s.bytes_every, "worst": s.worst,
                        "results": rows(s.results), "skipped": [list(k) for k in s.skipped]} for s in done]}


@pytest.mark.parametrize("index", [pytest.param(i, marks=() if i in DEFAULT else pytest.mark.slow)
                                   for i in range(len(CASES))])
def test_the_view_gives_the_keyword_paths_statistics(index):
    case = CASES[index]
    actual = run_case(case)
    for key, value in actual.items():  # floats through JSON as captured: repr round-trips, so equal to the last bit
        assert json.loads(json.dumps(value)) == case[key], (case["generator"], case["selection"], key)


def test_a_view_reads_the_selected_bits_of_the_wrapped_stream():
    view = SelectedBits(make_source("mt19937", 1), BitSelection(drop=4, keep=9))
    raw = make_source("mt19937", 1).random_raw(1000)
    assert (view.low, view.high, view.output_bits, view.name) == (0, 511, 9, "mt19937")
    np.testing.assert_array_equal(view.random_raw(1000), (raw >> np.uint64(19)) & np.uint64(511))
    assert selection_of(view) == BitSelection(drop=4, keep=9) and selection_of(view.inner) == BitSelection()
    assert unselected(view) is view.inner and select(view.inner, BitSelection()) is view.inner


def test_the_packing_kernel_reads_the_same_bits_through_the_view():
    view = select(make_source("minstd", 2), BitSelection(low=7))
    words_first = select(make_source("minstd", 2), BitSelection(low=7))
    fields = bit_fields(view, 999, 13)
    values, width = words(words_first, -(-999 * 13 // 7))
    bits = "".join(format(int(v), "07b") for v in values)
    assert width == 7
    assert [int(bits[13 * i:13 * i + 13], 2) for i in range(999)] == [int(f) for f in fields]


def test_words_handed_back_to_a_view_go_back_to_the_stream_as_their_outputs():
    """A gap test on a view stops right after its last gap; the stream goes on there: the next reader (here the
    stream itself, every bit) reads the outputs after the last one the test used (MINSTD: some outputs give no
    word, so the outputs behind the words are not counted by words)."""
    stream = make_source("minstd", 4)
    view = select(stream, BitSelection(low=10))
    gap(view, 300, beta=0.25, t=8)
    after = stream.random_raw(50)
    replay = make_source("minstd", 4)
    used = replay.random_raw(200000)
    selected = select(make_source("minstd", 4), BitSelection(low=10))
    u = selected.random_raw(200000) / 1024.0
    last = np.flatnonzero(u < 0.25)[299]  # the 300th gap ends at the 300th hit (the first gap opens the stream)
    below = np.flatnonzero(used - 1 < (1 << 30))  # MINSTD's words: outputs whose offset is below 2^30
    np.testing.assert_array_equal(after, used[below[last] + 1:below[last] + 51])


def test_a_view_refuses_words_that_are_not_the_last_it_gave():
    view = select(make_source("mt19937", 1), BitSelection(low=8))
    values = view.random_raw(10)
    with pytest.raises(ValueError, match="last words of its last read"):
        view.unread(values[:3])


def test_selected_source_is_a_factory_of_views():
    source = selected_source(lambda seed: make_source("pcg64", seed), BitSelection(drop=3), 5)
    assert isinstance(source, SelectedBits) and source.seed == 5 and source.output_bits == 61
