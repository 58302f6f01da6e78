"""Shuffle algorithms that take any generator and any range reducer, good ones and broken ones.

Every algorithm works on a batch of decks at once: an array of shape
``(lanes, n)`` of item indices, one row per deck, and a :class:`Draws`
object that serves one uniform integer per lane and request. Which
generator stands behind the lanes is the :class:`Draws` object's business:

* :class:`BatchDraws` -- an :class:`~rnglab.generators.LCGBatch`, one
  generator per lane (one per seed), each lane reduced with
  :func:`~rnglab.reduce.draw_bounded_lanes`. Lane ``i`` consumes exactly what
  a one-at-a-time shuffle on its own generator consumes, so the batch is
  bit-exact with shuffling deck after deck (tested). Shuffles that are a
  list of swaps (their program, :class:`SwapStep`) run deck by deck in one
  compiled pass for the common LCGs (:func:`lcg_swaps`), with the same result.
* :class:`SourceDraws` -- any :class:`~rnglab.generators.Source` (numpy,
  Python, OS, ...), one lane: the one-at-a-time shuffle (for B independent
  non-LCG sources, shuffle each with its own :class:`SourceDraws`).
* :class:`SequentialDraws` -- one source, ``B`` decks dealt one after
  another as a program deals them: deck ``r`` starts where deck ``r - 1``
  stopped, so the batch is bit-exact with ``B`` one-at-a-time shuffles
  (:func:`shuffle_in_turn`). Swap programs only; compiled for the common LCGs.
* :class:`ScriptedDraws` -- replays given choices: an ideal uniform source,
  used to enumerate every path of an algorithm.

Algorithms (``SHUFFLES``; the broken ones are labelled ``broken``):
Fisher--Yates (Durstenfeld), its forward form, inside-out, Sattolo, naive
exchange, random transpositions, sort by random keys (stable, or redrawing
on ties), draw until unused, draw and remove, the 1999 online-poker shuffle
and unranking of one uniform integer in ``[0, n!)``.

References
----------
R. Durstenfeld, Algorithm 235: Random permutation, CACM 7(7), 1964.
D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.4.2, Algorithm P.
S. Sattolo, An algorithm to generate a random cyclic permutation, IPL 22, 1986.
B. Arkin, F. Hill, S. Marks, M. Schmid, T. J. Walls, G. McGraw, How we learned to cheat at
online poker, Reliable Software Technologies, 1999.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numba
import numpy as np

from .generators import LCG, LCGBatch, Source
from .generators.base import check_count
from .reduce import STUCK_REJECTIONS, check_bound, draw_bounded, draw_bounded_lanes, reducer, stuck_source_error
from .swap_kernels import deal_kernel, draw_table, kernel_code, kernel_fields

#: Bits per piece when a wide random integer (a sort key, a rank in [0, n!)) is assembled.
PIECE_BITS = 32
#: Most source outputs :class:`SequentialDraws` reads in one block.
SEQUENTIAL_BLOCK = 2**16


# -- where the random integers come from -----------------------------------------------

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

    def __init__(self, source: Source, method: str = "lemire"):
        reducer(method)
        self.source, self.method = source, method
        self.word_bits = source.output_bits
        self.draws = 0

    def below(self, bound, mask=None):
        count = self.lanes if mask is None else int(np.count_nonzero(mask))
        drawn = draw_bounded(self.source, int(bound), count, self.method)
        self.draws += drawn.draws
        return drawn.values.view(np.int64)


class BatchDraws(Draws):
    """One LCG per lane (an :class:`~rnglab.generators.LCGBatch`) and a reducer.

    Attributes
    ----------
    draws : numpy.ndarray
        Source outputs each lane has consumed, rejected ones included.
    """

    def __init__(self, batch: LCGBatch, method: str = "lemire"):
        reducer(method)
        self.batch, self.method, self.lanes = batch, method, batch.lanes
        self.word_bits = batch.range_size.bit_length() - 1
        self.draws = np.zeros(batch.lanes, dtype=np.int64)

    def below(self, bound, mask=None):
        if mask is None:
            return draw_bounded_lanes(self.batch, int(bound), self.method, self.draws)[0].view(np.int64)
        part = self._sub_batch(mask)
        values, draws = draw_bounded_lanes(part, int(bound), self.method)
        self.batch.states[mask] = part.current_states()
        self.draws[mask] += draws
        return values.view(np.int64)

    def run_swaps(self, decks, steps):
        """As :meth:`Draws.run_swaps`, deck by deck in one compiled pass when the batch allows it.

        The compiled path (:func:`lcg_swaps`) serves moduli that are a power of
        two (up to 2^64) or at most 2^32, with outputs of ``R <= 2^32`` values
        (every reducer) or whole 64-bit words (``R = 2^64``, Lemire); anything
        else runs step by step. Both give the same decks, states and draws.
        """
        if kernel_code(self.batch, self.method) is None:
            return super().run_swaps(decks, steps)
        return lcg_swaps(decks, self.batch, self.method, steps, self.draws)

    def _sub_batch(self, mask) -> LCGBatch:
        b = self.batch
        return LCGBatch(a=b.a, m=b.m, c=b.c, states=b.current_states()[mask], output=b.output,
                        name=b.name, low=b.low)


class SequentialDraws(SourceDraws):
    """One source and a reducer, ``lanes`` decks dealt one after another (as a program deals them).

    Deck ``r`` reads the source from where deck ``r - 1`` stopped, rejected
    draws included, so a batch is bit-exact with ``lanes`` one-at-a-time
    shuffles on the same source, and leaves it in the same state. Only swap
    programs (:meth:`run_swaps`) are served for more than one lane: the other
    algorithms request values step by step across the decks
    (:func:`shuffle_in_turn` shuffles those one deck at a time).

    :meth:`run_swaps` runs compiled (:func:`lcg_swaps` on one shared lane) for
    an :class:`~rnglab.generators.LCG` that :func:`~rnglab.swap_kernels.kernel_code` serves and that
    holds no handed-back values. Any other source is read in blocks: output
    ``i`` of a block serves step ``i - r`` after ``r`` rejections, so every
    output is reduced for each ``r`` up to a margin at once (a few numpy calls
    per block), the rejections are then followed in order, and the outputs
    not used are handed back with ``Source.unread``. Blocks are sized for
    about 32 rejections each (up to :data:`SEQUENTIAL_BLOCK` outputs).
    """

    def __init__(self, source: Source, method: str = "lemire", lanes: int = 1):
        super().__init__(source, method)
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
        lcg_swaps(decks, batch, self.method, steps, drawn)
        self.source.x = int(batch.current_states()[0])
        self.draws += int(drawn[0])
        return decks

    def _lane(self) -> LCGBatch | None:
        """The source as a one-lane batch when the compiled path serves it, else ``None``."""
        source = self.source
        if not isinstance(source, LCG) or source.state["pending"]:
            return None
        batch = LCGBatch(a=source.a, m=source.m, c=source.c, states=[source.x], output=source.output,
                         name=source.name, low=source.low)
        return batch if kernel_code(batch, self.method) is not None else None

    def _choices(self, rows: int, steps: list[SwapStep]) -> np.ndarray:
        """The values ``rows`` decks draw in turn for ``steps``, shape ``(rows, len(steps))``, read in blocks."""
        bounds = np.tile(step_bounds(steps), rows)
        check_steps(bounds[:len(steps)], self.source.range_size, self.method)
        out = np.empty(len(bounds), dtype=np.int64)
        done, size, shifts, streak = 0, len(steps), 4, 0
        while done < len(bounds):
            raw = self.source.random_raw(min(size, len(bounds) - done))
            kept, used, streak = self._block(raw, bounds, done, shifts, streak, out)
            self.source.unread(raw[used:])
            if streak == STUCK_REJECTIONS:
                raise stuck_source_error()
            rejected = used - kept
            self.draws, done = self.draws + used, done + kept
            size = min(SEQUENTIAL_BLOCK, max(len(steps), 32 * used // (rejected + 1)))  # about 32 rejections
            shifts = 2 + min(size, 2 * rejected * size // used)
        return out.reshape(rows, len(steps))

    def _block(self, raw: np.ndarray, bounds: np.ndarray, done: int, shifts: int, streak: int,
               out: np.ndarray) -> tuple[int, int, int]:
        """Reduce one block of outputs serving steps ``done, done + 1, ...`` of ``bounds``; fill ``out`` from ``done``.

        Output ``i`` serves step ``done + i - r`` after ``r`` rejections: every
        output is reduced for each ``r < shifts`` at once, then followed in
        order (:func:`_follow_rejections`, after ``streak`` rejections in a row).
        Returns the values kept, the outputs used (the rest are to be handed
        back) and the rejections in a row at their end.
        """
        x = raw - raw.dtype.type(self.source.low)  # offsets in [0, R)
        served = done + np.arange(len(raw)) - np.arange(shifts)[:, None]
        served = np.clip(served, done, len(bounds) - 1)  # entries no path reaches (r > i, or past the end)
        values, accepted = reducer(self.method).map(np.tile(x, shifts), bounds[served.ravel()], self.source.range_size)
        shift, used, streak = _follow_rejections(accepted.reshape(shifts, len(raw)), streak, STUCK_REJECTIONS)
        taken = np.flatnonzero(shift[:used] >= 0)
        out[done:done + len(taken)] = values.reshape(shifts, len(raw))[shift[taken], taken]
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
    while selected.any():
        values = random_integers(draws, bits, None if selected.all() else selected).astype(object)
        lanes = np.flatnonzero(selected)
        good = np.array([v < total for v in values], dtype=bool)
        out[lanes[good]] = values[good]
        selected[lanes[good]] = False
    return out if mask is None else out[np.asarray(mask, dtype=bool)]


# -- in-place kernels ------------------------------------------------------------------

@numba.njit(cache=True, nogil=True)
def _swap_kernel(decks, first, second):  # pragma: no cover - compiled
    """Swap ``decks[r, first[r]]`` and ``decks[r, second[r]]`` in every row (one pass over memory).

    ``first`` and ``second`` hold one position (shared by every row) or one
    per row. Returns False, having swapped nothing, when a position is
    outside the deck.
    """
    rows, n = decks.shape
    step_first, step_second = (1 if first.size > 1 else 0), (1 if second.size > 1 else 0)
    for row in range(rows):
        if not (0 <= first[row * step_first] < n and 0 <= second[row * step_second] < n):
            return False
    for row in range(rows):
        a, b = first[row * step_first], second[row * step_second]
        kept = decks[row, a]
        decks[row, a] = decks[row, b]
        decks[row, b] = kept
    return True


def swap(decks: np.ndarray, first, second) -> None:
    """Swap positions ``first`` and ``second`` (ints or one per row) in every row, in place.

    Raises ``ValueError`` for a position outside the deck (and then swaps nothing).
    """
    first, second = (np.atleast_1d(np.asarray(p, dtype=np.int64)) for p in (first, second))
    if not _swap_kernel(decks, first, second):
        raise _outside_the_deck(decks.shape[1])


def _outside_the_deck(n: int) -> ValueError:
    return ValueError(f"a swap position is outside the deck [0, {n - 1}]: the source produced a value outside "
                      "its declared range")


def take_in_order(decks: np.ndarray, choose: Callable[[int, int], np.ndarray]) -> np.ndarray:
    """Deal position ``k`` from the remaining items kept in their original order.

    ``choose(k, remaining)`` gives, per row, the index in ``[0, remaining)``
    of the item to take next; the item is removed from the remaining list.
    """
    lanes, n = decks.shape
    remaining, out = decks.copy(), np.empty_like(decks)
    for k in range(n):
        j = choose(k, n - k)
        out[:, k] = remaining[np.arange(lanes), j]
        keep = np.arange(n - k)[None, :] != j[:, None]
        remaining = remaining[keep].reshape(lanes, n - k - 1)
    return out


# -- the compiled swap path: one deck per LCG lane, deck by deck ------------------------

def step_bounds(steps: list[SwapStep]) -> np.ndarray:
    """The bound each swap step draws below (``high - low + 1``), as uint64."""
    return np.array([step.high - step.low + 1 for step in steps], dtype=np.uint64)


def check_steps(bounds: np.ndarray, range_size: int, method: str) -> None:
    """Raise where the step-by-step path would: a bound outside ``[1, R]`` or refused by the reducer, in step order."""
    for bound in dict.fromkeys(bounds.tolist()):
        check_bound(bound, range_size)
        reducer(method).map(np.zeros(1, dtype=np.uint64), bound, range_size)


def lcg_swaps(decks: np.ndarray, batch: LCGBatch, method: str, steps: list[SwapStep],
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
        For a method :func:`~rnglab.swap_kernels.kernel_code` does not serve, and where the
        step-by-step path raises (with its message): a bound outside ``[1, R]``
        or refused by the reducer, a drawn position outside the deck.
    """
    code = kernel_code(batch, method)
    if code is None:
        raise ValueError(f"the compiled swap path cannot serve {batch!r} with {method!r}")
    bounds = step_bounds(steps)
    check_steps(bounds, batch.range_size, method)
    table = np.array([(step.position, step.low) for step in steps], dtype=np.int64).reshape(len(steps), 2)
    if not deal_kernel(code)(decks, batch.states, draws, kernel_fields(batch), draw_table(bounds, batch.range_size),
                             table):
        raise _outside_the_deck(decks.shape[1])
    return decks


@numba.njit(cache=True, nogil=True)
def _follow_rejections(accepted, streak, limit):  # pragma: no cover - compiled
    """Follow a block of outputs in order; ``accepted[r, i]``: output ``i`` is accepted after ``r`` rejections.

    ``streak`` rejections in a row came before the block. Returns, per output,
    the number of rejections before it when it is accepted and -1 when it is
    rejected; the outputs used: the whole block, or up to the rejection that
    leaves the rows of ``accepted`` or that makes ``limit`` in a row (a stuck
    source); and the rejections in a row at the end of those.
    """
    rows, size = accepted.shape
    shift = np.full(size, -1, dtype=np.int64)
    r = 0
    for i in range(size):
        if accepted[r, i]:
            shift[i], streak = r, 0
        else:
            r, streak = r + 1, streak + 1
            if r == rows or streak == limit:
                return shift, i + 1, streak
    return shift, size, streak


# -- the algorithms (each: decks (lanes, n), draws, options) -> decks -------------------

def fisher_yates(decks, draws, options):
    """Durstenfeld: for i = n-1 down to 1, swap i with j uniform in [0, i]. Uniform."""
    return draws.run_swaps(decks, _program_fisher_yates(decks.shape[1], options))


def forward(decks, draws, options):
    """Forward Fisher--Yates: for i = 0 .. n-2, swap i with j uniform in [i, n-1]. Uniform."""
    return draws.run_swaps(decks, _program_forward(decks.shape[1], options))


def inside_out(decks, draws, options):
    """Inside-out: out[i] = out[j]; out[j] = item i, j uniform in [0, i]. Uniform.

    Run in place as the swaps it amounts to (its program): before step ``i``
    position ``i`` still holds item ``i``, and swapping it with ``j`` is
    exactly ``out[i] = out[j]; out[j] = item i``.
    """
    return draws.run_swaps(decks, _program_inside_out(decks.shape[1], options))


def inside_out_stream(items, draws: Draws) -> list:
    """Inside-out over an iterable of unknown length (one lane): a uniform shuffle of whatever comes."""
    out = []
    for i, item in enumerate(items):
        j = int(draws.below(i + 1)[0])
        out.append(out[j] if j < i else item)
        out[j] = item
    return out


def sattolo(decks, draws, options):
    """Sattolo: for i = n-1 down to 1, swap i with j uniform in [0, i-1]. Uniform over the n-cycles."""
    return draws.run_swaps(decks, _program_sattolo(decks.shape[1], options))


def naive(decks, draws, options):
    """Naive exchange (broken): for every i, swap i with j uniform in [0, n-1]: n^n paths for n! deals."""
    return draws.run_swaps(decks, _program_naive(decks.shape[1], options))


def transpositions(decks, draws, options):
    """Random transpositions (broken for small k): k swaps of two independent uniform positions."""
    n = decks.shape[1]
    for _ in range(swap_count(n, options.get("swaps"))):
        first = draws.below(n)
        swap(decks, first, draws.below(n))
    return decks


def poker1999(decks, draws, options):
    """The 1999 online-poker shuffle (broken): for ctr = 1..n, swap card[ctr] with card[random(n-1)+1].

    0-based: swap position i (i = 0 .. n-1) with ``j = below(n - 1)`` in
    ``[0, n-2]``: position ``n-1`` is never a partner, so the last card can
    move only at the last step, and then it always moves: it never ends where
    it started (Arkin et al. 1999).
    """
    return draws.run_swaps(decks, _program_poker1999(decks.shape[1], options))


def draw_unused(decks, draws, options):
    """Draw a position uniform in [0, n) until its card is unused, then deal it. Uniform (rejection).

    A source that cannot reach the positions left (RANDU's outputs are all odd:
    ``x % 2`` is always 1) would redraw forever; after ``64 (n + 1)`` clashes in a
    row, which an ideal source produces with probability below ``e^-64``, it
    raises ``ValueError``.
    """
    lanes, n = decks.shape
    rows, taken, out = np.arange(lanes), np.zeros(decks.shape, dtype=bool), np.empty_like(decks)
    for k in range(n):
        choice = draws.below(n)
        clash = taken[rows, choice]
        for _ in range(64 * (n + 1)):
            if not clash.any():
                break
            choice[clash] = draws.below(n, clash)
            clash = taken[rows, choice]
        else:
            raise ValueError(f"the source gave {64 * (n + 1)} dealt positions in a row to draw-unused (chance "
                             f"below e^-64 for a source that fills its declared range): with this reducer it "
                             f"cannot reach every position of a {n}-card deck")
        out[:, k] = decks[rows, choice]
        taken[rows, choice] = True
    return out


def draw_remove(decks, draws, options):
    """Draw-and-remove: take item j uniform in [0, remaining) from a list kept in order. Uniform."""
    return take_in_order(decks, lambda k, remaining: draws.below(remaining))


def unrank(decks, draws, options):
    """One uniform integer in [0, n!) turned into a deal by its factorial-base (Lehmer) digits. Uniform."""
    return apply_ranks(decks, uniform_below_factorial(draws, decks.shape[1]))


def apply_ranks(decks: np.ndarray, ranks) -> np.ndarray:
    """Deal by lexicographic rank: digit ``k`` of ``rank`` in base ``(n-k)`` picks the next remaining item."""
    n = decks.shape[1]
    left = np.asarray(ranks, dtype=object).copy()

    def digit(k, remaining):
        nonlocal left
        place = math.factorial(remaining - 1)
        chosen = (left // place).astype(np.int64)
        left = left % place
        return chosen

    return take_in_order(decks, digit)


def sort_keys(decks, draws, options):
    """Sort by random keys of ``key_bits`` bits (card c gets the c-th key); ties kept in order (stable)."""
    keys = np.stack([random_integers(draws, _key_bits(options)) for _ in range(decks.shape[1])], axis=1)
    return np.take_along_axis(decks, np.argsort(keys, axis=1, kind="stable"), axis=1)


def sort_keys_redraw(decks, draws, options):
    """Sort by random keys, drawing all of a deck's keys again while any two are equal. Uniform."""
    bits, n = _key_bits(options), decks.shape[1]
    keys = np.stack([random_integers(draws, bits) for _ in range(n)], axis=1)
    tied = _has_ties(keys)
    while tied.any():
        keys[tied] = np.stack([random_integers(draws, bits, tied) for _ in range(n)], axis=1)
        tied = _has_ties(keys)
    return np.take_along_axis(decks, np.argsort(keys, axis=1, kind="stable"), axis=1)


def _has_ties(keys: np.ndarray) -> np.ndarray:
    ordered = np.sort(keys, axis=1)
    return (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)


def _key_bits(options) -> int:
    bits = options.get("key_bits") or 32
    if not 1 <= bits <= 64:
        raise ValueError(f"key bits must be in [1, 64]; got {bits}")
    return bits


# -- how many transpositions -----------------------------------------------------------

SWAP_RULES = ("n", "touch", "half-nlogn")


def swap_count(n: int, rule=None) -> int:
    """Number of random transpositions: an int, or a rule.

    * ``"n"`` (default): ``k = n``;
    * ``"touch"``: the least ``k`` with every given card touched with
      probability at least ``1 - 1/1000``: a swap of two independent uniform
      positions misses a card with probability ``(1 - 1/n)^2``, so
      ``k = ceil(ln 1000 / (-2 ln(1 - 1/n)))`` (178 for 52 cards; the
      often-quoted 176 counts swaps of two *distinct* positions, rounded);
    * ``"half-nlogn"``: ``k = round(n ln n / 2)``, where the random-transposition
      walk starts to mix (Diaconis and Shahshahani 1981).
    """
    if rule is None or rule == "n":
        return n
    if rule == "touch":
        return math.ceil(math.log(1000) / (-2 * math.log1p(-1 / n))) if n > 1 else 0
    if rule == "half-nlogn":
        return round(n * math.log(n) / 2) if n > 1 else 0
    if isinstance(rule, (int, np.integer)) and not isinstance(rule, bool) and rule >= 0:
        return int(rule)
    raise ValueError(f"swaps must be a count >= 0 or one of {', '.join(SWAP_RULES)}; got {rule!r}")


# -- the exact model of each algorithm (for rnglab.fairness; the swap shuffles run it) --

@dataclass(frozen=True)
class SwapStep:
    """Swap ``position`` with a position uniform in ``[low, high]``."""

    position: int
    low: int
    high: int


@dataclass(frozen=True)
class TranspositionStep:
    """Swap two independent uniform positions (``n^2`` equally likely ordered pairs)."""


@dataclass(frozen=True)
class TakeStep:
    """Move the item at a position uniform in ``[position, n)`` to ``position``, shifting the others right."""

    position: int


def _program_fisher_yates(n, options):
    return [SwapStep(i, 0, i) for i in range(n - 1, 0, -1)]


def _program_forward(n, options):
    return [SwapStep(i, i, n - 1) for i in range(n - 1)]


def _program_inside_out(n, options):
    # out[i] = out[j]; out[j] = item i is, on the whole deck, a swap of i with j in [0, i]
    return [SwapStep(i, 0, i) for i in range(n)]


def _program_sattolo(n, options):
    return [SwapStep(i, 0, i - 1) for i in range(n - 1, 0, -1)]


def _program_naive(n, options):
    return [SwapStep(i, 0, n - 1) for i in range(n)]


def _program_poker1999(n, options):
    return [SwapStep(i, 0, max(n - 2, 0)) for i in range(n)]


def _program_transpositions(n, options):
    return [TranspositionStep()] * swap_count(n, options.get("swaps"))


def _program_take(n, options):
    return [TakeStep(k) for k in range(n)]


# -- the registry ----------------------------------------------------------------------

@dataclass(frozen=True)
class Shuffle:
    """A shuffle algorithm.

    Attributes
    ----------
    name : str
        Registry and command-line name.
    summary : str
    broken : bool
        True for algorithms kept for study: not uniform under an ideal source.
    law : str
        What the exact analysis uses: ``"program"`` (a sequence of steps that
        has the algorithm's law under an ideal source), ``"transpositions"``
        (cycle types), ``"stable-keys"`` (a closed form) or ``"uniform"``.
    reference : str
    run : callable
        ``run(decks, draws, options) -> decks``.
    program : callable or None
        ``program(n, options) -> list of steps`` (see :class:`SwapStep`).
    """

    name: str
    summary: str
    broken: bool
    law: str
    reference: str
    run: Callable
    program: Callable | None = None


SHUFFLES: dict[str, Shuffle] = {s.name: s for s in (
    Shuffle("fisher-yates", "i from n-1 down to 1, swap i with j in [0, i]", False, "program",
            "Durstenfeld, CACM 7(7), 1964; Knuth TAOCP 3.4.2 Algorithm P", fisher_yates, _program_fisher_yates),
    Shuffle("forward", "i from 0 to n-2, swap i with j in [i, n-1]", False, "program",
            "Knuth TAOCP vol. 2, 3.4.2", forward, _program_forward),
    Shuffle("inside-out", "out[i] = out[j]; out[j] = item i, j in [0, i]; works on a stream", False, "program",
            "Knuth TAOCP vol. 2, 3.4.2, exercise; Wikipedia 'Fisher-Yates shuffle'", inside_out,
            _program_inside_out),
    Shuffle("sattolo", "swap i with j in [0, i-1]: uniform over the (n-1)! n-cycles only", True, "program",
            "S. Sattolo, IPL 22(6), 1986", sattolo, _program_sattolo),
    Shuffle("naive", "swap each i with j in [0, n-1]: n^n paths onto n! deals", True, "program",
            "Robbins and Bolker 1981; Atwood, 'The danger of naivete', 2007", naive, _program_naive),
    Shuffle("transpositions", "k swaps of two uniform positions (--swaps K, n, touch, half-nlogn)", True,
            "transpositions", "Diaconis and Shahshahani, Z. Wahrsch. 57, 1981", transpositions,
            _program_transpositions),
    Shuffle("sort-keys", "stable sort by random keys of --key-bits bits: ties favour the original order",
            True, "stable-keys", "Knuth TAOCP vol. 2, 3.4.2", sort_keys),
    Shuffle("sort-keys-redraw", "sort by random keys, redrawing a deck's keys while any tie", False, "uniform",
            "Knuth TAOCP vol. 2, 3.4.2", sort_keys_redraw),
    Shuffle("draw-unused", "draw a card uniform in [0, n) until it is one not yet dealt", False, "program",
            "folk algorithm; uniform by rejection", draw_unused, _program_take),
    Shuffle("draw-remove", "take item j in [0, remaining) from a list kept in order", False, "program",
            "Fisher and Yates, Statistical tables, 1938", draw_remove, _program_take),
    Shuffle("poker1999", "for ctr = 1..n swap card[ctr] with card[random(n-1)+1] (an off-by-one naive exchange)",
            True, "program", "Arkin, Hill, Marks, Schmid, Walls, McGraw, How we learned to cheat at online poker, 1999",
            poker1999, _program_poker1999),
    Shuffle("unrank", "one uniform integer in [0, n!) read as factorial-base digits", False, "program",
            "Lehmer code; Knuth TAOCP vol. 2, 3.3.2 P and 3.4.2", unrank, _program_take),
)}
"""Every shuffle algorithm by name."""


def algorithm(name: str) -> Shuffle:
    """Look up a shuffle by name, with the list of names in the error."""
    try:
        return SHUFFLES[name]
    except KeyError:
        raise ValueError(f"unknown shuffle {name!r}; choose from {', '.join(SHUFFLES)}") from None


# -- entry points ------------------------------------------------------------------------

def deck_dtype(n: int) -> np.dtype:
    """The smallest unsigned dtype that holds item indices ``0 .. n-1``."""
    return np.dtype(np.uint8 if n <= 256 else np.uint16 if n <= 65536 else np.int64)


def check_size(n: int, limit: int = 10**5) -> int:
    """Validate a deck size."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be an integer; got {type(n).__name__}")
    if not 1 <= n <= limit:
        raise ValueError(f"n must be in [1, {limit}]; got {n}")
    return int(n)


def shuffle_decks(n: int, draws: Draws, algo: str = "fisher-yates", **options) -> np.ndarray:
    """Shuffle ``draws.lanes`` decks of ``n`` items; return shape ``(lanes, n)``.

    Row ``r`` lists the items (indices of the unshuffled deck) at positions
    ``0 .. n-1``. ``options``: ``swaps`` (transpositions), ``key_bits`` (sort keys).
    """
    n = check_size(n)
    decks = np.tile(np.arange(n, dtype=deck_dtype(n)), (draws.lanes, 1))
    return algorithm(algo).run(decks, draws, options)


def shuffle(n: int, source: Source, algo: str = "fisher-yates", reduce: str = "lemire", **options) -> np.ndarray:
    """Shuffle one deck of ``n`` items with ``source`` and reducer ``reduce`` (the one-at-a-time path)."""
    return shuffle_decks(n, SourceDraws(source, reduce), algo, **options)[0]


def is_swap_shuffle(algo: str, n: int, options: dict) -> bool:
    """Whether ``algo`` on ``n`` items is a list of swaps (its program, run by :meth:`Draws.run_swaps`)."""
    program = algorithm(algo).program
    return program is not None and all(isinstance(step, SwapStep) for step in program(n, options))


def shuffle_in_turn(n: int, source: Source, count: int, algo: str = "fisher-yates", reduce: str = "lemire",
                    **options) -> np.ndarray:
    """Shuffle ``count`` decks one after another from ``source``, as a program does; shape ``(count, n)``.

    Bit-exact with ``count`` calls of :func:`shuffle` on the same source, and
    leaves the source in the same state. Swap shuffles run batched
    (:class:`SequentialDraws`: compiled for the common LCGs, blocks of draws
    otherwise); the other algorithms are shuffled one deck at a time with
    :func:`shuffle`, which is exact but much slower (milliseconds per deck of 52).
    """
    n, count = check_size(n), check_count(count, "count")
    if is_swap_shuffle(algo, n, options):
        return shuffle_decks(n, SequentialDraws(source, reduce, count), algo, **options)
    decks = [shuffle(n, source, algo, reduce, **options) for _ in range(count)]
    return np.array(decks, dtype=deck_dtype(n)).reshape(count, n)


def shuffle_seeds(generator: LCG, seeds, n: int, algo: str = "fisher-yates", reduce: str = "lemire",
                  **options) -> tuple[np.ndarray, np.ndarray]:
    """One deck per seed, all at once (an :class:`LCGBatch`), bit-exact with :func:`shuffle` per seed.

    Returns
    -------
    decks : numpy.ndarray
        Shape ``(len(seeds), n)``.
    draws : numpy.ndarray
        Generator outputs each lane consumed.
    """
    batch = generator.batch(np.asarray(seeds))
    if generator.c == 0 and len(seeds) and not batch.current_states().all():
        raise ValueError("a seed gives state 0, the fixed point of a multiplicative LCG (c = 0); "
                         "leave it out of the seed space")
    draws = BatchDraws(batch, reduce)
    return shuffle_decks(n, draws, algo, **options), draws.draws


def permutation_rank(decks: np.ndarray) -> np.ndarray:
    """Lexicographic rank of each row (a permutation of ``0 .. n-1``), int64; ``n <= 20``."""
    decks = np.asarray(decks, dtype=np.int64)
    lanes, n = decks.shape
    if n > 20:
        raise ValueError(f"ranks fit in 64 bits for n <= 20; got n = {n}")
    rank = np.zeros(lanes, dtype=np.int64)
    for k in range(n):
        smaller_later = (decks[:, k + 1:] < decks[:, k:k + 1]).sum(axis=1)
        rank = rank * (n - k) + smaller_later
    return rank


def permutation_unrank(rank: int, n: int) -> list[int]:
    """The permutation of ``0 .. n-1`` with lexicographic rank ``rank`` (inverse of :func:`permutation_rank`)."""
    return apply_ranks(np.arange(n)[None, :], [rank])[0].tolist()
