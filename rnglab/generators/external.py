"""A stream the lab did not generate (standard input or a file of words) as a :class:`Source`.

What PractRand's ``RNG_test stdin32|stdin64``, dieharder's ``-g 200`` and
``-g 201 -f FILE`` and TestU01's ``unif01_CreateExternGenBits`` read: the
words of a byte stream, so that ``mygame --dump-rng | rnglab test - --format u32``
tests a generator rnglab does not know. The stream is read lazily, as the
tests ask for outputs, never whole into memory.
"""

from __future__ import annotations

import os
import select
import stat
from collections.abc import Callable
from typing import Any, BinaryIO

import numpy as np

from rnglab.generators.base import Source
from rnglab.generators.spec import GeneratorSpec
from rnglab.reduction.reducers import DEFAULT_REDUCER

#: Input formats -> numpy dtype of one output: little-endian words of 8 to 64 bits, or ``bits``, a raw
#: bit stream read 32 bits at a time, big-endian, so that the first bit of the stream is the most
#: significant bit of the first byte and the tests' bit stream is the input's, bit for bit.
FORMATS = {"u8": "<u1", "u16": "<u2", "u32": "<u4", "u64": "<u8", "bits": ">u4"}


class InputExhausted(ValueError):
    """The input ended before the tests had read what they need (and was not to be rewound)."""


class ByteStreamSource(Source):
    """The words of a binary stream, one output each, in ``[0, 2^w - 1]``.

    Parameters
    ----------
    handle : binary file object
        Read with ``handle.read(k)``; rewound with ``handle.seek(0)``.
    word_format : str
        One of :data:`FORMATS`.
    name : str
        What reports call the input (``stdin``, a path).
    rewind : bool
        Start again from the beginning when the input ends (dieharder's
        ``file_input_raw`` does so); the number of times is :attr:`rewinds`.
        Without it, the end of the input raises :class:`InputExhausted`.

    Notes
    -----
    Bytes after the last whole word of the input are never read as part of a
    word (after a rewind, the words start again at byte 0).
    """

    replayable = False

    def __init__(self, handle: BinaryIO, word_format: str, name: str, rewind: bool = False):
        if word_format not in FORMATS:
            raise ValueError(f"input format must be one of {', '.join(FORMATS)}; got {word_format!r}")
        self.handle, self.format, self.name, self.rewind = handle, word_format, name, rewind
        self.dtype = np.dtype(FORMATS[word_format])
        self.low, self.high = 0, 2 ** (8 * self.dtype.itemsize) - 1
        self.bytes_read, self.rewinds, self._position = 0, 0, 0
        super().__init__()

    def _generate(self, size: int) -> np.ndarray:
        return np.frombuffer(self._read(size * self.dtype.itemsize), dtype=self.dtype).astype(np.uint64)

    def _read(self, wanted: int) -> bytes:
        """Exactly ``wanted`` bytes of whole words, rewinding at the end if allowed."""
        parts, got, width = [], 0, self.dtype.itemsize
        while got < wanted:
            try:
                chunk = self.handle.read(wanted - got)
            except OSError as error:
                raise ValueError(f"cannot read {self.name}: {error.strerror}") from None
            if chunk:
                parts.append(chunk)
                got, self._position, self.bytes_read = got + len(chunk), self._position + len(chunk), \
                    self.bytes_read + len(chunk)
                continue
            partial = self._position % width  # a last word cut short: never used
            if partial:
                parts[-1], got = parts[-1][:len(parts[-1]) - partial], got - partial
            self._end_of_input()
        return b"".join(parts)

    def _end_of_input(self) -> None:
        """Rewind, or say how much the input held."""
        words = self._position // self.dtype.itemsize
        if not self.rewind:
            raise InputExhausted(f"{self.name} ended after {self.bytes_read:,} bytes ({words:,} "
                                 f"{self.word_bits}-bit words) and more were needed: give a longer input, "
                                 f"a smaller --n or, for a file, --rewind")
        if not words:
            raise InputExhausted(f"{self.name} holds no whole {self.word_bits}-bit word: nothing to rewind")
        self.handle.seek(0)
        self.rewinds, self._position = self.rewinds + 1, 0

    @property
    def word_bits(self) -> int:
        """Bits per output."""
        return 8 * self.dtype.itemsize

    @property
    def state(self) -> dict[str, Any]:
        return {"generator": self.name, "reproducible": False}

    def describe(self) -> dict[str, Any]:
        """The input, its format and word size, how much was read and how often it was rewound."""
        return {**super().describe(), "format": self.format, "word_bits": self.word_bits,
                "bytes_read": self.bytes_read, "rewinds": self.rewinds}


def input_spec(path: str, word_format: str, rewind: bool = False, stdin: BinaryIO | None = None,
               on_wait: Callable[[], None] | None = None) -> GeneratorSpec:
    """The generator spec of an input: ``-`` (``stdin``) or a file, opened now and read as the tests ask.

    ``on_wait`` is called before waiting for the writer of a FIFO that has none yet (:func:`open_input`).

    Raises
    ------
    ValueError
        For a file that cannot be opened, or ``rewind`` on standard input or a FIFO.
    """
    if path == "-":
        if rewind:
            raise ValueError("--rewind needs a file: standard input cannot be read again")
        if stdin is None:
            raise ValueError("standard input is not a byte stream here")
        handle, name = stdin, "stdin"
    else:
        handle, name = open_input(path, rewind, on_wait), path
    source = ByteStreamSource(handle, word_format, name, rewind)
    return GeneratorSpec(name, "source", DEFAULT_REDUCER, given=lambda: source,
                         description=f"{name}, {describe_format(word_format)}")


def open_input(path: str, rewind: bool = False, on_wait: Callable[[], None] | None = None) -> BinaryIO:
    """Open the file ``path`` to read its words; a FIFO waits for its writer, after ``on_wait()`` when it has none yet.

    Raises
    ------
    ValueError
        For a file that cannot be opened, or ``rewind`` on a FIFO (read once).
    """
    try:
        if not stat.S_ISFIFO(os.stat(path).st_mode):
            return open(path, "rb")
        if rewind:
            raise ValueError(f"--rewind needs a file: {path} is a FIFO, which cannot be read again")
        return _open_fifo(path, on_wait)
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None


def _open_fifo(path: str, on_wait: Callable[[], None] | None) -> BinaryIO:
    """Open the FIFO ``path`` for reading, saying (``on_wait``) when it must wait for a writer.

    A plain ``open`` blocks, silently, until a writer opens the FIFO. Opened
    without blocking instead, a FIFO with no writer reads as ended (``b""``), one
    whose writer has written nothing yet refuses to read (``EAGAIN``), and one
    with data gives its first byte, which is put back in front of the stream. With
    no writer, ``on_wait()`` is called and ``poll`` waits on the same descriptor
    until data arrives or a writer comes and goes (Linux reports the hang-up only
    for a writer that left after this open), so a writer that writes everything
    and closes at once is read whole; Ctrl-C interrupts the wait
    (``KeyboardInterrupt``).
    """
    probe = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        first = _first_byte(probe)
        if first == b"":
            if on_wait is not None:
                on_wait()
            waiting = select.poll()
            waiting.register(probe, select.POLLIN | select.POLLHUP)
            waiting.poll()
            first = _first_byte(probe)
    except BaseException:
        os.close(probe)
        raise
    os.set_blocking(probe, True)
    stream = os.fdopen(probe, "rb")
    return _Prefixed(first, stream) if first else stream


def _first_byte(descriptor: int) -> bytes | None:
    """One byte read without blocking: ``b""`` when no writer is there (or it left), ``None`` when it has
    written nothing yet."""
    try:
        return os.read(descriptor, 1)
    except BlockingIOError:
        return None


class _Prefixed:
    """A binary stream with bytes already read from it put back in front (it is read, never rewound)."""

    def __init__(self, prefix: bytes, stream: BinaryIO):
        self.prefix, self.stream = prefix, stream

    def read(self, size: int = -1) -> bytes:
        if not self.prefix:
            return self.stream.read(size)
        taken = self.prefix if size < 0 else self.prefix[:size]
        self.prefix = self.prefix[len(taken):]
        rest = size - len(taken) if size >= 0 else -1
        return taken + (self.stream.read(rest) if rest else b"")


def describe_format(word_format: str) -> str:
    """The format in words: ``u32 little-endian words (32 bits an output)``."""
    if word_format == "bits":
        return "a raw bit stream (32 bits an output, first bit = top bit of the first byte)"
    bits = 8 * np.dtype(FORMATS[word_format]).itemsize
    return f"{word_format} little-endian words ({bits} bits an output)"
