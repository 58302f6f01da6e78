"""Run a battery on one stream at doubling sizes until a test fails: how much output exposes a generator.

PractRand's question (``RNG_test ... -tlmin 10``): test the first KiB of the
stream, then its first 2 KiB, 4 KiB, ..., and report the data at which a
test first FAILs; the last stage tests the whole allowance (``max_bytes``),
as PractRand's ``-tlmax`` does. As in PractRand, every test reads all the data of a stage:
each battery entry's sample size is chosen so that it reads the stage's
data (:class:`Pacing`), every entry on the stream from its start, so the
data of a stage is the first ``bytes`` of the stream and its p-values are
valid for those data (the stages' p-values are dependent, as PractRand's
reports are). As in PractRand, a test whose statistic is made of counts
keeps them from stage to stage and reads each output once: its
:class:`~rnglab.empirical.stattests.base.Tally` goes on along one stream
that lives for the whole run (:class:`TallyStream`), up to the entry's
``max_n`` cap if it has one, where it stops reading (on any source) and
keeps its result. The tests that hold
their whole sample read the stream from its start again at each stage, up
to their ``max_n`` cap, where they stop reading and keep their result on
the same prefix; at the first stage such a test runs it reads the
battery's proportion of the data, where its consumption per sample is
learnt (both reported). A source that cannot be replayed (an input read
once, the OS entropy source) is read once, by every test: the tallies read
it as they read a generator's stream, and the other tests from where the
stream still is when their stage starts (see :func:`run_stage`). An entry
whose size breaks its test's validity rule is skipped at that stage, with
the rule as the reason.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from rnglab.core.results import Result
from rnglab.empirical.battery import Battery, Entry, result_labels
from rnglab.empirical.shared_stream import SharedStream
from rnglab.empirical.stattests.base import Tally
from rnglab.empirical.verdicts import GRADES, Thresholds, grade, tail_distance
from rnglab.generators.base import Source, SourceView
from rnglab.generators.external import InputExhausted
from rnglab.streams.gateway import select, selection_of, unselected

#: The least input a run until it fails tests: below 1 MiB most entries of the small battery are refused by their
#: validity rules (at 1 MiB of PCG64 26 of its 27 entries run; at 4 KiB, 10 or 11), and an input that ends sooner is more
#: likely a producer that crashed than a stream to grade.
LEAST_INPUT_BYTES = 2**20

#: Why an entry is skipped at a stage where the input ended before its last sample.
INPUT_ENDED = "the input ended before its last sample"

#: Why an entry is skipped at every stage of an input that ended while the entries ran at 1 and 2 samples (before
#: the first stage): its samples are too large for the input (a 384 x 384 matrix of the low bit is 576 KiB of
#: 32-bit words, two of them more than the least input), whose stages the others still test.
INPUT_UNDER_TWO_SAMPLES = "the input holds fewer than two of its samples"

#: The factor of the first stage: every entry's sample size divided by 2^24, far below any validity rule,
#: so that the first stages that run anything read at most a few KiB.
FIRST_SCALE = 2.0**-24


class CountingSource(SourceView):
    """A view of a source that counts the outputs taken from it (outputs handed back are not counted twice),
    from ``position``: the outputs before the source's first, when it starts further in the stream."""

    def __init__(self, inner: Source, position: int = 0) -> None:
        super().__init__(inner)
        self.generated = position

    def _took(self, values: np.ndarray) -> None:
        self.generated += len(values)

    @property
    def outputs_read(self) -> int:
        """Outputs consumed: generated, less those handed back and not yet read again."""
        return self.generated - len(self._pending)


@dataclass
class Pacing:
    r"""Each entry's sample size at a stage, so that every entry reads the stage's data and no more.

    A stage's data is :math:`T` outputs (:attr:`target`), set by
    :func:`stages`: a power of two of bytes, or the allowance. An entry's
    consumption is learnt from its last run: :math:`r_i` outputs read per
    unit of its sample size. A learnt entry runs with
    :math:`n_i = \lfloor T / r_i \rfloor` (capped at its ``max_n``), which
    reads at most :math:`T` when every sample takes the same data. An entry
    whose last run read more than one output away from what its run before,
    at another size, predicted (a gap or coupon collector test reads a
    random number of outputs per sample; a test that reads whole outputs
    rounds up) keeps a margin of four standard deviations below :math:`T`,
    taking a sample's standard deviation as at most its mean (a geometric
    law's): the largest :math:`n` with :math:`n r_i + 4 r_i \sqrt{n} \le T`,
    :math:`(\sqrt{4 + T / r_i} - 2)^2`, less twice the relative error
    :math:`e_i` of the last prediction (a Fourier test reads the largest
    5-smooth number of bits up to its :math:`n`, a little more of each
    sample as :math:`n` grows): :math:`n_i = \lfloor (\sqrt{4 + T / r_i} - 2)^2
    (1 - 2 e_i) \rfloor`; so does an
    entry not yet seen to read the same data per sample at two sizes, so
    that no entry reads past the stage (past the end of an input that holds
    just the allowance). Before the first stage the entries run at 1 sample,
    then 2 (:attr:`probe`), which shows the consumption of most. An entry not
    yet run (its test refused the smaller sizes) takes the battery's
    proportion, :math:`n_i = s \, n_i^{\text{battery}}`, at the scale
    :math:`s = T / \max_j n_j^{\text{battery}} r_j` over the learnt entries
    without a cap: the scale at which the battery's hungriest entry reads the
    stage (:data:`FIRST_SCALE` doubled at each :meth:`advance` before any
    entry without a cap has run).

    Attributes
    ----------
    target : int or None
        :math:`T`, outputs each entry reads (``None`` before the first stage of data).
    probe : int
        The size of every entry before the first stage.
    per_sample : dict
        :math:`r_i` by entry index, and the size it was learnt at (``sizes``).
    weight : dict
        :math:`n_i^{\text{battery}} r_i` by entry index, for the entries without a cap.
    steady : set
        The entries whose last run read within one output of :math:`n_i r_i` of the run before at another size.
    error : dict
        :math:`e_i`, how far the last run's read was from that prediction, relative to the read (at most 1/4).
    """

    target: int | None = None
    probe: int = 1
    per_sample: dict = dataclasses.field(default_factory=dict)
    sizes: dict = dataclasses.field(default_factory=dict)
    weight: dict = dataclasses.field(default_factory=dict)
    steady: set = dataclasses.field(default_factory=set)
    error: dict = dataclasses.field(default_factory=dict)
    first_scale: float = FIRST_SCALE

    @property
    def scale(self) -> float:
        """:math:`s`, the factor on the battery's size of an entry not yet run."""
        if self.target is None or not self.weight:
            return self.first_scale
        return self.target / max(self.weight.values())

    def size(self, index: int, entry: Entry, start: int = 0) -> int:
        """The sample size of entry ``index`` at this stage (before its ``max_n`` cap), for an entry that reads
        from output ``start`` on (a test without a tally on a source read once) to the stage's end."""
        if self.target is None:
            return self.probe
        if index in self.per_sample:
            samples = max(0, self.target - start) / self.per_sample[index]
            if index not in self.steady:
                samples = (math.sqrt(4 + samples) - 2) ** 2 * (1 - 2 * self.error.get(index, 0.0))
            return max(1, math.floor(samples))
        return max(1, round(entry.n * self.scale))

    def learn(self, index: int, entry: Entry, size: int, read: int) -> None:
        """Record that entry ``index`` read ``read`` outputs (from where it started) at sample size ``size``."""
        if not read:
            return
        if index in self.per_sample and size != self.sizes[index]:
            missed = abs(read - size * self.per_sample[index])
            (self.steady.add if missed <= 1 else self.steady.discard)(index)
            self.error[index] = min(missed / read, 0.25)
        self.per_sample[index], self.sizes[index] = read / size, size
        if entry.max_n is None:
            self.weight[index] = entry.n * read / size

    def advance(self) -> None:
        """Before the first stage: the next probe doubles every entry's size and the scale."""
        self.probe, self.first_scale = 2 * self.probe, 2 * self.first_scale


@dataclass(frozen=True)
class Stage(Result):
    """One doubling: the data read so far, and the verdicts on this stage's own data.

    Attributes
    ----------
    bytes : int
        Data read from the stream's start when the stage ended (outputs times
        ``output_bits / 8``, rounded down): the most one test read.
    bytes_every : int
        The least data read by one test that ran at its paced size (tests held
        at their ``max_n`` cap are left out): below ``bytes`` for a test
        without a tally running for the first time (it reads the battery's
        proportion), a test whose consumption per sample varies (it keeps a
        margin, :class:`Pacing`), and by rounding.
    least_reader : str
        The label of the test that read ``bytes_every`` ("" when none ran).
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
    worst_bytes : int
        The data those tests read: the most any of them read from the
        stream's start (at most ``bytes``; an entry at its first stage or held
        at its cap reads less).
    """

    bytes: int
    bytes_every: int
    least_reader: str
    seconds: float
    results: tuple
    labels: tuple
    skipped: tuple
    worst: str
    worst_tests: tuple
    worst_bytes: int


@dataclass
class _Run:
    """One entry's run at a stage: its size, result, outputs read, and whether its cap held it."""

    size: int
    result: object
    read: int
    capped: bool


class TallyStream:
    """The tallies of a run and the one stream they all read, from the first stage to the last.

    Every entry whose test has a :class:`~rnglab.empirical.stattests.base.Tally`
    (:attr:`~rnglab.empirical.battery.Entry.incremental`) counts from the
    stream's start and, at each stage, reads what follows its position up to
    its paced size, as PractRand's tests do: the stream is read once, by all
    of them, on one :class:`~rnglab.empirical.shared_stream.SharedStream` that
    lives for the whole run (memory bounded by its window, since the tallies
    read each stage together; a tally that has read its stage rests, so that
    the others, whose paced sizes end a little further on, do not wait for it). A tally keeps counting at a stage where its
    samples are still too few for its test's validity rule; the stage skips it
    with the rule. A source read once (an input, the OS entropy source) is
    read through this stream alone: the entries without a tally read it too,
    from the least position still held (:meth:`reader_from_held`).

    Parameters
    ----------
    source : Source
        The stream (or a selection of its bits, :func:`~rnglab.streams.gateway.select`: the stream under it is
        shared, each reader reading the selection); a replayable source is copied, one read once is read.
    entries : dict
        The battery's incremental entries, by index.
    """

    def __init__(self, source: Source, entries: dict) -> None:
        stream = unselected(source)
        # an input is read no further than a test asks (chunk=1): where it ends, the tests' data ends
        self.stream = SharedStream(stream.copy()) if stream.replayable else SharedStream(stream, chunk=1)
        self.source, self.readers = source, {index: CountingSource(self.stream.reader()) for index in entries}
        self.views: dict[int, Source] = {}  # what each tally reads of its reader (made with the tally)
        self.tallies: dict[int, Tally] = {}
        self.refused: dict[int, str] = {}

    def count(self, index: int, entry: Entry) -> _Outcome:
        """Extend entry ``index``'s tally to the entry's size (made at its first stage) and take its result."""
        if index in self.refused:
            return _Outcome(None, self.refused[index], 0)
        reader = self.readers[index]
        if index not in self.tallies:
            try:
                self.views[index] = _view(self.source, entry, reader)
                self.tallies[index] = entry.tally(self.views[index])
            except ValueError as rule:  # the test refuses the source's resolution: at every stage
                self.refused[index] = str(rule)
                reader.inner.close()
                return _Outcome(None, str(rule), 0)
        try:
            tally = self.tallies[index].extend(self.views[index], entry.size, checked=False)
        except InputExhausted:  # its counts stop partway: no later stage reads it
            self.refused[index] = INPUT_ENDED
            reader.inner.close()
            return _Outcome(None, INPUT_ENDED, reader.outputs_read)
        if entry.max_n is not None and entry.size >= entry.max_n:  # at its cap: it reads no more, nor is held for
            reader.inner.close()
        else:  # its stage is read: the tallies still reading do not wait for it
            reader.inner.rest()
        try:
            tally.check(tally.samples)
        except ValueError as rule:
            return _Outcome(None, str(rule), reader.outputs_read, tally.samples)
        return _Outcome(tally.result(), None, reader.outputs_read, tally.samples)

    def set_aside_ended(self) -> int:
        """Skip from now on, with :data:`INPUT_UNDER_TWO_SAMPLES`, the tallies that the input's end stopped (at
        the probe, before the first stage); return how many."""
        ended = [index for index, rule in self.refused.items() if rule == INPUT_ENDED]
        self.refused.update(dict.fromkeys(ended, INPUT_UNDER_TWO_SAMPLES))
        return len(ended)

    def reader_from_held(self) -> CountingSource:
        """A reader, for a test without a tally, from the least position of the stream still held."""
        position = self.stream.held_from
        return CountingSource(self.stream.reader(position), position)

    def close(self) -> None:
        """Read no more: the stream drops what it held."""
        for reader in self.readers.values():
            reader.inner.close()


def run_stage(source: Source, battery: Battery, pacing: Pacing, thresholds: Thresholds, tallies: TallyStream,
              previous: dict | None = None) -> tuple[Stage, dict]:
    """Run every entry of ``battery`` at its paced size, the entries side by side in threads.

    Every entry reads the stream from its start, as PractRand's tests all see
    the whole stream. The entries with a tally read on in ``tallies`` from
    where they stopped; the others, on a replayable source (a generator), read
    the stream from its start again, on one
    :class:`~rnglab.empirical.shared_stream.SharedStream` (generated once for
    all of them), and an entry at the same size as in ``previous`` (held at its
    cap) keeps its result: the same test on the same data. On a source read
    once, they read ``tallies``' stream from the least position it still holds
    (their data starts there). An entry that breaks its test's validity rule
    (a ``ValueError``) is skipped with the rule, and one that reached the end
    of an input (``InputExhausted``) with :data:`INPUT_ENDED` (:func:`stages`
    ends the run there). ``pacing`` learns each entry's consumption.

    Returns
    -------
    stage : Stage
    runs : dict
        The entries' runs by index, to pass as ``previous`` to the next stage.
    """
    started = time.perf_counter()
    starts = {index: _start(source, entry, tallies) for index, entry in enumerate(battery.entries)}
    paced = {index: dataclasses.replace(entry, n=pacing.size(index, entry, starts[index]))
             for index, entry in enumerate(battery.entries)}
    kept = {index: dataclasses.replace(previous[index], capped=True) for index, entry in paced.items()
            if previous and index in previous and previous[index].size == entry.size}  # held at its cap
    fresh = {index: entry for index, entry in paced.items() if index not in kept}
    outcomes = _run_together(source, fresh, tallies)
    runs, skipped = dict(kept), []
    for index, outcome in outcomes.items():
        entry = fresh[index]
        pacing.learn(index, battery.entries[index], outcome.samples or entry.size, max(0, outcome.read - starts[index]))
        if outcome.rule is not None:
            skipped.append((entry.test, outcome.rule))
        else:
            runs[index] = _Run(entry.size, outcome.result, outcome.read, entry.size < entry.n)
    runs = dict(sorted(runs.items()))
    return _stage(runs, skipped, unselected(source).output_bits, thresholds, time.perf_counter() - started), runs


def _start(source: Source, entry: Entry, tallies: TallyStream) -> int:
    """The output from which ``entry`` reads at this stage: the stream's start, except for a test without a tally
    on a source read once, which reads from the least position still held (:meth:`TallyStream.reader_from_held`)."""
    return 0 if source.replayable or entry.incremental else tallies.stream.held_from


class _Outcome(NamedTuple):
    """An entry's run at a stage: its result, or the validity rule it broke; the outputs it read from the stream's
    start; and, for a tally, the samples those hold (more than the paced size when it held more already: a
    tally gives none back)."""

    result: object
    rule: str | None
    read: int
    samples: int | None = None


def _view(source: Source, entry: Entry, reader: CountingSource) -> Source:
    """What ``entry`` reads of ``reader``, a reader of the stream under ``source``: the bits ``source`` selects
    (:func:`~rnglab.streams.gateway.selection_of`), or the entry's own (:meth:`~.battery.Entry.view`)."""
    return entry.view(select(reader, selection_of(source)))


def _run_entry(source: Source, entry: Entry, reader: CountingSource) -> _Outcome:
    """Run ``entry`` (a test without a tally) at its size on ``reader`` (:func:`_view`); the rule of a
    ``ValueError`` (the size or the resolution breaks the test's validity rule) is the outcome's ``rule``,
    :data:`INPUT_ENDED` when the input ended first."""
    try:
        result = entry.run(_view(source, entry, reader))
    except InputExhausted:
        return _Outcome(None, INPUT_ENDED, reader.outputs_read)
    except ValueError as rule:
        return _Outcome(None, str(rule), 0)
    finally:
        reader.inner.close()
    return _Outcome(result, None, reader.outputs_read)


def _run_together(source: Source, entries: dict, tallies: TallyStream) -> dict:
    """Run ``entries`` side by side, each in a thread: those with a tally on in ``tallies``, the others on a stream
    from ``source``'s start (a replayable source) or from what ``tallies``' stream still holds."""
    others = [index for index in entries if index not in tallies.readers]
    streams, readers, stream = [tallies.stream], {}, unselected(source)
    if others and stream.replayable:
        streams.append(SharedStream(stream.copy()))
        readers = {index: CountingSource(streams[-1].reader()) for index in others}
    elif others:
        readers = {index: tallies.reader_from_held() for index in others}

    def run(index: int) -> _Outcome:
        if index in readers:
            return _run_entry(source, entries[index], readers[index])
        return tallies.count(index, entries[index])

    with ThreadPoolExecutor(max_workers=max(1, len(entries))) as pool:
        futures = {index: pool.submit(run, index) for index in entries}
        try:
            return {index: future.result() for index, future in futures.items()}
        except BaseException:
            for stream in streams:
                stream.cancel()
            raise


def _stage(runs: dict, skipped: list, output_bits: int, thresholds: Thresholds, seconds: float) -> Stage:
    """The stage of ``runs``: its data is the most its entries read from the stream's start."""
    reads = [run.read for run in runs.values()]
    results = [run.result for run in runs.values()]
    labels = tuple(result_labels(results))
    grades = [grade(r.pvalue, thresholds) for r in results]
    worst = max(grades, key=GRADES.index, default="normal")
    worst_tests = tuple(label for label, g in zip(labels, grades) if g == worst != "normal")
    data = max(reads, default=0)
    worst_read = max((r for r, g in zip(reads, grades) if g == worst), default=data)
    least, index = min(((run.read, i) for i, run in enumerate(runs.values()) if not run.capped), default=(0, None))
    to_bytes = output_bits / 8
    return Stage(int(data * to_bytes), int(least * to_bytes), "" if index is None else labels[index], seconds,
                 tuple(results), labels, tuple(skipped), worst, worst_tests, int(worst_read * to_bytes))


def stage_bytes(start_bytes: int, allowance: int | None) -> Iterator[int]:
    """The data of each stage: ``start_bytes`` doubled until it reaches ``allowance``, then ``allowance`` itself
    (PractRand's 1 KiB, 2 KiB, 4 KiB, ... with a last stage on the whole allowance); without end when it is ``None``."""
    size = start_bytes
    while allowance is None or size < allowance:
        yield size
        size *= 2
    yield allowance


def stages(source: Source, battery: Battery, *, start_bytes: int = 1024, max_bytes: int | None = None,
           max_seconds: float | None = None, thresholds: Thresholds | None = None) -> Iterator[Stage]:
    """Yield the stages of a run until one FAILs or a limit is reached.

    Stage ``k`` tests the first :math:`2^k` KiB of the stream
    (:func:`stage_bytes`: ``start_bytes`` doubled), every entry paced to read
    that data (:class:`Pacing`) from the stream's start (:func:`run_stage`);
    the last stage tests ``max_bytes`` itself when it is not a power of two
    of ``start_bytes``, so that the data examined is the allowance. Before
    the first stage, the entries run at 1 sample, then 2, unreported, to
    learn how much each reads; a tally whose two samples the input does not
    hold is skipped from there on (:data:`INPUT_UNDER_TWO_SAMPLES`). A stage that would end
    after ``max_seconds`` (twice the last stage's time from now) is not started.

    Parameters
    ----------
    source : Source
        The stream (read once, front to back), or a selection of its bits
        (:func:`~rnglab.streams.gateway.select`): the entries that do not
        choose their own bits read those, and the data is counted in the
        stream's outputs.
    battery : Battery
        The entries to pace.
    start_bytes : int
        The data of the first stage.
    max_bytes, max_seconds : optional
        The allowance of data (the last stage's) and a limit on the time spent.
    thresholds : Thresholds, optional
        The grades (default: :class:`~rnglab.empirical.verdicts.Thresholds`); the run stops after a stage with a FAIL.

    Raises
    ------
    InputExhausted
        When an input ends before ``max_bytes``: after the last stage whose
        data it held (its entries that needed more are skipped with
        :data:`INPUT_ENDED`). An input that holds just ``max_bytes`` ends the
        run at its last stage, without this error.
    """
    thresholds = thresholds or Thresholds()
    pacing, runs = Pacing(), None
    tallies = TallyStream(source, {index: entry for index, entry in enumerate(battery.entries) if entry.incremental})
    started, last_seconds = time.perf_counter(), 0.0
    try:
        while pacing.probe < 4 or not pacing.per_sample:  # learn the entries' consumption at 1 and 2 samples
            probe, runs = run_stage(source, battery, pacing, thresholds, tallies, runs)
            if sum(rule == INPUT_ENDED for _, rule in probe.skipped) > tallies.set_aside_ended():
                raise InputExhausted(f"{source.name} ended before the first stage")
            pacing.advance()
        for size in stage_bytes(start_bytes, max_bytes):
            if max_seconds is not None and time.perf_counter() - started + 2 * last_seconds > max_seconds:
                return
            pacing.target = size * 8 // unselected(source).output_bits
            stage, runs = run_stage(source, battery, pacing, thresholds, tallies, runs)
            last_seconds = stage.seconds
            if _input_ended(stage) and stage.bytes < size:  # the stage's data is not all there: not reported
                raise InputExhausted(f"{source.name} ended in the stage of {size:,} bytes")
            yield stage
            if stage.worst == "FAIL":
                return
            if _input_ended(stage) and size != max_bytes:
                raise InputExhausted(f"{source.name} ended after the stage of {size:,} bytes")
    finally:
        tallies.close()


def _input_ended(stage: Stage) -> bool:
    """Whether the input ended while ``stage`` ran (an entry skipped with :data:`INPUT_ENDED`)."""
    return any(rule == INPUT_ENDED for _, rule in stage.skipped)


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
        The data the tests that raised the first FAIL had read (the stage's ``worst_bytes``).
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
    return UntilFailResult(source.name, source.seed, battery.name, tuple(done), done[-1].worst_bytes if failed else None,
                           "fail" if failed else ended)
