"""Run a battery on one stream at doubling sizes until a test fails: how much output exposes a generator.

PractRand's question (``RNG_test ... -tlmin 10``): test the first KiB of the
stream, then its first 2 KiB, 4 KiB, ..., and report the data at which a
test first FAILs. Here every stage runs each battery entry with its sample
size scaled by the stage's factor (the factor doubles from stage to stage),
every entry on the stream from its start, as PractRand's tests all see the
whole stream read so far: the data of a stage is the first ``bytes`` of
the stream, and its p-values are valid for those data (the stages' p-values
are dependent, as PractRand's reports are). A source that cannot be
replayed (an input read once, the OS entropy source) cannot be read from
its start again: its stages read successive, disjoint data instead (see
:func:`run_stage`), so that the data needed to fail is then about twice
the data of the stage that failed. An entry whose scaled size breaks its
test's validity rule is skipped at that stage, with the rule as the reason.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from ..generators.base import Source
from ..generators.external import InputExhausted
from ..results import Result
from ..stream import BitSelection
from .battery import Battery, result_labels
from .verdicts import GRADES, Thresholds, grade, tail_distance

#: The factor of the first stage: every entry's sample size divided by 2^24, far below any validity rule,
#: so that the first stages that run anything read at most a few KiB.
FIRST_SCALE = 2.0**-24


class CountingSource(Source):
    """A view of a source that counts the outputs taken from it (outputs handed back are not counted twice)."""

    def __init__(self, inner: Source) -> None:
        self.inner, self.name, self.low, self.high, self.seed = inner, inner.name, inner.low, inner.high, inner.seed
        self.generated = 0
        super().__init__()

    def _generate(self, size: int) -> np.ndarray:
        values = self.inner.random_raw(size)
        self.generated += size
        return values

    @property
    def outputs_read(self) -> int:
        """Outputs consumed: generated, less those handed back and not yet read again."""
        return self.generated - len(self._pending)

    @property
    def state(self) -> dict:
        return self.inner.state


@dataclass(frozen=True)
class Stage(Result):
    """One doubling: the data read so far, and the verdicts on this stage's own data.

    Attributes
    ----------
    bytes : int
        Data read from the stream's start when the stage ended: the data its
        hungriest test saw (outputs times ``output_bits / 8``, rounded down),
        from the start for a replayable source, after the earlier stages'
        otherwise.
    bytes_every : int
        The least data read by a test that ran at its scaled size (tests held
        at their ``max_n`` cap are left out): every such test saw at least
        this much, where the hungriest saw ``bytes`` (the sizes keep the
        battery's proportions, so a test reading one bit of each output reads
        many more outputs than a test of whole words).
    least_reader : str
        The label of the test that read ``bytes_every`` ("" when none ran).
    scale : float
        The factor applied to every entry's sample size.
    seconds : float
        Time of this stage.
    results : tuple of EmpiricalResult
    labels : tuple of str
        One label per result.
    skipped : tuple of (str, str)
        Entries that could not run at this size, with the rule they break.
    worst : str
        The worst grade of the stage (``normal`` when nothing ran).
    worst_tests : tuple of str
        The labels of the results with that grade (none when it is ``normal``).
    """

    bytes: int
    bytes_every: int
    least_reader: str
    scale: float
    seconds: float
    results: tuple
    labels: tuple
    skipped: tuple
    worst: str
    worst_tests: tuple


def run_stage(source: CountingSource, battery: Battery, scale: float, selection: BitSelection,
              thresholds: Thresholds) -> tuple[Stage, CountingSource]:
    """Run every entry of ``battery`` with its sample size times ``scale`` on the next data of ``source``.

    When the source is replayable (a generator), every entry reads the same
    data, from its own copy of the source, as PractRand's tests all see the
    whole stream: the stage reads as much as its hungriest entry
    (:func:`stages` gives each stage of such a source the stream from its
    start). A source that is not (an input read once,
    the OS entropy source) is shared instead: its entries read successive data. An entry that breaks
    its test's validity rule (a ``ValueError``) is skipped with the rule; the
    end of an input (``InputExhausted``) ends the run.

    Returns
    -------
    stage : Stage
    furthest : CountingSource
        The source positioned after every datum the stage read.
    """
    started = time.perf_counter()
    replayable = source.inner.replayable
    results, skipped, furthest, read_by_uncapped = [], [], source, []
    for entry in battery.entries:
        scaled = dataclasses.replace(entry, n=max(1, round(entry.n * scale)))
        reader = source.copy() if replayable else source
        before = reader.outputs_read
        try:
            results.append(scaled.run(reader, selection))
        except InputExhausted:
            raise
        except ValueError as rule:
            skipped.append((entry.test, str(rule)))
        else:
            if scaled.size == scaled.n:
                read_by_uncapped.append((reader.outputs_read - before, len(results) - 1))
        if reader.outputs_read > furthest.outputs_read:
            furthest = reader
    labels = tuple(result_labels(results))
    grades = [grade(r.pvalue, thresholds) for r in results]
    worst = max(grades, key=GRADES.index, default="normal")
    worst_tests = tuple(label for label, g in zip(labels, grades) if g == worst != "normal")
    data = furthest.outputs_read * furthest.output_bits // 8
    least, index = min(read_by_uncapped, default=(0, None))
    every, reader_label = least * furthest.output_bits // 8, "" if index is None else labels[index]
    return Stage(data, every, reader_label, scale, time.perf_counter() - started, tuple(results), labels, tuple(skipped), worst,
                 worst_tests), furthest


def stages(source: Source, battery: Battery, *, start_bytes: int = 1024, max_bytes: int | None = None,
           max_seconds: float | None = None, selection: BitSelection = BitSelection(),
           thresholds: Thresholds = Thresholds()) -> Iterator[Stage]:
    """Yield the stages of a run until one FAILs or a limit is reached.

    The factor starts at :data:`FIRST_SCALE` and doubles at every stage, so
    each stage reads twice the data of the one before: the stream from its
    start again when the source is replayable (a generator), the next data
    otherwise (about as much as all the earlier stages together); stages are
    yielded from the first after which at least ``start_bytes`` have been
    read. Before each stage, the limits are checked against its
    expected cost (as much data as so far, twice the last stage's time): a
    stage that would pass ``max_bytes`` or ``max_seconds`` is not started.

    Parameters
    ----------
    source : Source
        The stream (read once, front to back).
    battery : Battery
        The entries to scale.
    start_bytes : int
        Data read before the first stage that is reported.
    max_bytes, max_seconds : optional
        Limits on the data read and the time spent.
    selection : BitSelection
        Bits of each output, for the entries that do not choose their own.
    thresholds : Thresholds
        The grades; the run stops after a stage with a FAIL.
    """
    counting = CountingSource(source)
    started, scale, last_seconds, read = time.perf_counter(), FIRST_SCALE, 0.0, 0
    while True:
        if max_bytes is not None and 2 * read > max_bytes:
            return
        if max_seconds is not None and time.perf_counter() - started + 2 * last_seconds > max_seconds:
            return
        stage, furthest = run_stage(counting, battery, scale, selection, thresholds)
        if not source.replayable:
            counting = furthest
        scale, last_seconds, read = 2 * scale, stage.seconds, stage.bytes
        if read >= start_bytes:
            yield stage
            if stage.worst == "FAIL":
                return


@dataclass(frozen=True)
class UntilFailResult(Result):
    """A whole run: its stages, and the data needed to fail (``None`` when nothing failed).

    Attributes
    ----------
    generator : str
    seed : int or None
    battery : str
    stages : tuple of Stage
    bytes_to_fail : int or None
        The data read when the first FAIL was raised.
    stopped : str
        Why the run ended: ``fail``, ``limit`` (a limit on data or time), ``interrupted`` or ``input ended``.
    """

    generator: str
    seed: int | None
    battery: str
    stages: tuple
    bytes_to_fail: int | None
    stopped: str

    @property
    def worst_distance(self) -> list[tuple[int, float]]:
        """``(bytes, min(p, 1 - p))`` of each stage's most extreme p-value: the curve ``--plot`` draws."""
        return [(s.bytes, min((tail_distance(r.pvalue) for r in s.results), default=0.5)) for s in self.stages]


def summarise(source: Source, battery: Battery, done: list[Stage], ended: str = "limit") -> UntilFailResult:
    """The result of the stages run so far: ``stopped`` is ``fail`` after a FAIL, otherwise ``ended`` (why the
    caller stopped: ``limit``, ``interrupted`` or ``input ended``)."""
    failed = bool(done) and done[-1].worst == "FAIL"
    return UntilFailResult(source.name, source.seed, battery.name, tuple(done), done[-1].bytes if failed else None,
                           "fail" if failed else ended)
