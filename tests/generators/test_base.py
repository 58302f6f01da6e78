"""Every source kind gets the same checks (numpy's random/tests/test_direct.py pattern).

``Base`` holds the generic checks; each subclass only sets data: how to build the source,
its declared range and, where published, its first outputs. Known answers cite their source.
"""

import random
from typing import ClassVar

import numpy as np
import pytest

from rnglab.generators import (
    LCG,
    CallableSource,
    NumpySource,
    OSEntropySource,
    Output,
    PythonRandomSource,
    as_generator,
)
from rnglab.generators.affine import arithmetic_kind
from rnglab.generators.base import raw_dtype
from rnglab.generators.conventions import CONVENTIONS

#: Long enough to cross the LCG's rows of 16384 lanes and the compiled fill loops.
LONG = 40_000


def foreign_sources():
    """One source of every kind, to offer their states to each other."""
    return [LCG(a=214013, c=2531011, m=2**32, output=Output.bits(16, 15), name="msvc"),
            LCG(a=22695477, c=1, m=2**32, output=Output.bits(16, 15), name="borland"),
            LCG(a=16807, m=2**31 - 1, name="minstd"),
            NumpySource.from_seed("PCG64", 1), NumpySource.from_seed("MT19937", 1),
            PythonRandomSource(1)]


class Base:
    """Checks shared by every source; subclasses set ``make`` and the data below."""

    #: (low, high) the source must declare.
    declared: tuple[int, int]
    #: The first outputs, where a reference publishes them.
    known: ClassVar[list[int]] = []
    #: False for sources without a seed (OS entropy, an arbitrary callable).
    reproducible = True

    def make(self):
        raise NotImplementedError

    def test_declared_range_and_dtype(self):
        source = self.make()
        values = source.random_raw(5000)
        assert (source.low, source.high) == self.declared
        assert values.dtype == raw_dtype(source.high) and values.shape == (5000,)
        low, high = min(int(v) for v in values), max(int(v) for v in values)
        spread = (source.high - source.low) // 100
        assert source.low <= low <= source.low + spread and source.high - spread <= high <= source.high

    def test_empty_draw(self):
        values = self.make().random_raw(0)
        assert values.shape == (0,) and values.dtype == raw_dtype(self.declared[1])

    def test_out_is_filled_in_place(self):
        source = self.make()
        buffer = np.empty(700, dtype=raw_dtype(source.high))
        assert source.random_raw(out=buffer) is buffer
        if self.reproducible:
            assert buffer.tolist() == self.make().random_raw(700).tolist()

    def test_known_answers(self):
        if not self.known:
            pytest.skip("no published outputs for this source")
        assert self.make().random_raw(len(self.known)).tolist() == self.known

    def test_random_raw_equals_one_value_at_a_time(self):
        self.skip_unless_reproducible()
        expected = [int(v) for v in self.make().random_raw(1000)]
        source = self.make()
        assert [source.next_raw() for _ in range(1000)] == expected

    def test_random_raw_in_pieces_equals_one_call(self):
        self.skip_unless_reproducible()
        expected = self.make().random_raw(LONG).tolist()
        source = self.make()
        sizes = [0, 1, 7, 16384, 3, LONG - 16395]
        assert np.concatenate([source.random_raw(size) for size in sizes]).tolist() == expected

    def test_state_round_trip_keeps_pending_values(self):
        self.skip_unless_reproducible()
        source = self.make()
        drawn = source.random_raw(10)
        source.unread(drawn[6:])
        saved = source.state
        assert saved["pending"] == [int(v) for v in drawn[6:]]
        after = source.random_raw(20).tolist()
        restored = self.make()
        restored.state = saved
        assert restored.random_raw(20).tolist() == after == drawn[6:].tolist() + after[4:]

    def test_state_of_another_generator_is_refused(self):
        self.skip_unless_reproducible()
        source = self.make()
        renamed = self.make()
        renamed.name = "another-" + source.name
        with pytest.raises(ValueError, match="another generator"):
            source.state = renamed.state
        for other in foreign_sources():
            if (type(other), other.name) != (type(source), source.name):
                with pytest.raises(ValueError):
                    source.state = other.state

    def test_copy_is_independent(self):
        self.skip_unless_reproducible()
        source = self.make()
        source.unread(source.random_raw(3)[1:])
        twin = source.copy()
        assert twin.random_raw(50).tolist() == source.random_raw(50).tolist()
        twin.random_raw(100)
        assert source.random_raw(5).tolist() == self.make_advanced(51).random_raw(5).tolist()

    def make_advanced(self, count):
        source = self.make()
        source.random_raw(count)
        return source

    def skip_unless_reproducible(self):
        if not self.reproducible:
            pytest.skip(f"{type(self).__name__}: not reproducible")


class LCGBase(Base):
    """LCGs also match the one-step recurrence, :meth:`LCG.step`, and check a, c, m."""

    params: dict
    kind: str

    def make(self):
        return LCG(**self.params)

    def test_arithmetic_path(self):
        assert arithmetic_kind(self.params["m"]) == self.kind

    def test_random_raw_equals_step(self):
        reference = self.make()
        expected = [reference.step() for _ in range(LONG)]
        source = self.make()
        assert [int(v) for v in source.random_raw(LONG)] == expected
        assert source.x == reference.x

    def test_state_with_other_parameters_is_refused(self):
        source = self.make()
        for key in ("a", "c", "m"):
            changed = dict(source.state, **{key: source.state[key] + 2})
            with pytest.raises(ValueError, match="other parameters"):
                source.state = changed


class TestMSVC(LCGBase):
    # rand() of Microsoft's C runtime: bits 16..30 of a 2^32 LCG.
    params: ClassVar[dict] = dict(a=214013, c=2531011, m=2**32, seed=1, output=Output.bits(16, 15), name="msvc")
    kind = "pow2"
    declared = (0, 32767)
    known: ClassVar[list[int]] = [41, 18467, 6334, 26500, 19169]  # srand(1); rand() ... with MSVC's CRT


class TestMINSTD(LCGBase):
    params: ClassVar[dict] = dict(a=16807, m=2**31 - 1, seed=1, name="minstd")
    kind = "small"
    declared = (1, 2**31 - 2)
    known: ClassVar[list[int]] = [16807, 282475249, 1622650073]  # Park and Miller, CACM 31 (1988): x_1 .. x_3 from 1


class TestJava(LCGBase):
    params: ClassVar[dict] = dict(a=0x5DEECE66D, c=11, m=2**48, seed=42, seeding=CONVENTIONS["java"], output=Output.bits(16, 32), name="java")
    kind = "pow2"
    declared = (0, 2**32 - 1)
    known: ClassVar[list[int]] = [3124862261, 234785527, 2934422497]  # new java.util.Random(42).nextInt(), as unsigned 32-bit words


class TestLongDouble(LCGBase):
    params: ClassVar[dict] = dict(a=762939453125, c=99991, m=2**40 - 87, seed=12345, name="odd-2^40")
    kind = "longdouble"
    declared = (0, 2**40 - 88)


class TestMMIX(LCGBase):
    params: ClassVar[dict] = dict(a=6364136223846793005, c=1442695040888963407, m=2**64, seed=1, name="mmix")
    kind = "pow2"
    declared = (0, 2**64 - 1)


class TestBeyond64Bits(LCGBase):
    params: ClassVar[dict] = dict(a=3**50, c=1, m=2**89 - 1, seed=2**70, name="mersenne-89")
    kind = "object"
    declared = (0, 2**89 - 2)


class MRGBase(Base):
    name: str

    def make(self):
        return as_generator(self.name).make()


class TestMRG32k3a(MRGBase):
    name = "mrg32k3a"
    declared = (1, 2**32 - 209)
    known: ClassVar[list[int]] = [545508589, 1368065410, 1327943761]  # RngStreams, seed 12345 x 6 (tests/data/mrg/)


class TestWichmannHill(MRGBase):
    name = "wichmann-hill"
    declared = (0, 30269 * 30307 * 30323 - 1)
    known: ClassVar[list[int]] = [334836430144, 25300682575636, 9921191660056]  # AS 183 from 12345 x 3 (tests/data/mrg/)


class TestMRGBeyond62Bits(MRGBase):
    name = "mrg:m=2^89-1,a=3^50:0:5,seed=2^70"
    declared = (0, 2**89 - 2)


class NumpyBase(Base):
    bit_generator: str

    def make(self):
        return NumpySource.from_seed(self.bit_generator, 12345)


class TestPCG64(NumpyBase):
    bit_generator = "PCG64"
    declared = (0, 2**64 - 1)


class TestMT19937(NumpyBase):
    bit_generator = "MT19937"
    declared = (0, 2**32 - 1)


class TestSFC64(NumpyBase):
    bit_generator = "SFC64"
    declared = (0, 2**64 - 1)


class TestPhilox(NumpyBase):
    bit_generator = "Philox"
    declared = (0, 2**64 - 1)


class TestPythonRandom(Base):
    declared = (0, 2**32 - 1)

    def make(self):
        return PythonRandomSource(2024)

    def test_matches_getrandbits(self):
        reference = random.Random(2024)
        assert self.make().random_raw(100).tolist() == [reference.getrandbits(32) for _ in range(100)]


class TestCallable(Base):
    declared = (3, 1002)
    reproducible = False

    def make(self):
        draw = random.Random(7).randint
        return CallableSource(lambda: draw(3, 1002), 3, 1002, name="dice-1000")


class TestCallableVectorized(Base):
    declared = (0, 2**16 - 1)
    reproducible = False

    def make(self):
        rng = np.random.default_rng(7)
        return CallableSource(lambda size: rng.integers(0, 2**16, size), 0, 2**16 - 1, vectorized=True)


class TestOSEntropy(Base):
    declared = (0, 2**64 - 1)
    reproducible = False

    def make(self):
        return OSEntropySource()
