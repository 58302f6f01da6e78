"""Seed policies: how programs pick their seed, and how few seeds that leaves.

A *seed policy* turns the moment a program starts (and, for some policies,
its process id) into the seed it passes to ``srand``. Each policy here can

* count its seeds over a window of start times (:meth:`SeedPolicy.count`)
  and over a window of a given length (:meth:`SeedPolicy.space_size`);
* list them, vectorised (:meth:`SeedPolicy.seeds`, or
  :meth:`SeedPolicy.seed_ranges` for contiguous blocks, cheap to walk in chunks);
* give their exact distribution when the start time is uniform over the
  window, to the millisecond (:meth:`SeedPolicy.distribution`);
* draw seeds as programs would get them (:meth:`SeedPolicy.draw`).

Policies (``policy(name)``):

``fixed``        a constant seed (default 1: C's ``rand()`` without ``srand`` acts as ``srand(1)``);
                 ``fixed:N`` for another constant
``time-s``       ``srand(time(0))``: seconds since the Unix epoch
``ms-midnight``  milliseconds since midnight (Delphi 1-5 ``Randomize``): 86,400,000 seeds a day
``ms-boot``      ``GetTickCount()``: milliseconds since boot, 32 bits (wraps after 49.7 days)
``pid-time``     ``time(0) ^ getpid()``, pids in ``[1, 32767]`` (Linux's default ``pid_max`` is
                 32768, and the largest pid is ``pid_max - 1``)
``vb-timer``     Visual Basic's bare ``Randomize``: the ``Single`` value of ``Timer`` hashed to 16 bits
                 (the ``vbscript`` generator's seed): at most 65,536 seeds, whatever the window
``guid-hash``    ``new Random(Guid.NewGuid().GetHashCode())``: 2^32 equally likely seeds, unpredictable
                 but searchable
``os``           the OS entropy source: 2^64 (or more) seeds, not enumerable

Windows (:func:`parse_window`) are half-open intervals of start times in
milliseconds: ``90m`` is the last 90 minutes before now (or before a given
``now``), ``2026-11-22T10:00:00±60s`` (or ``+-60s``) is
``[10:00:00 - 60 s, 10:00:00 + 60 s)``; a timestamp without a zone is UTC,
and times of day (``ms-midnight``) are taken in that zone.

References
----------
B. Arkin, F. Hill, S. Marks, M. Schmid, T. J. Walls, G. McGraw, "How we learned
to cheat at online poker: a study in software security", 1999 (Delphi
``Randomize``: milliseconds since midnight).
I. Goldberg and D. Wagner, "Randomness and the Netscape browser", Dr. Dobb's
Journal, January 1996 (seeds from the time of day and process ids).
"""

from __future__ import annotations

import functools
import re
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from fractions import Fraction
from math import comb, expm1, factorial, log2

import numpy as np

from rnglab.core.params import parse_int
from rnglab.core.registry import Registry, choose_from
from rnglab.core.results import Result
from rnglab.draws.bounded import draw_bounded
from rnglab.generators import GeneratorSpec
from rnglab.generators.vb import randomize_hash, second_hash_counts, timer_words
from rnglab.reduction.reducers import Reducer

SECOND, MINUTE, HOUR, DAY = 1000, 60_000, 3_600_000, 86_400_000
YEAR = 365 * DAY
UNITS = {"ms": 1, "s": SECOND, "m": MINUTE, "h": HOUR, "d": DAY, "y": YEAR}
#: Longest window accepted by any policy (200 years).
MAX_WINDOW = 200 * YEAR
#: Most seeds :meth:`SeedPolicy.seeds` materialises (use ``seed_ranges`` beyond).
MAX_ENUMERATED = 2**27
PID_BITS = 15
PIDS = 2**PID_BITS - 1  # pids 1 .. 32767
TICK_WRAP = 2**32
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


# -- windows ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Window(Result):
    """A half-open interval ``[start_ms, stop_ms)`` of start times (Unix milliseconds).

    Attributes
    ----------
    text : str
        What the user wrote.
    start_ms, stop_ms : int
    anchored : bool
        True when written around a timestamp, False for "the last <duration>".
    utc_offset_ms : int
        The timestamp's zone: local time = Unix time + offset (for times of day).
    """

    text: str
    start_ms: int
    stop_ms: int
    anchored: bool
    utc_offset_ms: int = 0

    @property
    def duration_ms(self) -> int:
        """Length of the window in milliseconds."""
        return self.stop_ms - self.start_ms


def parse_duration(text: str) -> int:
    """Parse ``90m``, ``3600s``, ``1d``, ``250ms``, ``2h``, ``1y`` (365 days) into milliseconds."""
    match = re.fullmatch(r"\s*(-?\d+)\s*(ms|s|m|h|d|y)\s*", text)
    if match is None:
        raise ValueError(f"a duration is a number and a unit (ms, s, m, h, d, y), such as 90m or 1d; got {text!r}")
    duration = int(match.group(1)) * UNITS[match.group(2)]
    if duration <= 0:
        raise ValueError(f"a window must have a positive length; got {text!r}")
    if duration > MAX_WINDOW:
        raise ValueError(f"a window must be at most 200 years; got {text!r}")
    return duration


def parse_window(text: str, now: float | None = None) -> Window:
    """Parse a window of start times.

    Parameters
    ----------
    text : str
        ``<duration>`` (the last ``duration`` before ``now``, taken in whole
        seconds: ``1d``, ``90m``, ``3600s``) or ``<timestamp>±<duration>`` / ``<timestamp>+-<duration>``
        (ISO 8601; UTC unless it carries an offset): ``[t - d, t + d)``.
    now : float, optional
        Unix time in seconds that ends a relative window (default: the clock).

    Raises
    ------
    ValueError
        For an empty, negative, unparsable or absurdly long window (over 200 years).
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("a window is a duration such as 1d, or a time such as 2026-11-22T10:00:00±60s; got nothing")
    text = text.strip()
    center, sep, half = text.partition("±") if "±" in text else text.rpartition("+-")
    if not sep:
        duration = parse_duration(text)
        stop = int(time.time() if now is None else now) * SECOND  # whole seconds: "1d" of time(0) is 86,400 seeds
        return Window(text, stop - duration, stop, anchored=False)
    (middle, offset), width = _parse_timestamp(center), parse_duration(half)
    return Window(text, middle - width, middle + width, anchored=True, utc_offset_ms=offset)


def _parse_timestamp(text: str) -> tuple[int, int]:
    """Return ``(Unix milliseconds, the timestamp's UTC offset in milliseconds)``."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"cannot read the time {text.strip()!r}; write it as 2026-11-22T10:00:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    offset = moment.utcoffset() // timedelta(milliseconds=1)
    return (moment - EPOCH) // timedelta(milliseconds=1), offset


# -- seed distributions and collisions --------------------------------------------------

@dataclass(frozen=True)
class SeedDistribution(Result):
    """The exact law of the seed when the start time (and pid) is uniform.

    ``classes`` lists ``(weight, multiplicity)``: ``multiplicity`` seeds are
    each reached by ``weight`` of the ``total`` equally likely outcomes
    (milliseconds, or millisecond-pid pairs). Seeds never reached are omitted.
    """

    classes: tuple
    total: int

    @property
    def seeds(self) -> int:
        """Number of seeds with a non-zero probability."""
        return sum(multiplicity for _, multiplicity in self.classes)

    def sum_of_squares(self) -> Fraction:
        """``sum p_s^2``, the probability that two independent starts get the same seed."""
        return Fraction(sum(m * w * w for w, m in self.classes), self.total**2)


@dataclass(frozen=True)
class Collision(Result):
    """Probability that at least two of ``tables`` independent starts receive the same seed.

    Attributes
    ----------
    probability : Fraction or float
    exact : bool
    formula : str
    """

    tables: int
    probability: object
    exact: bool
    formula: str


#: Largest table count for which the collision probability is computed exactly.
EXACT_TABLES = 200
#: Most tables simulated at once (their seeds are held in memory, 8 bytes each, per round).
MAX_TABLES = 10**7


def collision_probability(distribution: SeedDistribution, tables: int) -> Collision:
    """Birthday problem over a non-uniform seed law: P(two of ``k`` starts share a seed).

    Exactly, ``P(all distinct) = k! e_k(p)``, the ``k``-th elementary
    symmetric polynomial of the seed probabilities; with classes of equal
    weight ``w`` and multiplicity ``m``,
    ``e_k = [t^k] prod (1 + w t)^m / T^k``, expanded with integers. For
    ``k > 200`` the Poisson approximation ``1 - exp(-C(k, 2) sum p_s^2)`` is
    returned as a float.
    """
    if tables < 1:
        raise ValueError(f"tables must be >= 1; got {tables}")
    if tables > distribution.seeds:
        return Collision(tables, Fraction(1), True, "more tables than seeds: a collision is certain")
    if tables > EXACT_TABLES:
        pairs = comb(tables, 2)
        value = -expm1(-pairs * float(distribution.sum_of_squares()))  # 1 - exp(-x), exact for tiny x
        return Collision(tables, value, False, "1 - exp(-C(k,2) sum p_s^2) (Poisson approximation)")
    coefficients = [1]
    for weight, multiplicity in distribution.classes:
        factor = [comb(multiplicity, j) * weight**j for j in range(min(tables, multiplicity) + 1)]
        coefficients = [sum(coefficients[i] * factor[j - i] for i in range(max(0, j - len(factor) + 1),
                                                                          min(j, len(coefficients) - 1) + 1))
                        for j in range(min(tables, len(coefficients) + len(factor) - 2) + 1)]
    distinct = Fraction(factorial(tables) * coefficients[tables], distribution.total**tables) \
        if len(coefficients) > tables else Fraction(0)
    return Collision(tables, 1 - distinct, True, "1 - k! e_k(p_1, ..., p_S)")


def _group_weights(weights) -> tuple:
    """``(weight, multiplicity)`` classes from an iterable of per-seed weights (zeros dropped)."""
    values, counts = np.unique(np.asarray(weights, dtype=np.int64), return_counts=True)
    return tuple((int(w), int(c)) for w, c in zip(values, counts) if w > 0)


def _second_span(window: Window) -> tuple[int, int]:
    """First and last second the window touches."""
    return window.start_ms // SECOND, (window.stop_ms - 1) // SECOND


def _second_weights(window: Window) -> tuple[int, np.ndarray]:
    """First second of the window and the milliseconds of the window inside each second."""
    first, last = _second_span(window)
    weights = np.full(last - first + 1, SECOND, dtype=np.int64)
    weights[0] -= window.start_ms - first * SECOND
    weights[-1] -= (last + 1) * SECOND - window.stop_ms
    return first, weights


def one_seed_per_millisecond(window: Window) -> SeedDistribution:
    """The law of a policy whose seed changes every millisecond of the window: uniform."""
    return SeedDistribution(((1, window.duration_ms),), window.duration_ms)


# -- the policies ----------------------------------------------------------------------

#: Start of the windows used by :meth:`SeedPolicy.space_size` (2026-01-01T00:00:00Z).
REFERENCE_MS = 1_767_225_600_000


class SeedPolicy:
    """How a program picks its seed; subclasses define the map from start times to seeds.

    Attributes
    ----------
    name, description : str
    period_ms : int or None
        Seeds repeat after this long (``ms-midnight``: a day), if they do.
    enumerable : bool
    takes_window : bool
        Whether the seed depends on the start time (a fixed seed does not, so a window is refused).
    """

    name = "policy"
    description = ""
    period_ms: int | None = None
    enumerable = True
    takes_window = True

    def check_window(self, window: Window) -> None:
        """Raise ``ValueError`` for a window this policy cannot use."""
        if window.duration_ms <= 0:
            raise ValueError(f"the window {window.text!r} is empty")

    def seed_ranges(self, window: Window) -> list[tuple[int, int]]:
        """The seeds reachable in ``window`` as half-open ranges ``[first, stop)``, in order."""
        raise NotImplementedError

    def count(self, window: Window) -> int:
        """Number of distinct seeds reachable in ``window``."""
        return sum(stop - first for first, stop in self.seed_ranges(window))

    def seeds(self, window: Window) -> np.ndarray:
        """The distinct seeds reachable in ``window``, in order (uint64).

        Raises
        ------
        ValueError
            When there are more than 2^27 (walk :meth:`seed_ranges` in chunks instead).
        """
        ranges = self.seed_ranges(window)
        total = sum(stop - first for first, stop in ranges)
        if total > MAX_ENUMERATED:
            raise ValueError(f"{self.name} has {total} seeds in {window.text!r}, more than 2^27 to list at once; "
                             "walk seed_ranges(window) in chunks")
        return np.concatenate([np.arange(first, stop, dtype=np.uint64) for first, stop in ranges])

    def space_size(self, duration_ms: int) -> int:
        """Seeds in a window of this length (starting 2026-01-01T00:00Z; saturates at the period)."""
        length = min(duration_ms, self.period_ms) if self.period_ms else duration_ms
        return self.count(Window(f"{length}ms", REFERENCE_MS, REFERENCE_MS + length, anchored=False))

    def distribution(self, window: Window) -> SeedDistribution:
        """The exact law of the seed for a start time uniform over ``window`` (to the millisecond)."""
        raise NotImplementedError

    def draw(self, rng: np.random.Generator, window: Window, size: int | None = None):
        """Seeds as programs started at uniform random times in ``window`` get them.

        Returns one Python ``int`` (``size=None``) or a uint64 array of ``size`` seeds.
        """
        self.check_window(window)
        low, high = self.time_bounds(window)
        times = rng.integers(low, high, size=1 if size is None else size, dtype=np.int64)
        seeds = self.seeds_at(times, window, rng)
        return int(seeds[0]) if size is None else seeds

    def time_bounds(self, window: Window) -> tuple[int, int]:
        """The clock readings a program can see over ``window`` (Unix milliseconds by default)."""
        return window.start_ms, window.stop_ms

    def seeds_at(self, times: np.ndarray, window: Window, rng: np.random.Generator) -> np.ndarray:
        """The seed of a program whose clock reads ``times`` (vectorised)."""
        raise NotImplementedError


class FixedPolicy(SeedPolicy):
    """A constant seed: every run is the same run."""

    takes_window = False

    def __init__(self, value: int = 1):
        if value < 0:
            raise ValueError(f"a fixed seed must be >= 0; got {value}")
        self.value = int(value)
        self.name = "fixed" if value == 1 else f"fixed:{value}"
        self.description = f"the constant seed {value} (C's rand() without srand() behaves as srand(1))"

    def seed_ranges(self, window):
        return [(self.value, self.value + 1)]

    def distribution(self, window):
        return SeedDistribution(((1, 1),), 1)

    def seeds_at(self, times, window, rng):
        return np.full(len(times), self.value, dtype=np.uint64)


class TimeSecondsPolicy(SeedPolicy):
    """``srand(time(0))``: the seed is the Unix time in whole seconds."""

    name = "time-s"
    description = "time(0): seconds since the Unix epoch"

    def check_window(self, window):
        super().check_window(window)
        if window.start_ms < 0 or window.stop_ms > TICK_WRAP * SECOND:
            raise ValueError(f"time(0) seeds need a window between 1970 and 2106 (an unsigned 32-bit time); "
                             f"got {window.text!r}")

    def seed_ranges(self, window):
        self.check_window(window)
        return [(window.start_ms // SECOND, (window.stop_ms - 1) // SECOND + 1)]

    def distribution(self, window):
        self.check_window(window)
        return SeedDistribution(_group_weights(_second_weights(window)[1]), window.duration_ms)

    def seeds_at(self, times, window, rng):
        return (times // SECOND).astype(np.uint64)


class MsMidnightPolicy(SeedPolicy):
    """Delphi 1-5 ``Randomize``: milliseconds since local midnight, 86,400,000 seeds."""

    name = "ms-midnight"
    description = "milliseconds since midnight (Delphi Randomize): 86,400,000 seeds a day"
    period_ms = DAY

    def check_window(self, window):
        super().check_window(window)
        if window.duration_ms > DAY:
            raise ValueError(f"ms-midnight seeds repeat every day (86,400,000 of them): a window longer than "
                             f"1d adds none; got {window.text!r}")

    def seed_ranges(self, window):
        self.check_window(window)
        first = (window.start_ms + window.utc_offset_ms) % DAY
        stop = first + window.duration_ms
        return [(first, stop)] if stop <= DAY else [(first, DAY), (0, stop - DAY)]

    def distribution(self, window):
        self.check_window(window)
        return one_seed_per_millisecond(window)

    def seeds_at(self, times, window, rng):
        return ((times + window.utc_offset_ms) % DAY).astype(np.uint64)


class MsBootPolicy(SeedPolicy):
    """``GetTickCount()``: milliseconds since boot in 32 bits; a window is a range of uptimes."""

    name = "ms-boot"
    description = "GetTickCount(): milliseconds since boot, 32-bit (wraps after 49.7 days)"
    period_ms = TICK_WRAP

    def check_window(self, window):
        super().check_window(window)
        if window.anchored:
            raise ValueError("ms-boot seeds depend on the uptime, not the clock: give a duration such as 1d "
                             "(the program started less than a day after boot)")
        if window.duration_ms > TICK_WRAP:
            raise ValueError(f"GetTickCount wraps after 2^32 ms (49.7 days): a longer window adds no seeds; "
                             f"got {window.text!r}")

    def time_bounds(self, window):
        return 0, window.duration_ms

    def seed_ranges(self, window):
        self.check_window(window)
        return [(0, window.duration_ms)]

    def distribution(self, window):
        self.check_window(window)
        return one_seed_per_millisecond(window)

    def seeds_at(self, times, window, rng):
        return (times % TICK_WRAP).astype(np.uint64)


class PidTimePolicy(TimeSecondsPolicy):
    """``srand(time(0) ^ getpid())`` with pids uniform in ``[1, 32767]``.

    The pid changes only the low 15 bits of the time, so a window of ``k``
    seconds reaches whole blocks of 2^15 seeds: every seed of each block of
    ``2^15`` seconds the window touches, except, in a block touched by a
    single second ``t``, the seed ``t`` itself (the pid is never 0).
    """

    name = "pid-time"
    description = "time(0) ^ getpid(), pids in [1, 32767] (Linux pid_max 32768)"

    def _blocks(self, window):
        """Yield ``(block, first second, milliseconds per second)`` for each 2^15-second block."""
        first, weights = _second_weights(window)
        for block in range(first >> PID_BITS, (first + len(weights) - 1 >> PID_BITS) + 1):
            low = max(first, block << PID_BITS)
            high = min(first + len(weights), (block + 1) << PID_BITS)
            yield block, low, weights[low - first:high - first]

    def seed_ranges(self, window):
        self.check_window(window)
        first, last = _second_span(window)  # only the seconds' span matters: no weights built (a year has 3e7)
        ranges = []
        for block in range(first >> PID_BITS, (last >> PID_BITS) + 1):
            start, stop = block << PID_BITS, (block + 1) << PID_BITS
            low, high = max(first, start), min(last + 1, stop)
            ranges += [(start, stop)] if high - low > 1 else [(start, low), (low + 1, stop)]
        return [(a, b) for a, b in ranges if b > a]

    def distribution(self, window):
        self.check_window(window)
        weights = []
        for _, _, seconds in self._blocks(window):
            block_total = int(seconds.sum())
            weights.append(block_total - seconds)
            weights.append(np.full(2**PID_BITS - len(seconds), block_total, dtype=np.int64))
        return SeedDistribution(_group_weights(np.concatenate(weights)), window.duration_ms * PIDS)

    def seeds_at(self, times, window, rng):
        pids = rng.integers(1, PIDS + 1, size=len(times), dtype=np.int64)
        return ((times // SECOND) ^ pids).astype(np.uint64)


class VBTimerPolicy(MsMidnightPolicy):
    """Visual Basic's bare ``Randomize``: ``Timer`` (seconds since midnight, a ``Single``) hashed to 16 bits.

    The seed is the ``vbscript`` generator's ``h = (w ^ (w >> 16)) & 0xFFFF``, ``w``
    the bits of ``Timer`` (:mod:`rnglab.generators.vb`): a day's 86,400,000
    milliseconds fall on at most 2^16 seeds, unevenly.
    """

    name = "vb-timer"
    description = "VB Randomize: Timer's Single bits hashed to 16 bits (at most 65,536 seeds)"
    #: Milliseconds hashed per block (bounds the memory used).
    block_ms = 2**22

    def seed_weights(self, window: Window) -> np.ndarray:
        """Milliseconds of ``window`` that give each of the 2^16 seeds (read-only; remembered for the last few
        windows, since a whole day takes seconds to hash and a report asks for it more than once)."""
        return _timer_weights(tuple(super().seed_ranges(window)), self.block_ms)

    def seed_ranges(self, window):
        reached = np.flatnonzero(self.seed_weights(window))
        breaks = np.flatnonzero(np.diff(reached) != 1) + 1
        return [(int(run[0]), int(run[-1]) + 1) for run in np.split(reached, breaks) if len(run)]

    def distribution(self, window):
        return SeedDistribution(_group_weights(self.seed_weights(window)), window.duration_ms)

    def seeds_at(self, times, window, rng):
        return randomize_hash(timer_words(super().seeds_at(times, window, rng)))


@functools.lru_cache(maxsize=8)
def _timer_weights(ranges: tuple, block_ms: int) -> np.ndarray:
    """Milliseconds since midnight in ``ranges`` (half-open) that give each of the 2^16 VB seeds."""
    weights = np.zeros(2**16, dtype=np.int64)
    for first, stop in ranges:
        whole = (-(-first // SECOND), stop // SECOND)           # the whole seconds inside [first, stop)
        if whole[0] < whole[1]:
            weights += second_hash_counts(*whole)
            edges = ((first, whole[0] * SECOND), (whole[1] * SECOND, stop))
        else:
            edges = ((first, stop),)
        for low, high in edges:
            for start in range(low, high, block_ms):
                ms = np.arange(start, min(high, start + block_ms), dtype=np.int64)
                weights += np.bincount(randomize_hash(timer_words(ms)).astype(np.int64), minlength=2**16)
    weights.flags.writeable = False
    return weights


class GuidHashPolicy(SeedPolicy):
    """``new Random(Guid.NewGuid().GetHashCode())``: a 32-bit hash of a random GUID, 2^32 seeds.

    ``Guid.GetHashCode`` XORs the GUID's four 32-bit words; a version-4 GUID
    has 122 random bits, and every fixed bit (version, variant) is XORed with
    random bits of another word, so the hash is uniform over 2^32 values (the
    seed is its unsigned form). The start time does not matter: unpredictable,
    yet a search of 2^32 seeds is hours, not years (.NET's ``Random(int)``
    takes ``|seed|``, so it has at most 2^31 distinct states).
    """

    name = "guid-hash"
    description = "Guid.NewGuid().GetHashCode(): 2^32 equally likely seeds (searchable)"

    def seed_ranges(self, window):
        return [(0, 2**32)]

    def space_size(self, duration_ms):
        return 2**32

    def distribution(self, window):
        return SeedDistribution(((1, 2**32),), 2**32)

    def seeds_at(self, times, window, rng):
        return rng.integers(0, 2**32, size=len(times), dtype=np.uint64)


class OSPolicy(SeedPolicy):
    """The OS entropy source: 2^64 (or more) equally likely seeds, not enumerable.

    :meth:`draw` simulates it with the given numpy Generator, so that
    simulations stay reproducible.
    """

    name = "os"
    description = "the OS entropy source (getrandom, /dev/urandom): 2^64 or more seeds"
    enumerable = False

    def seed_ranges(self, window):
        raise ValueError("os seeds are not enumerable: 2^64 (or more) equally likely seeds")

    def count(self, window):
        return 2**64

    def space_size(self, duration_ms):
        return 2**64

    def distribution(self, window):
        return SeedDistribution(((1, 2**64),), 2**64)

    def seeds_at(self, times, window, rng):
        return rng.integers(0, 2**64, size=len(times), dtype=np.uint64, endpoint=False)


POLICIES: Registry[SeedPolicy] = Registry(
    "seed policy", {p.name: p for p in (FixedPolicy(), TimeSecondsPolicy(), MsMidnightPolicy(), MsBootPolicy(),
                                        PidTimePolicy(), VBTimerPolicy(), GuidHashPolicy(), OSPolicy())},
    tail=lambda names: f"{choose_from(names)} (or fixed:N), or give a range A..B")
"""Every seed policy by CLI name."""


def policy(name: str) -> SeedPolicy:
    """Look up a seed policy: ``fixed`` (or ``fixed:N``), a name of :data:`POLICIES`."""
    if name.startswith("fixed:"):
        return FixedPolicy(parse_int(name[len("fixed:"):]))
    return POLICIES[name]


# -- simultaneous tables ----------------------------------------------------------------

@dataclass(frozen=True)
class TablesDemo(Result):
    """``tables`` games started at uniform random times in a window: do two get the same seed?

    Attributes
    ----------
    policy, window, generator : str
    tables, seed : int
        Number of tables; seed of the numpy Generator that simulated the start times.
    trials : int
        Simulated rounds until one had two tables on the same seed (or ``max_trials``).
    table_seeds : numpy.ndarray
        The seeds of the tables in that round.
    pair : tuple of int or None
        Two tables that share a seed (``None`` when no round had one).
    first_outputs : list
        Their first values in ``[0, n)`` (identical, by construction of the generator).
    collision : Collision
        The exact (or approximate) probability of a shared seed in one round.
    """

    policy: str
    window: str
    generator: str
    tables: int
    seed: int
    trials: int
    table_seeds: np.ndarray
    pair: tuple | None
    first_outputs: list
    collision: Collision


def shared_seed_pair(seeds: np.ndarray) -> tuple[int, int] | None:
    """Indices of the first two entries with equal seeds, or ``None``."""
    order = np.argsort(seeds, kind="stable")
    same = np.flatnonzero(seeds[order][1:] == seeds[order][:-1])
    return None if len(same) == 0 else tuple(sorted((int(order[same[0]]), int(order[same[0] + 1]))))


def simultaneous_tables(chosen: SeedPolicy, window: Window, tables: int, generator: GeneratorSpec, *,
                        seed: int = 0, n: int = 52, outputs: int = 5, reducer: Reducer | None = None,
                        max_trials: int = 1000) -> TablesDemo:
    """Simulate ``tables`` games started in ``window`` until two share a seed, and show their outputs.

    Start times (and pids) come from ``numpy.random.default_rng(seed)``;
    each table seeds ``generator`` with its policy seed and draws ``outputs``
    values in ``[0, n)`` through ``reducer`` (default: the generator's own), the
    first cards of its deal.
    """
    if tables > MAX_TABLES:
        raise ValueError(f"at most {MAX_TABLES:,} simultaneous tables are simulated; got {tables:,}")
    reducer = reducer or generator.native_reducer
    rng = np.random.default_rng(seed)
    pair, table_seeds = None, np.empty(0, dtype=np.uint64)
    for trials in range(1, max_trials + 1):
        table_seeds = chosen.draw(rng, window, size=tables)
        pair = shared_seed_pair(table_seeds)
        if pair is not None:
            break
    first = [] if pair is None else [
        draw_bounded(generator.make(int(table_seeds[i])), n, outputs, reducer).values for i in pair]
    return TablesDemo(chosen.name, window.text, generator.name, tables, seed, trials, table_seeds, pair, first,
                      collision_probability(chosen.distribution(window), tables))


@dataclass(frozen=True)
class PolicySummary(Result):
    """What a seed policy gives away over a window.

    Attributes
    ----------
    policy, description, window : str
    start_ms, stop_ms : int
        The window, in Unix milliseconds (uptimes for ``ms-boot``).
    seeds : int
        Distinct seeds reachable in the window.
    bits : float
        ``log2(seeds)``: what an attacker must search.
    sizes : dict
        Seeds over a minute, a day and a year.
    collision : Collision or None
        For ``tables`` simultaneous starts.
    example_seed : int
        One seed as a program started in the window gets it (from ``seed``).
    seed : int
        Seed of the numpy Generator used for the example.
    """

    policy: str
    description: str
    window: str
    start_ms: int
    stop_ms: int
    seeds: int
    bits: float
    sizes: dict
    collision: Collision | None
    example_seed: int
    seed: int


def policy_summary(chosen: SeedPolicy, window: Window, tables: int | None = None, seed: int = 0) -> PolicySummary:
    """Size of a policy's seed space over ``window`` (and a minute, day, year), and table collisions."""
    chosen.check_window(window)
    count = chosen.count(window)
    sizes = {label: chosen.space_size(length) for label, length in (("minute", MINUTE), ("day", DAY), ("year", YEAR))}
    collision = collision_probability(chosen.distribution(window), tables) if tables else None
    example = chosen.draw(np.random.default_rng(seed), window)
    return PolicySummary(chosen.name, chosen.description, window.text, window.start_ms, window.stop_ms, count,
                     log2(count), sizes, collision, example, seed)
