"""A journal: the chunks of a long piece of work already finished and their results, so that the work resumes.

The journal is a text file of JSON lines, append-only. The first line names the
command and the work (``{"journal": "rnglab crack", "work": {...}}``: for a
seed search the generator, shuffle, reducer, cards seen and seed space); each
later line is one finished chunk, ``{"chunk": [first, stop], "result": ...}``,
written in one ``write`` and flushed to the disk
(:func:`rnglab.fileio.append_record`). A crash can only cut the last line short,
and that line is dropped when the journal is opened again: its chunk runs again,
having never been recorded. Reopened for other work, the journal is refused, so
that the results of two pieces of work never mix.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from ..fileio import append_record, check_folder_writable, cut_torn_record


@dataclass
class Journal:
    """An open journal: where it is, what it has recorded.

    Attributes
    ----------
    path : str
    records : list of (first, stop, result)
        Chunks recorded, in the order they finished, with their results (JSON values).
    """

    path: str
    records: list = field(default_factory=list)

    @property
    def done(self) -> list[tuple[int, int]]:
        """The chunks recorded, ``(first, stop)``, in the order they finished."""
        return [(first, stop) for first, stop, _ in self.records]

    def record(self, first: int, stop: int, result) -> None:
        """Append a finished chunk ``[first, stop)`` and its result (one flushed line)."""
        line = json.dumps({"chunk": [int(first), int(stop)], "result": result})
        append_record(self.path, line)
        self.records.append((int(first), int(stop), json.loads(line)["result"]))


def open_journal(path: str | os.PathLike, kind: str, work: dict) -> Journal:
    """Open (or start) the journal of command ``kind`` (``"rnglab crack"``) on ``work`` (a JSON-ready dict).

    Raises
    ------
    ValueError
        When the file is a folder or cannot be written, is not a journal, has a
        malformed record, or records another command or other work.
    """
    path = os.fspath(path)
    if os.path.isdir(path):
        raise ValueError(f"journal {path} is a directory, not a file")
    check_folder_writable(os.path.dirname(os.path.abspath(path)))
    lines = cut_torn_record(path) if os.path.exists(path) else []
    if not lines:
        append_record(path, json.dumps({"journal": kind, "work": work}))
        return Journal(path)
    _check_header(path, lines[0], kind, work)
    journal = Journal(path)
    journal.records = [_chunk(path, number, line) for number, line in enumerate(lines[1:], start=2)]
    return journal


def _parse(path: str, number: int, line: str) -> dict:
    try:
        record = json.loads(line)
    except ValueError:
        record = None
    if not isinstance(record, dict):
        raise ValueError(f"journal {path}: line {number} is not a journal record")
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


def _chunk(path: str, number: int, line: str) -> tuple[int, int, object]:
    record = _parse(path, number, line)
    chunk = record.get("chunk")
    if (not isinstance(chunk, list) or len(chunk) != 2 or not all(isinstance(v, int) for v in chunk)
            or chunk[1] < chunk[0] or "result" not in record):
        raise ValueError(f"journal {path}: line {number} is not a chunk record")
    return chunk[0], chunk[1], record["result"]
