"""A view of a source that can read its last values again, to hand back exactly the outputs after a stopping point.

A test that reads until a sample completes (the gap and coupon collector
tests read until ``n`` segments end) reads a chunk, then finds where in it the
sample ended: the values after that point must go back to the source, so that
the stream goes on right after the sample (a
:class:`~rnglab.empirical.stattests.base.Tally` read in pieces then leaves the
source where the test at once leaves it). Values are
not outputs: a reader may skip outputs (:func:`rnglab.streams.gateway.genuine_words`
for a range that is not a power of two) or hand some back itself. So the
chunk's outputs are kept, and the reader is run again on them for the values
kept only: whatever it leaves is exactly what follows them. A selection of
bits (:class:`rnglab.streams.gateway.SelectedBits`) hands back the outputs
behind the words given back to it the same way.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rnglab.generators.base import Source, SourceView


class Tape(SourceView):
    """A view of ``inner`` that keeps the outputs taken through it since the last :meth:`mark`.

    Outputs handed back to the view (:meth:`~rnglab.generators.Source.unread`)
    are served again by it; :meth:`close` hands back to ``inner`` whatever the
    view still holds.
    """

    def __init__(self, inner: Source) -> None:
        super().__init__(inner)
        self._taken: list[np.ndarray] = []

    def _took(self, values: np.ndarray) -> None:
        self._taken.append(values)

    def mark(self) -> None:
        """Start keeping outputs here: the outputs handed back and not yet read again come first."""
        self._taken = [self._pending]

    def rewind(self, read: Callable[[Source], object]) -> None:
        """Serve every output since the :meth:`mark` again, to ``read(self)``; those it leaves stay with the view.

        The mark stays where it was: :meth:`kept` then tells what ``read`` used.
        """
        self._pending = np.concatenate(self._taken)
        self._taken = [self._pending]
        read(self)

    def kept(self) -> np.ndarray:
        """The outputs taken since the :meth:`mark` less those the view still holds (handed back to it): the
        outputs its reader used."""
        parts = [part for part in self._taken if part.size] or [self._pending[:0]]
        taken = parts[0] if len(parts) == 1 else np.concatenate(parts)  # one read: no copy
        return taken[:taken.size - self._pending.size]

    def close(self) -> None:
        """Hand back to ``inner`` the outputs that the view holds and nobody read."""
        self.inner.unread(self._pending)
        self._pending = self._pending[:0]
