"""One resolved generator: everything a generator's name implies, built once and passed down.

The command line and the library's entry points turn a catalog name, an inline
``lcg:a=..,m=..`` specification, ``--a/--c/--m``, a numpy BitGenerator, a
``random.Random`` or a ready :class:`~rnglab.generators.Source` into one
:class:`GeneratorSpec` (:func:`as_generator`). Every layer below receives the
spec and asks it for what it needs: a source for a seed (:meth:`GeneratorSpec.make`),
the library's own bounded call (:attr:`GeneratorSpec.native_reducer`: MSVC's
``rand() % n``, Java's ``nextInt(bound)``, numpy's Lemire), the seeds the
library accepts (:meth:`GeneratorSpec.check_seed`) and, for an LCG, its
parameters. No lower layer looks a name up again.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from rnglab.core.params import power_of_two_form
from rnglab.generators.adapters import (
    NUMPY_WIDTHS,
    NumpySource,
    OSEntropySource,
    PythonRandomSource,
    mt19937_init_genrand,
)
from rnglab.generators.base import Source
from rnglab.generators.conventions import SeedConvention, convention
from rnglab.generators.glibc import SEED_HIGH, GlibcRandom
from rnglab.generators.lcg import LCG, output_range, validate_lcg
from rnglab.generators.mrg import MRG, Combination
from rnglab.generators.mwc import MultiplyWithCarry
from rnglab.generators.outputs import Output
from rnglab.generators.xorshift import ALGORITHMS
from rnglab.reduction.reducers import DEFAULT_REDUCER, REDUCERS, Reducer

#: Kinds of generator a spec can stand for.
KINDS = ("lcg", "mwc", "mrg", "additive", "numpy", "python", "linear", "os", "source")
#: The ``words`` each kind can serve besides its own (``None``).
WORDS = {"numpy": (None, "uint32"), "python": (None, "random53")}


@dataclass(frozen=True)
class GeneratorSpec:
    """A generator with its conventions: how to build it for a seed, and its own bounded call.

    Attributes
    ----------
    name : str
        Catalog name, inline specification or label (reports and JSON).
    kind : str
        ``lcg``, ``mwc`` (a multiply-with-carry generator, run as its equivalent LCG: :mod:`rnglab.generators.mwc`),
        ``mrg`` (a multiple recursive generator or a combination), ``additive`` (glibc's ``rand()``),
        ``numpy`` (a BitGenerator), ``python`` (``random.Random``), ``linear`` (a GF(2)-linear generator of
        :mod:`rnglab.generators.xorshift`: xorshift, xoshiro, WELL, V8's ``Math.random``, ``std::mt19937_64``),
        ``os`` (the entropy source) or ``source`` (a given object, not re-seedable).
    native_reducer : Reducer
        The library's own way to draw from ``[0, n)``.
    default_seed : int or None
        The seed used when none is given.
    a, c, m : int or None
        LCG parameters (``kind == "lcg"``; for ``mwc`` the equivalent LCG's: a, 0, a b - 1).
    output : Output or None
        What a program sees of an LCG's state.
    seeding : SeedConvention or None
        How an LCG's library turns a seed into a state.
    low : int or None
        Declared lowest output where it differs from the LCG default.
    bit_generator : str or None
        numpy BitGenerator class name.
    algorithm : str or None
        The GF(2)-linear generator (``kind == "linear"``): a key of :data:`~rnglab.generators.xorshift.ALGORITHMS`.
    combination : Combination or None
        The components and output rule of an MRG (``kind == "mrg"``).
    carry : MultiplyWithCarry or None
        The MWC's own parameters a and b (``kind == "mwc"``).
    init_genrand : bool
        MT19937 seeded as the reference C code (``init_genrand``) seeds it, not through ``SeedSequence``.
    words : str or None
        Which words a numpy or Python generator serves instead of its own:
        ``"uint32"`` (numpy's ``next_uint32`` halves of a 64-bit generator) or
        ``"random53"`` (Python's ``random() * 2^53``).
    states, period : int or None
        The number of states and the period of a generator that is neither an
        LCG nor an MRG (published figures, cited in ``citation``; those of an
        LCG or an MRG are computed: :func:`rnglab.shuffles.reach.state_count`).
    description, citation : str
        What the generator is, and where its parameters come from.
    given : callable or None
        For a generator object built elsewhere: returns a copy of it in its
        current state (what :meth:`make` returns when no seed is given).
    """

    name: str
    kind: str
    native_reducer: Reducer = DEFAULT_REDUCER
    default_seed: int | None = None
    a: int | None = None
    c: int | None = None
    m: int | None = None
    output: Output | None = None
    seeding: SeedConvention | None = None
    low: int | None = None
    bit_generator: str | None = None
    algorithm: str | None = None
    init_genrand: bool = False
    words: str | None = None
    combination: Combination | None = None
    carry: MultiplyWithCarry | None = None
    states: int | None = None
    period: int | None = None
    description: str = ""
    citation: str = ""
    given: Callable[[], Source] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"generator kind must be one of {', '.join(KINDS)}; got {self.kind!r}")
        if self.is_lcg:
            validate_lcg(self.a, self.c, self.m)
            self.output.check_fits(self.m)
        served = WORDS.get(self.kind, (None,))
        if self.words not in served:
            raise ValueError(f"words of a {self.kind} generator must be one of {', '.join(map(str, served))}; "
                             f"got {self.words!r}")
        if (self.kind == "mrg") != (self.combination is not None):
            raise ValueError("a generator of kind mrg needs a combination, and only it takes one")
        if (self.kind == "linear") != (self.algorithm in ALGORITHMS):
            raise ValueError(f"a generator of kind linear needs an algorithm, one of {', '.join(ALGORITHMS)}, "
                             "and only it takes one")
        if (self.kind == "mwc") != (self.carry is not None):
            raise ValueError("a generator of kind mwc needs its multiplier and base, and only it takes them")

    @property
    def is_lcg(self) -> bool:
        """True for linear congruential generators (which have periods and lattices), MWCs included."""
        return self.kind in ("lcg", "mwc")

    @property
    def has_gf2_linear_engine(self) -> bool:
        """True where the state moves by a linear map over GF(2): MT19937 as CPython and numpy run it, and the
        ``linear`` kind (xorshift, xoroshiro and xoshiro engines, WELL512a, V8, ``std::mt19937_64``); its period
        and equidistribution come from GF(2) algebra."""
        return self.kind in ("linear", "python") or (self.kind == "numpy" and self.bit_generator == "MT19937")

    @property
    def is_gf2_linear(self) -> bool:
        """True where every output bit is an XOR of state bits, so outputs give the state by GF(2) elimination.

        A GF(2)-linear engine (:attr:`has_gf2_linear_engine`) whose outputs are
        linear too: CPython's ``random()`` floats are (their bits are bits of two
        words); Vigna's xoroshiro and xoshiro are not (their ``+``, ``++`` and
        ``**`` outputs scramble a linear engine).
        """
        return self.has_gf2_linear_engine and (self.kind != "linear" or ALGORITHMS[self.algorithm].output_linear)

    @property
    def is_mrg(self) -> bool:
        """True for multiple recursive generators and their combinations."""
        return self.kind == "mrg"

    @property
    def cryptographic(self) -> bool:
        """True for a cryptographic source (the OS's: ``os.urandom``), the one kind whose outputs nothing predicts."""
        return self.kind == "os"

    @property
    def seedable(self) -> bool:
        """False for sources that take no seed (the OS entropy source, a given object)."""
        return self.kind not in ("os", "source")

    def seed_bounds(self) -> tuple[int | None, int | None]:
        """Inclusive range of the seeds the library accepts (``None``: unbounded on that side).

        An LCG whose seed is its state accepts ``[0, m - 1]`` (state 0 of a
        multiplicative LCG is refused when the generator is built); an MRG
        ``[1, min m_j - 1]`` (every state value is the seed); numpy's
        ``SeedSequence`` takes any non-negative integer; Python's ``random.seed``
        any integer.
        """
        if not self.seedable:
            raise ValueError(f"{self.name} takes no seed: it is not reproducible")
        if self.is_lcg:
            if self.seeding.low is not None:
                return self.seeding.low, self.seeding.high
            return 0, self.m - 1
        if self.kind == "mrg":
            return self.combination.seed_range()
        if self.kind == "numpy":
            return (0, 2**32 - 1) if self.init_genrand else (0, None)
        if self.kind == "additive":
            return 0, SEED_HIGH
        if self.kind == "linear":
            return ALGORITHMS[self.algorithm].seed_bounds()
        return None, None

    def output_range(self) -> tuple[int, int]:
        """The declared outputs ``[low, high]`` of :meth:`make`'s sources, from the spec alone: no source is built
        (no seeding, no compiled kernel), except for a given object, whose own range is read."""
        if self.is_lcg:
            return output_range(self.a, self.c, self.m, self.output, self.low)
        if self.is_mrg:
            return self.combination.low, self.combination.high
        if self.kind == "linear":
            return ALGORITHMS[self.algorithm].low, ALGORITHMS[self.algorithm].high
        if self.kind == "numpy":
            return 0, NumpySource.word_high(self.bit_generator, self.words == "uint32")
        if self.kind == "python":
            return 0, PythonRandomSource.word_high(self.words == "random53")
        if self.kind in ("additive", "os"):
            source = GlibcRandom if self.kind == "additive" else OSEntropySource
            return source.low, source.high
        source = self.make()
        return source.low, source.high

    def check_seed(self, seed: int) -> int:
        """Return ``seed`` if the library accepts it, else raise ``ValueError`` naming the range."""
        low, high = self.seed_bounds()
        if (low is not None and seed < low) or (high is not None and seed > high):
            raise ValueError(f"seeds of {self.name} must be in [{_bound(low)}, {_bound(high)}]; "
                             f"got {_short(seed)}")
        if self.is_lcg and not 0 <= self.seeding.to_state(seed) < self.m:
            raise ValueError(f"seeds of {self.name} must give states in [0, m) = [0, {self.m}); "
                             f"seed {seed} gives {self.seeding.to_state(seed)}")
        return seed

    def make(self, seed: int | None = None) -> Source:
        """Build the generator, seeded with ``seed`` (default: the spec's default seed).

        Raises
        ------
        ValueError
            For a seed outside :meth:`seed_bounds`, or any seed for a source that takes none.
        """
        if seed is not None and not self.seedable:
            raise ValueError(f"{self.name} takes no seed: it is not reproducible")
        if seed is None and self.given is not None:
            return self.given()
        if self.kind == "os":
            return OSEntropySource(self.name)
        seed = self.check_seed(self.default_seed if seed is None else seed)
        if self.is_lcg:
            return LCG(a=self.a, c=self.c, m=self.m, seed=seed, output=self.output, seeding=self.seeding,
                       name=self.name, low=self.low)
        if self.kind == "additive":
            return GlibcRandom(seed, self.name)
        if self.kind == "mrg":
            return MRG(self.combination, seed, name=self.name)
        if self.kind == "linear":
            return ALGORITHMS[self.algorithm].seeded(seed, self.name)
        if self.kind == "numpy":
            bit_generator = mt19937_init_genrand(seed) if self.init_genrand else \
                getattr(np.random, self.bit_generator)(seed)
            source = NumpySource(bit_generator, self.name, halves=self.words == "uint32")
            source.seed = seed
            return source
        return PythonRandomSource(seed, self.name, float53=self.words == "random53")

    def lcg(self, seed: int | None = None) -> LCG:
        """The LCG for ``seed``; ``ValueError`` for a generator that is not an LCG."""
        if not self.is_lcg:
            raise ValueError(f"{self.name} is not a linear congruential generator: period, spectral test and "
                             "lattice recovery do not apply")
        return self.make(seed)

    def __str__(self) -> str:
        return self.name


def _bound(value: int | None) -> str:
    return "inf" if value is None else _short(value)


def _short(value: int) -> str:
    """An integer as digits, or when long as a power of two: exactly where it is near one (``2^128 - 1``,
    :func:`~rnglab.core.params.power_of_two_form`), else ``2^e`` with two decimals of ``e``."""
    if abs(value) < 10**30:
        return str(value)
    size = abs(value)
    form = power_of_two_form(size, min(10**6, size >> 20)) or f"2^{math.log2(size):.2f}"
    return f"-{form}" if value < 0 else form


def lcg_spec(a: int, m: int, c: int = 0, *, output: Output | None = None, seed: int | None = None,
             name: str | None = None) -> GeneratorSpec:
    """An LCG given by its parameters (``--a/--c/--m`` or ``lcg:a=..,m=..``); its seed is its state."""
    output = output or Output.state()
    label = name or f"lcg:a={a},c={c},m={m}" + ("" if output.kind == "state" else f",output={output}")
    return GeneratorSpec(label, "lcg", DEFAULT_REDUCER, default_seed=1 if seed is None else seed,
                         a=a, c=c, m=m, output=output, seeding=convention("state"))


def mwc_spec(carry: MultiplyWithCarry, *, seed: int | None = None, name: str | None = None) -> GeneratorSpec:
    """A multiply-with-carry generator as its equivalent LCG (a, 0, a b - 1); its seed is the word t = c b + x."""
    return GeneratorSpec(name or f"mwc:{carry}", "mwc", DEFAULT_REDUCER, default_seed=1 if seed is None else seed,
                         a=carry.a, c=0, m=carry.modulus, output=carry.output, seeding=convention("state"),
                         carry=carry)


def from_source(source: Source | np.random.BitGenerator | random.Random) -> GeneratorSpec:
    """The spec of a generator object built elsewhere (re-seedable where its kind allows)."""
    if isinstance(source, np.random.BitGenerator):
        source = NumpySource(source)
    if isinstance(source, random.Random):
        state = source.getstate()
        return GeneratorSpec("python", "python", REDUCERS["bitmask"], given=lambda: _python_from_state(state))
    if isinstance(source, LCG):
        return GeneratorSpec(source.name, "lcg", DEFAULT_REDUCER, default_seed=source.seed, a=source.a,
                             c=source.c, m=source.m, output=source.output, seeding=source.seeding, low=source.low,
                             given=source.copy)
    if isinstance(source, MRG):
        return GeneratorSpec(source.name, "mrg", DEFAULT_REDUCER, default_seed=source.seed,
                             combination=source.combination, given=source.copy)
    if isinstance(source, NumpySource) and type(source.bit_generator).__name__ in NUMPY_WIDTHS:
        kind = type(source.bit_generator).__name__
        return GeneratorSpec(source.name, "numpy", DEFAULT_REDUCER, default_seed=source.seed,
                             bit_generator=kind, given=source.copy)
    if isinstance(source, PythonRandomSource):
        return GeneratorSpec(source.name, "python", REDUCERS["bitmask"], default_seed=source.seed, given=source.copy)
    if isinstance(source, Source):
        return GeneratorSpec(source.name, "source", DEFAULT_REDUCER, given=source.copy)
    raise TypeError(f"cannot use a {type(source).__name__} as a generator")


def _python_from_state(state) -> PythonRandomSource:
    source = PythonRandomSource(None)
    source.random.setstate(state)
    return source
