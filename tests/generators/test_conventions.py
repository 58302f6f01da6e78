"""Seeding conventions (rnglab.generators.conventions): the state each library stores for a program's seed.

Known answers: ``new java.util.Random(0)`` stores ``0 ^ 0x5DEECE66D`` and its first ``nextInt()`` is
-1155484576 (OpenJDK 17; the same in every JDK); POSIX ``srand48(1)`` stores ``(1 << 16) | 0x330E``;
glibc's ``srandom(0)`` and C++'s ``linear_congruential_engine`` replace 0 by 1.
"""

import numpy as np
import pytest

from rnglab.generators import LCG, Output
from rnglab.generators.conventions import CONVENTIONS, convention, integer_array


def test_java_scrambles_the_seed_with_its_multiplier():
    java = convention("java")
    assert java.to_state(0) == 25214903917  # 0x5DEECE66D
    assert java.to_state(-1) == (2**48 - 1) ^ 0x5DEECE66D
    assert java.to_states(np.array([0, 1], dtype=np.int64)).tolist() == [0x5DEECE66D, 0x5DEECE66C]


def test_java_random_0_next_int_is_jdk_s():
    generator = LCG(a=0x5DEECE66D, c=11, m=2**48, seed=0, seeding=convention("java"), output=Output.bits(16, 32))
    assert generator.next_raw() - 2**32 == -1155484576


def test_srand48_and_zero_means_one():
    assert convention("srand48").to_state(1) == 0x1330E
    assert convention("srand48").to_states([2**32 - 1]).tolist() == [(2**32 - 1) << 16 | 0x330E]
    assert convention("zero-means-one").to_states([0, 5]).tolist() == [1, 5]
    assert convention("zero-means-one").to_state(0) == 1 and convention("state").to_state(0) == 0


def test_vb_randomize_puts_the_hash_above_a_zero_low_byte():
    assert convention("vb-randomize").to_state(0x3FF00000) == 0x3FF0 << 8


def test_ranges_are_refused_with_the_convention_s_name():
    with pytest.raises(ValueError, match=r"\[0, 4294967295\] for uint32 seeding"):
        convention("uint32").to_state(2**32)
    with pytest.raises(ValueError, match="srand48 seeding"):
        convention("srand48").to_states([-1])
    assert set(CONVENTIONS) >= {"state", "uint32", "java", "srand48", "zero-means-one", "vb-randomize"}


def test_integer_array_keeps_large_integers_exact():
    assert integer_array([2**63, -1]).dtype == object and integer_array([2**63, -1]).tolist() == [2**63, -1]
    with pytest.raises(TypeError):
        integer_array([1.5])
