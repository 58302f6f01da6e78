"""A search journal: the chunks of a seed search already searched and their hits, so that a search resumes.

The journal is a text file of JSON lines, append-only. The first line names the
search (``{"journal": "rnglab crack", "search": {...}}``: generator, shuffle,
reducer, cards seen, seed space); each later line is one finished chunk,
``{"chunk": [first, stop], "hits": [...]}``, written in one ``write`` and
flushed to the disk (:func:`rnglab.fileio.append_record`). A crash can only cut
the last line short, and that line is dropped when the journal is opened again:
its chunk is searched again, having never been recorded. Reopened for another
search, the journal is refused, so that hits of two searches never mix.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from ..fileio import append_record, check_folder_writable, cut_torn_record

#: The value of the header's ``journal`` key.
KIND = "rnglab crack"


@dataclass
class Journal:
    """An open journal: where it is, what it has recorded.

    Attributes
    ----------
    path : str
    done : list of (first, stop)
        Chunks recorded, in the order they finished.
    hits : list of int
        Hits of the recorded chunks.
    """

    path: str
    done: list = field(default_factory=list)
    hits: list = field(default_factory=list)

    def record(self, first: int, stop: int, hits) -> None:
        """Append a finished chunk ``[first, stop)`` and its hits (one flushed line)."""
        hits = [int(h) for h in hits]
        append_record(self.path, json.dumps({"chunk": [int(first), int(stop)], "hits": hits}))
        self.done.append((int(first), int(stop)))
        self.hits.extend(hits)


def open_journal(path: str | os.PathLike, search: dict) -> Journal:
    """Open (or start) the journal of the search described by ``search`` (a JSON-ready dict).

    Raises
    ------
    ValueError
        When the file is a folder or cannot be written, is not a journal, has a
        malformed record, or records a different search.
    """
    path = os.fspath(path)
    if os.path.isdir(path):
        raise ValueError(f"journal {path} is a directory, not a file")
    check_folder_writable(os.path.dirname(os.path.abspath(path)))
    lines = cut_torn_record(path) if os.path.exists(path) else []
    if not lines:
        append_record(path, json.dumps({"journal": KIND, "search": search}))
        return Journal(path)
    _check_header(path, lines[0], search)
    journal = Journal(path)
    for number, line in enumerate(lines[1:], start=2):
        first, stop, hits = _chunk(path, number, line)
        journal.done.append((first, stop))
        journal.hits.extend(hits)
    return journal


def _parse(path: str, number: int, line: str) -> dict:
    try:
        record = json.loads(line)
    except ValueError:
        record = None
    if not isinstance(record, dict):
        raise ValueError(f"journal {path}: line {number} is not a journal record")
    return record


def _check_header(path: str, line: str, search: dict) -> None:
    header = _parse(path, 1, line)
    if header.get("journal") != KIND:
        raise ValueError(f"{path} is not an rnglab crack journal; give a new file to --journal")
    if header.get("search") != search:
        different = sorted(k for k in search if header.get("search", {}).get(k) != search[k])
        raise ValueError(f"journal {path} records a different search ({', '.join(different) or 'fields'} differ); "
                         "run the same command to resume it, or give a new file to --journal")


def _chunk(path: str, number: int, line: str) -> tuple[int, int, list[int]]:
    record = _parse(path, number, line)
    chunk, hits = record.get("chunk"), record.get("hits")
    if (not isinstance(chunk, list) or len(chunk) != 2 or not all(isinstance(v, int) for v in chunk)
            or not isinstance(hits, list) or not all(isinstance(v, int) for v in hits)):
        raise ValueError(f"journal {path}: line {number} is not a chunk record")
    return chunk[0], chunk[1], hits
