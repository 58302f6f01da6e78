"""One stream generated once for several readers: each reads exactly the generator's outputs, in bounded memory."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.empirical.shared_stream import Cancelled, SharedStream
from rnglab.generators import make_source


def read_all(reader, sizes):
    try:
        return np.concatenate([reader.random_raw(size) for size in sizes])
    finally:
        reader.close()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.integers(1, 700), min_size=1, max_size=12), min_size=1, max_size=5),
       st.integers(1, 300), st.integers(1, 1000))
def test_every_reader_gets_the_generator_s_outputs_whatever_the_pace(plans, chunk, window):
    stream = SharedStream(make_source("pcg64", 9), chunk=chunk, window=window)
    readers = [stream.reader() for _ in plans]
    with ThreadPoolExecutor(len(plans)) as pool:
        got = list(pool.map(read_all, readers, plans))
    for values, sizes in zip(got, plans):
        assert values.tolist() == make_source("pcg64", 9).random_raw(sum(sizes)).tolist()


def watch_memory(stream) -> list:
    """The outputs ``stream`` holds after each generation, appended to the list returned."""
    held = []
    original = stream._append

    def watch(size):
        original(size)
        held.append(sum(len(values) for _, values in stream._chunks))

    stream._append = watch
    return held


def test_memory_is_bounded_by_the_window_and_the_largest_request():
    stream = SharedStream(make_source("pcg64", 1), chunk=100, window=1000)
    fast, slow = stream.reader(), stream.reader()
    held = watch_memory(stream)
    done = threading.Event()

    def run_fast():
        read_all(fast, [50] * 400)  # 20,000 outputs: must wait for the slow reader
        done.set()

    thread = threading.Thread(target=run_fast)
    thread.start()
    read_all(slow, [10] * 2000)
    thread.join()
    assert done.is_set() and max(held) <= 1000 + 100


def test_the_waiting_readers_are_woken_a_quarter_window_at_a_time():
    """The fast reader waits for the slow one; the readers were woken 2,602 times here, at each read (17 readers on
    1 GiB of standard input: about 2 million context switches), and now when the slowest has gone a quarter of the
    window further (20,000 / 250 times), was passed, or stopped: 110 times."""
    stream = SharedStream(make_source("pcg64", 1), chunk=100, window=1000)
    fast, slow = stream.reader(), stream.reader()
    wakes, notify = [], stream._changed.notify_all
    stream._changed.notify_all = lambda: wakes.append(1) or notify()
    thread = threading.Thread(target=read_all, args=(fast, [50] * 400))
    thread.start()
    read_all(slow, [10] * 2000)
    thread.join(timeout=60)
    assert not thread.is_alive() and 20_000 // 250 <= len(wakes) <= 2 * 20_000 // 250


def test_a_finished_reader_no_longer_holds_the_others_back():
    stream = SharedStream(make_source("pcg64", 1), chunk=64, window=128)
    quitter, reader = stream.reader(), stream.reader()
    quitter.random_raw(1)
    quitter.close()
    assert reader.random_raw(10_000).tolist() == make_source("pcg64", 1).random_raw(10_000).tolist()


def test_a_resting_reader_no_longer_holds_the_others_back_and_keeps_its_place():
    stream = SharedStream(make_source("pcg64", 1), chunk=64, window=128)
    resting, reader = stream.reader(), stream.reader()
    resting.random_raw(10)
    resting.rest()
    with ThreadPoolExecutor(1) as pool:  # without the rest it waits for ever, 128 outputs ahead
        ahead = pool.submit(reader.random_raw, 10_000).result(timeout=10)
    whole = make_source("pcg64", 1).random_raw(10_010)
    assert ahead.tolist() == whole[:10_000].tolist() and stream.held_from == 10
    assert resting.random_raw(10_000).tolist() == whole[10:].tolist()


def test_cancel_stops_a_reader_waiting_for_the_slowest():
    stream = SharedStream(make_source("pcg64", 1), chunk=10, window=10)
    waiting, _ = stream.reader(), stream.reader()  # the second never reads: the first waits once ahead by 10
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(read_all, waiting, [5] * 10)
        threading.Timer(0.2, stream.cancel).start()
        with pytest.raises(Cancelled):
            future.result(timeout=10)


def test_the_values_handed_out_cannot_be_written():
    stream = SharedStream(make_source("pcg64", 1), chunk=100, window=1000)
    values = stream.reader().random_raw(10)
    with pytest.raises(ValueError, match="read-only"):
        values[0] = 0


def test_a_reader_made_between_rounds_starts_where_the_stream_still_holds():
    stream = SharedStream(make_source("pcg64", 4), chunk=256, window=1024)
    first = stream.reader()
    assert first.random_raw(3000).tolist() == make_source("pcg64", 4).random_raw(3000).tolist()
    assert stream.held_from == 3000
    later = stream.reader(3000)
    whole = make_source("pcg64", 4).random_raw(4000)
    assert later.random_raw(500).tolist() == whole[3000:3500].tolist()
    assert first.random_raw(1000).tolist() == whole[3000:].tolist()
    with pytest.raises(ValueError, match="no longer holds output 10"):
        stream.reader(10)


def test_a_reader_far_ahead_of_the_others_holds_no_more_than_the_window():
    stream = SharedStream(make_source("pcg64", 1), chunk=100, window=1000)
    reader = stream.reader(50_000)  # the only reader: what comes before it is made and dropped
    held = watch_memory(stream)
    assert read_all(reader, [10]).tolist() == make_source("pcg64", 1).random_raw(50_010)[50_000:].tolist()
    assert max(held) <= 200


def test_a_reader_asking_for_nothing_gets_nothing():
    stream = SharedStream(make_source("pcg64", 1))
    reader = stream.reader()
    assert reader.random_raw(0).size == 0 and reader.random_raw(2).tolist() == make_source("pcg64", 1).random_raw(2).tolist()
