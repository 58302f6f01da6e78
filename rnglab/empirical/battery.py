"""Batteries of empirical tests, written as data (``rnglab/data/batteries.toml``) and run on one stream.

A battery is a list of entries ``{test = NAME, n = SIZE, options...}``,
optionally ``repeat = N`` for a second-level test. :func:`run_battery` builds
the source once from a factory and a seed and runs the entries in order on
that one stream, each entry continuing where the previous one stopped, as
TestU01's batteries do.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files

import tomllib

from rnglab.core.params import parse_int
from rnglab.core.registry import Registry
from rnglab.core.results import Result
from rnglab.empirical.secondlevel import second_level
from rnglab.empirical.stattests import EmpiricalResult, ResolutionError, get_test
from rnglab.empirical.stattests.base import Tally
from rnglab.generators.base import Source
from rnglab.streams.gateway import BitSelection, select, selection_of, unselected

#: The shipped file, read through importlib.resources (a checkout, an editable install or a wheel).
BATTERIES_PATH = files("rnglab.data") / "batteries.toml"


#: Entry keys that choose the entry's own bits of each output (TestU01's r and s, or the low bits).
BIT_KEYS = ("drop", "keep", "low")


@dataclass(frozen=True)
class Entry:
    """One battery entry: a registered test, its sample size, options and replications.

    ``bits``, when set, are the entry's own bits of each output (the low bits
    SmallCrush reads with its parameter r); otherwise it reads the run's source
    as it is (:meth:`view`).
    ``max_n``, when set, caps the sample size the entry runs with (:attr:`size`),
    as for a test whose cost grows as ``n^2`` (linear complexity) and whose
    power is reached at a known size; a run until it fails
    (:mod:`rnglab.empirical.until_fail`) sizes every entry to its stage's data, up to that cap.
    """

    test: str
    n: int
    options: dict
    repeat: int = 1
    bits: BitSelection | None = None
    max_n: int | None = None

    @property
    def size(self) -> int:
        """The sample size run: ``n``, capped at ``max_n``."""
        return self.n if self.max_n is None else min(self.n, self.max_n)

    @property
    def incremental(self) -> bool:
        """True when the entry's test has a :class:`~rnglab.empirical.stattests.base.Tally` whose memory its
        options bound (:meth:`~rnglab.empirical.stattests.base.Tally.bounded`) and the entry is not repeated
        (a second-level test): a run until it fails carries its counts on, up to its ``max_n`` cap, where it
        stops reading and keeps its result."""
        tally = get_test(self.test).tally
        return tally is not None and tally.bounded(self.options) and self.repeat == 1

    def view(self, source: Source) -> Source:
        """What the entry reads of the run's ``source``: ``source`` itself, or the entry's own :attr:`bits` of the
        stream under it (:func:`~rnglab.streams.gateway.unselected`: they replace the run's selection)."""
        return select(unselected(source), self.bits) if self.bits else source

    def tally(self, source: Source) -> Tally:
        """The entry's test as a tally for ``source``, its :meth:`view` (an :attr:`incremental` entry)."""
        return get_test(self.test).tally(source, **self.options)

    def run(self, source: Source) -> EmpiricalResult:
        """Run the entry on ``source``, its :meth:`view` (a second-level test when ``repeat > 1``)."""
        if self.repeat > 1:
            return second_level(get_test(self.test), source, self.size, self.repeat, **self.options)
        return get_test(self.test)(source, self.size, **self.options)


@dataclass(frozen=True)
class Battery:
    """A named list of entries with a description (its scale and purpose)."""

    name: str
    description: str
    entries: tuple


@dataclass(frozen=True)
class BatteryResult(Result):
    """The results of a battery run, in entry order, with what is needed to reproduce it.

    ``skipped`` lists ``(test, rule)`` for the entries whose test refused the
    source's resolution (:class:`~rnglab.empirical.stattests.base.ResolutionError`).
    """

    battery: str
    generator: str
    seed: int | None
    results: tuple
    seconds: float
    selection: dict
    skipped: tuple = ()


def _entry_from_table(battery: str, table: dict) -> Entry:
    table = dict(table)
    try:
        test, n = table.pop("test"), _integer(table.pop("n"))
    except KeyError as missing:
        raise ValueError(f"battery {battery!r}: every entry needs test and n; missing {missing}") from None
    repeat = _integer(table.pop("repeat", 1))
    max_n = _integer(table.pop("max_n")) if "max_n" in table else None
    bits = {key: _integer(table.pop(key)) for key in BIT_KEYS if key in table}
    options = {key: _integer(value) if isinstance(value, str) else value for key, value in table.items()}
    return Entry(test, n, options, repeat, BitSelection(**bits) if bits else None, max_n)


def _integer(value) -> int:
    return parse_int(value) if isinstance(value, str) else int(value)


@functools.cache
def batteries() -> Registry[Battery]:
    """The batteries of ``rnglab/data/batteries.toml``, by name (``smoke``, ``small``, ``standard``, ...)."""
    with BATTERIES_PATH.open("rb") as handle:
        tables = tomllib.load(handle)
    return Registry("battery", {name: Battery(name, table.get("description", ""),
                                              tuple(_entry_from_table(name, entry) for entry in table["tests"]))
                                for name, table in tables.items()})


def get_battery(name: str) -> Battery:
    """Look up a battery by name, with the list of names in the error."""
    return batteries()[name]


def select_entries(battery: Battery, tests: list[str] | None = None, n: int | None = None,
                   repeat: int | None = None) -> tuple:
    """The battery's entries, kept to ``tests`` (in battery order), with ``n`` and ``repeat`` overridden.

    A test named in ``tests`` that is not in the battery runs with its default
    options, after the battery's own, and needs ``n``; an ``n`` given here is
    not capped by an entry's ``max_n``.
    """
    entries = battery.entries
    for name in [e.test for e in entries] + list(tests or []):
        get_test(name)
    if tests:
        listed = [e for e in entries if e.test in tests]
        missing = [name for name in tests if name not in {e.test for e in listed}]
        if missing and n is None:
            raise ValueError(f"{', '.join(missing)} not in battery {battery.name!r}: give the sample size n")
        entries = tuple(listed) + tuple(Entry(name, n, {}) for name in missing)
    return tuple(Entry(e.test, n or e.n, e.options, repeat or e.repeat, e.bits, None if n else e.max_n)
                 for e in entries)


def run_battery(factory: Callable[[int | None], Source], battery: Battery, seed: int | None = None, *,
                tests: list[str] | None = None, n: int | None = None, repeat: int | None = None,
                on_progress: Callable[[int, int, str], None] | None = None) -> BatteryResult:
    """Run a battery on the source ``factory(seed)``, entry after entry on one stream.

    Parameters
    ----------
    factory : callable
        ``factory(seed) -> Source``; a selection of bits of each output
        (:func:`~rnglab.streams.gateway.select`) is read by every entry, and the
        entries that choose their own bits (the battery's low-bit entries) are
        then left out.
    battery : Battery
        From :func:`get_battery` (``smoke``, ``small``, ``standard``).
    seed : int, optional
    tests : list of str, optional
        Run only these tests (battery order; a test outside the battery needs ``n``).
    n : int, optional
        Sample size for every entry instead of the battery's.
    repeat : int, optional
        Replications for every entry: ``> 1`` makes each a second-level test.
    on_progress : callable, optional
        ``on_progress(done, total, test_name)`` after each entry.
    """
    entries = select_entries(battery, tests, n, repeat)
    source = factory(seed)
    selection = selection_of(source)
    if selection != BitSelection():
        entries = tuple(entry for entry in entries if entry.bits is None)
    started = time.perf_counter()
    results, skipped = [], []
    for done, entry in enumerate(entries, start=1):
        try:
            results.append(entry.run(entry.view(source)))
        except ResolutionError as refusal:
            skipped.append((entry.test, str(refusal)))
        if on_progress:
            on_progress(done, len(entries), entry.test)
    return BatteryResult(battery.name, source.name, source.seed if seed is None else seed, tuple(results),
                         time.perf_counter() - started, {"drop": selection.drop, "keep": selection.keep, "low": selection.low},
                         tuple(skipped))


def result_labels(results) -> list[str]:
    """Short labels for a battery's results: the test name, plus the options that tell repeated tests apart.

    Examples: ``collision``, or ``birthday-spacings d=2^30 t=2`` and
    ``birthday-spacings d=2^20 t=3`` when the battery runs the test twice (the
    sample size ``n`` and the derived ``k = d^t`` are left out unless nothing else differs);
    ``gap low=10`` for an entry that reads its own bits (the 10 low bits of each output; ``drop=r``,
    ``keep=s`` likewise) among entries that read other bits.
    """
    mixed = len({tuple(_bits(r.params)) for r in results}) > 1
    labels = []
    for result in results:
        twins = [r.params for r in results if r.test == result.test and _bits(r.params) == _bits(result.params)]
        differing = [k for k in result.params
                     if len({str(p.get(k)) for p in twins}) > 1 and k not in ("n", "k", *BIT_KEYS)]
        shown = differing or (["n"] if len(twins) > 1 else [])
        labels.append(" ".join([result.test] + [f"{k}={_short(result.params[k])}" for k in shown]
                               + [f"{k}={v}" for k, v in _bits(result.params) if mixed]))
    return labels


def _bits(params: dict) -> list:
    """The bit selection of a result's parameters, as (key, value) pairs that differ from all bits."""
    return [(k, params[k]) for k in BIT_KEYS if params.get(k)]


def _short(value) -> str:
    """Powers of two as ``2^k``; other values as they are."""
    if isinstance(value, int) and value > 1024 and value & (value - 1) == 0:
        return f"2^{value.bit_length() - 1}"
    return str(value)
