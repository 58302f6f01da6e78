"""Empirical periods: step an LCG until its state repeats, and compare with the algebra.

Two methods, chosen by the modulus:

* **Compiled lane search** (m <= 2^32, or m = 2^e <= 2^64). The walk first
  jumps ``s = bit_length(m)`` steps ahead, past the tail of any LCG modulo ``m``
  (the tail is at most the largest exponent in the factorisation of ``m``,
  see :mod:`rnglab.algebra.period`), and then counts the steps until the state
  ``x_s`` comes back. The positions ``s+1, s+2, ...`` are cut into rounds of
  ``lanes`` consecutive blocks; jump-ahead places each lane at the start of
  its block and a numba kernel steps all lanes together, so the CPU overlaps
  their multiplications. Every position is stepped to, none is skipped: the
  first position whose state equals ``x_s`` is the period. The tail is then
  the first ``k <= s`` with ``x_k = x_(k + period)``.
* **Brent's cycle algorithm** in pure Python for every other modulus
  (exact for any size, and slow: about 10^6 to 10^7 steps a second).

Modular arithmetic in the kernels: for ``m = 2^e`` the uint64 product wraps
and is masked; for ``m <= 2^32`` the product ``a x + c < 2^64`` is exact
and is reduced with a floating-point estimate of the quotient,
``q = floor(float(a x + c) / m)``, which is off by at most one (its relative
error is below 2^-50 and the quotient is below 2^32); the remainder is
computed in wrapping integer arithmetic and corrected once. This is several
times faster than a hardware division in a loop.

References
----------
R. P. Brent, "An improved Monte Carlo factorization algorithm", BIT 20 (1980),
section 7 (cycle finding).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rnglab.algebra.period import jump_ahead, lcg_period
from rnglab.core.compiled import njit
from rnglab.core.results import Result
from rnglab.generators import LCG, validate_lcg
from rnglab.generators.affine import arithmetic_kind

#: Lanes stepped together by the compiled search.
LANES = 64
#: Largest block one lane steps in one round (a round is LANES * this many steps).
MAX_BLOCK = 2**20
#: Steps between progress reports in the pure-Python walk.
PYTHON_CHUNK = 2**16

#: Walk lengths a caller can expect to finish in about a minute: compiled, pure Python.
COMPILED_STEP_LIMIT, PYTHON_STEP_LIMIT = 2**36, 2**24

Progress = Callable[[int], None]


def uses_compiled_walk(m: int) -> bool:
    """Whether the walk modulo ``m`` runs the compiled lane search (else pure-Python Brent)."""
    return arithmetic_kind(m) in ("pow2", "small")


def default_max_steps(m: int) -> int:
    """A walk length that finishes in about a minute for modulus ``m`` (a default for callers)."""
    return COMPILED_STEP_LIMIT if uses_compiled_walk(m) else PYTHON_STEP_LIMIT


@dataclass(frozen=True)
class WalkResult(Result):
    """A period measured by stepping, and whether it matches :func:`rnglab.algebra.period.lcg_period`.

    Attributes
    ----------
    a, c, m, seed : int
    period, tail : int
        Measured by stepping the generator.
    steps : int
        Generator steps taken to find the period (including the last round's
        overshoot; the few steps of the tail check are not counted). The
        progress callback is told exactly these steps.
    seconds : float
        Wall-clock time of the walk.
    method : str
        ``"compiled lanes"`` or ``"python brent"``.
    algebraic_period, algebraic_tail : int or None
        The exact answer from number theory (None when ``m`` cannot be factored).
    agrees_with_algebra : bool or None
        Whether period and tail both match (None without an algebraic answer).
    """

    a: int
    c: int
    m: int
    seed: int
    period: int
    tail: int
    steps: int
    seconds: float
    method: str
    algebraic_period: int | None
    algebraic_tail: int | None
    agrees_with_algebra: bool | None

    @property
    def steps_per_second(self) -> float:
        """Walk rate."""
        return self.steps / self.seconds if self.seconds > 0 else float("inf")


# -- compiled kernels --------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _record_hits(states, target, step, hits):  # pragma: no cover - compiled
    for lane in range(states.size):
        if states[lane] == target and hits[lane] < 0:
            hits[lane] = step


@njit(cache=True, nogil=True)
def _search_small(states, a, c, m, target, steps, hits):  # pragma: no cover - compiled
    """Step every lane ``steps`` times modulo ``m <= 2^32``; ``hits[i]``: first step where lane i met ``target``."""
    inverse = 1.0 / np.float64(m)
    modulus = np.int64(m)
    for step in range(1, steps + 1):
        met = False
        for lane in range(states.size):
            product = states[lane] * a + c
            quotient = np.uint64(np.float64(product) * inverse)
            remainder = np.int64(product - quotient * m)
            if remainder < 0:
                remainder += modulus
            elif remainder >= modulus:
                remainder -= modulus
            states[lane] = np.uint64(remainder)
            met |= states[lane] == target
        if met:
            _record_hits(states, target, step, hits)


@njit(cache=True, nogil=True)
def _search_power_of_two(states, a, c, mask, target, steps, hits):  # pragma: no cover - compiled
    """Step every lane ``steps`` times modulo ``mask + 1 = 2^e <= 2^64`` (wrap-around, then mask)."""
    for step in range(1, steps + 1):
        met = False
        for lane in range(states.size):
            state = (states[lane] * a + c) & mask
            states[lane] = state
            met |= state == target
        if met:
            _record_hits(states, target, step, hits)


# -- the walks -------------------------------------------------------------------------

def _kernel(a: int, c: int, m: int):
    """Return ``run(states, target, steps, hits)`` for the compiled search modulo ``m``."""
    a64, c64 = np.uint64(a), np.uint64(c)
    if arithmetic_kind(m) == "pow2":
        mask = np.uint64(m - 1)
        return lambda states, target, steps, hits: _search_power_of_two(states, a64, c64, mask, target, steps, hits)
    m64 = np.uint64(m)
    return lambda states, target, steps, hits: _search_small(states, a64, c64, m64, target, steps, hits)


def _return_time(a: int, c: int, m: int, start: int, max_steps: int, progress: Progress | None) -> tuple[int, int]:
    """Steps until ``start`` (a state on the cycle) recurs, by the compiled lane search.

    Returns ``(return time, steps taken)``; raises ``ValueError`` past ``max_steps``.
    """
    run, target = _kernel(a, c, m), np.uint64(start)
    front, offset, block, taken = start, 0, 1, 0
    while offset < max_steps:
        states = np.array([jump_ahead(a, c, m, lane * block, front) for lane in range(LANES)], dtype=np.uint64)
        hits = np.full(LANES, -1, dtype=np.int64)
        run(states, target, block, hits)
        taken += LANES * block
        if progress is not None:
            progress(LANES * block)
        found = [lane * block + int(step) for lane, step in enumerate(hits) if step >= 0]
        if found:
            return offset + min(found), taken
        front, offset = jump_ahead(a, c, m, LANES * block, front), offset + LANES * block
        block = min(2 * block, MAX_BLOCK)
    raise ValueError(f"the state did not repeat within max_steps = {max_steps} steps")


def _tail(a: int, c: int, m: int, seed: int, period: int, limit: int) -> int:
    """First ``k <= limit`` with ``x_k = x_(k + period)`` (stepping both sequences)."""
    x, y = seed, jump_ahead(a, c, m, period, seed)
    for k in range(limit + 1):
        if x == y:
            return k
        x, y = (a * x + c) % m, (a * y + c) % m
    raise ValueError(f"state x_{limit} is not on the cycle")


def _compiled_walk(a: int, c: int, m: int, seed: int, max_steps: int, progress: Progress | None):
    """Period, tail and steps by the compiled lane search (see the module notes)."""
    prefix = m.bit_length()
    start = jump_ahead(a, c, m, prefix, seed)
    period, taken = _return_time(a, c, m, start, max_steps, progress)
    return period, _tail(a, c, m, seed, period, prefix), taken


def _brent_walk(a: int, c: int, m: int, seed: int, max_steps: int, progress: Progress | None):
    """Brent's cycle finding on Python integers: period, then tail.

    The tortoise waits at steps 2^k - 1 while the hare runs up to 2^k steps
    ahead; the first meeting gives the period ``lam``. The tail is then the
    first ``k`` with ``x_k = x_(k + lam)``.
    """
    tortoise, hare, power, lam, taken = seed, (a * seed + c) % m, 1, 1, 1
    while tortoise != hare:
        if lam == power:
            tortoise, power, lam = hare, 2 * power, 0
        hare, lam, taken = (a * hare + c) % m, lam + 1, taken + 1
        if taken % PYTHON_CHUNK == 0:
            if progress is not None:
                progress(PYTHON_CHUNK)
            if taken >= max_steps:
                raise ValueError(f"the state did not repeat within max_steps = {max_steps} steps")
    if progress is not None:
        progress(taken % PYTHON_CHUNK)
    return lam, _tail(a, c, m, seed, lam, taken), taken


def walk_period(*, a: int, m: int, c: int = 0, seed: int = 1, max_steps: int | None = None,
                progress: Progress | None = None) -> WalkResult:
    """Measure the period and tail of ``seed`` by stepping ``x -> (a x + c) mod m``.

    Parameters
    ----------
    a, m, c, seed : int
        The generator and starting state (validated by
        :func:`rnglab.generators.validate_lcg`).
    max_steps : int, optional
        Give up (``ValueError``) after about this many steps (default: ``4 m``,
        which is always enough).
    progress : callable, optional
        Called as ``progress(steps)`` with the number of steps taken since the
        previous call, after every chunk (the library never prints).

    Returns
    -------
    WalkResult
        Measured period and tail, the work done, and the comparison with
        :func:`rnglab.algebra.period.lcg_period`.

    Notes
    -----
    The compiled search (m <= 2^32 or m = 2^e <= 2^64) walks MINSTD's cycle
    of 2^31 - 2 steps in seconds (``bench/bench_period.py`` measures it against a C
    loop); other moduli use a pure-Python
    Brent walk that manages only a few million steps a second.
    """
    validate_lcg(a, c, m, seed)
    max_steps = 4 * m if max_steps is None else max_steps
    compiled = uses_compiled_walk(m)
    began = time.perf_counter()
    walk = _compiled_walk if compiled else _brent_walk
    period, tail, steps = walk(a, c, m, seed, max_steps, progress)
    seconds = time.perf_counter() - began
    algebraic_period, algebraic_tail = _algebra(a, c, m, seed)
    agrees = None if algebraic_period is None else (period, tail) == (algebraic_period, algebraic_tail)
    return WalkResult(a=a, c=c, m=m, seed=seed, period=period, tail=tail, steps=steps, seconds=seconds,
                      method="compiled lanes" if compiled else "python brent",
                      algebraic_period=algebraic_period, algebraic_tail=algebraic_tail,
                      agrees_with_algebra=agrees)


def _algebra(a: int, c: int, m: int, seed: int) -> tuple[int | None, int | None]:
    try:
        exact = lcg_period(a=a, m=m, c=c, seed=seed)
    except ValueError:
        return None, None
    return exact.period, exact.tail


def walk(generator: LCG, *, max_steps: int | None = None, progress: Progress | None = None) -> WalkResult:
    """:func:`walk_period` for an :class:`~rnglab.generators.LCG`, from its current state."""
    if not isinstance(generator, LCG):
        raise TypeError(f"the period walk needs an LCG; got {type(generator).__name__}")
    return walk_period(a=generator.a, m=generator.m, c=generator.c, seed=generator.x,
                       max_steps=max_steps, progress=progress)
