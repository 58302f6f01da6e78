"""Multiple recursive generators and their combinations, with the reference implementations' outputs.

An MRG of order k (Knuth, TAOCP vol. 2, 3.2.2) is

    x_n = (a_1 x_{n-1} + a_2 x_{n-2} + ... + a_k x_{n-k}) mod m,

its state the k latest values. A *combination* runs several of them side by
side and merges their newest values into one output z:

``single``
    one component, z = x_n in [0, m - 1];
``difference``
    z = x_{1,n} - x_{2,n} - ..., plus ``wrap`` while z <= 0, so z in [1, wrap]:
    L'Ecuyer 1988 (wrap = m_1 - 1), MRG32k3a and MRG31k3p (wrap = m_1, as
    RngStreams and SSJ compute ``p1 > p2 ? p1 - p2 : p1 - p2 + m1``);
``fraction``
    Wichmann and Hill's sum of fractions: (x_1/m_1 + x_2/m_2 + ...) mod 1 =
    W / M with M = m_1 m_2 ... and the exact integer
    W = (sum_j x_j M / m_j) mod M (Zeisel 1986), so z = W in [0, M - 1].

The doubles the reference implementations return are :meth:`Combination.uniforms`:
``z * norm`` with ``norm`` the reference's own constant (RngStreams computes
``1.0 / (m1 + 1.0)``, SSJ writes 2^-31, L'Ecuyer 1988 writes ``4.656613e-10``), which
is not the correctly rounded z / (m_1 + 1); and for ``fraction`` the
double-precision sum ``fmod(x_1/m_1 + x_2/m_2 + x_3/m_3, 1.0)`` evaluated left to
right, as AS 183 computes it in double precision (CPython 2's ``WichmannHill``).

References
----------
P. L'Ecuyer, "Efficient and portable combined random number generators", CACM 31(6), 1988.
P. L'Ecuyer, "Good parameters and implementations for combined multiple recursive
random number generators", Operations Research 47(1), 1999 (MRG32k3a).
P. L'Ecuyer and R. Touzin, "Fast combined multiple recursive generators with
multipliers of the form a = +-2^q +-2^r", WSC 2000 (MRG31k3p).
B. A. Wichmann and I. D. Hill, "Algorithm AS 183", Applied Statistics 31(2), 1982.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import reduce
from typing import Any

import numpy as np

from rnglab.core.params import parse_int
from rnglab.generators.affine import binary_power
from rnglab.generators.base import LaneBatch, Source, check_count, raw_dtype
from rnglab.generators.mrg_kernels import SMALL_DRAW, fill_combined, fill_lanes, fits_words, plan, state_rows

#: Ways of merging the components' newest values into one output.
COMBINE_RULES = ("single", "difference", "fraction")
#: How a vector seed lists each component's k values.
STATE_ORDERS = ("oldest-first", "newest-first")


@dataclass(frozen=True)
class Recurrence:
    """One MRG ``x_n = (a_1 x_{n-1} + ... + a_k x_{n-k}) mod m`` (``a`` is ``(a_1, ..., a_k)``).

    Coefficients may be negative (MRG32k3a's ``-810728``); they act modulo m.
    """

    m: int
    a: tuple[int, ...]

    def __post_init__(self) -> None:
        if isinstance(self.m, bool) or not isinstance(self.m, int) or self.m < 2:
            raise ValueError(f"MRG modulus m must be an integer >= 2; got {self.m!r}")
        if not self.a or not all(isinstance(v, int) and not isinstance(v, bool) for v in self.a):
            raise ValueError("MRG coefficients a_1..a_k must be one or more integers")
        if self.a[-1] % self.m == 0:
            raise ValueError(f"the last MRG coefficient a_k must be non-zero mod m; got a_k = {self.a[-1]}")

    @property
    def order(self) -> int:
        """k, the number of past values the recurrence reads."""
        return len(self.a)

    @classmethod
    def parse(cls, text: str) -> Recurrence:
        """Parse ``m=2^31-1,a=271828183:-314159269`` (coefficients a_1:a_2:...:a_k)."""
        fields = dict(_key_value(part, text) for part in text.split(","))
        if set(fields) != {"m", "a"}:
            raise ValueError(f"an MRG component is written m=...,a=a1:a2:...:ak; got {text!r}")
        return cls.from_text(fields["m"], fields["a"])

    @classmethod
    def from_text(cls, modulus: str, coefficients: str) -> Recurrence:
        """The recurrence of the expressions ``modulus`` and ``a1:a2:...:ak``."""
        return cls(parse_int(modulus), tuple(parse_int(v) for v in coefficients.split(":")))

    def __str__(self) -> str:
        return f"m={self.m},a=" + ":".join(str(v) for v in self.a)

    def step(self, state: tuple[int, ...]) -> tuple[int, ...]:
        """One step on ``(x_{n-k}, ..., x_{n-1})`` (oldest first), exactly, in Python integers."""
        new = sum(coefficient * state[-1 - i] for i, coefficient in enumerate(self.a)) % self.m
        return state[1:] + (new,)

    def companion(self) -> list[list[int]]:
        """The k x k matrix A with ``A (x_{n-k}, ..., x_{n-1})^T = (x_{n-k+1}, ..., x_n)^T`` mod m."""
        k = self.order
        rows = [[int(column == row + 1) for column in range(k)] for row in range(k - 1)]
        return rows + [[self.a[k - 1 - column] % self.m for column in range(k)]]

    def jump_matrix(self, steps: int) -> list[list[int]]:
        """``A^steps mod m`` by repeated squaring: O(k^3 log steps) multiplications."""
        return matrix_power(self.companion(), check_count(steps, "jump distance"), self.m)

    def jump(self, state: tuple[int, ...], steps: int) -> tuple[int, ...]:
        """The state ``steps`` steps after ``state``."""
        matrix = self.jump_matrix(steps)
        return tuple(sum(v * s for v, s in zip(row, state)) % self.m for row in matrix)


def _key_value(part: str, text: str) -> tuple[str, str]:
    key, sep, value = part.partition("=")
    if not sep:
        raise ValueError(f"in {text!r}: expected key=value; got {part!r}")
    return key.strip(), value.strip()


def matrix_product(left: list[list[int]], right: list[list[int]], m: int) -> list[list[int]]:
    """``left @ right mod m`` in exact integers."""
    columns = list(zip(*right))
    return [[sum(a * b for a, b in zip(row, column)) % m for column in columns] for row in left]


def matrix_power(matrix: list[list[int]], exponent: int, m: int) -> list[list[int]]:
    """``matrix^exponent mod m`` by binary exponentiation."""
    identity = [[int(i == j) % m for j in range(len(matrix))] for i in range(len(matrix))]
    return binary_power(matrix, exponent, identity, lambda left, right: matrix_product(left, right, m))


@dataclass(frozen=True)
class Combination:
    """Components and the rule that merges them into an output (one component: a plain MRG).

    Attributes
    ----------
    components : tuple of Recurrence
    rule : str
        ``single``, ``difference`` or ``fraction`` (see the module notes).
    wrap : int or None
        What ``difference`` adds while z <= 0 (default m_1).
    norm : float or None
        The reference's scale for doubles, ``u = z * norm`` (default ``1.0 / (high + 1.0)``).
    state_order : str
        How a vector seed lists each component's values (RngStreams: oldest first; SSJ: newest first).
    """

    components: tuple[Recurrence, ...]
    rule: str = "single"
    wrap: int | None = None
    norm: float | None = None
    state_order: str = "oldest-first"

    def __post_init__(self) -> None:
        if self.rule not in COMBINE_RULES:
            raise ValueError(f"combination rule must be one of {', '.join(COMBINE_RULES)}; got {self.rule!r}")
        if self.state_order not in STATE_ORDERS:
            raise ValueError(f"state order must be one of {', '.join(STATE_ORDERS)}; got {self.state_order!r}")
        if (self.rule == "single") != (len(self.components) == 1):
            raise ValueError("rule 'single' takes exactly one component; the others two or more")
        if self.wrap is not None and self.rule != "difference":
            raise ValueError(f"wrap= applies only to combine=difference (what is added while z <= 0); "
                             f"rule {self.rule!r} has no wrap")
        if self.wrap is not None and self.wrap < 1:
            raise ValueError(f"wrap must be >= 1; got {self.wrap}")

    @property
    def low(self) -> int:
        """Smallest output: 1 for ``difference``, else 0."""
        return 1 if self.rule == "difference" else 0

    @property
    def high(self) -> int:
        """Largest output: m - 1, the wrap, or M - 1 for ``fraction``."""
        if self.rule == "difference":
            return self.wrap_value
        return self.modulus_product - 1 if self.rule == "fraction" else self.components[0].m - 1

    @property
    def wrap_value(self) -> int:
        return self.components[0].m if self.wrap is None else self.wrap

    @property
    def modulus_product(self) -> int:
        """M = m_1 m_2 ..."""
        return math.prod(c.m for c in self.components)

    @property
    def norm_value(self) -> float:
        return 1.0 / (self.high + 1.0) if self.norm is None else self.norm

    def combine(self, newest: tuple[int, ...]) -> int:
        """The output z of the components' newest values (the exact reference)."""
        if self.rule == "single":
            return newest[0]
        if self.rule == "fraction":
            return sum(x * (self.modulus_product // c.m) for x, c in zip(newest, self.components)) \
                % self.modulus_product
        z = newest[0] - sum(newest[1:])
        return z if z > 0 else z + (-z // self.wrap_value + 1) * self.wrap_value  # the wrap added while z <= 0

    def uniforms(self, z: np.ndarray) -> np.ndarray:
        """The doubles the reference implementation returns for the outputs ``z``."""
        if self.rule != "fraction":
            return np.asarray(z, dtype=np.float64) * self.norm_value
        total = np.zeros(len(z))
        for x, component in zip(self.component_values(z), self.components):
            total = total + np.asarray(x, dtype=np.float64) / float(component.m)
        return np.fmod(total, 1.0)

    def component_values(self, z: np.ndarray) -> list[np.ndarray]:
        """For ``fraction``: each component's newest value, recovered from W by the CRT."""
        values = []
        for component in self.components:
            inverse = pow(self.modulus_product // component.m, -1, component.m)
            if component.m**2 < 2**64 and np.asarray(z).dtype == np.uint64:  # exact in uint64
                values.append(np.asarray(z) % np.uint64(component.m) * np.uint64(inverse) % np.uint64(component.m))
            else:
                values.append(np.array([int(w) % component.m * inverse % component.m for w in z], dtype=object))
        return values

    def seed_words(self, seed: int) -> list[tuple[int, ...]]:
        """Each component's state when every value is ``seed`` (RngStreams' 12345 x 6 convention)."""
        return [(seed,) * c.order for c in self.components]

    def words_from_vector(self, vector: list[int]) -> list[tuple[int, ...]]:
        """Split a vector seed (k_1 + k_2 + ... values, in :attr:`state_order`) into oldest-first states."""
        if len(vector) != sum(c.order for c in self.components):
            raise ValueError(f"a seed vector has {sum(c.order for c in self.components)} values; got {len(vector)}")
        states, start = [], 0
        for component in self.components:
            part = tuple(int(v) for v in vector[start:start + component.order])
            states.append(part if self.state_order == "oldest-first" else part[::-1])
            start += component.order
        return states

    def check_states(self, states: list[tuple[int, ...]]) -> None:
        """Every value in [0, m_j) and no component all zero (a fixed point)."""
        for index, (state, component) in enumerate(zip(states, self.components)):
            if not all(0 <= v < component.m for v in state):
                raise ValueError(f"component {index + 1}'s state values must be in [0, {component.m}); got {state}")
            if not any(state):
                raise ValueError(f"component {index + 1}'s state must not be all zero (a fixed point)")

    def seed_range(self) -> tuple[int, int]:
        """Integer seeds s (every state value s) that give valid states: [1, min m_j - 1]."""
        return 1, min(c.m for c in self.components) - 1

    def __str__(self) -> str:
        return "+".join(str(c) for c in self.components)


def period_lcm(periods: list[int]) -> int:
    """lcm of the components' periods: the period of the combined state."""
    return reduce(math.lcm, periods, 1)


class MRG(Source):
    """A (combined) multiple recursive generator in a given state.

    Parameters
    ----------
    combination : Combination
    seed : int, optional
        Every state value set to ``seed`` (default 12345, RngStreams' default).
    vector : sequence of int, optional
        A full seed in the combination's :attr:`~Combination.state_order` (instead of ``seed``).
    name : str, optional
    """

    def __init__(self, combination: Combination, seed: int | None = None, *, vector=None, name: str | None = None):
        self.combination = combination
        self.name = name or f"mrg:{combination}"
        self.low, self.high = combination.low, combination.high
        super().__init__()
        if vector is not None:
            self.seed = None
            self.states = combination.words_from_vector(list(vector))
        else:
            self.seed = 12345 if seed is None else int(seed)
            self.states = combination.seed_words(self.seed)
        combination.check_states(self.states)

    def step(self) -> int:
        """Advance every component one step and return z (the reference for every fast path)."""
        self.states = [c.step(s) for c, s in zip(self.combination.components, self.states)]
        return self.combination.combine(tuple(s[-1] for s in self.states))

    def _generate(self, size: int) -> np.ndarray:
        out = np.empty(size, dtype=raw_dtype(self.high))
        self._fill(out)
        return out

    def _fill(self, out: np.ndarray) -> None:
        if out.dtype == np.uint64 and len(out) >= SMALL_DRAW and fits_words(self.combination):
            self.states = fill_combined(self.combination, self.states, out)
            return
        for index in range(len(out)):
            out[index] = self.step()

    def uniforms(self, size: int) -> np.ndarray:
        """The next ``size`` doubles exactly as the reference implementation computes them."""
        return self.combination.uniforms(self.random_raw(size))

    def jump(self, steps: int) -> None:
        """Advance ``steps`` steps with the components' companion-matrix powers (O(k^3 log steps))."""
        self.states = [c.jump(s, steps) for c, s in zip(self.combination.components, self.states)]
        self._pending = self._pending[:0]

    @property
    def state(self) -> dict[str, Any]:
        return {"generator": self.name, "states": [list(s) for s in self.states],
                "pending": [int(v) for v in self._pending]}

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        if not isinstance(value, dict) or value.get("generator") != self.name:
            raise ValueError(f"state belongs to another generator: its tag must be {self.name!r}")
        states = [tuple(int(v) for v in s) for s in value["states"]]
        if [len(s) for s in states] != [c.order for c in self.combination.components]:
            raise ValueError("state has the wrong number of values for this generator's orders")
        self.combination.check_states(states)
        self.states = states
        self._pending = np.asarray(value.get("pending", []), dtype=raw_dtype(self.high))

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "components": [str(c) for c in self.combination.components],
                "combine": self.combination.rule}


class MRGBatch(LaneBatch):
    """Many (combined) MRGs, one per seed (a lane), stepped together or lane by lane: the seed search's batch.

    Lane ``i`` yields exactly what ``MRG(combination, seeds[i])`` yields (tested):
    every state value of every component starts at the seed, and each lane
    steps only when its mask bit is set, so lanes can consume different
    numbers of values. Only combinations the compiled kernel serves
    (:func:`~rnglab.generators.mrg_kernels.fits_words`).

    Parameters
    ----------
    combination : Combination
    seeds : array of int
        In :meth:`Combination.seed_range`.
    name : str, optional
    """

    @staticmethod
    def serves(combination: Combination) -> bool:
        """True when the compiled kernel steps this combination (:func:`~rnglab.generators.mrg_kernels.fits_words`)."""
        return fits_words(combination)

    def __init__(self, combination: Combination, seeds, name: str | None = None):
        if not self.serves(combination):
            raise ValueError("a batch of MRGs needs moduli, the wrap, the subtracted moduli's sum and the product of "
                             "moduli (for fraction) below 2^63")
        seeds = np.asarray(seeds)
        low, high = combination.seed_range()
        if len(seeds) and (int(seeds.min()) < low or int(seeds.max()) > high):
            raise ValueError(f"seeds must be in [{low}, {high}] (every state value is the seed)")
        self.combination, self.name = combination, name or f"mrg:{combination}"
        self.low, self.high, self.lanes = combination.low, combination.high, len(seeds)
        self.states = np.tile(state_rows(combination.seed_words(1), plan(combination)[0]), (self.lanes, 1))
        self.states *= np.repeat(seeds.astype(np.uint64), len(combination.components))[:, None]  # every value: the seed
        self.outputs = np.zeros(self.lanes, dtype=np.uint64)

    def next_raw(self, mask: np.ndarray | None = None) -> np.ndarray:
        """Step the lanes selected by ``mask`` (all by default); return every lane's latest output (a copy)."""
        lanes = self.selected_lanes(mask)
        fill_lanes(self.combination, self.states, lanes, self.outputs)
        return self.outputs.copy()
