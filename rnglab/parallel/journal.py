"""A journal: the chunks of a long piece of work already finished and their results, so that the work resumes.

The journal is a text file of JSON lines, append-only. The first line names the
command and the work (``{"journal": "rnglab crack", "work": {...}}``: for a
seed search the generator, shuffle, reducer, cards seen and seed space); each
later line is one finished chunk, ``{"chunk": [first, stop], "result": ...}``,
written in one ``write`` and flushed to the disk
(:func:`rnglab.core.fileio.write_record`). A crash can only cut the last line short,
and that line is dropped when the journal is opened again: its chunk runs again,
having never been recorded. Reopened for other work, the journal is refused, so
that the results of two pieces of work never mix.

An open journal is held by one run at a time: :func:`open_journal` takes an
exclusive ``flock`` on the file, kept until :meth:`Journal.close` (or the end
of the process), and refuses a journal another run holds, so that two runs never
record the same chunks twice. Read, a chunk recorded twice with the same result
counts once (journals written before the lock); two records of one chunk that
disagree, or chunks that overlap, are refused.
"""

from __future__ import annotations

import fcntl
import itertools
import json
import os
import stat
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rnglab.core.fileio import check_folder_writable, cut_torn_record, write_record

if TYPE_CHECKING:  # typing.Self is Python 3.11's
    from typing_extensions import Self


@dataclass
class Journal:
    """An open journal: where it is, what it has recorded.

    Attributes
    ----------
    path : str
    records : list of (first, stop, result)
        Chunks recorded, in the order they finished, with their results (JSON values).
    handle : int
        The file, opened for appending and locked (``flock``) while the journal is open;
        closed, and the lock released, by :meth:`close`, a ``with`` block or garbage collection.
    """

    path: str
    records: list = field(default_factory=list)
    handle: int | None = None

    def __post_init__(self):
        if self.handle is not None:
            self._release = weakref.finalize(self, os.close, self.handle)

    def close(self) -> None:
        """Release the journal to other runs (its records stay on the disk)."""
        if self.handle is not None:
            self._release()
            self.handle = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exception) -> None:
        self.close()

    @property
    def done(self) -> list[tuple[int, int]]:
        """The chunks recorded, ``(first, stop)``, in the order they finished."""
        return [(first, stop) for first, stop, _ in self.records]

    def record(self, first: int, stop: int, result) -> None:
        """Append a finished chunk ``[first, stop)`` and its result (one flushed line)."""
        if self.handle is None:
            raise ValueError(f"journal {self.path} is closed")
        line = json.dumps({"chunk": [int(first), int(stop)], "result": result})
        write_record(self.handle, line, self.path)
        self.records.append((int(first), int(stop), json.loads(line)["result"]))


def open_journal(path: str | os.PathLike, kind: str, work: dict) -> Journal:
    """Open (or start) the journal of command ``kind`` (``"rnglab crack"``) on ``work`` (a JSON-ready dict), and hold it.

    The journal stays locked against other runs until it is closed (:meth:`Journal.close`,
    ``with open_journal(...) as journal``) or this process ends.

    Raises
    ------
    ValueError
        When the file is a folder, not a regular file or cannot be written, is
        held by another run, is not a journal, has a malformed record, records
        one chunk twice with different results or overlapping chunks, or
        records another command or other work.
    """
    path = os.fspath(path)
    if os.path.isdir(path):
        raise ValueError(f"journal {path} is a directory, not a file")
    check_folder_writable(os.path.dirname(os.path.abspath(path)))
    journal = Journal(path, handle=_hold(path))
    try:
        lines = cut_torn_record(path)
        if not lines:
            write_record(journal.handle, json.dumps({"journal": kind, "work": work}), path)
            return journal
        _check_header(path, lines[0], kind, work)
        journal.records = _distinct(path, [_chunk(path, number, line)
                                           for number, line in enumerate(lines[1:], start=2)])
    except BaseException:
        journal.close()
        raise
    return journal


def _hold(path: str) -> int:
    """Open ``path`` for appending (created if missing) and lock it; the descriptor.

    Only a regular file is a journal (``/dev/null`` or a pipe would lose the
    records); the lock is ``flock(LOCK_EX | LOCK_NB)``, refused at once when another
    open journal, in this process or another, holds the file.
    """
    if os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
        raise ValueError(f"journal {path} is not a regular file; give a file to --journal")
    try:
        handle = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666)
    except OSError as error:
        raise ValueError(f"cannot open journal {path}: {error.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise ValueError(f"journal {path} is not a regular file; give a file to --journal")
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(handle)
        holder = _lock_holder(path)
        raise ValueError(f"journal {path} is held by another run{f' (pid {holder})' if holder else ''}; "
                         "wait for it to end, or give another file to --journal") from None
    except BaseException:
        os.close(handle)
        raise
    return handle


def _lock_holder(path: str) -> int | None:
    """The process holding a ``flock`` on ``path``, from Linux's ``/proc/locks``; ``None`` where it is not known."""
    status = os.stat(path)
    device = f"{os.major(status.st_dev):02x}:{os.minor(status.st_dev):02x}:{status.st_ino}"
    try:
        with open("/proc/locks") as locks:
            for line in locks:
                fields = line.split()
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == device and fields[4].isdigit():
                    return int(fields[4])
    except OSError:
        pass
    return None


def _parse(path: str, number: int, line: str) -> dict:
    try:
        record = json.loads(line)
    except ValueError:
        record = None
    if not isinstance(record, dict):
        raise ValueError(f"journal {path}: line {number} is not a journal record")  # noqa: TRY004 - bad input
    return record


def _check_header(path: str, line: str, kind: str, work: dict) -> None:
    header = _parse(path, 1, line)
    if header.get("journal") != kind:
        raise ValueError(f"{path} is not an {kind} journal; give a new file to --journal")
    if header.get("work") != work:
        recorded = header.get("work") if isinstance(header.get("work"), dict) else {}
        different = sorted(k for k in work if recorded.get(k) != work[k])
        raise ValueError(f"journal {path} records other work ({', '.join(different) or 'fields'} differ); "
                         "run the same command to resume it, or give a new file to --journal")


def _distinct(path: str, records: list) -> list:
    """``records`` with a chunk recorded twice kept once (two runs that shared the journal before it was locked).

    Raises
    ------
    ValueError
        When two records of one chunk hold different results, or two chunks overlap
        without being the same (either way the journal cannot be counted once).
    """
    kept: dict[tuple[int, int], object] = {}
    for first, stop, result in records:
        if (first, stop) in kept and kept[first, stop] != result:
            raise ValueError(f"journal {path} records chunk [{first}, {stop}) twice with different results; "
                             "give a new file to --journal")
        kept.setdefault((first, stop), result)
    chunks = sorted(kept)
    for (_, stop), (later, end) in itertools.pairwise(chunks):
        if later < stop:
            raise ValueError(f"journal {path} records overlapping chunks at [{later}, {min(stop, end)}); "
                             "give a new file to --journal")
    return [(first, stop, result) for (first, stop), result in kept.items()]


def _chunk(path: str, number: int, line: str) -> tuple[int, int, object]:
    record = _parse(path, number, line)
    chunk = record.get("chunk")
    if (not isinstance(chunk, list) or len(chunk) != 2 or not all(isinstance(v, int) for v in chunk)
            or chunk[1] < chunk[0] or "result" not in record):
        raise ValueError(f"journal {path}: line {number} is not a chunk record")
    return chunk[0], chunk[1], record["result"]
