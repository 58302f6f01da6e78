"""Uniform integers for shuffles: the layer between a generator and the algorithms.

As numpy's ``Generator`` over a ``BitGenerator``, a :class:`Draws` object
serves bounded values (one per lane and request) drawn from a generator through
a reducer (:mod:`rnglab.reduction.reducers`), and runs swap programs in one compiled pass
where the generator allows it. Which generator stands behind the lanes is its
business:

* :class:`BatchDraws` -- an :class:`~rnglab.generators.LCGBatch`, one
  generator per lane (one per seed), each lane reduced with
  :func:`~rnglab.draws.bounded.draw_bounded_lanes`. Lane ``i`` consumes exactly what
  a one-at-a-time shuffle on its own generator consumes, so the batch is
  bit-exact with shuffling deck after deck (tested). Swap programs run deck by
  deck in one compiled pass for the common LCGs (:func:`lcg_swaps`).
* :class:`SourceDraws` -- any :class:`~rnglab.generators.Source` (numpy,
  Python, OS, ...), one lane: the one-at-a-time shuffle.
* :class:`SourcesDraws` -- one source per lane (generators seeded one by
  one: numpy's, CPython's), read in blocks (:class:`SourceLanes`) and reduced
  lane-wise as :class:`LaneDraws` does: bit-exact with :class:`SourceDraws`
  on each source, without a Python call per draw.
* :class:`SequentialDraws` -- one source, ``B`` decks dealt one after
  another as a program deals them: deck ``r`` starts where deck ``r - 1``
  stopped, so the batch is bit-exact with ``B`` one-at-a-time shuffles.
  Swap programs only; compiled for the common LCGs.
* :class:`ScriptedDraws` -- replays given choices: an ideal uniform source,
  used to enumerate every path of an algorithm.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from rnglab.core.compiled import fingerprint, kernels_would_serve, njit
from rnglab.draws.bounded import STUCK_REJECTIONS, draw_bounded, draw_bounded_lanes, stuck_source_error
from rnglab.draws.lcg import bound_table, kernel_fields, serves
from rnglab.draws.words import draw_range, give_back, narrow_words, read_block
from rnglab.generators import LCG, LCGBatch, Source
from rnglab.generators.base import LaneBatch, check_count
from rnglab.reduction.reducers import DEFAULT_REDUCER, Reducer
from rnglab.reduction.scalar import rejections_after
from rnglab.shuffles.kernels import deal_kernel
from rnglab.shuffles.steps import SwapStep, outside_the_deck, step_bounds, swap

#: Bits per piece when a wide random integer (a sort key, a rank in [0, n!)) is assembled.
PIECE_BITS = 32
#: Draws :class:`SourceLanes` reads from a source at a time: a 52-card shuffle with rejections needs about 70.
LANE_BLOCK = 128
#: Most source outputs :class:`SequentialDraws` reads in one block.
SEQUENTIAL_BLOCK = 2**16


class Draws:
    """Uniform integers for a batch of shuffles: one value per lane and request.

    Attributes
    ----------
    lanes : int
    word_bits : int
        Whole random bits one request can carry (``floor(log2 R)`` of the source).
    """

    lanes: int = 1
    word_bits: int = 64

    def below(self, bound: int, mask: np.ndarray | None = None) -> np.ndarray:
        """One value in ``[0, bound)`` for every lane (or every lane selected by ``mask``), as int64."""
        raise NotImplementedError

    def run_swaps(self, decks: np.ndarray, steps: list[SwapStep]) -> np.ndarray:
        """Run a swap program on every row of ``decks``, in place, step by step; return ``decks``.

        Step ``SwapStep(position, low, high)`` draws ``j = below(high - low + 1)``
        and swaps ``position`` with ``low + j``.
        """
        for step in steps:
            swap(decks, step.position, self.below(step.high - step.low + 1) + step.low)
        return decks


class SourceDraws(Draws):
    """Values from one source and a reducer for one deck (the one-at-a-time shuffle).

    Attributes
    ----------
    draws : int
        Source outputs consumed, rejected ones included.
    """

    def __init__(self, source: Source, reducer: Reducer = DEFAULT_REDUCER):
        self.source, self.reducer = source, reducer
        self.word_bits = source.output_bits
        self.draws = 0

    def below(self, bound, mask=None):
        count = self.lanes if mask is None else int(np.count_nonzero(mask))
        drawn = draw_bounded(self.source, int(bound), count, self.reducer)
        self.draws += drawn.draws
        return drawn.values.view(np.int64)


class BatchDraws(Draws):
    """One LCG per lane (an :class:`~rnglab.generators.LCGBatch`) and a reducer.

    Attributes
    ----------
    draws : numpy.ndarray
        Source outputs each lane has consumed, rejected ones included.
    """

    def __init__(self, batch: LCGBatch, reducer: Reducer = DEFAULT_REDUCER):
        self.batch, self.reducer, self.lanes = batch, reducer, batch.lanes
        self.word_bits = batch.range_size.bit_length() - 1
        self.draws = np.zeros(batch.lanes, dtype=np.int64)

    def below(self, bound, mask=None):
        if mask is None:
            return draw_bounded_lanes(self.batch, int(bound), self.reducer, self.draws)[0].view(np.int64)
        part = self._sub_batch(mask)
        values, draws = draw_bounded_lanes(part, int(bound), self.reducer)
        self.batch.states[mask] = part.current_states()
        self.draws[mask] += draws
        return values.view(np.int64)

    def run_swaps(self, decks, steps):
        """As :meth:`Draws.run_swaps`, deck by deck in one compiled pass when the batch allows it.

        The compiled path (:func:`lcg_swaps`) serves what :func:`rnglab.draws.lcg.serves`
        serves (moduli a power of two up to 2^64 or at most 2^32, a reducer whose one-draw
        map is exact on ``R``) when a kernel would serve the work
        (:func:`~rnglab.core.compiled.kernels_would_serve` of :func:`numpy_deal_work`);
        anything else runs step by step. Both give the same decks, states and draws.
        """
        if not (serves(self.batch, self.reducer) and kernels_would_serve(numpy_deal_work(len(decks), len(steps)))):
            return super().run_swaps(decks, steps)
        return lcg_swaps(decks, self.batch, self.reducer, steps, self.draws)

    def _sub_batch(self, mask) -> LCGBatch:
        b = self.batch
        return LCGBatch(a=b.a, m=b.m, c=b.c, states=b.current_states()[mask], output=b.output,
                        name=b.name, low=b.low)


class LaneDraws(Draws):
    """One generator per lane from a batch that steps any subset of its lanes (glibc's ``rand()``), and a reducer.

    Each request is :func:`~rnglab.draws.bounded.draw_bounded_lanes` over the
    lanes asking, so lane ``i`` consumes exactly what a one-at-a-time shuffle
    on its own generator consumes (tested against :class:`SourceDraws`).

    Attributes
    ----------
    draws : numpy.ndarray
        Source outputs each lane has consumed, rejected ones included.
    """

    def __init__(self, batch, reducer: Reducer = DEFAULT_REDUCER):
        self.batch, self.reducer, self.lanes = batch, reducer, batch.lanes
        self.word_bits = batch.range_size.bit_length() - 1
        self.draws = np.zeros(batch.lanes, dtype=np.int64)

    def below(self, bound, mask=None):
        return draw_bounded_lanes(self.batch, int(bound), self.reducer, self.draws, mask)[0].view(np.int64)


class SourceLanes(LaneBatch):
    """One source per lane, read a block at a time: the batch :class:`SourcesDraws` reduces.

    Lane ``i`` yields the draws a bounded draw reads from ``sources[i]``, as
    offsets from its ``low`` (:func:`~rnglab.draws.words.read_block`): its
    outputs, or for a source of
    :attr:`~rnglab.generators.Source.NARROW_HALVES` the 32-bit halves of its
    64-bit outputs, the low half first (numpy's ``next_uint32``). A shuffle's
    draws are all narrow there: its bounds are deck sizes and the pieces of
    :func:`random_integers`, at most ``2^32``. Each source is read
    :data:`LANE_BLOCK` draws at a time when its lane has used the last block,
    so most shuffles read each source once.

    Parameters
    ----------
    sources : list of Source
        Fresh sources of one generator (nothing handed back, no spare half).
    """

    def __init__(self, sources: list[Source]) -> None:
        first = sources[0]
        self.sources, self.lanes, self.name = sources, len(sources), first.name
        self.narrow = narrow_words(first, 2**32)
        self.low, self.high = 0, draw_range(first, self.narrow) - 1
        self.words = np.empty((self.lanes, LANE_BLOCK), dtype=np.uint64)
        self.positions = np.full(self.lanes, LANE_BLOCK, dtype=np.int64)
        self.outputs = np.zeros(self.lanes, dtype=np.uint64)

    def next_raw(self, mask: np.ndarray | None = None) -> np.ndarray:
        """Step the lanes selected by ``mask`` (all by default); return every lane's latest draw (a copy)."""
        lanes = self.selected_lanes(mask)
        for lane in lanes[self.positions[lanes] == LANE_BLOCK]:
            self.words[lane] = read_block(self.sources[lane], LANE_BLOCK, self.narrow).words()
            self.positions[lane] = 0
        self.outputs[lanes] = self.words[lanes, self.positions[lanes]]
        self.positions[lanes] += 1
        return self.outputs.copy()


class SourcesDraws(LaneDraws):
    """One fresh source per lane and a reducer: :class:`LaneDraws` over :class:`SourceLanes`.

    Lane ``i`` is bit-exact with :class:`SourceDraws` on ``sources[i]`` (tested), a bound of 1 on halves reading
    nothing, as numpy's ``integers(0, 1)`` (:func:`~rnglab.draws.words.narrow_words`).
    """

    def __init__(self, sources: list[Source], reducer: Reducer = DEFAULT_REDUCER):
        super().__init__(SourceLanes(sources), reducer)

    def below(self, bound, mask=None):
        if int(bound) == 1 and self.batch.narrow:
            return np.zeros(self.lanes if mask is None else int(np.count_nonzero(mask)), dtype=np.int64)
        return super().below(bound, mask)


class SequentialDraws(SourceDraws):
    """One source and a reducer, ``lanes`` decks dealt one after another (as a program deals them).

    Deck ``r`` reads the source from where deck ``r - 1`` stopped, rejected
    draws included, so a batch is bit-exact with ``lanes`` one-at-a-time
    shuffles on the same source, and leaves it in the same state. Only swap
    programs (:meth:`run_swaps`) are served for more than one lane: the other
    algorithms request values step by step across the decks
    (:func:`shuffle_in_turn` shuffles those one deck at a time).

    :meth:`run_swaps` runs compiled (:func:`lcg_swaps` on one shared lane) for
    an :class:`~rnglab.generators.LCG` that :func:`~rnglab.draws.lcg.serves` serves and that
    holds no handed-back values. Any other source is read in blocks: output
    ``i`` of a block serves step ``i - r`` after ``r`` rejections, so every
    output is reduced for each ``r`` up to a margin at once (a few numpy calls
    per block), the rejections are then followed in order, and the outputs
    not used are handed back with ``Source.unread``. Blocks are sized for
    about 32 rejections each (up to :data:`SEQUENTIAL_BLOCK` outputs).
    """

    def __init__(self, source: Source, reducer: Reducer = DEFAULT_REDUCER, lanes: int = 1):
        super().__init__(source, reducer)
        self.lanes = check_count(lanes, "lanes")

    def below(self, bound, mask=None):
        if self.lanes != 1:
            raise ValueError("decks dealt one after another are batched for swap shuffles only; "
                             "shuffle the others one deck at a time")
        return super().below(bound, mask)

    def run_swaps(self, decks, steps):
        """As :meth:`Draws.run_swaps`, deck after deck from the one source (see the class notes)."""
        if not (steps and len(decks)):
            return decks
        batch = self._lane()
        if batch is None:
            return ScriptedDraws(self._choices(len(decks), steps)).run_swaps(decks, steps)
        drawn = np.zeros(1, dtype=np.int64)
        lcg_swaps(decks, batch, self.reducer, steps, drawn)
        self.source.continue_from(batch)
        self.draws += int(drawn[0])
        return decks

    def _lane(self) -> LCGBatch | None:
        """The source as a one-lane batch when the compiled path serves it, else ``None``."""
        batch = self.source.as_lane() if isinstance(self.source, LCG) else None
        return batch if batch is not None and serves(batch, self.reducer) else None

    def _choices(self, rows: int, steps: list[SwapStep]) -> np.ndarray:
        """The values ``rows`` decks draw in turn for ``steps``, shape ``(rows, len(steps))``, read in blocks.

        The words are read as :func:`~rnglab.draws.bounded.draw_bounded` reads
        them (:mod:`rnglab.draws.words`): on a narrow source a bound of 1
        draws nothing and gives 0.
        """
        bounds = np.tile(step_bounds(steps), rows)
        narrow = narrow_words(self.source, bounds.max(initial=1))
        range_size = draw_range(self.source, narrow)
        check_steps(bounds[:len(steps)], range_size, self.reducer)
        drawing = bounds > 1 if narrow else np.ones(len(bounds), dtype=bool)
        bounds, out = bounds[drawing], np.zeros(len(bounds), dtype=np.int64)
        chosen = np.empty(len(bounds), dtype=np.int64)
        done, size, shifts, streak = 0, len(steps), 4, 0
        while done < len(bounds):
            wanted = min(size, len(bounds) - done)
            block = read_block(self.source, wanted, narrow)
            kept, used, streak = self._block(block.words()[:wanted], bounds, range_size, (done, shifts, streak),
                                             chosen)
            give_back(self.source, block, used)
            if streak >= STUCK_REJECTIONS:
                raise stuck_source_error()
            rejected = used - kept
            self.draws, done = self.draws + used, done + kept
            size = min(SEQUENTIAL_BLOCK, max(len(steps), 32 * used // (rejected + 1)))  # about 32 rejections
            shifts = 2 + min(size, 2 * rejected * size // used)
        out[drawing] = chosen
        return out.reshape(rows, len(steps))

    def _block(self, x: np.ndarray, bounds: np.ndarray, range_size: int, position: tuple[int, int, int],
               out: np.ndarray) -> tuple[int, int, int]:
        """Reduce one block of draws ``x`` (offsets in ``[0, R)``) serving steps ``done, done + 1, ...`` of
        ``bounds``; fill ``out`` from ``done``. ``position`` is ``(done, shifts, streak)``.

        Draw ``i`` serves step ``done + i - r`` after ``r`` rejections: every
        draw is reduced for each ``r < shifts`` at once, then followed in
        order (:func:`_rejections_kernel`, after ``streak`` rejections in a row).
        Returns the values kept, the draws used (the rest are to be handed
        back) and the rejections in a row at their end.
        """
        done, shifts, streak = position
        served = done + np.arange(len(x)) - np.arange(shifts)[:, None]
        served = np.clip(served, done, len(bounds) - 1)  # entries no path reaches (r > i, or past the end)
        values, accepted = self.reducer.map(np.tile(x, shifts), bounds[served.ravel()], range_size)
        shift, used, streak = _rejections_kernel()(accepted.reshape(shifts, len(x)), streak)
        taken = np.flatnonzero(shift[:used] >= 0)
        out[done:done + len(taken)] = values.reshape(shifts, len(x))[shift[taken], taken]
        return len(taken), used, streak


class ScriptedDraws(Draws):
    """An ideal source that replays ``choices[lane]`` in order (for enumerating every path).

    Raises ``ValueError`` when a scripted value is not below the requested bound.
    """

    def __init__(self, choices):
        self.choices = np.asarray(choices, dtype=np.int64).reshape(len(choices), -1)
        self.lanes = len(self.choices)
        self.used = np.zeros(self.lanes, dtype=np.int64)

    def below(self, bound, mask=None):
        lanes = np.arange(self.lanes) if mask is None else np.flatnonzero(mask)
        values = self.choices[lanes, self.used[lanes]]
        self.used[lanes] += 1
        if len(values) and int(values.max()) >= bound:
            raise ValueError(f"scripted choice {int(values.max())} is not below the bound {bound}")
        return values


def random_integers(draws: Draws, bits: int, mask=None) -> np.ndarray:
    """Uniform ``bits``-bit integers per lane, most significant piece first.

    Each piece is one request ``below(2^w)`` with ``w = min(32, word_bits)``
    (the last piece narrower); pieces are concatenated. Returns uint64 for
    ``bits <= 64``, Python integers (object array) above.
    """
    width = min(PIECE_BITS, draws.word_bits)
    wide = bits > 64
    value = None
    remaining = bits
    while remaining > 0:
        piece = min(width, remaining)
        part = draws.below(1 << piece, mask)
        part = part.astype(object) if wide else part.astype(np.uint64)
        value = part if value is None else (value << (piece if wide else np.uint64(piece))) | part
        remaining -= piece
    return value


def uniform_below_factorial(draws: Draws, n: int, mask=None) -> np.ndarray:
    """A uniform integer in ``[0, n!)`` per lane, as Python integers.

    ``V`` of ``t = bit_length(n! - 1)`` bits is assembled by
    :func:`random_integers` (226 bits, eight 32-bit pieces, for 52 cards);
    ``V >= n!`` is rejected and the lane draws all its pieces again, so
    ``V`` is exactly uniform whenever the pieces are.
    """
    total = math.factorial(n)
    bits = max(1, (total - 1).bit_length())
    selected = np.ones(draws.lanes, dtype=bool) if mask is None else np.asarray(mask, dtype=bool).copy()
    out = np.zeros(draws.lanes, dtype=object)
    for attempt in range(STUCK_REJECTIONS + 1):  # V >= n! has probability below 1/2: 309 in a row is a stuck source
        if not selected.any():
            break
        if attempt == STUCK_REJECTIONS:
            raise stuck_source_error()
        values = random_integers(draws, bits, None if selected.all() else selected).astype(object)
        lanes = np.flatnonzero(selected)
        good = np.array([v < total for v in values], dtype=bool)
        out[lanes[good]] = values[good]
        selected[lanes[good]] = False
    return out if mask is None else out[np.asarray(mask, dtype=bool)]


def numpy_deal_work(decks: int, steps: int) -> int:
    """The values numpy's step-by-step path handles to deal ``decks`` decks of ``steps`` swaps: a draw and a swap a
    deck a step (what :func:`~rnglab.core.compiled.kernel_serves` counts below it)."""
    return 2 * decks * steps


# -- the compiled swap path: one deck per LCG lane, deck by deck ------------------------

def check_steps(bounds: np.ndarray, range_size: int, reducer: Reducer) -> None:
    """Raise where the step-by-step path would: a bound outside ``[1, R]`` or refused by the reducer, in step order."""
    for bound in dict.fromkeys(bounds.tolist()):
        reducer.check(bound, range_size)


def lcg_swaps(decks: np.ndarray, batch: LCGBatch, reducer: Reducer, steps: list[SwapStep],
              draws: np.ndarray) -> np.ndarray:
    """Run a swap program on ``decks``, row ``r`` drawing from lane ``r`` of ``batch``, in one compiled pass.

    Each deck is shuffled whole before the next (it stays in cache), its
    lane stepped, reduced and re-drawn while rejected exactly as
    :meth:`BatchDraws.below` does; the lanes' states are updated and the
    draws each consumed are added to ``draws`` (int64 per lane). A batch of
    one lane serves every row in turn, deck after deck (as
    :class:`SequentialDraws` uses it). Returns ``decks``.

    Raises
    ------
    ValueError
        For a generator and reducer :func:`~rnglab.draws.lcg.serves` refuses, and where the
        step-by-step path raises (with its message): a bound outside ``[1, R]``
        or refused by the reducer, a drawn position outside the deck.
    """
    if not serves(batch, reducer):
        raise ValueError(f"the compiled swap path cannot serve {batch!r} with {reducer.name!r}")
    bounds = step_bounds(steps)
    check_steps(bounds, batch.range_size, reducer)
    table = np.array([(step.position, step.low) for step in steps], dtype=np.int64).reshape(len(steps), 2)
    if not deal_kernel(reducer.scalar.reduce)(decks, batch.states, draws, kernel_fields(batch),
                                              bound_table(bounds, reducer, batch.range_size), table):
        raise outside_the_deck(decks.shape[1])
    return decks


@functools.cache
def _rejections_kernel():
    """The compiled loop that follows a block's rejections: ``follow(accepted, streak)``.

    ``accepted[r, i]``: output ``i`` is accepted after ``r`` rejections;
    ``streak`` rejections in a row came before the block. Returns, per output,
    the number of rejections before it when it is accepted and -1 when it is
    rejected; the outputs used: the whole block, or up to the rejection that
    leaves the rows of ``accepted`` or that makes :data:`~rnglab.draws.bounded.STUCK_REJECTIONS`
    in a row (a stuck source); and the rejections in a row at the end of those (counted by
    :func:`~rnglab.reduction.scalar.rejections_after`, as every redrawing loop counts them).
    ``settings``, the closure numba's disk cache keys on: the limit and the
    :func:`~rnglab.core.compiled.fingerprint` of ``rejections_after`` (another file: a change there compiles anew).
    """
    settings = (STUCK_REJECTIONS, fingerprint(rejections_after))

    @njit(cache=True, nogil=True)
    def follow(accepted, streak):  # pragma: no cover - compiled
        rows, size = accepted.shape
        shift = np.full(size, -1, dtype=np.int64)
        r = 0
        for i in range(size):
            kept = accepted[r, i]
            streak = rejections_after(streak, kept)
            if kept:
                shift[i] = r
            else:
                r += 1
                if r == rows or streak >= settings[0]:
                    return shift, i + 1, streak
        return shift, size, streak

    return follow
