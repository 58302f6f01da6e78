"""The words a bounded draw reads (rnglab.draws.words), against numpy's own ``next_uint32``.

numpy's ``Generator.integers(0, 2^32, dtype=uint64)`` returns ``next_uint32`` itself (its range is full, so
nothing is masked or rejected): the low half of a 64-bit PCG64 output, then its high half (numpy's
``distributions.c``, ``random_bounded_uint64_fill``). A narrow draw reads the same words, in the same order,
across blocks and halves handed back.
"""

import numpy as np

from rnglab.draws.words import HALF_RANGE, WordBlock, draw_range, give_back, narrow_words, next_draw, read_block
from rnglab.generators import make_source

SEED = 7


def numpy_next_uint32(count: int) -> list[int]:
    generator = np.random.Generator(np.random.PCG64(SEED))
    return generator.integers(0, 2**32, size=count, dtype=np.uint64).tolist()


def test_one_draw_at_a_time_is_next_uint32():
    source = make_source("pcg64", SEED)
    assert narrow_words(source, 52) and draw_range(source, True) == HALF_RANGE == 2**32
    assert [next_draw(source, True) for _ in range(7)] == numpy_next_uint32(7)


def test_blocks_and_halves_handed_back_continue_the_same_words():
    source = make_source("pcg64", SEED)
    first = read_block(source, 5, True)
    assert first.words().tolist()[:5] == numpy_next_uint32(5) and len(first) == 6
    give_back(source, first, 3)  # the high half of the second output waits as the spare
    assert source.spare_half is not None
    second = read_block(source, 4, True)
    assert second.lead == 1 and second.words().tolist()[:4] == numpy_next_uint32(7)[3:7]


def test_wide_bounds_read_whole_outputs():
    source = make_source("pcg64", SEED)
    assert not narrow_words(source, 2**32 + 1) and draw_range(source, False) == 2**64
    assert [next_draw(source, False) for _ in range(2)] == np.random.PCG64(SEED).random_raw(2).tolist()


def test_a_block_of_whole_outputs_is_its_offsets():
    block = WordBlock(np.array([5, 6], dtype=np.uint64), False)
    assert block.words().tolist() == [5, 6] and block.lead == 0 and len(block) == 2
    narrow = WordBlock(np.array([2**32 * 3 + 1], dtype=np.uint64), True, spare=9)
    assert narrow.words().tolist() == [9, 1, 3] and len(narrow) == 3
