"""Linear congruential generators ``x_{k+1} = (a x_k + c) mod m`` with exact parameters.

:class:`LCG` is one generator; :class:`LCGBatch` is many independent
generators (one per seed, per deck, per table) held as one array of states
and stepped together. Both produce outputs through an :class:`Output`
function and declare the output range.

The fast path of :meth:`LCG.random_raw` fills an array row by row: the first
row holds the next ``L`` states, and each later row is the previous one
advanced ``L`` steps at once by the affine map ``(a^L, c (a^L - 1)/(a - 1))``.
Every element is exact, so the result is bit-exact with :meth:`LCG.step`.
Longer arrays, for a power-of-two modulus or any modulus up to 2^63, are
filled by the same scheme compiled (:func:`rnglab.generators.kernels.lane_kernel`).

References
----------
D. E. Knuth, *The Art of Computer Programming*, vol. 2, 3rd ed., section 3.2.1.
"""

from __future__ import annotations

from math import gcd
from typing import Any

import numpy as np

from rnglab.generators import kernels
from rnglab.generators.affine import (
    affine_power,
    affine_step,
    arithmetic_kind,
    as_state_array,
    reduce_states,
    state_dtype,
)
from rnglab.generators.base import LaneBatch, Source, check_count, raw_dtype
from rnglab.generators.conventions import CONVENTIONS, SeedConvention
from rnglab.generators.outputs import Output

#: Lanes of the numpy rows (:meth:`LCG._state_rows`); ``random_raw`` fills arrays up to this size with one such
#: row, without loading the compiled loop (:data:`rnglab.generators.kernels.LANES` lanes, see :meth:`LCG._fill`).
ROW_LANES = 16384


def validate_lcg(a: int, c: int, m: int, seed: int | None = None) -> None:
    """Check LCG parameters; raise ``ValueError`` naming the broken rule.

    Rules: ``m >= 2``; ``0 < a < m``; ``0 <= c < m``; ``0 <= seed < m``; and
    for ``c = 0`` the seed must not be 0, which is a fixed point.
    """
    for name, value in (("a", a), ("c", c), ("m", m), ("seed", seed)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer))):
            raise TypeError(f"{name} must be an integer; got {type(value).__name__}")
    if m < 2:
        raise ValueError(f"m must be >= 2; got {m}")
    if not 0 < a < m:
        raise ValueError(f"a must be in (0, m) = (0, {m}); got {a}")
    if not 0 <= c < m:
        raise ValueError(f"c must be in [0, m) = [0, {m}); got {c}")
    if seed is not None:
        if not 0 <= seed < m:
            raise ValueError(f"seed must be in [0, m) = [0, {m}); got {seed}")
        if c == 0 and seed == 0:
            raise ValueError("seed must be non-zero when c = 0 (0 is a fixed point)")


def output_range(a: int, c: int, m: int, output: Output, low: int | None = None) -> tuple[int, int]:
    """Declared outputs ``[low, high]``: ``high`` the output's largest; ``low`` (unless given) 1 for a whole-state
    multiplicative generator with gcd(a, m) = 1 (0 is a fixed point it never reaches), else 0."""
    if low is None:
        low = 1 if output.kind == "state" and c == 0 and gcd(a, m) == 1 else 0
    return low, output.high(m)


class LCG(Source):
    """A linear congruential generator with Python-integer parameters.

    Parameters
    ----------
    a, m : int
        Multiplier and modulus, ``0 < a < m``, ``m >= 2``.
    c : int, optional
        Increment, ``0 <= c < m`` (default 0: a Lehmer generator).
    seed : int, optional
        The seed a program passes; turned into the initial state by ``seeding``.
    output : Output, optional
        What a program sees of the state (default: the whole state).
    seeding : SeedConvention, optional
        How seeds become states (default the ``state`` convention: the seed is the state).
    name : str, optional
    low : int, optional
        Override the declared lowest output (e.g. 0 where a program treats a
        multiplicative generator's state as a 31-bit word).

    Examples
    --------
    >>> g = LCG(a=16807, m=2**31 - 1, seed=1)
    >>> [g.step() for _ in range(3)]
    [16807, 282475249, 1622650073]
    """

    def __init__(self, *, a: int, m: int, c: int = 0, seed: int = 1, output: Output | None = None,
                 seeding: SeedConvention | None = None, name: str | None = None, low: int | None = None):
        self.a, self.c, self.m = int(a), int(c), int(m)
        validate_lcg(self.a, self.c, self.m)
        self.output = output or Output.state()
        self.output.check_fits(self.m)
        self.seeding = CONVENTIONS["state"] if seeding is None else seeding
        self.name = name or f"lcg(a={self.a},c={self.c},m={self.m})"
        self.low, self.high = output_range(self.a, self.c, self.m, self.output, low)
        super().__init__()
        self.seed = seed
        self.x = self.seeding.to_state(seed)
        validate_lcg(self.a, self.c, self.m, self.x)

    # -- the one-step reference path -------------------------------------------------
    def step(self) -> int:
        """Advance one step and return the output (the reference for every fast path)."""
        self.x = (self.a * self.x + self.c) % self.m
        return self.output.apply_int(self.x)

    def _generate(self, size: int) -> np.ndarray:
        out = np.empty(size, dtype=raw_dtype(self.high))
        self._fill(out)
        return out

    def _fill(self, out: np.ndarray) -> None:
        kind = arithmetic_kind(self.m)
        if kind not in ("pow2", "small") and self.m <= kernels.WIDE_LIMIT:
            kind = "wide"
        if kind in kernels.STEPS and len(out) > ROW_LANES:  # one row: loading the compiled kernels costs ~0.5 s
            self._fill_compiled(kind, out)
            return
        for start, row in self._state_rows(len(out)):
            out[start:start + len(row)] = self.output.apply(row, self.m)

    def _fill_compiled(self, kind: str, out: np.ndarray) -> None:
        """Fill ``out`` with the compiled loop of ``kind`` (:func:`~rnglab.generators.kernels.lane_kernel`)."""
        shift, mask = self.output.shift_and_mask(self.m)
        jump = affine_power(self.a, self.c, self.m, kernels.LANES)
        fill = kernels.lane_kernel(kernels.STEPS[kind])
        last = fill(np.uint64(self.x), self._compiled_map(kind, self.a, self.c),
                    self._compiled_map(kind, *jump), np.uint64(self.m % 2**64), shift, mask, out)
        self.x = int(last) % self.m

    def _compiled_map(self, kind: str, multiplier: int, increment: int) -> tuple[np.uint64, np.uint64, np.uint64]:
        """``(multiplier, Shoup's quotient, increment)`` of the map ``x -> A x + C`` for the compiled step ``kind``."""
        return (np.uint64(multiplier % 2**64), kernels.shoup_quotient(kind, multiplier, self.m),
                np.uint64(increment % 2**64))

    # -- the array path --------------------------------------------------------------
    def random_states(self, size: int) -> np.ndarray:
        """Advance ``size`` steps and return the states ``x_1 .. x_size`` (reduced mod m).

        Values handed back with :meth:`unread` are not involved: this reads the
        recurrence itself.
        """
        out = np.empty(check_count(size), dtype=state_dtype(self.m))
        for start, row in self._state_rows(size):
            out[start:start + len(row)] = reduce_states(row, self.m)
        return out

    def _state_rows(self, size: int):
        """Yield ``(offset, states)`` rows covering the next ``size`` states, then update ``x``.

        The first row is built by doubling; each later row is the previous one
        advanced by ``len(row)`` steps with one exact affine map.
        """
        if size == 0:
            return
        lanes = min(size, ROW_LANES)
        row = self._first_states(lanes)
        jump_a, jump_c = affine_power(self.a, self.c, self.m, lanes)
        for start in range(0, size, lanes):
            if start:
                row = affine_step(row, jump_a, jump_c, self.m)
            yield start, row[:size - start]
        self.x = int(reduce_states(row[(size - 1) % lanes:(size - 1) % lanes + 1], self.m)[0])

    def _first_states(self, count: int) -> np.ndarray:
        """States ``x_1 .. x_count`` by doubling: each pass advances a copy by the length so far."""
        states = as_state_array([(self.a * self.x + self.c) % self.m], self.m)
        while len(states) < count:
            jump_a, jump_c = affine_power(self.a, self.c, self.m, len(states))
            states = np.concatenate([states, affine_step(states, jump_a, jump_c, self.m)])
        return states[:count]

    def jump(self, k: int) -> None:
        """Advance ``k`` steps in O(log k) multiplications (see :func:`affine_power`)."""
        k = check_count(k, "jump distance")
        jump_a, jump_c = affine_power(self.a, self.c, self.m, k)
        self.x = (jump_a * self.x + jump_c) % self.m
        self._pending = self._pending[:0]

    @property
    def state(self) -> dict[str, Any]:
        return {"generator": self.name, "a": self.a, "c": self.c, "m": self.m, "x": self.x,
                "pending": [int(v) for v in self._pending]}

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        if not isinstance(value, dict) or value.get("generator") != self.name:
            raise ValueError(f"state belongs to another generator: its tag must be {self.name!r}")
        if (value.get("a"), value.get("c"), value.get("m")) != (self.a, self.c, self.m):
            raise ValueError("state belongs to a generator with other parameters")
        validate_lcg(self.a, self.c, self.m, value["x"])
        self.x = int(value["x"])
        self._pending = np.asarray(value.get("pending", []), dtype=raw_dtype(self.high))

    def batch(self, seeds) -> LCGBatch:
        """Return a batch of generators with these parameters, one lane per seed."""
        return LCGBatch(a=self.a, m=self.m, c=self.c, states=self.seeding.to_states(seeds),
                        output=self.output, name=self.name, low=self.low)

    def as_lane(self) -> LCGBatch | None:
        """This generator as a one-lane :class:`LCGBatch` that continues its stream.

        ``None`` while values handed back with :meth:`unread` wait to be read
        (a batch steps the recurrence itself). Hand the lane back with
        :meth:`continue_from` after stepping it.
        """
        if len(self._pending):
            return None
        return LCGBatch(a=self.a, m=self.m, c=self.c, states=[self.x], output=self.output, name=self.name,
                        low=self.low)

    def continue_from(self, lane: LCGBatch) -> None:
        """Take up the stream where a lane made by :meth:`as_lane` stopped."""
        if (lane.a, lane.c, lane.m, lane.lanes) != (self.a, self.c, self.m, 1):
            raise ValueError("continue_from takes the one-lane batch made by this generator's as_lane")
        self.x = int(lane.current_states()[0])

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "a": self.a, "c": self.c, "m": self.m,
                "output": str(self.output), "seeding": self.seeding.name}


class LCGBatch(LaneBatch):
    """Many independent LCG lanes with shared parameters, stepped together.

    Parameters
    ----------
    a, m, c : int
        Shared parameters.
    states : array_like
        One initial state per lane (already transformed from seeds; see
        :meth:`LCG.batch` to start from program seeds).
    output : Output
    name : str, optional
    low : int, optional

    Notes
    -----
    Lane ``i`` of the batch produces exactly the sequence of
    ``LCG(a, m, c)`` started in ``states[i]``: each step applies the exact
    affine map to the lanes selected by ``mask``.
    """

    def __init__(self, *, a: int, m: int, c: int = 0, states, output: Output | None = None,
                 name: str | None = None, low: int | None = None):
        validate_lcg(int(a), int(c), int(m))
        self.a, self.c, self.m = int(a), int(c), int(m)
        self.output = output or Output.state()
        self.name = name or f"lcg(a={self.a},c={self.c},m={self.m})"
        self.low, self.high = output_range(self.a, self.c, self.m, self.output, low)
        self.states = as_state_array(np.asarray(states).tolist(), self.m) if state_dtype(self.m) == object \
            else np.asarray(states, dtype=np.uint64).copy()
        reduced = reduce_states(self.states, self.m)
        if len(reduced) and int(reduced.max()) >= self.m:
            raise ValueError(f"every state must be in [0, m) = [0, {self.m})")
        if self.c == 0 and len(reduced) and int(reduced.min()) == 0:
            raise ValueError("every state must be non-zero when c = 0 (0 is a fixed point)")

    @property
    def lanes(self) -> int:
        """Number of independent generators."""
        return len(self.states)

    def next_raw(self, mask: np.ndarray | None = None) -> np.ndarray:
        """Step the lanes selected by ``mask`` (all by default); return every lane's output.

        Lanes not selected keep their state, and their returned value is the
        output of their current state.
        """
        if mask is None:
            self.states = affine_step(self.states, self.a, self.c, self.m)
        else:
            self.states[mask] = affine_step(self.states[mask], self.a, self.c, self.m)
        return self.output.apply(self.states, self.m)

    def random_raw(self, size: int) -> np.ndarray:
        """Return the next ``size`` outputs of every lane, shape ``(lanes, size)``."""
        size = check_count(size)
        out = np.empty((size, self.lanes), dtype=raw_dtype(self.high))
        for row in range(size):
            out[row] = self.next_raw()
        return out.T

    def jump(self, k: int) -> None:
        """Advance every lane ``k`` steps in O(log k)."""
        jump_a, jump_c = affine_power(self.a, self.c, self.m, check_count(k, "jump distance"))
        self.states = affine_step(self.states, jump_a, jump_c, self.m)

    def current_states(self) -> np.ndarray:
        """The lanes' states reduced into ``[0, m)``."""
        return reduce_states(self.states, self.m)

    def lane(self, index: int) -> LCG:
        """Return lane ``index`` as a stand-alone :class:`LCG` (for checks and display)."""
        return LCG(a=self.a, m=self.m, c=self.c, seed=int(self.current_states()[index]),
                   output=self.output, name=self.name, low=self.low)

    def __repr__(self) -> str:
        return f"<LCGBatch {self.name} lanes={self.lanes} kind={arithmetic_kind(self.m)}>"
