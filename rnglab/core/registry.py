"""Registries: the one way a name becomes an object (reducers, shuffles, generators, pipelines, policies, batteries,
tests).

A :class:`Registry` is a read-only mapping ``name -> entry`` whose lookup of a name it does not hold raises
:class:`UnknownName`, worded once for every kind: ``unknown reducer 'mod'; choose from modulo, float-multiply, ...``.
Names are resolved by a registry at the edge (the command line, the TOML loaders); the layers below take the entries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import Generic, TypeVar

Entry = TypeVar("Entry")


class UnknownName(ValueError, KeyError):
    """A name that a registry does not hold: a :class:`ValueError` for callers (the command line prints it as one
    ``Error:`` line) and a :class:`KeyError` for the mapping protocol (``get``, ``pop``)."""

    __str__ = ValueError.__str__  # the message as written, not quoted as KeyError's would be


def choose_from(names: list[str]) -> str:
    """The default tail of the error: ``; choose from a, b, c``."""
    return f"; choose from {', '.join(names)}"


class Registry(MutableMapping[str, Entry], Generic[Entry]):
    """Entries by name, with one lookup and one error for an unknown name.

    Extending rnglab is adding an entry: ``REDUCERS["top-bits"] = Reducer(...)`` (or :meth:`register`, which
    refuses a name already taken).

    Parameters
    ----------
    kind : str
        What an entry is, in the error: ``reducer``, ``shuffle``, ``seed policy``.
    entries : mapping or callable
        The entries by name, or a function without arguments that returns them (called on first use: data files
        are read only when a name is looked up).
    tail : callable, optional
        ``tail(names) -> str``: what follows ``unknown KIND 'name'`` in the error; :func:`choose_from` by default.

    Examples
    --------
    >>> colours = Registry("colour", {"red": 1, "green": 2})
    >>> colours["red"]
    1
    >>> colours["blue"]
    Traceback (most recent call last):
    ...
    rnglab.core.registry.UnknownName: unknown colour 'blue'; choose from red, green
    """

    def __init__(self, kind: str, entries: Mapping[str, Entry] | Callable[[], Mapping[str, Entry]], *,
                 tail: Callable[[list[str]], str] = choose_from):
        self.kind = kind
        self._load = entries if callable(entries) else None
        self._entries = None if callable(entries) else dict(entries)
        self._tail = tail

    @property
    def entries(self) -> dict[str, Entry]:
        """The entries by name (read from their source on first use)."""
        if self._entries is None:
            self._entries = dict(self._load())
        return self._entries

    def __getitem__(self, name: str) -> Entry:
        try:
            return self.entries[name]
        except (KeyError, TypeError):  # TypeError: an unhashable name
            raise self.unknown(name) from None

    def __setitem__(self, name: str, entry: Entry) -> None:
        self.entries[name] = entry

    def __delitem__(self, name: str) -> None:
        del self.entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, name: object) -> bool:
        try:
            return name in self.entries
        except TypeError:
            return False

    def unknown(self, name) -> UnknownName:
        """The error for ``name``, which this registry does not hold."""
        return UnknownName(f"unknown {self.kind} {name!r}{self._tail(list(self.entries))}")

    def register(self, name: str, entry: Entry) -> Entry:
        """Add ``entry`` under ``name``; a name is registered once.

        Raises
        ------
        ValueError
            When ``name`` is taken.
        """
        if name in self.entries:
            raise ValueError(f"{self.kind} {name!r} is registered twice")
        self.entries[name] = entry
        return entry

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {len(self)} entries)"
