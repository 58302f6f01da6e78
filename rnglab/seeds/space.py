"""Seed spaces: the seeds a search or an enumeration covers, named one way in every command.

A seed space is a policy taken over a window of start times (``time-s`` over the
last day, ``ms-midnight`` around a timestamp) or explicit ranges ``A..B`` (both
ends included, several joined by commas). It is a list of disjoint half-open
ranges, walked in chunks; a generator checks it against the seeds its library
accepts (:func:`check_seed_space`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from rnglab.core.params import parse_int
from rnglab.generators import GeneratorSpec
from rnglab.parallel.chunks import merged, pieces_of
from rnglab.seeds.policies import MAX_ENUMERATED, SeedPolicy, Window, parse_window, policy

#: The window of start times a seed policy is taken over when none is given, in every command.
DEFAULT_WINDOW = "1d"


@dataclass(frozen=True)
class SeedSpace:
    """Seeds to search or enumerate: half-open ranges ``[first, stop)``, and how they were chosen.

    Attributes
    ----------
    label : str
        What the space is, for reports (``"seeds 0..99"``, ``"time-s over 1d"``).
    ranges : tuple of (first, stop)
        Disjoint, in order.
    policy : SeedPolicy or None
        The policy that produced the seeds, if any.
    window : Window or None
    """

    label: str
    ranges: tuple
    policy: SeedPolicy | None = None
    window: Window | None = None

    @property
    def size(self) -> int:
        """Number of seeds."""
        return sum(stop - first for first, stop in self.ranges)

    def __str__(self) -> str:
        return self.label

    def chunks(self, size: int):
        """The ranges cut into pieces of at most ``size`` seeds, in order."""
        return pieces_of(self.ranges, size)

    def seeds(self, limit: int = MAX_ENUMERATED) -> np.ndarray:
        """Every seed, in order (int64; Python integers beyond it).

        Raises
        ------
        ValueError
            For more than ``limit`` seeds (walk :meth:`chunks` instead).
        """
        if self.size > limit:
            raise ValueError(f"at most {limit:,} seeds are listed at once; {self.label} holds {self.size:,}")
        low, high = (self.ranges[0][0], self.ranges[-1][1]) if self.ranges else (0, 0)
        dtype = np.int64 if -2**63 <= low and high <= 2**63 else object
        parts = [np.arange(first, stop, dtype=dtype) for first, stop in self.ranges]
        return np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)

    def describe(self) -> dict:
        """Label, size and ranges, for JSON."""
        return {"label": self.label, "size": self.size, "ranges": [list(r) for r in self.ranges]}


def seed_range_space(ranges, label: str | None = None) -> SeedSpace:
    """A seed space of explicit half-open ranges (merged where they touch; overlaps refused)."""
    ordered = sorted((int(a), int(b)) for a, b in ranges if int(b) > int(a))
    for (_, stop), (first, _) in itertools.pairwise(ordered):  # sorted: an overlap shows between neighbours first
        if first < stop:
            raise ValueError(f"seed ranges overlap at {first}")
    joined = merged(ordered)
    if not label:  # only then: a range of 2^19968 seeds has too many digits to write
        label = "seeds " + ",".join(f"{a}..{b - 1}" for a, b in joined)
    return SeedSpace(label, tuple(joined))


def parse_seed_space(text: str, window: str | None = None, now: float | None = None) -> SeedSpace:
    """Parse a seed space: ``A..B`` (both ends included; several joined by commas) or a seed policy.

    Parameters
    ----------
    text : str
        ``0..2^32-1``, ``-3..3,100..200`` (integer expressions), or a policy
        name (:func:`policy`), taken over ``window``.
    window : str, optional
        Start times for a policy (:func:`parse_window`); default :data:`DEFAULT_WINDOW`.
        Refused with a range.
    now : float, optional
        Unix time that ends a relative window (default: the clock).

    Raises
    ------
    ValueError
        For a malformed range (``A > B``), overlapping ranges, an unknown
        policy, a bad window, a window with a range, or a policy that cannot be
        enumerated (``os``).
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("a seed space is a range A..B (e.g. 0..2^32-1) or a policy (time-s, ms-midnight, ...)")
    if ".." in text:
        if window is not None:
            raise ValueError("--window applies to a seed policy, not to a range A..B")
        return seed_range_space(_parse_range(part) for part in text.split(","))
    chosen = policy(text.strip())
    return policy_space(chosen, policy_window(chosen, window, now))


def policy_window(chosen: SeedPolicy, window: str | None, now: float | None = None) -> Window:
    """The start times ``window`` (default :data:`DEFAULT_WINDOW`) that policy ``chosen`` is taken over.

    Raises
    ------
    ValueError
        For a window given to a policy whose seed does not depend on the start time (``fixed``).
    """
    if window is not None and not chosen.takes_window:
        raise ValueError(f"a fixed seed has no window: {chosen.name} gives the same seed at every start time; "
                         "drop --window")
    return parse_window(window or DEFAULT_WINDOW, now)


def policy_space(chosen: SeedPolicy, span: Window) -> SeedSpace:
    """The seeds policy ``chosen`` gives over the start times ``span`` (``ValueError`` for the OS source, whose
    seeds cannot be listed)."""
    if not chosen.enumerable:
        raise ValueError(f"{chosen.name} seeds are not enumerable: 2^64 (or more) equally likely seeds")
    return SeedSpace(f"{chosen.name} over {span.text}", tuple(chosen.seed_ranges(span)), chosen, span)


def _parse_range(text: str) -> tuple[int, int]:
    """``A..B`` (inclusive) as the half-open ``(A, B + 1)``."""
    first, sep, last = text.partition("..")
    if not sep:
        raise ValueError(f"a seed range is written A..B (both included), e.g. 0..2^32-1; got {text.strip()!r}")
    first, last = parse_int(first.strip()), parse_int(last.strip())
    if last < first:
        raise ValueError(f"a seed range A..B needs A <= B; got {text.strip()!r}")
    return first, last + 1


def check_seed_space(generator: GeneratorSpec, space: SeedSpace) -> None:
    """Refuse a seed space with seeds ``generator``'s library does not accept (its ends are checked)."""
    for first, stop in space.ranges:
        generator.check_seed(first)
        generator.check_seed(stop - 1)


def seed_dtype(low: int, high: int) -> np.dtype:
    """The dtype of an array of seeds from ``low`` to ``high``: uint64 or int64 where they fit, else Python integers
    (CPython's ``random`` takes any integer)."""
    if 0 <= low and high < 2**64:
        return np.dtype(np.uint64)
    return np.dtype(np.int64 if -(2**63) <= low and high < 2**63 else object)


def seed_array(first: int, stop: int) -> np.ndarray:
    """The seeds ``first .. stop - 1`` (:func:`seed_dtype`)."""
    dtype = seed_dtype(first, stop - 1)
    return np.array(range(first, stop), dtype=object) if dtype == object else np.arange(first, stop, dtype=dtype)
