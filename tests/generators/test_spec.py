"""One resolved generator (rnglab.generators.spec): what a catalog name, an inline LCG or a given object implies.

Known answers: MSVC's ``srand`` takes an ``unsigned int`` and ``rand()`` returns 0..RAND_MAX = 32767; MINSTD's
outputs are its states 1..2^31 - 2 and from 1 it gives 16807, 282475249, 1622650073 (Park and Miller 1988);
xorshift32's state is any non-zero 32-bit word (Marsaglia 2003).
"""

import random

import numpy as np
import pytest

from rnglab.generators import as_generator
from rnglab.generators.spec import from_source, lcg_spec


def test_catalog_entries_carry_their_library_s_ranges():
    msvc = as_generator("msvc")
    assert (msvc.kind, msvc.a, msvc.c, msvc.m) == ("lcg", 214013, 2531011, 2**32)
    assert msvc.seed_bounds() == (0, 2**32 - 1) and msvc.output_range() == (0, 32767) and msvc.is_lcg
    assert as_generator("minstd").output_range() == (1, 2**31 - 2)
    xorshift = as_generator("xorshift32")
    assert xorshift.kind == "linear" and xorshift.is_gf2_linear and xorshift.seed_bounds() == (1, 2**32 - 1)


def test_seeds_outside_the_library_s_range_are_refused():
    assert as_generator("msvc").check_seed(2**32 - 1) == 2**32 - 1
    with pytest.raises(ValueError, match=r"seeds of msvc must be in \[0, 4294967295\]; got -1"):
        as_generator("msvc").check_seed(-1)


def test_an_inline_lcg_is_named_by_its_parameters():
    spec = lcg_spec(16807, 2**31 - 1, seed=1)
    assert str(spec) == spec.name == "lcg:a=16807,c=0,m=2147483647"
    assert spec.make().random_raw(3).tolist() == [16807, 282475249, 1622650073]
    assert as_generator("lcg:a=16807,m=2^31-1,seed=1").make().random_raw(3).tolist() == [16807, 282475249, 1622650073]


def test_given_objects_keep_their_state():
    bit_generator = np.random.PCG64(3)
    bit_generator.random_raw(5)
    spec = from_source(bit_generator)
    assert spec.kind == "numpy" and spec.output_range() == (0, 2**64 - 1)
    expected = np.random.PCG64(3).random_raw(7)[5:].tolist()
    assert spec.make().random_raw(2).tolist() == expected
    python = from_source(random.Random(3))
    assert python.kind == "python" and python.output_range() == (0, 2**32 - 1)
    assert python.make().random_raw(1).tolist() == [random.Random(3).getrandbits(32)]
