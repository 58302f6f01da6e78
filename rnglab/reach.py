"""Which deals can a seed space ever reach?

A program that seeds a generator with one of ``S`` seeds and then shuffles
can produce at most ``S`` different deals, however good the shuffle: the
52-card deck has ``52! ~ 2^225.58`` orderings, and a 32-bit seed reaches at
most one in ``2^193.6`` of them. This module counts the distinct deals
exactly, by running every seed through generator + reducer + shuffle (one
batch lane per seed) and counting distinct decks (exact: decks are compared
whole, as lexicographic ranks for ``n <= 20`` and as byte strings above), and
gives the bounds where enumeration is out of reach.

It also deals game after game from one stream without reseeding: the deals
repeat when the generator's state at the start of a game repeats. For a small
modulus every state is a batch lane at once, so the map "state at the start
of a game -> state at the start of the next" is computed for all states, and
the cycle the seed falls into is followed exactly.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from .generators import LCG, LCGBatch, Source
from .period import lcg_period
from .results import Result
from .shuffle import BatchDraws, check_size, permutation_rank, shuffle, shuffle_decks, shuffle_seeds

#: Most seeds enumerated by default (memory: the distinct decks are kept).
MAX_SEEDS = 2**24
#: Most generator states for the game-after-game cycle (every state is a lane).
MAX_STATES = 2**22
#: Window of start times for a seed policy when none is given.
DEFAULT_WINDOW = "1h"


def parse_seed_range(text: str) -> tuple[int, int] | None:
    """``"A..B"`` (inclusive, integer expressions) as ``(A, B)``; ``None`` when the text is not a range."""
    from .params import parse_int

    match = re.fullmatch(r"\s*(.+?)\s*\.\.\s*(.+?)\s*", text)
    if match is None:
        return None
    low, high = parse_int(match.group(1)), parse_int(match.group(2))
    if low > high:
        raise ValueError(f"a seed range A..B needs A <= B; got {low}..{high}")
    return low, high


def seed_space_size(text: str, window: str | None = None) -> tuple[int, str]:
    """How many seeds ``A..B`` or a seed policy over ``window`` names, and the space's label (nothing is listed)."""
    bounds = parse_seed_range(text)
    if bounds is not None:
        return bounds[1] - bounds[0] + 1, f"seeds {bounds[0]}..{bounds[1]}"
    chosen, parsed = _policy(text, window)
    return chosen.count(parsed), f"policy {text} over {parsed.text}"


def seed_space(text: str, window: str | None = None) -> tuple[np.ndarray, str]:
    """The seeds named by ``A..B`` or by a seed policy (``rnglab.seeding``) over ``window``, and the label.

    Raises ``ValueError`` for more than :data:`MAX_SEEDS` seeds.
    """
    count, label = seed_space_size(text, window)
    bounds = parse_seed_range(text)
    if count > MAX_SEEDS:
        advice = "" if bounds is not None else " (choose a shorter --window)"
        raise ValueError(f"at most {MAX_SEEDS} seeds are enumerated; {label} holds {count}{advice}")
    if bounds is not None:
        return np.arange(bounds[0], bounds[1] + 1, dtype=np.int64), label
    chosen, parsed = _policy(text, window)
    return chosen.seeds(parsed).astype(np.int64), label


def _policy(text: str, window: str | None):
    """The seed policy named ``text`` and the parsed window (default :data:`DEFAULT_WINDOW`)."""
    try:
        from .seeding import parse_window, policy
    except ImportError:
        raise ValueError(f"{text!r} is not a range A..B, and seed policies (rnglab.seeding) "
                         "are not available") from None
    return policy(text), parse_window(window or DEFAULT_WINDOW)


def deck_keys(decks: np.ndarray) -> np.ndarray:
    """Exact, sortable keys of decks: lexicographic ranks (n <= 20) or the rows as byte strings."""
    n = decks.shape[1]
    if n <= 20:
        return permutation_rank(decks)
    rows = np.ascontiguousarray(decks.astype(np.uint8 if n <= 256 else np.uint16))
    return rows.view(np.dtype((np.void, rows.shape[1] * rows.itemsize))).ravel()


def smallest_deck_exceeding(space: int) -> int:
    """The least ``n`` with ``n! > space``: from that size on, some deals are unreachable."""
    n, total = 1, 1
    while total <= space:
        n += 1
        total *= n
    return n


def bits_for_every_deal(n: int) -> int:
    """State bits a generator needs before every one of the ``n!`` deals can be reached: ``ceil(log2 n!)``."""
    return (math.factorial(n) - 1).bit_length()


@dataclass(frozen=True)
class ReachResult(Result):
    """Distinct deals a seed space reaches.

    Attributes
    ----------
    generator, reduce, algo, seed_space : str
    n : int
    seeds : int
        Seeds enumerated.
    distinct : int or None
        Distinct deals (exact), ``None`` when not enumerated.
    n_factorial : int
    fraction : float
        ``distinct / n!`` (or ``bound / n!`` when not enumerated).
    period : int or None
        The generator's largest period (LCGs).
    bound : int
        ``min(seeds, period, n!)``.
    log2_bound, log2_n_factorial : float
    exact : bool
    """

    generator: str
    reduce: str
    algo: str
    seed_space: str
    n: int
    seeds: int
    distinct: int | None
    n_factorial: int
    fraction: float
    period: int | None
    bound: int
    log2_bound: float
    log2_n_factorial: float
    exact: bool


def _merge_distinct(known: np.ndarray | None, keys: np.ndarray) -> np.ndarray:
    fresh = np.unique(keys)
    return fresh if known is None else np.union1d(known, fresh)


def count_distinct_deals(generator: Source, seeds: np.ndarray, n: int, algo: str, reduce: str, *,
                         chunk: int = 2**18, progress=None, **options) -> int:
    """Distinct deals over ``seeds`` (exact). LCGs run one batch lane per seed; others seed by seed."""
    known = None
    for start in range(0, len(seeds), chunk):
        part = seeds[start:start + chunk]
        known = _merge_distinct(known, deck_keys(seed_decks(generator, part, n, algo, reduce, **options)))
        if progress:
            progress(len(part))
    return 0 if known is None else len(known)


def seed_decks(generator: Source, seeds: np.ndarray, n: int, algo: str, reduce: str, **options) -> np.ndarray:
    """One shuffled deck per seed: a batch for an LCG, else one source per seed (reseeded copies)."""
    if isinstance(generator, LCG):
        return shuffle_seeds(generator, seeds, n, algo, reduce, **options)[0]
    from .presets import make_source

    return np.stack([shuffle(n, make_source(generator.name, int(s)), algo, reduce, **options) for s in seeds])


def largest_period(generator: Source) -> int | None:
    """The largest period of an LCG (``m`` for c != 0, Carmichael's lambda for c = 0); else ``None``."""
    if not isinstance(generator, LCG):
        return None
    return lcg_period(a=generator.a, m=generator.m, c=generator.c, seed=generator.x).max_period


def reachable_deals(generator: Source, seeds: np.ndarray, n: int, algo: str = "fisher-yates",
                    reduce: str = "lemire", *, label: str = "", progress=None, **options) -> ReachResult:
    """Count the deals reachable from ``seeds``, and compare with ``n!`` and ``min(seeds, period, n!)``."""
    n, seeds = check_size(n, 1000), np.asarray(seeds)
    distinct = count_distinct_deals(generator, seeds, n, algo, reduce, progress=progress, **options)
    return _reach_result(generator, len(seeds), n, algo, reduce, label, distinct)


def reach_bound(generator: Source, seeds: int, n: int, algo: str = "fisher-yates", reduce: str = "lemire", *,
                label: str = "") -> ReachResult:
    """The bound ``min(seeds, period, n!)`` for a space of ``seeds`` seeds, without enumerating them."""
    return _reach_result(generator, seeds, check_size(n, 1000), algo, reduce, label, None)


def _reach_result(generator: Source, seeds: int, n: int, algo: str, reduce: str, label: str,
                  distinct: int | None) -> ReachResult:
    """The result for ``seeds`` seeds, with ``distinct`` deals counted (``None``: the bound alone)."""
    total, period = math.factorial(n), largest_period(generator)
    bound = min(seeds, total, period or seeds)
    reached = bound if distinct is None else distinct
    return ReachResult(
        generator=generator.name, reduce=reduce, algo=algo, seed_space=label or f"{seeds} seeds", n=n,
        seeds=seeds, distinct=distinct, n_factorial=total, fraction=_ratio(reached, total), period=period,
        bound=bound, log2_bound=math.log2(bound) if bound else 0.0,
        log2_n_factorial=math.lgamma(n + 1) / math.log(2), exact=distinct is not None)


def _ratio(part: int, whole: int) -> float:
    """``part / whole`` as a float, also when both are huge integers (tiny ratios stay accurate)."""
    if part == 0:
        return 0.0
    return math.exp(math.log(part) - math.log(whole))


@dataclass(frozen=True)
class GameCycle(Result):
    """Deals game after game from one seeded stream, without reseeding.

    Attributes
    ----------
    tail : int
        Games before the sequence of deals becomes periodic.
    games_period : int
        Games after which the sequence of deals repeats (the cycle of start states).
    distinct_deals : int
        Distinct deals over one whole cycle.
    draws_per_game : float
        Mean generator outputs per game over the cycle.
    """

    generator: str
    seed: int
    n: int
    algo: str
    reduce: str
    tail: int
    games_period: int
    distinct_deals: int
    draws_per_game: float


def game_cycle(generator: LCG, n: int, algo: str = "fisher-yates", reduce: str = "lemire",
               **options) -> GameCycle:
    """Exact cycle of deals dealt one game after another from ``generator``'s current state."""
    if not isinstance(generator, LCG):
        raise TypeError("the game cycle is computed for LCGs, whose every state can be a batch lane")
    low_state = 1 if generator.c == 0 else 0
    if generator.m - low_state > MAX_STATES:
        raise ValueError(f"every state is a lane: m must be at most {MAX_STATES}; got {generator.m}")
    states = np.arange(low_state, generator.m, dtype=np.uint64)
    batch = LCGBatch(a=generator.a, m=generator.m, c=generator.c, states=states, output=generator.output,
                     low=generator.low)
    draws = BatchDraws(batch, reduce)
    decks = shuffle_decks(n, draws, algo, **options)
    following = batch.current_states().astype(np.int64) - low_state
    order = _walk(following, generator.x - low_state)
    tail = order.index(int(following[order[-1]]))
    cycle = np.array(order[tail:])
    return GameCycle(generator.name, generator.seed, n, algo, reduce, tail, len(cycle),
                     len(np.unique(deck_keys(decks[cycle]))), float(draws.draws[cycle].mean()))


def _walk(following: np.ndarray, start: int) -> list[int]:
    """Follow ``start -> following[start] -> ...`` until a state repeats; return the states in order."""
    seen, order, state = set(), [], start
    while state not in seen:
        seen.add(state)
        order.append(state)
        state = int(following[state])
    return order
