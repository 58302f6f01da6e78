"""The structure of a generator linear over GF(2): transition matrix, characteristic polynomial, exact period and
the equidistribution of its top bits (the GF(2) analogue of ``period`` and ``spectral``).

For a generator whose state ``x`` (``k`` bits) moves by ``x -> A x`` and whose
output bits are linear in ``x``, every output bit sequence satisfies the
recurrence of the characteristic polynomial ``P`` of ``A``.

* :func:`transition_matrix`: ``A``, column ``i`` the state after one step from unit vector ``e_i``.
* :func:`characteristic_polynomial`: ``P`` by Berlekamp--Massey on ``2k`` bits of one sequence; when ``P``
  is irreducible (every generator of the catalog) it is the minimal polynomial of every non-zero sequence.
* :func:`gf2_period`: ``2^k - 1`` when ``P`` is primitive (:func:`~rnglab.algebra.gf2.is_primitive`).
* :func:`equidistribution`: ``k(v)`` for ``v = 1 .. w``, the largest ``t`` such that the top ``v`` bits of
  ``t`` consecutive outputs take every one of the ``2^(tv)`` values equally often over the period (plus one
  for the all-zero state); the bound ``floor(k / v)`` and the dimension defect
  ``Delta = sum (floor(k/v) - k(v))``.

Method for k(v): with ``P`` irreducible the functionals "bit j of output i" are
``z^i g_j`` in ``F = GF(2)[z] / P`` (taking "top bit of output 0" as 1), and
``t`` outputs are equidistributed to ``v`` bits iff the ``tv`` elements
``z^i g_j`` (``i < t``, ``j < v``) are independent. A dependence is a vector
``c`` of the lattice ``M_v = {c in GF(2)[z]^v : sum c_j g_j = 0 mod P}`` of
degree below ``t``, so ``k(v)`` is the degree of the shortest non-zero vector
of ``M_v`` (Couture, L'Ecuyer and Tezuka's dual lattice). ``M_1 = (P)`` and
``M_(v+1)`` adds the row ``(g_v, 0, ..., 0, 1)`` to ``M_v``'s; a weak Popov
form (Mulders and Storjohann) of the basis gives the shortest degree, and the
rows are reused for the next ``v`` (Harase's incremental reduction).

References
----------
M. Matsumoto and T. Nishimura, "Mersenne twister", ACM TOMACS 8(1), 1998 (MT19937: period 2^19937 - 1,
135 terms, k(32) = 623, Delta = 6750).
R. Couture, P. L'Ecuyer and S. Tezuka, "On the distribution of k-dimensional vectors for simple and combined
Tausworthe sequences", Math. Comp. 60(202), 1993.
T. Mulders and A. Storjohann, "On lattice reduction for polynomial matrices", J. Symbolic Comput. 35(4), 2003.
S. Harase, "An efficient lattice reduction method for F2-linear pseudorandom number generators using Mulders
and Storjohann algorithm", J. Comput. Appl. Math. 236(2), 2011.
F. Panneton, P. L'Ecuyer and M. Matsumoto, ACM TOMS 32(1), 2006 (WELL512a: Delta = 0).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rnglab.algebra import gf2
from rnglab.algebra import gf2_kernels as kernels
from rnglab.core.results import Result
from rnglab.generators.spec import GeneratorSpec
from rnglab.generators.xorshift import LinearSource

#: MT19937's state: 624 words of 32 bits (of which 19937 bits matter).
MT19937_STATE_BITS = 624 * 32


@dataclass(frozen=True)
class LinearModel:
    """A GF(2)-linear generator as the algebra reads it.

    Attributes
    ----------
    name : str
    state_size : int
        Bits of state, ``k``: a bound on the degree of the characteristic polynomial.
    width : int
        Bits per output.
    output_linear : bool
        Whether the outputs are linear in the state (else :attr:`sequence` reads a state word).
    sequence : callable
        ``sequence(count)``: ``count`` successive values (uint64) from a fixed non-zero state.
    """

    name: str
    state_size: int
    width: int
    output_linear: bool
    sequence: Callable[[int], np.ndarray]


def linear_model(generator: GeneratorSpec) -> LinearModel:
    """The linear model of a catalog generator: the ``linear`` kind (V8's ``Math.random`` through its engine, a
    scrambled xoroshiro or xoshiro, or V8's xorshift128+ (``v8-plus``), through its first state word), MT19937 (``numpy`` MT19937 or ``python``).

    Raises
    ------
    ValueError
        For a generator that is not linear over GF(2) (an LCG, an MRG, PCG64, ...).
    """
    if generator.kind == "linear":
        source = generator.make()
        output_linear = source.output_linear  # V8 4.9-7.0's state0 + state1 is not, though its engine's is
        source = source.engine() if hasattr(source, "engine") else source
        if output_linear:
            return LinearModel(generator.name, source.state_size, source.output_bits, True,
                               lambda count: source.copy().random_raw(count))
        return LinearModel(generator.name, source.state_size, source.word_bits, False,
                           lambda count: _first_state_words(source.copy(), count))
    if (generator.kind == "numpy" and generator.bit_generator == "MT19937") or \
            (generator.kind == "python" and generator.words is None):
        return LinearModel(generator.name, MT19937_STATE_BITS, 32, True,
                           lambda count: generator.make().random_raw(count))
    raise ValueError(f"{generator.name} is not linear over GF(2): its characteristic polynomial and "
                     "equidistribution do not apply")


def _first_state_words(source: LinearSource, count: int) -> np.ndarray:
    """State word 0 after each of ``count`` steps (a linear sequence of a scrambled generator's engine)."""
    words = np.empty(count, dtype=np.uint64)
    for index in range(count):
        source.random_raw(1)
        words[index] = source.words[0]
    return words


def transition_matrix(source_type: type[LinearSource]) -> np.ndarray:
    """The ``k x k`` transition matrix ``A`` over GF(2) of a generator class, rows packed in uint64 words.

    Column ``i`` is the state one step after the unit state ``e_i``
    (:meth:`~rnglab.generators.xorshift.LinearSource.from_state_vector`);
    row ``r`` (returned) holds bit ``r`` of every column: ``(A x)_r`` is the
    parity of ``row_r & x``.

    Raises
    ------
    ValueError
        For a generator whose output is not one step of its words (V8's cache: use its engine; MT19937-64).
    """
    if not source_type.step_per_output:
        raise ValueError(f"{source_type.name}: one output is not one step of its state words; its transition "
                         "matrix is not defined here")
    k = source_type.word_bits * source_type.state_words
    columns = np.zeros((k, -(-k // 64)), dtype=np.uint64)
    for i in range(k):
        unit = np.zeros(-(-k // 64), dtype=np.uint64)
        unit[i // 64] = np.uint64(1) << np.uint64(i % 64)
        source = source_type.from_state_vector(unit)
        source.random_raw(1)
        columns[i] = source.state_vector()
    return _transpose(columns, k)


def _transpose(rows: np.ndarray, k: int) -> np.ndarray:
    bits = np.unpackbits(rows.astype("<u8").view(np.uint8), axis=1, bitorder="little")
    transposed = np.zeros_like(bits)
    transposed[:k, :k] = bits[:k, :k].T
    return np.packbits(transposed[:k], axis=1, bitorder="little").view("<u8").astype(np.uint64)


def bit_sequence(values: np.ndarray, bit: int) -> list[int]:
    """Bit ``bit`` (0 the least significant) of each value."""
    return ((values >> np.uint64(bit)) & np.uint64(1)).astype(np.int64).tolist()


def characteristic_polynomial(model: LinearModel) -> int:
    """The characteristic polynomial by Berlekamp--Massey on ``2k`` terms of the top output bit (a state bit for
    a scrambled generator). Exact for an irreducible polynomial; else it may be a factor (the minimal polynomial
    of that sequence)."""
    return gf2.berlekamp_massey(bit_sequence(model.sequence(2 * model.state_size), model.width - 1))


@dataclass(frozen=True)
class GF2Period(Result):
    """The characteristic polynomial and period of a GF(2)-linear generator.

    Attributes
    ----------
    generator : str
    state_size : int
        Bits of state.
    degree : int
        Degree k of the characteristic polynomial (the linear complexity).
    weight : int
        Its number of non-zero coefficients (few: the generator fails linear-complexity tests sooner).
    irreducible, primitive : bool
    period : int or None
        ``2^k - 1`` when primitive (every non-zero state on one cycle), else ``None`` (not computed).
    polynomial : int
        The polynomial, bit i the coefficient of z^i.
    """

    generator: str
    state_size: int
    degree: int
    weight: int
    irreducible: bool
    primitive: bool
    period: int | None
    polynomial: int


def gf2_period(model: LinearModel) -> GF2Period:
    """The characteristic polynomial of ``model``, its weight and the exact period (primitivity test with the
    factorisation of ``2^k - 1``)."""
    polynomial = characteristic_polynomial(model)
    k = gf2.degree(polynomial)
    irreducible = gf2.is_irreducible(polynomial)
    primitive = irreducible and gf2.has_maximal_order(polynomial)
    return GF2Period(model.name, model.state_size, k, gf2.weight(polynomial), irreducible, primitive,
                     2**k - 1 if primitive else None, polynomial)


@dataclass(frozen=True)
class Equidistribution(Result):
    """The equidistribution of the top v bits, v = 1 .. w.

    Attributes
    ----------
    generator : str
    degree : int
        k, the degree of the characteristic polynomial.
    dimensions : tuple of int
        ``k(v)`` for ``v = 1 .. w``.
    bounds : tuple of int
        ``floor(k / v)``.
    defect : int
        ``Delta = sum (floor(k/v) - k(v))``; 0 for a maximally equidistributed generator.
    """

    generator: str
    degree: int
    dimensions: tuple[int, ...]
    bounds: tuple[int, ...]
    defect: int


def equidistribution(model: LinearModel, period: GF2Period | None = None) -> Equidistribution:
    """``k(v)``, ``floor(k/v)`` and the dimension defect of a generator with linear outputs (module docstring).

    Parameters
    ----------
    model : LinearModel
    period : GF2Period, optional
        Its characteristic polynomial (:func:`gf2_period`), when already computed.

    Raises
    ------
    ValueError
        When the outputs are not linear (a ``+`` or ``**`` scrambler) or the polynomial is not irreducible.
    """
    if not model.output_linear:
        raise ValueError(f"{model.name}'s outputs are not linear over GF(2) (a scrambler): equidistribution by "
                         "rank does not apply")
    period = period or gf2_period(model)
    polynomial = period.polynomial
    if not period.irreducible:
        raise ValueError(f"{model.name}'s characteristic polynomial is reducible: the lattice method needs it "
                         "irreducible")
    k = gf2.degree(polynomial)
    elements = _output_elements(model, polynomial)
    dimensions = _shortest_degrees(elements, polynomial)
    bounds = tuple(k // v for v in range(1, model.width + 1))
    return Equidistribution(model.name, k, dimensions, bounds, sum(b - d for b, d in zip(bounds, dimensions)))


def _output_elements(model: LinearModel, polynomial: int) -> list[int]:
    """``g_j`` for j = 0 .. w-1 (bit j from the top): ``h_j / h_0 mod P``, ``h_j`` the numerator of the
    generating function ``sum s_j(i) z^(-i-1) = h_j / P`` of bit j's sequence."""
    k = gf2.degree(polynomial)
    values = model.sequence(k)
    numerators = []
    for j in range(model.width):
        reversed_terms = int("".join(map(str, bit_sequence(values, model.width - 1 - j))), 2)  # s(i) at z^(k-1-i)
        numerators.append((gf2.multiply(polynomial, reversed_terms) >> k) & ((1 << k) - 1))
    unit = gf2.inverse(numerators[0], polynomial)
    return [gf2.multiply_mod(h, unit, polynomial) for h in numerators]


def _new_row(element: int, k: int, dimension: int, width: int) -> np.ndarray:
    """The row ``(g, 0, ..., 0, 1)`` of ``dimension`` components, interleaved, in ``width`` words."""
    coefficients = np.unpackbits(np.frombuffer(element.to_bytes(-(-k // 8), "little"), dtype=np.uint8),
                                 bitorder="little")[:k]
    bits = np.zeros(64 * width, dtype=np.uint8)
    bits[np.arange(k) * dimension] = coefficients
    bits[dimension - 1] = 1
    return np.packbits(bits, bitorder="little").view("<u8").astype(np.uint64)


def _shortest_degrees(elements: list[int], polynomial: int) -> tuple[int, ...]:
    """``k(v)`` for v = 1 .. len(elements): the shortest degree in ``M_v``, by incremental weak Popov forms."""
    k = gf2.degree(polynomial)
    dimensions = [k]
    rows = [gf2.to_words(polynomial, k + 1)]
    tops = [k]
    for v in range(1, len(elements)):
        width = -(-((k + 1) * (v + 1) + 64) // 64)
        matrix = np.zeros((v + 1, width), dtype=np.uint64)
        for index, (row, top) in enumerate(zip(rows, tops)):
            kernels.interleave(row, top, v, matrix[index])
            tops[index] = (top // v) * (v + 1) + top % v
        matrix[v] = _new_row(elements[v], k, v + 1, width)
        tops = np.array(tops + [max(v, gf2.degree(elements[v]) * (v + 1))], dtype=np.int64)
        kernels.weak_popov(matrix, tops, v + 1)
        dimensions.append(int(tops.min()) // (v + 1))
        rows, tops = list(matrix), list(tops)
    return tuple(dimensions)
