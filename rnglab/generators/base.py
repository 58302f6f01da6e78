"""The interface every source of random integers implements.

A *source* yields integers in a declared, inclusive range ``[low, high]``.
Its basic call, :meth:`Source.random_raw`, returns a numpy array of many
outputs; :meth:`Source.next_raw` returns one value and is the reference path.
"""

from __future__ import annotations

import copy as copy_module
from abc import ABC, abstractmethod
from typing import Any

import numpy as np


def raw_dtype(high: int) -> np.dtype:
    """Return the array dtype that holds values up to ``high``: uint64, or object above 2^64."""
    return np.dtype(np.uint64) if high < 2**64 else np.dtype(object)


def check_count(size: int, what: str = "size") -> int:
    """Validate a non-negative count and return it as an ``int``."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"{what} must be an integer; got {type(size).__name__}")
    if size < 0:
        raise ValueError(f"{what} must be >= 0; got {size}")
    return int(size)


class LaneBatch:
    """Many generators of one kind, one per lane, stepped together or lane by lane.

    A subclass sets ``low``, ``high`` and ``lanes``, and serves
    ``next_raw(mask=None)``: step the lanes ``mask`` selects (all by default)
    and return every lane's latest output (a copy); lane ``i`` yields exactly
    what its own generator yields. Bounded draws read it lane-wise
    (:func:`~rnglab.draws.bounded.draw_bounded_lanes`).
    """

    low: int
    high: int

    @property
    def range_size(self) -> int:
        """Number of possible outputs per lane, ``R = high - low + 1``."""
        return self.high - self.low + 1

    def selected_lanes(self, mask: np.ndarray | None) -> np.ndarray:
        """The indices of the lanes ``mask`` selects (every lane for ``None``)."""
        return np.arange(self.lanes) if mask is None else np.flatnonzero(mask)


class Source(ABC):
    """A generator of integers in the declared range ``[low, high]``.

    Subclasses implement :meth:`_generate` (many values) and the ``state``
    property. Values handed back with :meth:`unread` are returned first by the
    next call, which lets a consumer (a rejection sampler, say) take exactly
    the values it needs from a vectorised draw.

    Attributes
    ----------
    name : str
        Short name, used in reports and in the state dictionary.
    low, high : int
        Inclusive range of the outputs.
    seed : int or None
        The seed the source was started from (``None`` when it has none).
    spare_half : int or None
        Only on a source of 64-bit words that splits them for narrow bounds
        (see :attr:`NARROW_HALVES`): the high 32-bit half kept for the next
        32-bit word, or ``None``.
    """

    name: str = "source"
    low: int = 0
    high: int = 0
    seed: int | None = None
    #: True for a source of 64-bit words whose bounded draws with ``n <= 2^32`` read 32-bit words:
    #: the low half of an output first, its high half kept in :attr:`spare_half` for the next 32-bit
    #: word (numpy's ``next_uint32``), and whose draws with ``n = 1`` read nothing (numpy's ``integers``).
    NARROW_HALVES: bool = False
    spare_half: int | None = None
    #: True when :meth:`copy` gives a source that reads the same outputs again (a generator); False for
    #: a stream read once (standard input, a file) or the OS entropy source, whose copies read new data.
    replayable: bool = True

    def __init__(self) -> None:
        self._pending = np.empty(0, dtype=raw_dtype(self.high))

    @property
    def range_size(self) -> int:
        """Number of possible outputs, ``R = high - low + 1``."""
        return self.high - self.low + 1

    @property
    def output_bits(self) -> int:
        """Whole bits per output: ``floor(log2(R))``; exact when R is a power of two."""
        return self.range_size.bit_length() - 1

    def random_raw(self, size: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """Return the next outputs as an array (uint64 when ``high < 2**64``).

        Bit-exact with the same number of calls of :meth:`next_raw`.

        Parameters
        ----------
        size : int, optional
            Number of outputs; taken from ``out`` when omitted.
        out : numpy.ndarray, optional
            A one-dimensional array of the source's dtype to fill and return
            instead of a new one (as numpy's ``Generator.random(out=...)``): a
            stream read in chunks then touches no new memory.
        """
        if out is None:
            size = check_count(size)
            if not len(self._pending):
                return self._generate(size)
            out = np.empty(size, dtype=raw_dtype(self.high))
        elif out.ndim != 1 or out.dtype != raw_dtype(self.high) or size not in (None, len(out)):
            raise ValueError(f"out must be a one-dimensional {raw_dtype(self.high)} array of length size")
        taken = min(len(self._pending), len(out))
        out[:taken], self._pending = self._pending[:taken], self._pending[taken:]
        if taken < len(out):
            self._fill(out[taken:])
        return out

    def next_raw(self) -> int:
        """Return the next output as a Python integer (the one-value reference path)."""
        return int(self.random_raw(1)[0])

    def unread(self, values: np.ndarray) -> None:
        """Push ``values`` back so that the next draws return them first, in order."""
        values = np.asarray(values, dtype=self._pending.dtype)
        self._pending = np.concatenate([values, self._pending])

    @property
    def pending_count(self) -> int:
        """Values handed back with :meth:`unread`, returned before any new one."""
        return len(self._pending)

    def direct_generator(self) -> Any:
        """A numpy BitGenerator that bounded draws may step directly once nothing is pending, or ``None``
        (the default: they read outputs)."""
        return None

    def copy(self) -> Source:
        """Return an independent copy in the same state."""
        return copy_module.deepcopy(self)

    @abstractmethod
    def _generate(self, size: int) -> np.ndarray:
        """Produce ``size`` fresh outputs from the underlying generator."""

    def _fill(self, out: np.ndarray) -> None:
        """Fill ``out`` with fresh outputs; sources that can write in place override this."""
        out[:] = self._generate(len(out))

    @property
    @abstractmethod
    def state(self) -> dict[str, Any]:
        """The generator's state as a plain dictionary tagged with its name."""

    def describe(self) -> dict[str, Any]:
        """Return the name and declared range, for reports and JSON."""
        return {"generator": self.name, "low": self.low, "high": self.high, "seed": self.seed}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} [{self.low}, {self.high}]>"


class SourceView(Source):
    """A view of the source ``inner``: its name, range, seed and state, its outputs as they are taken.

    A subclass sees each block taken through the view (:meth:`_took`); what
    is handed back to the view (:meth:`~Source.unread`) stays with the view.
    """

    def __init__(self, inner: Source) -> None:
        self.inner, self.name, self.low, self.high, self.seed = inner, inner.name, inner.low, inner.high, inner.seed
        super().__init__()

    def _generate(self, size: int) -> np.ndarray:
        values = self.inner.random_raw(size)
        self._took(values)
        return values

    def _took(self, values: np.ndarray) -> None:
        """See the outputs just taken from ``inner``."""

    @property
    def state(self) -> dict:
        return self.inner.state
