"""The tape: a view of a source that serves its outputs since a mark again, and hands back what nobody read."""

import numpy as np
from empirical.test_tally_boundaries import listed

from rnglab.streams.gateway import genuine_words
from rnglab.streams.tape import Tape


def test_a_tape_read_again_hands_back_the_outputs_after_the_values_kept():
    outputs = np.array([5, 1, 4, 2, 3, 5, 0, 1, 2, 4, 3], dtype=np.uint64)  # range 6: 4 and 5 are skipped
    source = listed(outputs, 5)
    tape = Tape(source)
    tape.mark()
    assert genuine_words(tape, 5).tolist() == [1, 2, 3, 0, 1]
    tape.rewind(lambda again: genuine_words(again, 3))  # keep [1, 2, 3]: they end at output 4
    tape.close()
    assert source.random_raw(3).tolist() == [5, 0, 1]


def test_kept_is_what_was_taken_since_the_mark_less_what_was_handed_back():
    source = listed(range(1, 20), 31)
    tape = Tape(source)
    tape.mark()
    tape.random_raw(3), tape.random_raw(4)  # 1..7, in two reads
    tape.unread(np.array([6, 7], dtype=np.uint64))  # the reader stopped after 5
    assert tape.kept().tolist() == [1, 2, 3, 4, 5] and tape.pending_count == 2
    assert tape.random_raw(3).tolist() == [6, 7, 8]  # what the tape holds first, then the source's next


def test_a_mark_keeps_the_outputs_handed_back_before_it_and_a_rewind_serves_them_again():
    source = listed(range(1, 20), 31)
    tape = Tape(source)
    tape.random_raw(4)
    tape.unread(np.array([3, 4], dtype=np.uint64))
    tape.mark()
    assert tape.random_raw(3).tolist() == [3, 4, 5] and tape.kept().tolist() == [3, 4, 5]
    tape.rewind(lambda again: again.random_raw(1))  # 3 read again; 4 and 5 stay with the tape
    assert tape.random_raw(3).tolist() == [4, 5, 6]


def test_close_hands_back_only_what_the_tape_still_holds():
    source = listed(range(1, 20), 31)
    tape = Tape(source)
    tape.mark()
    tape.random_raw(6)
    tape.rewind(lambda again: again.random_raw(2))
    tape.close()
    assert tape.pending_count == 0 and source.random_raw(5).tolist() == [3, 4, 5, 6, 7]


def test_a_rewind_keeps_the_mark_so_kept_tells_what_the_second_reader_used():
    source = listed(range(1, 20), 31)
    tape = Tape(source)
    tape.mark()
    assert tape.kept().tolist() == []  # nothing taken yet
    tape.random_raw(5)
    tape.rewind(lambda again: again.random_raw(2))
    assert tape.kept().tolist() == [1, 2] and tape.pending_count == 3
    tape.rewind(lambda again: again.random_raw(6))  # the five again, then one more from the source
    assert tape.kept().tolist() == [1, 2, 3, 4, 5, 6] and tape.pending_count == 0
