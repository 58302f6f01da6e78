"""Shuffle algorithms that take any generator and any range reducer, good ones and broken ones.

Every algorithm works on a batch of decks at once: an array of shape
``(lanes, n)`` of item indices, one row per deck, and a :class:`Draws`
object that serves one uniform integer per lane and request. Which
generator stands behind the lanes is the :class:`Draws` object's business:

* :class:`BatchDraws` -- an :class:`~rnglab.generators.LCGBatch`, one
  generator per lane (one per seed), each lane reduced with
  :func:`~rnglab.draws.bounded.draw_bounded_lanes`. Lane ``i`` consumes exactly what
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
on ties), draw until unused, draw and remove, the 1999 online-poker shuffle,
unranking of one uniform integer in ``[0, n!)``, and JavaScript's
``array.sort(() => Math.random() - 0.5)`` by V8's sorts (:mod:`~rnglab.shuffles.comparator`).

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
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rnglab.core.rates import UNRANK_SECONDS_PER_SQUARE, check_work
from rnglab.core.registry import Registry
from rnglab.draws.bounded import stuck_source_error
from rnglab.generators import LCG, Source
from rnglab.generators.base import check_count
from rnglab.reduction.reducers import DEFAULT_REDUCER, Reducer
from rnglab.shuffles.comparator import INSERTION_LIMIT, TIMSORT_SINGLE_RUN, comparator_run
from rnglab.shuffles.draws import (
    BatchDraws,
    Draws,
    SequentialDraws,
    SourceDraws,
    random_integers,
    uniform_below_factorial,
)
from rnglab.shuffles.runtime import ascending, deal_unused, deitel, libstdcxx_shuffle
from rnglab.shuffles.steps import SwapStep, TakeStep, TranspositionStep, swap, take_in_order

# -- algorithms that run their own code (each: decks (lanes, n), draws, config) -> decks -------------------

def inside_out_stream(items, draws: Draws) -> list:
    """Inside-out over an iterable of unknown length (one lane): a uniform shuffle of whatever comes."""
    out = []
    for i, item in enumerate(items):
        j = int(draws.below(i + 1)[0])
        out.append(out[j] if j < i else item)
        out[j] = item
    return out


def transpositions(decks, draws, config):
    """Random transpositions (broken for small k): k swaps of two independent uniform positions."""
    n = decks.shape[1]
    for _ in range(swap_count(n, config.swaps)):
        first = draws.below(n)
        swap(decks, first, draws.below(n))
    return decks


def draw_unused(decks, draws, config):
    """Draw a position uniform in [0, n) until its card is unused, then deal it. Uniform (rejection).

    A source that cannot reach the positions left (RANDU's outputs are all odd:
    ``x % 2`` is always 1) would redraw forever; after ``64 (n + 1)`` clashes in a
    row :func:`~rnglab.shuffles.runtime.deal_unused` raises ``ValueError``.
    """
    n = decks.shape[1]
    return deal_unused(decks, draws, lambda mask: draws.below(n, mask), "draw-unused")


def draw_remove(decks, draws, config):
    """Draw-and-remove: take item j uniform in [0, remaining) from a list kept in order. Uniform."""
    return take_in_order(decks, lambda k, remaining: draws.below(remaining))


def unrank(decks, draws, config):
    """One uniform integer in [0, n!) turned into a deal by its factorial-base (Lehmer) digits. Uniform."""
    return apply_ranks(decks, uniform_below_factorial(draws, decks.shape[1]))


def apply_ranks(decks: np.ndarray, ranks) -> np.ndarray:
    """Deal by lexicographic rank: digit ``k`` of ``rank`` in base ``(n-k)`` picks the next remaining item."""
    digits = factorial_digits(ranks, decks.shape[1])
    return take_in_order(decks, lambda k, remaining: digits[:, k])


def factorial_digits(ranks, n: int) -> np.ndarray:
    """The factorial-base (Lehmer) digits of each rank in ``[0, n!)``: row r, column k in ``[0, n - k)``.

    ``rank = sum_k d_k (n - 1 - k)!``, so ``d_{n-2} = rank mod 2``, then ``d_{n-3}`` is the next
    quotient mod 3, and so on: one division of the shrinking rank by each small radix, linear in
    its size, instead of a division by a factorial per digit. O(n^2 log n) bit operations per rank.
    """
    digits = np.zeros((len(ranks), n), dtype=np.int64)
    for lane, rank in enumerate(ranks):
        value = int(rank)
        for remaining in range(2, n + 1):
            value, digits[lane, n - remaining] = divmod(value, remaining)
    return digits


def sort_keys(decks, draws, config):
    """Sort by random keys of ``key_bits`` bits (card c gets the c-th key); ties kept in order (stable)."""
    keys = np.stack([random_integers(draws, config.key_bits) for _ in range(decks.shape[1])], axis=1)
    return np.take_along_axis(decks, np.argsort(keys, axis=1, kind="stable"), axis=1)


def sort_keys_redraw(decks, draws, config):
    """Sort by random keys, drawing all of a deck's keys again while any two are equal. Uniform.

    An ideal source gives ``n`` distinct keys with probability ``q`` (see
    :func:`distinct_keys_probability`); after :func:`redraw_limit` tied draws in
    a row (chance below 2^-128) the source is declared stuck.
    """
    bits, n = config.key_bits, decks.shape[1]
    keys = np.stack([random_integers(draws, bits) for _ in range(n)], axis=1)
    tied = _has_ties(keys)
    for _ in range(redraw_limit(n, bits)):
        if not tied.any():
            return np.take_along_axis(decks, np.argsort(keys, axis=1, kind="stable"), axis=1)
        keys[tied] = np.stack([random_integers(draws, bits, tied) for _ in range(n)], axis=1)
        tied = _has_ties(keys)
    raise stuck_source_error()


def distinct_keys_probability(n: int, bits: int) -> float:
    """``q = prod_{i<n} (1 - i / 2^bits)``: the chance that ``n`` independent uniform keys all differ."""
    return math.exp(sum(math.log1p(-i / 2**bits) for i in range(n))) if n <= 2**bits else 0.0


def redraw_limit(n: int, bits: int) -> int:
    """Tied draws in a row after which sort-keys-redraw stops: ``(1 - q)^k < 2^-128`` for an ideal source."""
    tie = 1 - distinct_keys_probability(n, bits)
    return 1 if tie <= 0 else math.ceil(128 * math.log(2) / -math.log(tie))


def _has_ties(keys: np.ndarray) -> np.ndarray:
    ordered = np.sort(keys, axis=1)
    return (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)


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



# -- programs (swap shuffles are their program; the others run their own code) ---------------------------------------------------------------------------

def fisher_yates(n, config):
    """Durstenfeld: for i = n-1 down to 1, swap i with j uniform in [0, i]. Uniform."""
    return [SwapStep(i, 0, i) for i in range(n - 1, 0, -1)]


def fisher_yates_to_zero(n, config):
    """Fisher--Yates down to i = 0: the last step swaps 0 with itself but still draws (one value below 1), as
    JavaScript's ``for (i = n; i > 0; i--) { r = Math.floor(Math.random() * i); swap(r, i - 1) }`` does."""
    return [SwapStep(i, 0, i) for i in range(n - 1, -1, -1)]


def forward(n, config):
    """Forward Fisher--Yates: for i = 0 .. n-2, swap i with j uniform in [i, n-1]. Uniform."""
    return [SwapStep(i, i, n - 1) for i in range(n - 1)]


def inside_out(n, config):
    """Inside-out: out[i] = out[j]; out[j] = item i, j uniform in [0, i]. Uniform.

    Run in place as the swaps it amounts to: before step ``i`` position ``i``
    still holds item ``i``, and swapping it with ``j`` is exactly
    ``out[i] = out[j]; out[j] = item i``.
    """
    return [SwapStep(i, 0, i) for i in range(n)]


def sattolo(n, config):
    """Sattolo: for i = n-1 down to 1, swap i with j uniform in [0, i-1]. Uniform over the n-cycles."""
    return [SwapStep(i, 0, i - 1) for i in range(n - 1, 0, -1)]


def naive(n, config):
    """Naive exchange (broken): for every i, swap i with j uniform in [0, n-1]: n^n paths for n! deals."""
    return [SwapStep(i, 0, n - 1) for i in range(n)]


def poker1999(n, config):
    """The 1999 online-poker shuffle (broken): for ctr = 1..n, swap card[ctr] with card[random(n-1)+1].

    0-based: swap position i (i = 0 .. n-1) with ``j = below(n - 1)`` in
    ``[0, n-2]``: position ``n-1`` is never a partner, so the last card can
    move only at the last step, and then it always moves: it never ends where
    it started (Arkin et al. 1999).
    """
    return [SwapStep(i, 0, max(n - 2, 0)) for i in range(n)]


def transposition_program(n, config):
    """``k`` transpositions of two independent uniform positions (the cycle-type law is exact)."""
    return [TranspositionStep()] * swap_count(n, config.swaps)


def take_program(n, config):
    """Take the item at a uniform remaining position, ``n`` times (the model of draw-and-remove)."""
    return [TakeStep(k) for k in range(n)]


# -- the registry ----------------------------------------------------------------------

@dataclass(frozen=True)
class Algorithm:
    """A shuffle algorithm (a registry entry).

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
    run : callable or None
        ``run(decks, draws, config) -> decks``, ``config`` the :class:`Shuffle`;
        ``None`` for a swap shuffle, which is run as its program (one entry
        with a program of :class:`~rnglab.shuffles.steps.SwapStep` is a whole shuffle:
        it runs compiled, and the exact analyses and the seed search read it).
    program : callable or None
        ``program(n, config) -> list of steps`` (see :mod:`rnglab.shuffles.steps`).
    option : str or None
        The option the algorithm takes: ``"swaps"`` or ``"key_bits"``.
    max_n : int or None
        Largest deck the algorithm is modelled for (``None``: any).
    """

    name: str
    summary: str
    broken: bool
    law: str
    reference: str
    run: Callable | None = None
    program: Callable | None = None
    option: str | None = None
    max_n: int | None = None


#: The shuffle registry: name -> :class:`Algorithm` (sound, broken and real-world algorithms, each with its
#: program of swaps where it has one). ``make_shuffle(name, ...)`` resolves a name into a :class:`Shuffle`.
SHUFFLES: Registry[Algorithm] = Registry("shuffle", {s.name: s for s in (
    Algorithm("fisher-yates", "i from n-1 down to 1, swap i with j in [0, i]", False, "program",
              "Durstenfeld, CACM 7(7), 1964; Knuth TAOCP 3.4.2 Algorithm P", program=fisher_yates),
    Algorithm("forward", "i from 0 to n-2, swap i with j in [i, n-1]", False, "program",
              "Knuth TAOCP vol. 2, 3.4.2", program=forward),
    Algorithm("inside-out", "out[i] = out[j]; out[j] = item i, j in [0, i]; works on a stream", False, "program",
              "Knuth TAOCP vol. 2, 3.4.2, exercise; Wikipedia 'Fisher-Yates shuffle'", program=inside_out),
    Algorithm("sattolo", "swap i with j in [0, i-1]: uniform over the (n-1)! n-cycles only", True, "program",
              "S. Sattolo, IPL 22(6), 1986", program=sattolo),
    Algorithm("naive", "swap each i with j in [0, n-1]: n^n paths onto n! deals", True, "program",
              "Robbins and Bolker 1981; Atwood, 'The danger of naivete', 2007", program=naive),
    Algorithm("transpositions", "k swaps of two uniform positions (--swaps K, n, touch, half-nlogn)", True,
              "transpositions", "Diaconis and Shahshahani, Z. Wahrsch. 57, 1981", transpositions,
              transposition_program, "swaps"),
    Algorithm("sort-keys", "stable sort by random keys of --key-bits bits: ties favour the original order",
              True, "stable-keys", "Knuth TAOCP vol. 2, 3.4.2", sort_keys, option="key_bits"),
    Algorithm("sort-keys-redraw", "sort by random keys, redrawing a deck's keys while any tie", False, "uniform",
              "Knuth TAOCP vol. 2, 3.4.2", sort_keys_redraw, option="key_bits"),
    Algorithm("draw-unused", "draw a card uniform in [0, n) until it is one not yet dealt", False, "program",
              "folk algorithm; uniform by rejection", draw_unused, take_program),
    Algorithm("draw-remove", "take item j in [0, remaining) from a list kept in order", False, "program",
              "Fisher and Yates, Statistical tables, 1938", draw_remove, take_program),
    Algorithm("poker1999", "for ctr = 1..n swap card[ctr] with card[random(n-1)+1] (an off-by-one naive exchange)",
              True, "program",
              "Arkin, Hill, Marks, Schmid, Walls, McGraw, How we learned to cheat at online poker, 1999",
              program=poker1999),
    Algorithm("unrank", "one uniform integer in [0, n!) read as factorial-base digits", False, "program",
              "Lehmer code; Knuth TAOCP vol. 2, 3.3.2 P and 3.4.2", unrank, take_program),
    Algorithm("js-sort-insertion", "array.sort(() => Math.random() - 0.5) by V8's insertion sort (length <= 10, "
              "before V8 7.0)", True, "comparisons", "V8 src/js/array.js InsertionSort (to V8 6.9)",
              comparator_run, max_n=INSERTION_LIMIT),
    Algorithm("js-sort-timsort", "array.sort(() => Math.random() - 0.5) by V8's TimSort (V8 7.0+, length <= 63)",
              True, "comparisons", "V8 third_party/v8/builtins/array-sort.tq; Bynens, v8.dev 2018",
              comparator_run, max_n=TIMSORT_SINGLE_RUN),
    Algorithm("ascending", "i from 1 to n-1, swap i with j in [0, i] (std::random_shuffle's loop)", False, "program",
              "libstdc++ stl_algo.h random_shuffle; Knuth TAOCP vol. 2, 3.4.2", program=ascending),
    Algorithm("deitel", "per card, row = below(n/13), column = below(13) until the slot is free (Deitel's 2-D deck)",
              False, "program", "Deitel and Deitel, C++ How to Program, card shuffling and dealing", deitel,
              take_program),
    Algorithm("libstdcxx-shuffle", "ascending swaps, two positions per draw below (i+1)(i+2) (std::shuffle)", False,
              "uniform", "libstdc++ stl_algo.h shuffle, __gen_two_uniform_ints (GCC 9+)", libstdcxx_shuffle),
    Algorithm("fisher-yates-to-zero", "i from n-1 down to 0, swap i with j in [0, i]: the last draw (below 1) "
              "is spent (JavaScript's for (i = n; i > 0; i--))", False, "program",
              "Durstenfeld, CACM 7(7), 1964; the JavaScript loop of the shuffling articles",
              program=fisher_yates_to_zero),
)})
"""Every shuffle algorithm by name."""

#: Default bits per sort key.
KEY_BITS = 32
#: Most expected redraws per deck accepted for sort-keys-redraw.
MAX_REDRAWS = 10**4
#: Most transpositions one shuffle makes (a decade of work beyond it is refused up front).
MAX_SWAPS = 10**7
#: Most seconds of estimated work (:data:`~rnglab.core.rates.UNRANK_SECONDS_PER_SQUARE` x n^2) of one unrank deal:
#: n <= :data:`MAX_UNRANK_N` = 46,547 cards; n = 10^5 would take about a minute.
UNRANK_SECONDS = 13
#: Largest deck unranked within :data:`UNRANK_SECONDS`.
MAX_UNRANK_N = math.isqrt(int(UNRANK_SECONDS / UNRANK_SECONDS_PER_SQUARE))


@dataclass(frozen=True)
class Shuffle:
    """A shuffle algorithm with its option, resolved and checked once (:func:`make_shuffle`).

    Attributes
    ----------
    algorithm : Algorithm
    swaps : int or str or None
        ``transpositions``: a count or a rule of :data:`SWAP_RULES` (default ``n``).
    key_bits : int
        ``sort-keys``, ``sort-keys-redraw``: bits per key, 1 to 64.
    """

    algorithm: Algorithm
    swaps: int | str | None = None
    key_bits: int = KEY_BITS

    @property
    def name(self) -> str:
        """The algorithm's registry name."""
        return self.algorithm.name

    @property
    def law(self) -> str:
        """How the exact analysis models the algorithm (see :attr:`Algorithm.law`)."""
        return self.algorithm.law

    def __str__(self) -> str:
        option = {"swaps": f" (swaps {self.swaps or 'n'})", "key_bits": f" ({self.key_bits}-bit keys)"}
        return self.name + option.get(self.algorithm.option, "")

    def program(self, n: int) -> list | None:
        """The exact program on ``n`` items (``None`` for the key sorts)."""
        return None if self.algorithm.program is None else self.algorithm.program(n, self)

    def swap_program(self, n: int) -> list[SwapStep] | None:
        """The program when it is a list of swaps (run by :meth:`Draws.run_swaps`), else ``None``."""
        steps = self.program(n)
        return steps if steps is not None and all(isinstance(step, SwapStep) for step in steps) else None

    def check(self, n: int) -> int:
        """Validate a deck size for this shuffle and return it.

        Raises
        ------
        ValueError
            Outside ``[1, 10^5]`` (or the algorithm's ``max_n``); where the shuffle can never finish
            (``sort-keys-redraw`` needs ``2^key_bits >= n`` distinct keys); or
            for more than :data:`MAX_SWAPS` transpositions; for ``unrank`` above :data:`MAX_UNRANK_N` (more than
            :data:`UNRANK_SECONDS` of estimated work, :func:`~rnglab.core.rates.check_work`).
        """
        n = check_size(n, self.algorithm.max_n or 10**5)
        distinct = distinct_keys_probability(n, self.key_bits) if self.name == "sort-keys-redraw" else 1.0
        if distinct < 1 / MAX_REDRAWS:
            raise ValueError(f"sort-keys-redraw needs 2^key_bits >= n distinct keys and would redraw about "
                             f"{1 / max(distinct, 1e-300):.3g} times per deck "
                             f"with {self.key_bits}-bit keys for n = {n}; at most {MAX_REDRAWS:,} are accepted "
                             "(use more key bits)")
        if self.name == "unrank":
            check_work(UNRANK_SECONDS_PER_SQUARE * n * n, UNRANK_SECONDS, f"an unrank deal of n = {n:,} cards (its "
                       f"work grows as n^2: {UNRANK_SECONDS_PER_SQUARE:g} s x n^2 measured)", f"n <= {MAX_UNRANK_N:,} fits")
        swaps = swap_count(n, self.swaps) if self.algorithm.option == "swaps" else 0
        if swaps > MAX_SWAPS:
            raise ValueError(f"at most {MAX_SWAPS:,} transpositions per shuffle; got {swaps:,}")
        return n

    def run(self, decks: np.ndarray, draws: Draws) -> np.ndarray:
        """Shuffle every row of ``decks`` with ``draws`` (see :func:`shuffle_decks`)."""
        if self.algorithm.run is None:
            return draws.run_swaps(decks, self.program(decks.shape[1]))
        return self.algorithm.run(decks, draws, self)

    def describe(self) -> dict:
        """The name and the option in force, for JSON."""
        return {"algorithm": self.name, "swaps": self.swaps if self.algorithm.option == "swaps" else None,
                "key_bits": self.key_bits if self.algorithm.option == "key_bits" else None}


def make_shuffle(value: str | Shuffle = "fisher-yates", *, swaps=None, key_bits: int | None = None) -> Shuffle:
    """Resolve a shuffle: an algorithm name with its option, or a :class:`Shuffle` (returned as is).

    Raises
    ------
    ValueError
        For an unknown name (with the list), an option the algorithm does not
        take (``--swaps`` applies to ``transpositions`` only, ``--key-bits`` to the
        key sorts), key bits outside ``[1, 64]`` or a malformed swap count.
    """
    if isinstance(value, Shuffle):
        if swaps is not None or key_bits is not None:
            raise ValueError("options belong to the shuffle: give them when it is made")
        return value
    chosen = SHUFFLES[value]
    for option, given in (("swaps", swaps), ("key_bits", key_bits)):
        if given is not None and chosen.option != option:
            takers = [name for name, entry in SHUFFLES.items() if entry.option == option]
            raise ValueError(f"--{option.replace('_', '-')} applies to {' and '.join(takers)} only, not {value}")
    if key_bits is not None and not 1 <= key_bits <= 64:
        raise ValueError(f"key bits must be in [1, 64]; got {key_bits}")
    if swaps is not None:
        swap_count(2, swaps)  # validates a count or a rule
    return Shuffle(chosen, swaps, KEY_BITS if key_bits is None else key_bits)


FISHER_YATES = make_shuffle("fisher-yates")
"""The shuffle of a call that names none."""

NAIVE = make_shuffle("naive")
"""The naive exchange (swap i with a uniform position of the whole deck), whose exact laws
:mod:`rnglab.shuffles.deal_probability` counts."""


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


def shuffle_decks(n: int, draws: Draws, algo: Shuffle = FISHER_YATES) -> np.ndarray:
    """Shuffle ``draws.lanes`` decks of ``n`` items; return shape ``(lanes, n)``.

    Row ``r`` lists the items (indices of the unshuffled deck) at positions
    ``0 .. n-1``. ``algo`` carries its options (``swaps``, ``key_bits``; see :func:`make_shuffle`).
    """
    n = algo.check(n)
    decks = np.tile(np.arange(n, dtype=deck_dtype(n)), (draws.lanes, 1))
    return algo.run(decks, draws)


def shuffle(n: int, source: Source, algo: Shuffle = FISHER_YATES, reducer: Reducer = DEFAULT_REDUCER) -> np.ndarray:
    """Shuffle one deck of ``n`` items with ``source`` and ``reducer`` (the one-at-a-time path).

    Parameters
    ----------
    n : int
        Items in the deck, ``0 .. n - 1`` in their starting order.
    source : Source
        The generator, already seeded (:func:`rnglab.make_source`); it is advanced by the draws.
    algo : Shuffle
        An algorithm of ``rnglab.SHUFFLES`` with its options, resolved by :func:`make_shuffle` (Fisher-Yates).
    reducer : Reducer
        How each bounded draw is made from the source's outputs (``rnglab.REDUCERS``; Lemire's method).

    Returns
    -------
    numpy.ndarray
        The deck: ``deck[i]`` is the item at position ``i``.

    Examples
    --------
    Fisher-Yates with ``rand() % (i + 1)`` on MSVC's ``rand()`` after ``srand(1)``:

    >>> from rnglab import REDUCERS, make_shuffle, make_source, shuffle
    >>> shuffle(10, make_source("msvc", 1), make_shuffle("fisher-yates"), REDUCERS["modulo"])
    array([9, 3, 0, 2, 4, 7, 5, 6, 8, 1], dtype=uint8)
    """
    return shuffle_decks(n, SourceDraws(source, reducer), algo)[0]


def shuffle_in_turn(n: int, source: Source, count: int, algo: Shuffle = FISHER_YATES,
                    reducer: Reducer = DEFAULT_REDUCER) -> np.ndarray:
    """Shuffle ``count`` decks one after another from ``source``, as a program does; shape ``(count, n)``.

    Bit-exact with ``count`` calls of :func:`shuffle` on the same source, and
    leaves the source in the same state. Swap shuffles run batched
    (:class:`~rnglab.shuffles.draws.SequentialDraws`: compiled for the common LCGs, blocks
    of draws otherwise); the other algorithms are shuffled one deck at a time,
    which is exact but much slower (milliseconds per deck of 52).
    """
    n, count = algo.check(n), check_count(count, "count")
    if algo.swap_program(n) is not None:
        return shuffle_decks(n, SequentialDraws(source, reducer, count), algo)
    decks = [shuffle(n, source, algo, reducer) for _ in range(count)]
    return np.array(decks, dtype=deck_dtype(n)).reshape(count, n)


def shuffle_seeds(generator: LCG, seeds, n: int, algo: Shuffle = FISHER_YATES,
                  reducer: Reducer = DEFAULT_REDUCER) -> tuple[np.ndarray, np.ndarray]:
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
    draws = BatchDraws(batch, reducer)
    return shuffle_decks(n, draws, algo), draws.draws


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
