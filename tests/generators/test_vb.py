"""Visual Basic's ``Randomize`` and ``Timer`` (rnglab.generators.vb): the 16 bits a seed or the clock leaves.

Known answers: VB's start state 0x50000 gives the first ``Rnd`` 0.7055475 (11837123 / 2^24), the value every
VB6/VBScript program prints first (Microsoft KB 231847's LCG); ``Randomize 0`` leaves state 0 (R. L. Mueller,
"Cracking the VBScript Rnd function"); the IEEE-754 words of 1.0 (0x3FF00000 00000000) and of the singles
1.5 (0x3FC00000) and 86399.999 (0x47A8C000) are worked by hand.
"""

import numpy as np

from rnglab.generators import make_source
from rnglab.generators.vb import (
    START_STATE,
    number_word,
    randomize_hash,
    randomize_seed,
    second_hash_counts,
    timer_words,
)


def test_the_start_state_gives_vb_s_first_rnd():
    assert make_source("vbscript").random_raw(3).tolist() == [11837123, 8949370, 9722709]
    assert START_STATE == 0x50000 and (START_STATE * 0xFD43FD + 0xC39EC3) % 2**24 == 11837123
    assert round(11837123 / 2**24, 7) == 0.7055475


def test_randomize_keeps_the_xor_of_the_double_s_high_word_halves():
    assert number_word(1.0) == 0x3FF00000 and randomize_seed(1.0) == 0x3FF0
    assert number_word(0.0) == 0 and randomize_seed(0.0) == 0  # Randomize 0 leaves state 0
    assert randomize_hash(0x12345678) == 0x1234 ^ 0x5678
    assert randomize_hash(np.array([0x12345678, 0xFFFF], dtype=np.uint64)).tolist() == [0x1234 ^ 0x5678, 0xFFFF]


def test_timer_is_the_single_of_seconds_and_milliseconds():
    assert timer_words([0, 1500, 86_399_999]).tolist() == [0, 0x3FC00000, 0x47A8C000]


def test_second_hash_counts_count_every_millisecond_once():
    counts = second_hash_counts(0, 2)
    assert counts.sum() == 2000 and counts[0] == 1  # only ms 0 has Timer 0.0
    direct = np.bincount(randomize_hash(timer_words(np.arange(2000))).astype(np.int64), minlength=2**16)
    assert counts.tolist() == direct.tolist()
