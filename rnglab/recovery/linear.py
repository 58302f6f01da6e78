"""State recovery by linear algebra over GF(2): every state of a GF(2)-linear generator consistent with observations.

The counterpart of :mod:`rnglab.recovery.lattice` for generators whose state moves
by a linear map over GF(2) (xorshift, V8's ``Math.random``, the Mersenne
Twister) and whose outputs are linear in the state.

**Symbolic outputs.** The state at the first observation is ``k`` unknown bits
``X``. Every output bit is a GF(2) linear form in ``X`` (a packed row of ``k``
bits): by linearity, bit ``b`` of output ``t`` contains unknown ``j`` exactly
when the generator itself, started from the unit state ``e_j``, gives an output
``t`` with bit ``b`` set (:class:`SymbolicGenerator`; no second copy of any
recurrence is written here). Scrambled outputs (xoroshiro's ``+``, ``**``) are
not linear and are refused.

**Observations** (:class:`Observation`) fix some bits of one output:

* a whole output, or its known top bits;
* CPython's ``random()``: ``(a >> 5) 2^26 + (b >> 6)`` over ``2^53``, the top 27
  bits of one 32-bit word and the top 26 of the next (:func:`python_floats`);
* a bounded draw ``floor(r n)``, ``r = y / 2^w`` in double arithmetic (V8's
  ``Math.floor(Math.random() * n)``): ``y`` lies in an interval ``[lo, hi]``
  (found with the real arithmetic, so the rounding of ``r n`` is included); the
  top bits that ``lo`` and ``hi`` share are equations, and the whole interval is
  checked on every candidate.

**Solving** (:func:`solve`): the equations that touch one word of unknowns
only (a whole MT19937 word seen through its tempering) are reduced first, word
by word, into a reduced echelon form; every other equation, reduced by them,
is then written over the unknowns they leave free (for 624 CPython floats:
``19968 - 16536 = 3432`` instead of 19968) and inserted into an echelon form
(packed Gaussian elimination, compiled). With rank ``r`` of ``k``, the
solutions form an affine space of dimension ``k - r``: up to ``budget``
candidates are enumerated, each checked against every observation, then
replayed through the real generator. Never a wrong unique answer: a nullity
beyond the budget raises :class:`UnderdeterminedState` with the rank and about
how many more observations it takes.

References
----------
M. Matsumoto and T. Nishimura, "Mersenne twister", ACM TOMACS 8(1), 1998 (tempering is invertible).
V8 ``src/numbers/math-random.cc`` (64-value cache, last first), ``src/base/utils/random-number-generator.h``.
CPython ``Modules/_randommodule.c`` (``random_random``: ``(a*67108864.0+b)*(1.0/9007199254740992.0)``).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from rnglab.core.results import Result
from rnglab.generators.xorshift import ALGORITHMS, LinearSource, Mt19937x64, UnityRandom, V8MathRandom, fmix64
from rnglab.recovery import linear_kernels as kernels
from rnglab.recovery.lattice import InsufficientObservations, needed_observations
from rnglab.recovery.twister import MT19937_64, seed_candidate

#: Most candidate states enumerated (and checked) from the solution space: nullity up to 16.
BUDGET = 2**16
#: Candidates checked at once (outputs held as a ``(chunk, observed outputs)`` array).
_CHUNK_BITS = 10
_MASK64 = 2**64 - 1
#: Observations checked at once on the candidates still standing (:func:`_holding`).
_CHECKED_AT_ONCE = 64
#: Most unknowns left free for which the V8 phase screen tries every state (:func:`_refuted_phases`).
_SCREENED_FREE = 12
#: Unit states run at once while the forms are built (their outputs held as one array).
_UNITS_AT_ONCE = 1024


class UnderdeterminedState(InsufficientObservations):
    """The observations leave more states than the budget: rank ``rank`` of ``unknowns``, ``needed`` more."""

    def __init__(self, rank: int, unknowns: int, needed: int, count: int):
        self.rank, self.unknowns, self.needed = rank, unknowns, needed
        more = f"about {needed} more observations like these needed" if needed > 0 else \
            "observations that carry information needed"
        super().__init__(f"not determined: rank {rank} of {unknowns} from {count} observations, "
                         f"2^{unknowns - rank} states fit them; {more}")


class SymbolicGenerator:
    """A generator as ``k`` unknown state bits and its outputs' bits as linear forms in them.

    Parameters
    ----------
    name : str
    unknowns : int
        ``k``, bits of the state (packed as :meth:`LinearSource.state_vector`).
    width : int
        Bits per output.
    run : callable
        ``run(vector, count)``: ``count`` outputs (uint64) of the real generator started from the packed state
        ``vector`` (a non-zero state; outputs must be linear in it).
    """

    def __init__(self, name: str, unknowns: int, width: int, run: Callable[[np.ndarray, int], np.ndarray]):
        self.name, self.unknowns, self.width, self.run = name, unknowns, width, run
        self._forms = np.zeros((0, width, self.words), dtype=np.uint64)

    @property
    def words(self) -> int:
        """uint64 words per linear form."""
        return -(-self.unknowns // 64)

    def unit(self, j: int) -> np.ndarray:
        """The packed unit state ``e_j``."""
        vector = np.zeros(self.words, dtype=np.uint64)
        vector[j // 64] = np.uint64(1) << np.uint64(j % 64)
        return vector

    def forms(self, count: int) -> np.ndarray:
        """``(count, width, words)``: row ``[t, b]`` the unknowns whose XOR is bit ``b`` of output ``t``."""
        if count > self._forms.shape[0]:
            forms = np.zeros((count, self.width, self.words), dtype=np.uint64)
            outputs = np.empty((min(self.unknowns, _UNITS_AT_ONCE), count), dtype=np.uint64)
            for first in range(0, self.unknowns, _UNITS_AT_ONCE):
                units = min(_UNITS_AT_ONCE, self.unknowns - first)
                for j in range(units):
                    outputs[j] = self.run(self.unit(first + j), count)
                kernels.transpose_outputs(outputs[:units], first, self.width, forms)
            first, last = np.empty(count * self.width, dtype=np.int64), np.empty(count * self.width, dtype=np.int64)
            kernels.row_spans(forms.reshape(-1, self.words), first, last)
            self._forms, self._spans = forms, (first.reshape(count, self.width), last.reshape(count, self.width))
        return self._forms[:count]

    def spans(self, count: int) -> tuple[np.ndarray, np.ndarray]:
        """``(first, last)``, each ``(count, width)``: the first and last word of unknowns each form touches."""
        self.forms(count)
        return self._spans[0][:count], self._spans[1][:count]


@functools.cache
def linear_source_model(source_type: type[LinearSource]) -> SymbolicGenerator:
    """The symbolic model (one per class, its forms kept) of a :class:`~rnglab.generators.xorshift.LinearSource` class with linear outputs.

    Raises
    ------
    ValueError
        For a scrambled generator (``+``, ``++``, ``**``): its outputs are not linear over GF(2).
    """
    if not source_type.output_linear:
        raise ValueError(f"{source_type.name}'s {source_type.output_rule}: its state cannot be recovered by GF(2) "
                         "elimination")
    width = int(source_type.high).bit_length()
    return SymbolicGenerator(source_type.name, source_type.word_bits * source_type.state_words, width,
                             lambda vector, count: source_type.from_state_vector(vector).random_raw(count))


def python_random_at(state: int, index: int = 0) -> random.Random:
    """CPython's ``random.Random`` whose 624 MT19937 words are ``state`` (word ``i``: bits ``32i..32i+31``).

    ``index`` 0: the next output is word 0 tempered (no twist first).
    """
    return _python_random_of(_int_vector(state, 312).view("<u4"), index)


def _python_random_of(words: np.ndarray, index: int = 0) -> random.Random:
    generator = random.Random()
    generator.setstate((3, tuple(words.tolist()) + (index,), None))
    return generator


def python_words(generator: random.Random, count: int) -> np.ndarray:
    """The next ``count`` 32-bit outputs (``getrandbits(32)`` each; one ``getrandbits(32 count)`` call)."""
    data = generator.getrandbits(32 * count).to_bytes(4 * count, "little")
    return np.frombuffer(data, dtype="<u4").astype(np.uint64)


@functools.cache
def python_random_model() -> SymbolicGenerator:
    """CPython's MT19937: the 624 words at the first output (index 0), outputs ``getrandbits(32)``."""
    def run(vector: np.ndarray, count: int) -> np.ndarray:
        return python_words(_python_random_of(vector.astype("<u8").view("<u4")), count)
    return SymbolicGenerator("python", 624 * 32, 32, run)


class _Mt19937x64AfterTwist(Mt19937x64):
    """``std::mt19937_64`` given the words a twist has just renewed: word 0 is tempered next."""

    initial_position = 0


def mt19937_64_at(state: int) -> Mt19937x64:
    """``std::mt19937_64`` whose 312 words are ``state`` (word ``i``: bits ``64i..64i+63``), word 0 tempered next
    (no twist first)."""
    return _Mt19937x64AfterTwist(_int_vector(state, Mt19937x64.state_words).tolist())


@functools.cache
def mt19937_64_model() -> SymbolicGenerator:
    """``std::mt19937_64`` at its first output: the 312 words after the twist (each output is one word tempered,
    so 312 outputs give all 19968 bits; before the twist, the low 31 bits of word 0 would reach no output)."""
    def run(vector: np.ndarray, count: int) -> np.ndarray:  # the compiled step itself: 19968 unit states
        out = np.empty(count, dtype=np.uint64)
        Mt19937x64._kernel(np.append(vector, np.uint64(0)), out)  # position 0: word 0 tempered first
        return out
    return SymbolicGenerator("mt19937_64", Mt19937x64.state_words * 64, 64, run)


def _vector_int(vector: np.ndarray) -> int:
    return int.from_bytes(np.asarray(vector, dtype="<u8").tobytes(), "little")


def _int_vector(value: int, words: int) -> np.ndarray:
    return np.frombuffer(value.to_bytes(8 * words, "little"), dtype="<u8").astype(np.uint64)


@dataclass(frozen=True, slots=True)
class Observation:
    """Output ``index`` (counted from the first observed) has ``(output & mask) == value``; with ``bound``, also
    ``floor(output / 2^width * bound) == draw`` in double arithmetic (the mask holds the bits that fixes).

    Build with :meth:`exact`, :meth:`top_bits` or :meth:`draw`.
    """

    index: int
    mask: int
    value: int
    bound: int | None = None
    draw: int | None = None

    @classmethod
    def exact(cls, index: int, value: int, width: int) -> Observation:
        """A whole output of ``width`` bits."""
        return cls.top_bits(index, value, width, width)

    @classmethod
    def top_bits(cls, index: int, value: int, known: int, width: int) -> Observation:
        """The top ``known`` bits of an output of ``width`` bits are ``value``."""
        if not 0 <= known <= width or not 0 <= value < 2**known:
            raise ValueError(f"observation {index + 1}: the top {known} bits of a {width}-bit output are in "
                             f"[0, {2**known - 1}]; got {value}")
        hidden = width - known
        return cls(index, ((1 << known) - 1) << hidden, value << hidden)

    @classmethod
    def draw_below(cls, index: int, draw: int, bound: int, width: int) -> Observation:
        """``floor(y 2^-width * bound) == draw`` (JavaScript's ``Math.floor(Math.random() * bound)``)."""
        if bound < 1 or not 0 <= draw < bound:
            raise ValueError(f"observation {index + 1}: draws below {bound} are in [0, {bound - 1}]; got {draw}")
        low, high = _draw_interval(draw, bound, width)
        shared = width - (low ^ high).bit_length()
        return cls(index, ((1 << shared) - 1) << (width - shared), low & ~((1 << (width - shared)) - 1), bound, draw)



@functools.lru_cache(maxsize=4096)
def _draw_interval(draw: int, bound: int, width: int) -> tuple[int, int]:
    """The outputs ``y`` in ``[0, 2^width)`` whose double draw below ``bound`` is ``draw`` (a non-decreasing map).

    Python's floats are IEEE doubles, so ``floor(y * 2**-width * bound)`` is JavaScript's arithmetic.
    """
    scale = 2.0**-width

    def first_reaching(value: int) -> int:
        guess = -(-(value << width) // bound)  # exact arithmetic; the rounding of r n moves it by a few at most
        while guess > 0 and math.floor((guess - 1) * scale * bound) >= value:
            guess -= 1
        while guess < 2**width and math.floor(guess * scale * bound) < value:
            guess += 1
        return guess
    return first_reaching(draw), first_reaching(draw + 1) - 1


def python_floats(floats: Sequence[float], start: int = 0) -> list[Observation]:
    """Observations of CPython ``random()`` values: each reads two words, ``a >> 5`` and ``b >> 6``."""
    out = []
    for offset, value in enumerate(floats):
        mantissa = _mantissa(value, 53, offset, "random()")
        index = start + 2 * offset
        out += [Observation.top_bits(index, mantissa >> 26, 27, 32),
                Observation.top_bits(index + 1, mantissa & (2**26 - 1), 26, 32)]
    return out


@dataclass(frozen=True)
class LinearSolution(Result):
    """The states (at the first observation) that give every observation.

    Attributes
    ----------
    generator : str
    states : list of int
        Each state, bit ``i`` unknown ``i`` (a :meth:`LinearSource.state_vector` as one integer); every one replays
        every observation.
    unknowns : int
        ``k``, bits of state.
    equations : int
        Bit equations the observations gave.
    rank : int
        Their rank over GF(2); ``unknowns - rank`` is the dimension of the solution space enumerated.
    candidates : int
        States enumerated (``2^(unknowns - rank)``).
    """

    generator: str
    states: list
    unknowns: int
    equations: int
    rank: int
    candidates: int


def solve(model: SymbolicGenerator, observations: Sequence[Observation], budget: int = BUDGET,
          replay: Callable[[int], np.ndarray] | None = None, pinned: Sequence[int] = ()) -> LinearSolution:
    """Every state whose outputs show ``observations`` (see the module docstring).

    Parameters
    ----------
    model : SymbolicGenerator
    observations : sequence of Observation
    budget : int
        Most candidates enumerated.
    replay : callable, optional
        ``replay(state)``: the outputs ``0 .. max index`` of the real generator from a state (default: ``model.run``).
    pinned : sequence of int
        Unknowns set to 0 (equations ``x_j = 0``): bits no observed output reads, whose every value would otherwise
        be enumerated (MT19937: the low 31 bits of the first word when its own output is not observed).

    Raises
    ------
    UnderdeterminedState
        When more than ``budget`` states fit (the rank is too low).
    ValueError
        When the observations contradict one another (no state gives them all).
    """
    if not observations:
        raise UnderdeterminedState(0, model.unknowns, -1, 0)
    count = max(o.index for o in observations) + 1
    outputs, bits, rhs = _equations(model, observations)
    system = _eliminate(model, count, outputs, bits, rhs, np.asarray(pinned, dtype=np.int64))
    contradiction = ValueError(f"the observations contradict each other: no {model.name} state gives them all")
    if system.contradictions:
        raise contradiction
    nullity = model.unknowns - system.rank
    if 2**nullity > budget:
        raise UnderdeterminedState(system.rank, model.unknowns,
                                   needed_observations(system.rank, model.unknowns, len(observations)),
                                   len(observations))
    particular, basis = system.solution_space()
    run = replay or (lambda state: model.run(_int_vector(state, model.words), count))
    states = [s for s in _consistent(model, observations, count, particular, basis)
              if s and _shows(run(s), observations, model.width)]  # 0: a fixed point, never a generator's state
    if not states:
        raise contradiction
    return LinearSolution(model.name, states, model.unknowns, len(rhs), system.rank, 2**nullity)


def _equations(model: SymbolicGenerator, observations: Sequence[Observation]):
    """The bit equations: for each known bit ``b`` of output ``t``, ``(t, b)`` (the form) and the bit's value."""
    shifts = np.arange(model.width, dtype=np.uint64)
    masks = (np.array([o.mask for o in observations], dtype=np.uint64)[:, None] >> shifts) & np.uint64(1)
    values = (np.array([o.value for o in observations], dtype=np.uint64)[:, None] >> shifts) & np.uint64(1)
    which, bits = np.nonzero(masks)
    indices = np.array([o.index for o in observations], dtype=np.int64)[which]
    return indices, bits, values[which, bits]


@dataclass(frozen=True)
class _System:
    """Local pivots (per word, reduced) and the compact echelon form over the unknowns they leave free."""

    unknowns: int
    local_rows: np.ndarray
    local_rhs: np.ndarray
    local_mask: np.ndarray
    free_columns: np.ndarray
    pivots: np.ndarray
    pivot_rhs: np.ndarray
    has_pivot: np.ndarray
    rank: int
    contradictions: int

    def solution_space(self) -> tuple[int, list[int]]:
        """The particular solution (free unknowns 0) and a basis of the null space, as integers."""
        columns = self.free_columns.size
        free = np.flatnonzero(~self.has_pivot)
        particular = self._full(np.zeros(columns, dtype=np.bool_), 1)
        basis = []
        for c in free:
            values = np.zeros(columns, dtype=np.bool_)
            values[c] = True
            basis.append(self._full(values, 0))
        return particular, basis

    def _full(self, free_values: np.ndarray, use_rhs: int) -> int:
        compact = np.zeros(self.pivots.shape[1], dtype=np.uint64)
        kernels.back_substitute(self.pivots, self.pivot_rhs, self.has_pivot, self.free_columns.size, free_values,
                                np.uint64(use_rhs), compact)
        x = np.zeros(self.local_mask.size, dtype=np.uint64)
        kernels.expand(compact, self.free_columns, self.local_rows, self.local_rhs, self.local_mask,
                       np.uint64(use_rhs), x)
        return _vector_int(x)


def _eliminate(model: SymbolicGenerator, count: int, outputs: np.ndarray, bits: np.ndarray, rhs: np.ndarray,
               pinned: np.ndarray) -> _System:
    """Local equations (one word of unknowns) reduced word by word; the others compacted and put in echelon form.

    The equations are ``x_j = 0`` for ``j`` in ``pinned``, then the forms ``[outputs[i], bits[i]]`` = ``rhs[i]``.
    """
    forms, (first, last) = model.forms(count), model.spans(count)
    unknowns, words = model.unknowns, model.words
    first, last = first[outputs, bits], last[outputs, bits]
    local = (first == last) & (first >= 0)
    local_rows = np.zeros((words, 64), dtype=np.uint64)
    local_rhs = np.zeros((words, 64), dtype=np.uint64)
    local_mask = np.zeros(words, dtype=np.uint64)
    local_words = np.concatenate([pinned // 64, first[local]])
    pins = np.left_shift(np.uint64(1), (pinned % 64).astype(np.uint64))
    contradictions = int(kernels.local_elimination(
        np.concatenate([pins, forms[outputs[local], bits[local], first[local]]]),
        np.concatenate([np.zeros(pinned.size, dtype=np.uint64), rhs[local]]),
        local_words, local_rows, local_rhs, local_mask))
    pivot_bits = np.unpackbits(local_mask.astype("<u8").view(np.uint8), bitorder="little")[:unknowns].astype(bool)
    free_columns = np.flatnonzero(~pivot_bits)
    free_index = np.full(64 * words, -1, dtype=np.int64)
    free_index[free_columns] = np.arange(free_columns.size)
    wide = -(-max(free_columns.size, 1) // 64)
    rest = ~local
    compact = np.zeros((int(rest.sum()), wide), dtype=np.uint64)
    compact_rhs = np.zeros(compact.shape[0], dtype=np.uint64)
    kernels.compact_rows(forms[outputs[rest], bits[rest]], rhs[rest], local_rows, local_rhs, local_mask, free_index, compact, compact_rhs)
    pivots = np.zeros((free_columns.size, wide), dtype=np.uint64)
    pivot_rhs = np.zeros(free_columns.size, dtype=np.uint64)
    has_pivot = np.zeros(free_columns.size, dtype=np.bool_)
    rank, more, _ = kernels.echelon(compact, compact_rhs, free_columns.size, pivots, pivot_rhs, has_pivot)
    local_rank = unknowns - free_columns.size
    return _System(unknowns, local_rows, local_rhs, local_mask, free_columns, pivots, pivot_rhs, has_pivot,
                   local_rank + int(rank), contradictions + int(more))


def _consistent(model, observations, count, particular: int, basis: list[int]):
    """The states ``particular + span(basis)`` whose outputs (linear: XORs of the basis's) show every observation."""
    indices = np.array(sorted({o.index for o in observations}), dtype=np.int64)
    position = {index: i for i, index in enumerate(indices)}

    def outputs(state: int) -> np.ndarray:
        return model.run(_int_vector(state, model.words), count)[indices] if state else np.zeros(indices.size,
                                                                                                  np.uint64)
    inner, outer = basis[:_CHUNK_BITS], basis[_CHUNK_BITS:]
    offsets, values = [0], outputs(particular)[None, :]
    for vector in inner:
        offsets += [o ^ vector for o in offsets]
        values = np.concatenate([values, values ^ outputs(vector)[None, :]])
    outer_outputs = [outputs(vector) for vector in outer]
    found = []
    columns = [position[o.index] for o in observations]
    for choice in range(2**len(outer)):
        shift, moved = 0, np.zeros(indices.size, dtype=np.uint64)
        for bit, vector in enumerate(outer):
            if (choice >> bit) & 1:
                shift ^= vector
                moved ^= outer_outputs[bit]
        ok = _holding(values, columns, observations, model.width, moved)
        found += [particular ^ offsets[i] ^ shift for i in np.flatnonzero(ok)]
    return found


def _holding(block: np.ndarray, columns: list[int], observations: Sequence[Observation], width: int,
             moved: np.ndarray | None = None) -> np.ndarray:
    """Which rows of ``block`` (outputs, one column per observed output), each XORed with ``moved`` if given, show
    every observation.

    The observations are checked :data:`_CHECKED_AT_ONCE` at a time on the rows still standing (a wrong candidate
    fails a draw's interval within a few dozen draws).
    """
    columns = np.array(columns, dtype=np.int64)
    masks = np.array([o.mask for o in observations], dtype=np.uint64)
    values = np.array([o.value for o in observations], dtype=np.uint64)
    bounds = np.array([o.bound or 0 for o in observations], dtype=np.float64)
    draws = np.array([-1 if o.bound is None else o.draw for o in observations], dtype=np.int64)
    ok = np.ones(block.shape[0], dtype=np.bool_)
    for start in range(0, len(observations), _CHECKED_AT_ONCE):
        alive, part = np.flatnonzero(ok), slice(start, start + _CHECKED_AT_ONCE)
        seen = block[np.ix_(alive, columns[part])] ^ (np.uint64(0) if moved is None else moved[columns[part]])
        good = ((seen & masks[part]) == values[part]).all(axis=1)
        drawn = draws[part] >= 0
        if drawn.any():
            product = np.floor(seen[:, drawn].astype(np.float64) * 2.0**-width * bounds[part][drawn])
            good &= (product.astype(np.int64) == draws[part][drawn]).all(axis=1)
        ok[alive] = good
    return ok


def _shows(outputs: np.ndarray, observations: Sequence[Observation], width: int) -> bool:
    """Whether the outputs (from output 0) show every observation."""
    return bool(_holding(outputs[None, :], [o.index for o in observations], observations, width)[0])


# ----------------------------------------------------------------------------------------------------------------
# V8's Math.random: the 64-value cache, the JavaScript Fisher-Yates deal, the seed. ``variant`` is the class of
# the V8 version (:class:`~rnglab.generators.xorshift.V8MathRandom`, 52-bit doubles, or ``V8MathRandom53``);
# V8 4.9-7.0's ``V8MathRandomPlus`` outputs ``state0 + state1``, not linear: :func:`check_linear_v8` refuses it.

#: V8's cache (``MathRandom::kCacheSize``).
CACHE = V8MathRandom.CACHE_SIZE


def check_linear_v8(variant: type[V8MathRandom]) -> None:
    """Refuse a V8 variant whose doubles are not GF(2)-linear in the state (one line: why).

    Raises
    ------
    ValueError
        For ``v8-plus``: ``(state0 + state1) mod 2^52`` carries between bits (only the lowest bit,
        ``state0 ^ state1``, is linear), so the draws give no linear equations in the state.
    """
    if not variant.output_linear:
        raise ValueError(f"{variant.name}'s {variant.output_rule}: its state cannot be recovered by GF(2) "
                         "elimination; give a seed space to search (--seeds)")


def v8_width(variant: type[V8MathRandom]) -> int:
    """Bits of a ``Math.random()`` value of the variant: 52 (``state0 >> 12``) or 53 (``state0 >> 11``)."""
    return int(variant.high).bit_length()


def v8_engine_index(call: int, phase: int) -> int:
    """The engine output (in the order generated, from the state before the block's refill) that ``Math.random``
    call ``call`` hands out when ``phase`` values of that block were taken before the first observed call (integers,
    or arrays of them: elementwise, broadcast)."""
    position = phase + call
    return CACHE * (position // CACHE) + CACHE - 1 - position % CACHE


def v8_draw_observations(draws: Sequence[tuple[int, int] | None], phase: int, width: int = 52) -> list[Observation]:
    """``(value, bound)`` of successive ``Math.floor(Math.random() * bound)`` calls as engine observations
    (``None``: a call whose value is not known, which only takes its place in the stream); ``width``: bits of a
    ``Math.random()`` value (:func:`v8_width`)."""
    return _placed(_draw_shapes(draws, width), phase)


def _draw_shapes(draws: Sequence[tuple[int, int] | None], width: int) -> list[Observation | None]:
    """The observation of each call, indexed by the call (the bits it fixes do not depend on the phase)."""
    return [None if draw is None else Observation.draw_below(call, draw[0], draw[1], width)
            for call, draw in enumerate(draws)]


def _placed(shapes: Sequence[Observation | None], phase: int) -> list[Observation]:
    """The observations of :func:`_draw_shapes` at the engine outputs the calls read at ``phase``."""
    return [Observation(v8_engine_index(call, phase), shape.mask, shape.value, shape.bound, shape.draw)
            for call, shape in enumerate(shapes) if shape is not None]


def v8_double_observations(doubles: Sequence[float], phase: int, width: int = 52) -> list[Observation]:
    """Successive ``Math.random()`` values as engine observations: each is ``state0 >> (64 - width)`` over
    ``2^width``, whole."""
    out = []
    for call, value in enumerate(doubles):
        mantissa = _mantissa(value, width, call, "Math.random()")
        out.append(Observation.exact(v8_engine_index(call, phase), mantissa, width))
    return out


def _mantissa(value: float, bits: int, offset: int, what: str) -> int:
    """``value * 2^bits`` for a value ``what`` hands out (a multiple of ``2^-bits`` in [0, 1)), else a refusal
    naming observation ``offset + 1``."""
    mantissa = int(value * 2.0**bits)
    if not 0 <= value < 1 or mantissa != value * 2.0**bits:
        raise ValueError(f"observation {offset + 1}: {what} values are multiples of 2^-{bits} in [0, 1); "
                         f"got {value!r}")
    return mantissa


def js_fisher_yates(source: V8MathRandom, size: int) -> list[int]:
    """The deal ``for (i = n; i > 0; i--) { r = Math.floor(Math.random() * i); swap(r, i - 1) }`` of ``0..n-1``
    (``Math.random()`` is the source's raw output over ``2^52``, or ``2^53`` for ``v8-53``)."""
    deck, scale = list(range(size)), 2.0**-v8_width(type(source))
    for i in range(size, 0, -1):
        mantissa = int(source.random_raw(1)[0])
        r = math.floor(mantissa * scale * i)
        deck[r], deck[i - 1] = deck[i - 1], deck[r]
    return deck


def is_js_fisher_yates_v8(generator, algorithm, reducer) -> bool:
    """Whether a generator spec, shuffle and reducer are :func:`js_fisher_yates` on V8 (``js-fisher-yates-v8``):
    ``Math.floor(Math.random() * i)`` for ``i = n..1``, swapping ``r`` and ``i - 1``, on a V8 whose doubles are
    linear (``v8``, ``v8-53``; not ``v8-plus``, whose deals are searched by seed)."""
    variant = ALGORITHMS.get(generator.algorithm) if generator.kind == "linear" else None
    return (variant is not None and issubclass(variant, V8MathRandom) and variant.output_linear
            and algorithm is not None
            and algorithm.name == "fisher-yates-to-zero" and reducer is not None and reducer.name == "float-multiply")


def js_fisher_yates_draws(bottom: Sequence[int], size: int = 52) -> list[tuple[int, int]]:
    """The draws ``(r, i)`` that put the cards ``bottom`` (positions ``n-1, n-2, ...`` of the dealt deck) there.

    Step ``i`` swaps positions ``r`` and ``i - 1`` and never touches ``i - 1``
    again, so the card seen at ``i - 1`` tells ``r``: where that card was.
    """
    if len(set(bottom)) != len(bottom) or len(bottom) > size:
        raise ValueError(f"the cards seen must be distinct, at most {size}; got {list(bottom)}")
    deck = list(range(size))
    where = list(range(size))
    draws = []
    for step, card in enumerate(bottom):
        i = size - step
        if not 0 <= card < size:
            raise ValueError(f"cards are 0..{size - 1}; got {card}")
        r = where[card]  # below i: the cards at i.. are the ones seen before, and the cards are distinct
        deck[r], deck[i - 1] = deck[i - 1], deck[r]
        where[deck[r]], where[deck[i - 1]] = r, i - 1
        draws.append((r, i))
    return draws


def v8_seed(words: tuple[int, int]) -> int | None:
    """The seed whose V8 state is ``words``: ``state0 = fmix64(seed)``, checked by ``state1 = fmix64(~seed)``
    (None: these words are not a fresh seeded state)."""
    seed = unfmix64(words[0])
    return seed if fmix64(~seed & _MASK64) == words[1] else None


def unity_seed(state: int) -> int | None:
    """The ``Random.InitState`` seed (a signed 32-bit int) whose xorshift128 state is ``state`` (bit ``32i + b``:
    bit ``b`` of word ``i``, x first), else None: ``x`` is the seed, checked by ``y``, ``z``, ``w``."""
    words = [(state >> (32 * i)) & 0xFFFFFFFF for i in range(4)]
    seed = words[0] - 2**32 if words[0] >= 2**31 else words[0]
    return seed if UnityRandom.seed_words(seed) == words else None


def unfmix64(h: int) -> int:
    """The inverse of MurmurHash3's ``fmix64``: ``x ^= x >> 33`` is its own inverse, the products are odd."""
    h ^= h >> 33
    h = (h * pow(0xC4CEB9FE1A85EC53, -1, 2**64)) & _MASK64
    h ^= h >> 33
    h = (h * pow(0xFF51AFD7ED558CCD, -1, 2**64)) & _MASK64
    return h ^ (h >> 33)


@dataclass(frozen=True)
class V8Recovery(Result):
    """V8 ``Math.random`` states that give the draws, and the phase of the cache they assume.

    Attributes
    ----------
    solutions : list of (int, tuple of int)
        ``(phase, (state0, state1))``: the engine words before the refill of the block the first draw came from,
        with ``phase`` values of that block taken before it; each replays every draw.
    seeds : list of int or None
        The ``--random_seed`` (modulo 2^64) of each, where the words are a fresh seeded state (phase 0 of the
        first block), else None.
    rank, unknowns : int
        Rank of the equations (the last phase tried) of the 128 unknown bits.
    phases_tried : int
    """

    solutions: list
    seeds: list
    rank: int
    unknowns: int
    phases_tried: int


def v8_source(words: tuple[int, int], phase: int, variant: type[V8MathRandom] = V8MathRandom) -> V8MathRandom:
    """``Math.random`` of the variant at the block's refill with ``phase`` values already taken."""
    source = variant(words)
    source.random_raw(phase) if phase else None
    return source


def recover_v8_draws(draws: Sequence[tuple[int, int]], phase: int | None = None,
                     budget: int = BUDGET, variant: type[V8MathRandom] = V8MathRandom) -> V8Recovery:
    """Every V8 state (and cache phase) whose ``Math.floor(Math.random() * bound)`` calls give ``draws``.

    Parameters
    ----------
    draws : sequence of (value, bound) or None
        ``None``: a call whose value is not known.
    phase : int, optional
        Values of the block taken before the first draw (0 for a fresh context); None: each of 0..63 in turn.
    variant : type
        The V8 version's ``Math.random`` (:class:`~rnglab.generators.xorshift.V8MathRandom` or ``V8MathRandom53``).

    Raises
    ------
    UnderdeterminedState
        When a phase leaves more than ``budget`` states (too few draws).
    ValueError
        When no state (of any phase tried) gives the draws, or for a variant that is not linear
        (:func:`check_linear_v8`).
    """
    check_linear_v8(variant)
    if phase is not None and not 0 <= phase < CACHE:
        raise ValueError(f"the cache phase is the values taken from a block of {CACHE}: 0..{CACHE - 1}; got {phase}")
    model = linear_source_model(variant.engine_class)  # the engine: outputs in the order generated
    width = v8_width(variant)
    shapes = _draw_shapes(draws, width)  # once: each phase only moves them (:func:`_placed`)
    solutions, rank, first = [], 0, None
    phases = range(CACHE) if phase is None else [phase]
    refuted = _refuted_phases(model, shapes, [p for p in phases if p + len(draws) > CACHE]) if phase is None \
        else set()
    for p in phases:
        if first is not None and p + len(draws) <= CACHE:
            states = _shifted_within_block(first, p, shapes, variant)
        elif p in refuted:
            states = []
        else:
            try:
                found = solve(model, _placed(shapes, p), budget,
                              lambda state, p=p: _v8_replay(state, p, len(shapes), variant))
            except UnderdeterminedState:
                raise
            except ValueError:  # the draws contradict this phase
                if phase is not None:
                    raise
                found = None
            states, rank = (found.states, found.rank) if found else ([], rank)
            first = (p, states) if first is None and p + len(draws) <= CACHE else first
        solutions += [(p, _v8_words(state)) for state in states]
    if not solutions:
        raise ValueError("the draws contradict every cache phase tried: no V8 Math.random state gives them")
    seeds = [v8_seed(words) if p == 0 else None for p, words in solutions]
    return V8Recovery(solutions, seeds, rank, model.unknowns, len(phases))


def _refuted_phases(model: SymbolicGenerator, shapes: list[Observation | None], phases: list[int]) -> set[int]:
    """The phases no state of which gives the draws, found for all of them in one compiled pass
    (:func:`~rnglab.recovery.linear_kernels.no_state_fits`); a phase not refuted is solved as any other.

    The bits a draw fixes do not depend on the phase, only the engine output they are read from
    (:func:`v8_engine_index`), so the equations of every phase are the same bits of other rows of the model's
    forms. Every equation is reduced (past full rank too): a wrong phase's equations contradict one another with
    probability about ``1 - 2^-(equations - 128)``. Where they do not (``equations <= 128`` leaves none to
    contradict) and at most :data:`_SCREENED_FREE` unknowns are free, each state they leave is checked against
    every draw's interval, as :func:`solve` would, without the Python enumeration.
    """
    seen = [shape for shape in shapes if shape is not None]
    if not phases or not seen:
        return set()
    calls, bits, rhs = _equations(model, seen)
    each = np.array([shape.index for shape in seen], dtype=np.int64)
    chosen = np.array(phases, dtype=np.int64)[:, None]
    equations, draws = v8_engine_index(calls[None, :], chosen), v8_engine_index(each[None, :], chosen)
    forms = model.forms(int(draws.max()) + 1)
    intervals = np.array([_draw_interval(shape.draw, shape.bound, model.width) for shape in seen], dtype=np.uint64)
    out = np.empty(len(phases), dtype=np.bool_)
    kernels.no_state_fits(forms[equations, bits], rhs, model.unknowns, forms, draws, intervals[:, 0],
                          intervals[:, 1], _SCREENED_FREE, out)
    return {p for p, refuted in zip(phases, out) if refuted}


def _shifted_within_block(first: tuple[int, list[int]], phase: int, shapes: list[Observation | None],
                          variant: type[V8MathRandom]) -> list[int]:
    """The states of ``phase`` from those of an earlier phase ``q`` when every draw stays in one block: call ``j``
    reads engine output ``63 - phase - j``, the same value as ``63 - q - j`` read from ``phase - q`` steps on.
    Each is replayed: its ``Math.random`` calls from ``phase`` give every draw."""
    q, states = first
    width = v8_width(variant)
    seen = [shape for shape in shapes if shape is not None]  # indexed by the call
    out = []
    for state in states:
        engine = variant.engine_class(_v8_words(state))
        engine.random_raw(phase - q)
        moved = _vector_int(engine.state_vector())
        if _shows(v8_source(_v8_words(moved), phase, variant).random_raw(len(shapes)), seen, width):
            out.append(moved)
    return out


def _v8_words(state: int) -> tuple[int, int]:
    return state & _MASK64, state >> 64


def _v8_replay(state: int, phase: int, calls: int, variant: type[V8MathRandom]) -> np.ndarray:
    """Engine-ordered outputs re-derived from ``Math.random`` itself: call ``j`` lands at its engine index."""
    if not state:
        return np.zeros(v8_engine_index(calls - 1, phase) + 1, dtype=np.uint64)
    indices = [v8_engine_index(j, phase) for j in range(calls)]
    out = np.zeros(max(indices) + 1, dtype=np.uint64)
    out[indices] = v8_source(_v8_words(state), phase, variant).random_raw(calls)
    return out


def recover_v8_deal(bottom: Sequence[int], size: int = 52, phase: int | None = 0,
                    budget: int = BUDGET, variant: type[V8MathRandom] = V8MathRandom) -> V8Recovery:
    """The V8 states behind a JavaScript Fisher--Yates deal from the ``bottom`` cards seen (positions n-1, n-2, ...)."""
    return recover_v8_draws(js_fisher_yates_draws(bottom, size), phase, budget, variant)


def recover_v8_cards(steps: list, observation, phase: int | None = 0, budget: int = BUDGET,
                     variant: type[V8MathRandom] = V8MathRandom) -> V8Recovery:
    """The V8 states behind cards seen at any known positions of a deal by the swap program ``steps``.

    Each path of draws that puts the cards there (:func:`rnglab.recovery.dealt.draw_paths`: a draw that fixes a
    seen card is known, one that does not is unknown, and a draw that moves a seen card branches) is solved in
    turn; every state found deals the cards at their positions again.

    Raises
    ------
    UnderdeterminedState
        When some path leaves more than ``budget`` states: no answer is then unique.
    ValueError
        When no path and no state deal the cards, or the cards allow more paths than the walk follows.
    """
    from rnglab.recovery.dealt import draw_paths

    size = observation.deck.size
    solutions, seeds, rank, tried = [], [], 0, 0
    for clues in draw_paths(steps, observation):
        draws = [None if clue.unknown else (clue.low, clue.bound) for clue in clues]
        try:
            found = recover_v8_draws(draws, phase, budget, variant)
        except UnderdeterminedState:
            raise
        except ValueError:  # no state gives this path's draws
            continue
        rank, tried = max(rank, found.rank), found.phases_tried
        for solution, seed in zip(found.solutions, found.seeds):
            deck = predict_v8_deal(solution[1], solution[0], size, variant)
            if solution not in solutions and all(deck[p] == c for p, c in zip(observation.positions,
                                                                              observation.cards)):
                solutions.append(solution)
                seeds.append(seed)
    if not solutions:
        raise ValueError("no V8 Math.random state deals these cards at these positions")
    return V8Recovery(solutions, seeds, rank, 128, tried)


def predict_v8_deal(words: tuple[int, int], phase: int, size: int = 52,
                    variant: type[V8MathRandom] = V8MathRandom) -> list[int]:
    """The whole deck dealt from a recovered state: the cards not seen are predicted."""
    return js_fisher_yates(v8_source(words, phase, variant), size)


# ----------------------------------------------------------------------------------------------------------------
# CPython's random.Random (MT19937).

def recover_python_words(words: Sequence[int], budget: int = BUDGET) -> LinearSolution:
    """The MT19937 states (624 words at the first output) behind consecutive ``getrandbits(32)`` values."""
    return solve(python_random_model(), [Observation.exact(i, int(w), 32) for i, w in enumerate(words)], budget)


def recover_python_floats(floats: Sequence[float], budget: int = BUDGET) -> LinearSolution:
    """The MT19937 states behind consecutive ``random()`` values (27 + 26 bits of two words each).

    The low 31 bits of word 0 reach only output 0 (the twist keeps word 0's top
    bit), so the 5 bits ``random()`` drops of it leave several states: they all
    replay every observation and give the same outputs from output 1 on.
    """
    return solve(python_random_model(), python_floats(floats), budget)


def recover_mt19937_64_words(words: Sequence[int], budget: int = BUDGET) -> LinearSolution:
    """The ``std::mt19937_64`` states (312 words at the first output, :func:`mt19937_64_at`) behind consecutive
    64-bit outputs."""
    return solve(mt19937_64_model(), [Observation.exact(i, int(w), 64) for i, w in enumerate(words)], budget)


def mt19937_64_seed(state: int) -> int | None:
    """The ``std::mt19937_64`` seed of a state (312 words at the first output), or None where it was not freshly
    seeded (:func:`rnglab.recovery.twister.seed_candidate`, checked by seeding and comparing 312 outputs)."""
    seed = seed_candidate(_int_vector(state, MT19937_64.words).tolist(), MT19937_64)
    outputs = mt19937_64_at(state).random_raw(MT19937_64.words)
    return seed if np.array_equal(Mt19937x64.seeded(seed).random_raw(MT19937_64.words), outputs) else None
