"""One stream generated once and read by several tests at their own pace, in a bounded window of memory.

A stage of a run until it fails (:mod:`rnglab.empirical.until_fail`) has
every battery entry read the same prefix of a generator's stream. Each entry
on its own copy of the generator makes the stream again: on PCG64 that was
about 40% of a stage. A :class:`SharedStream` generates the stream once, in
chunks, and hands each reader (a :class:`StreamReader`, one per test, each in
its own thread) the outputs at its own position. A chunk is dropped once every
reader still running has passed it; a reader that gets ``window`` outputs ahead
of the slowest waits for it, except the slowest itself, which never waits, so
the readers always make progress and memory stays bounded by the window plus
the largest single request (the tests that hold their whole sample, up to
their ``max_n``). Every reader sees exactly the outputs a copy of the
generator would give it, so the tests' results are the same. A stream may
be read over several rounds (the stages of a run until it fails, whose tallies
go on from where each stopped), and a reader made between rounds starts at a
position the stream still holds. A reader done with its round *rests*
(:meth:`SharedStream.rest`) until it reads again: what lies after it is kept
for it, but the readers still reading no longer wait for it (the stages'
tallies stop a little apart, by their margins, which grow as the root of the
stage's data: at 4 GiB they exceed the window, and every reader that had not
yet stopped waited for the one that had, for ever).
"""

from __future__ import annotations

import threading
from collections import deque

import numpy as np

from rnglab.generators.base import Source, raw_dtype

#: The default window: 2^19 outputs, 4 MiB of 64-bit words. A run until it fails on 256 MiB of standard input peaked
#: at 265 MiB with 2^21 and 254 MiB with 2^19, in the same CPU time (the readers wait more often, without spending CPU
#: on it); 2^18 saved no more.
WINDOW = 2**19
#: The waiting readers are woken when the slowest reader has gone a 1/WAKE_FRACTION of the window further (or was
#: passed, or stopped), not at each of its reads: at every read, 17 readers on 1 GiB of standard input made
#: about 2 million wake-ups (voluntary context switches), 2-3 CPU s of the run.
WAKE_FRACTION = 4


class Cancelled(Exception):
    """The stream was cancelled (Ctrl-C in the thread that runs the readers)."""


class SharedStream:
    """The outputs of ``source`` from its current state, generated once for every reader.

    Parameters
    ----------
    source : Source
        The generator, at the start of the stream; the stream owns it.
    chunk : int
        Outputs generated at a time (more when a reader asks for more at once): 2^17 (1 MiB), the window
        holding a few; at 2^20 a run until it fails of the core battery on PCG64 to 1 GiB peaked at 253 MiB,
        at 2^17 at 236-239 MiB.
    window : int
        Outputs a reader may be ahead of the slowest running reader before it waits (:data:`WINDOW`).
    """

    def __init__(self, source: Source, *, chunk: int = 2**17, window: int = WINDOW) -> None:
        self._source, self._chunk, self._window = source, chunk, window
        self._chunks: deque[tuple[int, np.ndarray]] = deque()
        self._start = self._end = 0  # the outputs held: [start, end)
        self._positions: dict[int, int] = {}
        self._resting: set[int] = set()  # readers done with this round: held for, not waited for
        self._changed = threading.Condition()
        self._cancelled = False
        self._woken = 0  # the slowest position when the waiting readers were last woken

    def reader(self, position: int = 0) -> StreamReader:
        """A new reader at ``position`` (default: the stream's start). Readers are made before any of them reads,
        or, while none is reading, from :attr:`held_from` on."""
        if position < self._start:
            raise ValueError(f"the stream no longer holds output {position}: it holds them from {self._start} on")
        with self._changed:
            key = len(self._positions)
            self._positions[key] = position
        return StreamReader(self, key, self._source)

    @property
    def held_from(self) -> int:
        """The least position a new reader may start at: the lowest reader's (the stream's end when none reads)."""
        with self._changed:
            return min(self._positions.values(), default=self._end)

    def read(self, key: int, size: int) -> np.ndarray:
        """The next ``size`` outputs of reader ``key``, generating what no reader has asked for yet."""
        with self._changed:
            position = self._positions[key]
            self._resting.discard(key)
            while self._cancelled or position + size > self._end:
                if self._cancelled:
                    raise Cancelled("the stream was cancelled")
                slowest = self._slowest()
                if self._end - slowest < self._window or position == slowest:
                    self._append(max(self._chunk, min(size, position + size - self._end)))
                    self._drop()  # a reader that starts ahead of every other leaves nothing behind it
                else:
                    self._changed.wait()
            values = self._gather(position, size)
            slowest = self._slowest()
            self._positions[key] = position + size
            if position == slowest:  # only the slowest reader's progress lets a waiting reader go on
                self._drop()
                moved = self._slowest()
                if moved < position + size or moved - self._woken >= self._window // WAKE_FRACTION:
                    self._woken = moved  # it passed another reader (now the slowest), or went far enough
                    self._changed.notify_all()
            return values

    def finish(self, key: int) -> None:
        """Reader ``key`` reads no more: the chunks only it held are dropped, and waiting readers go on."""
        with self._changed:
            self._positions.pop(key, None)
            self._resting.discard(key)
            self._release()

    def rest(self, key: int) -> None:
        """Reader ``key`` is done with this round: the readers ahead of it no longer wait for it (what follows it
        is still held), until it reads again."""
        with self._changed:
            self._resting.add(key)
            self._changed.notify_all()

    def cancel(self) -> None:
        """Make every reader raise :class:`Cancelled` at its next read (or at once, when it waits)."""
        with self._changed:
            self._cancelled = True
            self._changed.notify_all()

    def _append(self, size: int) -> None:
        self._chunks.append((self._end, self._source.random_raw(size)))
        self._end += size

    def _gather(self, position: int, size: int) -> np.ndarray:
        parts = [values[max(position - start, 0):position + size - start] for start, values in self._chunks
                 if start < position + size and start + len(values) > position]
        if not parts:  # nothing asked
            return np.empty(0, dtype=raw_dtype(self._source.high))
        if len(parts) > 1:
            return np.concatenate(parts)
        view = parts[0].view()
        view.flags.writeable = False  # shared with the other readers: a test must not write into it
        return view

    def _slowest(self) -> int:
        """The lowest position of a reader still reading (not resting): the one every other may wait for."""
        return min(at for reader, at in self._positions.items() if reader not in self._resting)

    def _drop(self) -> None:
        """Drop the chunks every reader has passed."""
        lowest = min(self._positions.values(), default=self._end)
        while self._chunks and self._chunks[0][0] + len(self._chunks[0][1]) <= lowest:
            start, values = self._chunks.popleft()
            self._start = start + len(values)

    def _release(self) -> None:
        """Drop what every reader has passed and wake the waiting readers (the slowest moved, or left)."""
        self._drop()
        self._changed.notify_all()


class StreamReader(Source):
    """One test's view of a :class:`SharedStream`: a source whose outputs are the stream's from its start."""

    def __init__(self, stream: SharedStream, key: int, like: Source) -> None:
        self.name, self.low, self.high, self.seed = like.name, like.low, like.high, like.seed
        self._stream, self._key = stream, key
        super().__init__()

    def _generate(self, size: int) -> np.ndarray:
        return self._stream.read(self._key, size)

    def close(self) -> None:
        """Read no more (the stream may drop what only this reader held)."""
        self._stream.finish(self._key)

    def rest(self) -> None:
        """Done with this round (:meth:`SharedStream.rest`): the other readers do not wait for this one."""
        self._stream.rest(self._key)

    def copy(self) -> Source:
        raise TypeError("a reader of a shared stream cannot be copied: its stream is read once")

    @property
    def state(self) -> dict:
        raise TypeError("a reader of a shared stream has no generator state of its own")
