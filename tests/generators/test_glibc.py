"""glibc's ``rand()`` (rnglab.generators.glibc) against glibc itself: the outputs of ``srand(seed)`` for seeds
across the ``unsigned int`` range, one generator and a batch of lanes.

The reference is tests/data/glibc_rand/reference.txt, printed by glibc's own ``rand()`` running
tests/data/glibc_rand/make_reference.c (one line per seed: the seed, then its first 40 outputs).
"""

from pathlib import Path

import numpy as np
import pytest

from rnglab.generators.glibc import GlibcBatch, GlibcRandom, initial_words

REFERENCE = Path(__file__).parents[1] / "data" / "glibc_rand" / "reference.txt"


def glibc_outputs() -> dict[int, list[int]]:
    rows = (line.split() for line in REFERENCE.read_text().splitlines() if line.strip())
    return {int(seed): [int(v) for v in values] for seed, *values in rows}


def test_srand_1_is_the_published_sequence():
    assert GlibcRandom(1).random_raw(5).tolist() == [1804289383, 846930886, 1681692777, 1714636915, 1957747793]


@pytest.mark.parametrize("seed", sorted(glibc_outputs()))
def test_each_seed_gives_glibc_s_outputs(seed):
    expected = glibc_outputs()[seed]
    assert GlibcRandom(seed).random_raw(len(expected)).tolist() == expected


def test_lanes_give_what_each_seed_gives_alone():
    reference = glibc_outputs()
    seeds = sorted(reference)
    batch = GlibcBatch(np.array(seeds, dtype=np.uint64))
    rows = np.stack([batch.next_raw() for _ in range(40)], axis=1)
    assert rows.tolist() == [reference[seed] for seed in seeds]


def test_the_first_recurrence_is_park_and_miller_s_on_a_signed_seed():
    assert initial_words(1)[:3] == [1, 16807, 282475249]
    assert initial_words(0) == initial_words(1)  # srandom(0) acts as srandom(1)
    # the seed read as int32_t -1: r_1 = 16807 * (-1) + (2^31 - 1), and r_0 is kept as its 32 bits
    assert initial_words(2**32 - 1)[:2] == [2**32 - 1, 2**31 - 1 - 16807]


def test_seeds_outside_unsigned_int_are_refused():
    with pytest.raises(ValueError, match=r"\[0, 2\^32 - 1\]"):
        GlibcRandom(2**32)
