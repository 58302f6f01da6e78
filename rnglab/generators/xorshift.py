"""GF(2)-linear generators, bit for bit with their references: Marsaglia's xorshift, Vigna's xoroshiro and xoshiro,
WELL512a, V8's ``Math.random`` and ``std::mt19937_64``.

Each generator keeps a state of ``state_words`` words of ``word_bits`` bits,
updated by a map that is linear over GF(2) (shifts, rotations, XOR, masks).
As a vector of ``state_size`` bits, bit ``i`` of the state is bit
``i mod word_bits`` of word ``i // word_bits`` (word 0 is the reference's
first state variable): :meth:`LinearSource.state_vector` and
:meth:`LinearSource.from_state_vector` cross between the two views, so the
algebra (:mod:`rnglab.algebra.gf2_generators`) can apply one step to unit
vectors and read the transition matrix column by column. One call of
:meth:`~rnglab.generators.Source.random_raw` of size 1 is one step.
Where the output is linear too (``output_linear``: xorshift, WELL, V8's
engine) its bits are XORs of state bits; the ``+``, ``++`` and ``**``
scramblers of Vigna's generators are not linear, but their engines are.

Seeding (the ``seed`` of the catalog, :meth:`LinearSource.seeded`):

* ``state``: the seed is the state, words packed least significant first
  (Marsaglia's generators, whose paper gives the default states);
* ``splitmix64``: the words are successive outputs of SplitMix64 from a 64-bit
  seed, as Vigna's reference code advises (``xoshiro256starstar.c``: "we
  suggest to use a splitmix64 to initialize the state");
* V8: the 64-bit seed hashed by MurmurHash3's ``fmix64`` (see :class:`V8MathRandom`);
* Unity: ``Random.InitState``'s rule (see :class:`UnityRandom`).

References
----------
G. Marsaglia, "Xorshift RNGs", Journal of Statistical Software 8(14), 2003.
D. Blackman and S. Vigna, "Scrambled linear pseudorandom number generators",
ACM TOMS 47(4), 2021; reference code at https://prng.di.unimi.it/.
F. Panneton, P. L'Ecuyer and M. Matsumoto, "Improved long-period generators
based on linear recurrences modulo 2", ACM TOMS 32(1), 2006 (WELL512a.c).
V8 ``src/numbers/math-random.cc``, ``src/base/utils/random-number-generator.h``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from rnglab.generators import xorshift_kernels as kernels
from rnglab.generators.adapters import check_state_tag
from rnglab.generators.base import Source

_MASK64 = 2**64 - 1


def splitmix64(seed: int, count: int) -> list[int]:
    """The first ``count`` outputs of Vigna's SplitMix64 from ``seed`` (``splitmix64.c``).

    ``x += 0x9E3779B97F4A7C15``; output ``z = x``, ``z = (z ^ z >> 30) 0xBF58476D1CE4E5B9``,
    ``z = (z ^ z >> 27) 0x94D049BB133111EB``, ``z ^ z >> 31`` (all modulo 2^64).
    """
    words, x = [], seed & _MASK64
    for _ in range(count):
        x = (x + 0x9E3779B97F4A7C15) & _MASK64
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        words.append(z ^ (z >> 31))
    return words


def fmix64(h: int) -> int:
    """MurmurHash3's 64-bit finaliser, a bijection of [0, 2^64) (V8's ``RandomNumberGenerator::MurmurHash3``)."""
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & _MASK64
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & _MASK64
    return h ^ (h >> 33)


def _check_integer(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer; got {type(value).__name__}")
    return int(value)


class LinearSource(Source):
    """A generator whose state update is linear over GF(2), stepped by a compiled kernel.

    Subclasses set ``word_bits``, ``state_words``, ``high``, ``seeding`` and
    ``_kernel`` (fills outputs, stepping the uint64 state array in place);
    ``extra_words`` words after the state hold a position (WELL's index).

    Parameters
    ----------
    words : sequence of int
        The state words, in the order of the reference's state variables; not all zero.
    seed : int, optional
        The seed they came from (reports only).
    name : str, optional
    """

    word_bits: int = 64
    state_words: int = 1
    extra_words: int = 0
    #: The position word's value for a state given as words (WELL's index 0, an empty cache, MT's "twist next").
    initial_position: int = 0
    #: True when every output bit is an XOR of state bits (no ``+`` or ``*`` scrambler).
    output_linear: bool = True
    #: What the output is, where it is not linear (``output_linear`` false), said in the refusals.
    output_rule: str = "+, ++ or ** output is not linear over GF(2) (its engine is)"
    #: True when one output is one step of the words (:meth:`state_vector`): false for V8's cache (use
    #: :meth:`V8MathRandom.engine`) and for MT19937-64, whose twist renews its 312 words at once.
    step_per_output: bool = True
    #: How :meth:`seeded` turns a seed into words (:meth:`seed_words`): ``state``, ``splitmix64`` or the
    #: generator's own rule.
    seeding: str = "state"
    _kernel: Callable = None
    _kernel_options: tuple = ()

    def __init__(self, words, seed: int | None = None, name: str | None = None):
        words = [_check_integer(w, "state words") for w in words]
        if len(words) != self.state_words or not all(0 <= w < 2**self.word_bits for w in words):
            raise ValueError(f"a {self.name} state is {self.state_words} words in [0, 2^{self.word_bits})")
        if not any(words):
            raise ValueError(f"the all-zero state of {self.name} is a fixed point: it never leaves 0")
        self._state = np.array(words + [self.initial_position] * self.extra_words, dtype=np.uint64)
        self.seed, self.name = seed, name or self.name
        super().__init__()

    @property
    def state_size(self) -> int:
        """Bits of state, ``k = word_bits * state_words`` (the dimension of the GF(2) vector space)."""
        return self.word_bits * self.state_words

    @classmethod
    def seed_bounds(cls) -> tuple[int, int]:
        """Inclusive range of the seeds :meth:`seeded` takes."""
        return (1, 2 ** (cls.word_bits * cls.state_words) - 1) if cls.seeding == "state" else (0, _MASK64)

    @classmethod
    def seeded(cls, seed: int, name: str | None = None) -> LinearSource:
        """The generator for ``seed`` by its :attr:`seeding` rule (see the module's docstring).

        Raises
        ------
        ValueError
            For a seed outside :meth:`seed_bounds`.
        """
        seed = _check_integer(seed, "seed")
        low, high = cls.seed_bounds()
        if not low <= seed <= high:
            raise ValueError(f"seeds of {name or cls.name} must be in [{low}, {high}]; got {seed}")
        return cls(cls.seed_words(seed), seed, name)

    @classmethod
    def seed_words(cls, seed: int) -> list[int]:
        """The state words for a seed in :meth:`seed_bounds` (by :attr:`seeding`)."""
        if cls.seeding == "splitmix64":
            return splitmix64(seed, cls.state_words)
        return [(seed >> (cls.word_bits * i)) & (2**cls.word_bits - 1) for i in range(cls.state_words)]

    @property
    def words(self) -> tuple[int, ...]:
        """The state words, in the reference's order (WELL's from its current index)."""
        return tuple(int(w) for w in self._state[:self.state_words])

    def state_vector(self) -> np.ndarray:
        """The state as ``state_size`` bits packed in uint64 words (bit i in word i // 64, bit i mod 64)."""
        value = sum(word << (self.word_bits * i) for i, word in enumerate(self.words))
        return np.frombuffer(value.to_bytes(8 * (-(-self.state_size // 64)), "little"), dtype="<u8").astype(np.uint64)

    @classmethod
    def from_state_vector(cls, bits: np.ndarray, name: str | None = None) -> LinearSource:
        """The generator whose state is the packed bit vector ``bits`` (the inverse of :meth:`state_vector`)."""
        value = int.from_bytes(np.asarray(bits, dtype="<u8").tobytes(), "little")
        return cls([(value >> (cls.word_bits * i)) & (2**cls.word_bits - 1) for i in range(cls.state_words)],
                   name=name)

    def _generate(self, size: int) -> np.ndarray:
        out = np.empty(size, dtype=np.uint64)
        self._fill(out)
        return out

    def _fill(self, out: np.ndarray) -> None:
        type(self)._kernel(self._state, out, *self._kernel_options)

    @property
    def state(self) -> dict[str, Any]:
        return {"generator": self.name, "words": list(self.words), **self._position(),
                "pending": [int(v) for v in self._pending]}

    def _position(self) -> dict[str, int]:
        """The position word, where the words alone do not say what comes next."""
        return {"position": int(self._state[-1])} if self.extra_words else {}

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        check_state_tag(value, self.name)
        if "words" not in value:
            raise ValueError(f"a {self.name} state has its words")
        restored = type(self)(value["words"], self.seed, self.name)
        if "position" in self._position():
            restored._state[-1] = _check_integer(value.get("position"), "position")
        self._state = restored._state
        self._pending = np.asarray(value.get("pending", []), dtype=np.uint64)


class Xorshift32(LinearSource):
    """Marsaglia's 32-bit xorshift with the triple (13, 17, 5) (``xor32``, "Xorshift RNGs", 2003, p. 4)."""

    name, word_bits, high = "xorshift32", 32, 2**32 - 1
    _kernel = kernels.fill_xorshift32


class Xorshift64(LinearSource):
    """Marsaglia's 64-bit xorshift with the triple (13, 7, 17) (``xor64``, "Xorshift RNGs", 2003, p. 4)."""

    name, word_bits, high = "xorshift64", 64, 2**64 - 1
    _kernel = kernels.fill_xorshift64


class Xorshift128(LinearSource):
    """Marsaglia's ``xor128``: 32-bit words x, y, z, w, the triple (11, 8, 19); output w ("Xorshift RNGs", p. 5)."""

    name, word_bits, state_words, high = "xorshift128", 32, 4, 2**32 - 1
    _kernel = kernels.fill_xorshift128


class UnityRandom(Xorshift128):
    """Unity's ``UnityEngine.Random``: Marsaglia's ``xor128`` seeded by ``Random.InitState(int seed)``.

    ``InitState`` sets ``x = seed`` (as a uint32) and each next word to
    ``1812433253 w + 1 (mod 2^32)`` (the multiplier of MT19937's seeding):
    ``y = f(x), z = f(y), w = f(z)``; the raw output is xor128's 32-bit
    ``w``. ``Random.Range(int min, int max)`` is ``min + output mod (max - min)``
    (the ``modulo`` reducer; ``min - output mod (min - max)`` when ``min > max``); ``Random.value`` is ``(output & 0x7FFFFF) / 0x7FFFFF``
    in float32, a value in [0, 1] with both ends included (not a reducer here).

    Unity documents none of this: the rule is the published reverse engineering
    of MoatShrimp (github.com/MoatShrimp/uny-random-js, "Validation vs. result
    from UnityEngine.Random": states and ``Range`` values read from Unity; Unity
    4.7 to 2020.1 per macklinb's gist a00be6b616cbf20fa95e4227575fe50b), whose
    worked values pin it (tests/data/unity/).
    """

    name, seeding = "unity", "unity-initstate"

    @classmethod
    def seed_bounds(cls) -> tuple[int, int]:
        """``InitState`` takes a C# ``int``."""
        return -(2**31), 2**31 - 1

    @classmethod
    def seed_words(cls, seed: int) -> list[int]:
        """``x = seed mod 2^32``, then ``1812433253 w + 1`` three times."""
        words = [seed & 0xFFFFFFFF]
        for _ in range(3):
            words.append((1812433253 * words[-1] + 1) & 0xFFFFFFFF)
        return words


class Xoroshiro128(LinearSource):
    """Vigna's xoroshiro128 (two 64-bit words) with a scrambler: ``+``, ``++`` or ``**`` (Blackman and Vigna)."""

    word_bits, state_words, high, seeding = 64, 2, 2**64 - 1, "splitmix64"
    output_linear = False
    _kernel = kernels.fill_xoroshiro128


class Xoroshiro128Plus(Xoroshiro128):
    """xoroshiro128+ (``xoroshiro128plus.c``, 2018 engine 24, 16, 37): output s0 + s1."""

    name, _kernel_options = "xoroshiro128+", (0,)


class Xoroshiro128PlusPlus(Xoroshiro128):
    """xoroshiro128++ (``xoroshiro128plusplus.c``, engine 49, 21, 28): output rotl(s0 + s1, 17) + s0."""

    name, _kernel_options = "xoroshiro128++", (1,)


class Xoroshiro128StarStar(Xoroshiro128):
    """xoroshiro128** (``xoroshiro128starstar.c``, engine 24, 16, 37): output rotl(5 s0, 7) 9."""

    name, _kernel_options = "xoroshiro128**", (2,)


class Xoshiro256(LinearSource):
    """Vigna's xoshiro256 (four 64-bit words) with a scrambler (Blackman and Vigna)."""

    word_bits, state_words, high, seeding = 64, 4, 2**64 - 1, "splitmix64"
    output_linear = False
    _kernel = kernels.fill_xoshiro256


class Xoshiro256Plus(Xoshiro256):
    """xoshiro256+ (``xoshiro256plus.c``): output s0 + s3."""

    name, _kernel_options = "xoshiro256+", (0,)


class Xoshiro256StarStar(Xoshiro256):
    """xoshiro256** (``xoshiro256starstar.c``; .NET 6's ``Random()``): output rotl(5 s1, 7) 9."""

    name, _kernel_options = "xoshiro256**", (2,)


class Well512a(LinearSource):
    """WELL512a of Panneton, L'Ecuyer and Matsumoto (``WELL512a.c``): 16 words of 32 bits and an index.

    The words are the reference's ``STATE`` array read from its index
    ``state_i`` (0 after ``InitWELLRNG512a``); the output is the 32-bit word
    ``STATE[state_i]`` after the step (the reference's double is it times 2^-32).
    Seeded by SplitMix64 (rnglab's rule; the reference takes the 16 words).
    """

    name, word_bits, state_words, extra_words, high, seeding = "well512a", 32, 16, 1, 2**32 - 1, "splitmix64"
    _kernel = kernels.fill_well512a

    @classmethod
    def seed_words(cls, seed: int) -> list[int]:
        """The low 32 bits of the first 16 SplitMix64 outputs."""
        return [word & 0xFFFFFFFF for word in splitmix64(seed, cls.state_words)]

    @property
    def words(self) -> tuple[int, ...]:
        position = int(self._state[-1])
        return tuple(int(self._state[(position + i) % 16]) for i in range(16))

    def _position(self) -> dict[str, int]:
        return {}  # the words are read from the index


class V8Xorshift128(LinearSource):
    """V8's xorshift128 engine, one value per step in the order generated: the top 52 bits of the new ``state0``.

    ``(s0, s1) -> (s1, s0 ^ s0 << 23 ^ (s0 ^ s0 << 23) >> 17 ^ s1 ^ s1 >> 26)``
    (``XorShift128``); ``Math.random`` hands these out in blocks of 64, last
    first (:class:`V8MathRandom`); ``ToDouble`` is the value times 2^-52.
    """

    name, word_bits, state_words, high = "v8-xorshift128", 64, 2, 2**52 - 1
    #: The output is ``state0 >> shift``: ``2^(64 - shift)`` values, ``Math.random() = output / 2^(64 - shift)``.
    shift = 12
    _kernel = kernels.fill_v8_engine
    _kernel_options = (12,)


class V8Xorshift128x53(V8Xorshift128):
    """The same engine read as V8 13.5 on reads it: the top 53 bits of the new ``state0`` (times 2^-53)."""

    name, high, shift, _kernel_options = "v8-53-xorshift128", 2**53 - 1, 11, (11,)


class V8MathRandom(V8Xorshift128):
    """V8's ``Math.random()`` as node 20.20.2 (V8 11.3) runs it: raw outputs are ``Math.random() * 2^52``.

    The state ``(state0, state1)`` starts at ``(fmix64(seed), fmix64(~seed))``
    (MurmurHash3's finaliser); each refill steps :class:`V8Xorshift128` 64
    times and caches the 64 mantissas ``state0 >> 12``, which ``Math.random``
    hands out last first, as ``mantissa / 2^52``. ``node --random_seed=N``
    (a 32-bit signed flag, N != 0; 0 means "seed from the OS") makes the seed
    ``N mod 2^64``, so seed ``-1`` here is ``--random_seed=-1``.

    The state words (:meth:`state_vector`) are the engine's; the cache and its
    index (values left) are in :attr:`state`, ``cache`` and ``index``.

    Versions: V8 7.1.0 (commit ac66c97cfdd, "Reland: Do not use FixedDoubleArray to store RNG state",
    2018-09, which dropped the ``state0 + state1`` output) to 13.4: node 12 to 23. Pinned to node 20.20.2
    (tests/data/v8/). The earlier ``s0 + s1`` form is :class:`V8MathRandomPlus`, the 53-bit doubles of
    V8 13.5 on :class:`V8MathRandom53`.

    References
    ----------
    V8 ``src/numbers/math-random.cc`` (``MathRandom::RefillCache``, ``kCacheSize = 64``);
    ``src/base/utils/random-number-generator.h`` (``XorShift128``, ``ToDouble``, ``MurmurHash3``).
    """

    name, extra_words, seeding, step_per_output = "v8", 1, "fmix64", False
    #: Values in V8's cache (``MathRandom::kCacheSize``).
    CACHE_SIZE = 64
    #: The engine whose outputs the cache holds (:meth:`engine`).
    engine_class: type[V8Xorshift128] = V8Xorshift128

    def __init__(self, words, seed: int | None = None, name: str | None = None):
        super().__init__(words, seed, name)
        self._cache = np.zeros(self.CACHE_SIZE, dtype=np.uint64)

    @classmethod
    def seed_bounds(cls) -> tuple[int, int]:
        return -(2**63), _MASK64

    @classmethod
    def seed_words(cls, seed: int) -> list[int]:
        """``fmix64(seed)`` and ``fmix64(~seed)`` of the seed as a uint64 (negative: ``seed + 2^64``, node's flag)."""
        hashed = seed & _MASK64
        return [fmix64(hashed), fmix64(~hashed & _MASK64)]

    @property
    def index(self) -> int:
        """Values left in the cache (V8's ``math_random_index``); the next is ``cache[index - 1]``."""
        return int(self._state[-1])

    @property
    def cache(self) -> tuple[int, ...]:
        """The outputs of the last refill, in the order generated."""
        return tuple(int(v) for v in self._cache)

    def _fill(self, out: np.ndarray) -> None:
        kernels.fill_v8_cached(self._state, self._cache, out, self.engine_class.shift)

    def engine(self) -> V8Xorshift128:
        """The xorshift128 engine at the same words (its outputs in the order generated, without the cache)."""
        return self.engine_class(self.words, name=f"{self.name}-engine")

    @property
    def state(self) -> dict[str, Any]:
        return {**super().state, "cache": list(self.cache)}

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        LinearSource.state.fset(self, value)
        cache = value.get("cache", [0] * self.CACHE_SIZE)
        if len(cache) != self.CACHE_SIZE or not 0 <= self.index <= self.CACHE_SIZE:
            raise ValueError(f"a {self.name} state has a cache of {self.CACHE_SIZE} values and an index in "
                             f"[0, {self.CACHE_SIZE}]")
        self._cache = np.asarray(cache, dtype=np.uint64)


class V8MathRandom53(V8MathRandom):
    """V8's ``Math.random()`` from V8 13.5.0 (node 24): raw outputs are ``Math.random() * 2^53``.

    As :class:`V8MathRandom` (seeding, 64-value cache handed out last first),
    but ``ToDouble`` keeps 53 bits: ``(state0 >> 11) / 2^53`` (V8 commit
    e0609ce60ac, "[base] Make random ToDouble better distributed", 2025-02-20).
    Still GF(2)-linear. Versions: V8 13.5 to 14.3 (node 24: V8 13.6); V8 14.4
    (commit 0596ead5b04, 2025-11) outputs ``state0 + state1`` again, which is not modelled here.
    """

    name, high, engine_class = "v8-53", 2**53 - 1, V8Xorshift128x53


class V8MathRandomPlus(V8MathRandom):
    """V8 4.9 to 7.0's ``Math.random()``, xorshift128+: raw outputs ``(state0 + state1) mod 2^52`` (times 2^-52).

    ``ToDouble(state0, state1)`` put the low 52 bits of the sum of the new
    words in the mantissa of a double in [1, 2) and subtracted 1. V8's
    ``Runtime_GenerateRandomNumbers`` (``src/runtime/runtime-maths.cc``) kept
    the state in the last two slots of a 64-double ``FixedDoubleArray`` cache:
    each refill computes 62 values into slots 0..61, handed out last first,
    then stores ``state0, state1`` as doubles, which turns a word that reads as
    a NaN into the quiet NaN ``0x7FF8000000000000`` (V8 issue 8212; the reason
    for ac66c97cfdd). ``--random_seed=N`` sets ``state0 = state1 = N`` (no hashing).

    The integer addition makes the output not GF(2)-linear (only its lowest
    bit, ``s0 ^ s1``, is): :mod:`rnglab.recovery.linear` refuses it.

    Versions: the xorshift128+ of V8 4.9.41 (commit 2755c5a1b1c, 2015-11, Chrome 49) to 7.0 (node 6 to 11);
    the cache and seeding above are those of the ``runtime-maths.cc`` vendored in nodejs/node@0569e1f9 (which
    node release that copy is, is not established here). Earlier, up to node 7 (V8 5.4) at least, the state
    lived in a JavaScript typed array (``src/js/math.js``), seeded from the isolate's generator and not
    rewritten as a NaN: the same 62-value blocks and outputs, another seeding.

    References
    ----------
    V8 ``src/runtime/runtime-maths.cc`` (``Runtime_GenerateRandomNumbers``, ``kCacheSize = 64``,
    ``kState0Offset = 63``, ``kState1Offset = 62``); ``src/base/utils/random-number-generator.h``
    (``ToDouble(state0, state1)``); https://bugs.chromium.org/p/v8/issues/detail?id=8212.
    """

    name, seeding, output_linear, CACHE_SIZE = "v8-plus", "state0=state1=seed", False, 62
    output_rule = ("output (state0 + state1) mod 2^52 is not linear over GF(2): the addition carries (only its "
                   "lowest bit, state0 ^ state1, is; its engine is)")

    @classmethod
    def seed_words(cls, seed: int) -> list[int]:
        """``state0 = state1 = seed`` as a uint64 (negative: ``seed + 2^64``).

        Raises
        ------
        ValueError
            For seed 0 (``--random_seed=0`` is V8's "from the OS"; the state would be all zero).
        """
        if not seed & _MASK64:
            raise ValueError(f"seed 0 of {cls.name} is V8's --random_seed=0, 'seed from the OS': state0 = state1 = 0 "
                             "would be the all-zero state, a fixed point")
        return [seed & _MASK64] * 2

    def _fill(self, out: np.ndarray) -> None:
        kernels.fill_v8_plus_cached(self._state, self._cache, out)


class Mt19937x64(LinearSource):
    """C++ ``std::mt19937_64`` after ``seed(s)`` (Nishimura and Matsumoto's ``mt19937-64.c``, ``init_genrand64``).

    312 words of 64 bits and the index; ``mt[0] = s``,
    ``mt[i] = 6364136223846793005 (mt[i-1] ^ mt[i-1] >> 62) + i``; 19937 of
    its 19968 bits matter (the low 31 bits of the oldest word are dropped by
    the twist). ``std::mt19937_64{}`` uses seed 5489.

    References
    ----------
    T. Nishimura, "Tables of 64-bit Mersenne twisters", ACM TOMACS 10(4), 2000;
    ISO/IEC 14882:2011 [rand.eng.mers], [rand.predef] (10000th output 9981545732273789042).
    """

    name, word_bits, state_words, extra_words, high, seeding = "mt19937_64", 64, 312, 1, 2**64 - 1, "init_genrand64"
    initial_position = 312  # words given alone are twisted before the first output
    step_per_output = False
    _kernel = kernels.fill_mt19937_64

    @classmethod
    def seed_words(cls, seed: int) -> list[int]:
        """``init_genrand64(seed)``."""
        words = [seed]
        for i in range(1, cls.state_words):
            words.append((6364136223846793005 * (words[-1] ^ (words[-1] >> 62)) + i) & _MASK64)
        return words


#: The generators above by the ``algorithm`` a catalog entry names.
ALGORITHMS: dict[str, type[LinearSource]] = {cls.name: cls for cls in (
    Xorshift32, Xorshift64, Xorshift128, UnityRandom, Xoroshiro128Plus, Xoroshiro128PlusPlus, Xoroshiro128StarStar,
    Xoshiro256Plus, Xoshiro256StarStar, Well512a, V8Xorshift128, V8Xorshift128x53, V8MathRandom,
    V8MathRandom53, V8MathRandomPlus, Mt19937x64)}
