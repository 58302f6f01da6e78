"""The published facts the audit takes as given (rnglab.audit.facts), checked against numpy and CPython themselves."""

import random

from rnglab.audit.facts import CPYTHON_SEED, OS_SEED_BITS, SEED_SEQUENCE


def test_numpy_seeds_from_128_bits_of_os_entropy():
    # The fact behind OS_SEED_BITS, read from numpy itself: SeedSequence() pools 4 32-bit words of OS entropy.
    import numpy as np

    from rnglab.audit.facts import OS_SEED_BITS

    fresh = np.random.SeedSequence()
    assert fresh.pool_size * 32 == 128 and fresh.entropy < 2**128
    assert {OS_SEED_BITS[name][0] for name in ("pcg64", "pcg64_uint32", "mt19937")} == {128}


def test_cpython_seeds_mt19937_from_624_words_of_os_entropy():
    # random.seed(None) fills init_by_array with 624 32-bit words: as many as MT19937's state has (its getstate()
    # holds the 624 words and the index).
    state = random.Random().getstate()[1]
    assert len(state) - 1 == 624
    assert {OS_SEED_BITS[name][0] for name in ("python", "python_random53")} == {624 * 32} == {19968}
    assert OS_SEED_BITS["python"][1] == CPYTHON_SEED and "624 32-bit words" in CPYTHON_SEED
    assert OS_SEED_BITS["pcg64"][1] == SEED_SEQUENCE and "128 bits" in SEED_SEQUENCE
