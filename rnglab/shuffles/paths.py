"""Every path of a shuffle's random answers, enumerated: the exact law of code that draws as it goes.

A shuffle given as code, ``shuffle(items, rng)``, shuffles ``items`` in place
(or returns the shuffled list) with an ``rng`` offering the
:class:`random.Random` methods shuffles call (:class:`RandomMethods`:
``randrange``, ``randint``, ``choice``, ``getrandbits``, ``random``,
``uniform``, ``shuffle``, ``sample``, all on one uniform draw below a bound)
and weighted choices (:meth:`PathRandom.choose`, for coins that are not fair).

:func:`enumerate_deals` runs it once per possible sequence of answers, depth
first: each run replays a prefix of answers and takes answer 0 of every new
draw, recording the draw, and the next prefix is the last path counted up like
an odometer. A path whose draws have bounds ``b_1 .. b_k`` has probability
``1 / (b_1 ... b_k)`` exactly, so the law over the deals is exact.
``random()`` is ``j / 2^k`` with ``j`` uniform below ``2^k`` (``k`` =
:data:`RANDOM_BITS` unless given; CPython's own has 53 bits, beyond any
enumeration), and a draw may have at most :data:`MAX_BRANCHES` answers.

Code that asks for more than :data:`MAX_DRAWS` values on one path (a rejection
loop), asks for other draws when a path is replayed, or deals differently for
the same answers (hidden state, or a source other than ``rng``) is refused; so
is code that raises (named with the user's file:line) and a result that is not
a deal of the ``n`` items: ``ValueError`` with one line;
:class:`BeyondEnumeration` where the function is sound but the enumeration
cannot follow it, so that each command adds its own advice.

The enumeration is budgeted by its size, never by a clock: the paths followed
and the values they drew, at the rates of :data:`~rnglab.core.rates.PATH_SECONDS`
(:func:`path_seconds`), checked every :data:`BATCH_PATHS` paths against the
limit of an exact computation (:data:`~rnglab.core.rates.EXACT_SECONDS`), so a
function is enumerated, or refused, alike on every machine and under any load.

The paths are followed in batches (:func:`follow_paths`), here or, for a
user's function, in its child process (:mod:`rnglab.shuffles.sandbox`), whose
wall-clock and memory limits guard against code that never returns: a safety
limit, met only by a call that runs past it (a function run here, rnglab's own
or a test's, is trusted to return).
"""

from __future__ import annotations

import math
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rnglab.core.rates import EXACT_SECONDS, PATH_SECONDS, check_work

#: Resolution of ``random()`` in the exact enumeration: ``j / 2^k``, ``j`` uniform below ``2^k``.
RANDOM_BITS = 8
#: Finest resolution of ``random()`` the enumeration follows.
MAX_RANDOM_BITS = 16
#: Most answers one draw may have in the exact enumeration (``randrange(b)``: ``b``; ``getrandbits(k)``: ``2^k``).
MAX_BRANCHES = 2**16
#: Most random values one call may ask for in the exact enumeration (a rejection loop has no last path).
MAX_DRAWS = 1000
#: Largest deck for the exact law over all ``n!`` deals.
EXACT_LIMIT = 10
#: Seconds of enumeration, by its size (:func:`path_seconds`), after which the estimate of the total is trusted
#: enough to refuse early.
ESTIMATE_AFTER = 2.0
#: rnglab's own source folder: frames outside it are the user's.
RNGLAB_FOLDER = str(Path(__file__).resolve().parents[1])


class StopCall(BaseException):
    """Raised inside the user's function to end a call (a ``BaseException``: ``except Exception`` lets it pass)."""


class StopBeyond(StopCall):
    """A call ended because the enumeration cannot follow it (:class:`BeyondEnumeration`)."""


def one_line(error: BaseException) -> str:
    """An exception as one short line: its type and its message with the whitespace runs joined."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:200]}" if text else type(error).__name__


class RandomMethods:
    """The :class:`random.Random` methods shuffles call, on one primitive: :meth:`below`.

    ``below(bound)`` is a uniform integer in ``[0, bound)``; ``random()`` is
    given by the subclass. ``randrange``, ``randint``, ``choice``, ``shuffle``
    and ``sample`` follow CPython 3's ``random`` module (its ``_randbelow`` is
    :meth:`below`; ``shuffle`` is Durstenfeld's from the end, ``sample`` the
    pool method CPython uses for small populations), so with an ideal
    ``below`` their laws are CPython's.
    """

    def below(self, bound: int) -> int:
        raise NotImplementedError

    def random(self) -> float:
        raise NotImplementedError

    def randrange(self, start, stop=None, step=1):
        """A uniform element of ``range(start, stop, step)`` (or ``range(start)``)."""
        if stop is None:
            start, stop = 0, start
        values = range(integer(start), integer(stop), integer(step))
        if not values:
            raise ValueError(f"empty range in randrange({start}, {stop}, {step})")
        return values[self.below(len(values))]

    def randint(self, a, b):
        """A uniform integer in ``[a, b]``, both ends included."""
        return self.randrange(a, integer(b) + 1)

    def choice(self, seq):
        """A uniform element of a non-empty sequence."""
        if not len(seq):
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def getrandbits(self, k):
        """A uniform integer of ``k`` bits (:meth:`bits`)."""
        if integer(k) < 0:
            raise ValueError("number of bits must be non-negative")
        return self.bits(k) if k else 0

    def bits(self, k: int) -> int:
        """``k >= 1`` uniform bits: one draw below ``2^k``."""
        return self.below(1 << k)

    def uniform(self, a, b):
        """``a + (b - a) random()``."""
        return a + (b - a) * self.random()

    def shuffle(self, x):
        """CPython 3's ``random.shuffle``: for i = len-1 down to 1, swap i with ``below(i + 1)``."""
        for i in reversed(range(1, len(x))):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k):
        """CPython's pool method: ``k`` picks without replacement, pick ``i`` by ``below(n - i)``."""
        pool, n = list(population), len(population)
        if not 0 <= integer(k) <= n:
            raise ValueError("sample larger than population or is negative")
        picked = []
        for i in range(k):
            j = self.below(n - i)
            picked.append(pool[j])
            pool[j] = pool[n - i - 1]
        return picked


def integer(value) -> int:
    """``value`` as an int, for anything with ``__index__`` but a bool (as ``random`` accepts)."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"an integer is required; got {type(value).__name__}")
    return value.__index__()


class PathRandom(RandomMethods):
    """The rng of one path: replays ``prefix`` (whose draws were ``keys``), then answers 0 to each new draw.

    A draw's key is its bound ``b`` (``b`` equally likely answers) or a tuple
    of integer weights (answer ``i`` with probability ``w_i / sum(w)``, see
    :meth:`choose`). ``taken`` and ``drawn`` record the path's answers and
    keys; its probability is ``numerator / denominator``.
    """

    def __init__(self, prefix: list, keys: list, random_bits: int = 1):
        self.prefix, self.keys, self.random_bits = prefix, keys, random_bits
        self.taken, self.drawn, self.numerator, self.denominator = [], [], 1, 1

    def below(self, bound):
        bound = integer(bound)
        if not 1 <= bound <= MAX_BRANCHES:
            raise StopBeyond(f"a draw with {bound} possible answers: the enumeration follows at most "
                           f"{MAX_BRANCHES} per draw")
        return self._answer(bound)

    def choose(self, weights: tuple) -> int:
        """Answer ``i`` with probability ``weights[i] / sum(weights)`` (integer weights)."""
        return self._answer(tuple(weights))

    def random(self):
        """``j / 2^k`` with ``j`` uniform below ``2^k`` (``k = random_bits``)."""
        return self.below(1 << self.random_bits) / (1 << self.random_bits)

    def _answer(self, key) -> int:
        step = len(self.taken)
        if step >= MAX_DRAWS:
            raise StopBeyond(f"more than {MAX_DRAWS} random values on one path (a rejection loop?): the exact "
                             "enumeration follows finite paths only")
        if step < len(self.prefix) and key != self.keys[step]:
            raise StopCall(f"replayed with the same answers, draw {step + 1} asked for {_what(key)}, not "
                           f"{_what(self.keys[step])}: the function keeps hidden state or draws from another source")
        answer = self.prefix[step] if step < len(self.prefix) else 0
        self.taken.append(answer)
        self.drawn.append(key)
        self.numerator *= 1 if isinstance(key, int) else key[answer]
        self.denominator *= key if isinstance(key, int) else sum(key)
        return answer


def _branches(key) -> int:
    return key if isinstance(key, int) else len(key)


def _what(key) -> str:
    return f"{key} values" if isinstance(key, int) else f"weights {key}"


@dataclass(frozen=True)
class DealWeights:
    """Deal ``d`` (a tuple, the items at positions 0..n-1) has probability ``weights[d] / denominator``."""

    n: int
    weights: dict
    denominator: int
    paths: int


# -- running the code ---------------------------------------------------------------------

def call_once(function: Callable, n: int, rng: RandomMethods, label: str) -> tuple:
    """Call ``function(items, rng)`` on ``items = [0, .., n-1]``; return the deal as a tuple.

    The deal is ``items`` after the call when the function returns ``None``,
    else what it returns; it must be a permutation of ``0 .. n-1``.
    """
    items = list(range(n))
    try:
        returned = function(items, rng)
    except StopBeyond as stop:
        raise BeyondEnumeration(f"{label}: {stop}") from None
    except StopCall as stop:
        raise ValueError(f"{label}: {stop}") from None
    except Exception as error:  # noqa: BLE001 - the user's code may raise anything
        raise ValueError(f"{label} raised {one_line(error)}{where_raised(error)}") from None
    dealt = items if returned is None else returned
    try:
        deal = tuple(integer(card) for card in dealt)
    except TypeError:
        raise ValueError(f"{label} returned {_short(dealt)}: neither None (shuffled in place) nor a list of "
                         "the items") from None
    if sorted(deal) != list(range(n)):
        raise ValueError(f"{label} dealt {_short(deal)}: not a permutation of the {n} items 0 .. {n - 1}")
    return deal


def where_raised(error: BaseException) -> str:
    """`` at file.py:line``: the last line of the traceback outside rnglab (the user's code), or ``""``."""
    lines = [f"{frame.f_code.co_filename}:{line}" for frame, line in traceback.walk_tb(error.__traceback__)
             if not frame.f_code.co_filename.startswith(RNGLAB_FOLDER)]
    return f" at {lines[-1]}" if lines else ""


def _short(deal) -> str:
    text = repr(deal)
    return text if len(text) <= 80 else text[:77] + "..."


# -- enumeration -----------------------------------------------------------------------------

#: Paths between two checks of the enumeration's size: a batch (:func:`follow_paths`) ends at the next multiple,
#: so the checks fall at the same paths on every machine. A batch may also end after :data:`BATCH_SECONDS`.
BATCH_PATHS = 4096
#: Seconds after which a batch ends early: its size only (the paths followed, the law and the checks are the same),
#: so that a batch of slow calls stays within the sandbox's wall clock.
BATCH_SECONDS = 0.5


@dataclass(frozen=True)
class PathBatch:
    """The paths followed from one prefix on, in depth-first order.

    ``tally[deal, product]`` sums the numerators of the paths onto ``deal``
    whose bounds multiply to ``product``; ``covered`` is the probability of
    every path so far (the total handed to :func:`follow_paths`, then each
    path's added in order: the same float however the paths are cut into
    batches); ``draws`` the values these paths asked for; ``following`` is
    the next prefix and its draws (``(None, None)`` after the last path).
    """

    tally: Counter
    covered: float
    paths: int
    draws: int
    following: tuple


class BeyondEnumeration(ValueError):
    """The function is well behaved but the enumeration cannot follow it: too many draws on a path, too many
    answers to one draw, or too many paths (:func:`check_paths`). The commands add their own advice."""


class InProcess:
    """Runs a function here, in this process (rnglab's own shuffles; a user's function runs in a child process,
    :mod:`rnglab.shuffles.sandbox`, with the same methods)."""

    def __init__(self, function: Callable):
        self.function = function

    def follow_paths(self, n: int, label: str, random_bits: int, following: tuple, most: int,
                     covered: float) -> PathBatch:
        """:func:`follow_paths` of the function."""
        return follow_paths(self.function, n, label, random_bits, following, most, covered)


def runner_of(function) -> object:
    """``function`` itself when it has its own runner methods (a sandboxed session), else :class:`InProcess`."""
    return function if hasattr(function, "follow_paths") else InProcess(function)


def follow_paths(function: Callable, n: int, label: str, random_bits: int, following: tuple,
                 most: int = BATCH_PATHS, covered: float = 0.0) -> PathBatch:
    """Follow up to ``most`` paths from the prefix ``following = (answers, draws)`` on (fewer when
    :data:`BATCH_SECONDS` have passed: at least one), the paths before it covering ``covered``.

    The first path of all (empty prefix) is replayed at once and the last one
    at the end (:func:`_check_replay`).
    """
    prefix, bounds = following
    tally, paths, draws, start = Counter(), 0, 0, time.monotonic()
    while prefix is not None and paths < most and (not paths or time.monotonic() - start < BATCH_SECONDS):
        first = not prefix
        rng = PathRandom(prefix, bounds, random_bits)
        deal = call_once(function, n, rng, label)
        if first:
            _check_replay(function, n, label, (deal, rng.taken, rng.drawn), random_bits)
        tally[deal, rng.denominator] += rng.numerator
        covered, paths, draws = covered + rng.numerator / rng.denominator, paths + 1, draws + len(rng.taken)
        prefix, bounds = _next_path(rng.taken, rng.drawn)
        if prefix is None:
            _check_replay(function, n, label, (deal, rng.taken, rng.drawn), random_bits)
    return PathBatch(tally, covered, paths, draws, (prefix, bounds))


def enumerate_deals(function, n: int, *, label: str = "the function", random_bits: int = RANDOM_BITS,
                    seconds: float = EXACT_SECONDS, progress=None) -> DealWeights:
    """The exact probability of every deal ``function`` makes of ``n`` items under an ideal source.

    Enumerates every sequence of answers depth first (see the module notes),
    in batches (:func:`follow_paths`, run by :func:`runner_of`: here, or in
    the child process of a user's function); deal ``d`` gets ``sum over its
    paths of D / (b_1 ... b_k)`` over the common denominator ``D``, the least
    common multiple of the paths' products (weighted draws,
    :meth:`PathRandom.choose`: ``D w_1 .. w_k / (W_1 .. W_k)``). The first
    path is replayed at once and the last one at the end: a function that
    answers the same random answers differently keeps state.
    ``progress(fraction)`` is called with the probability covered so far.

    Raises
    ------
    ValueError
        ``n`` outside ``[1, EXACT_LIMIT]``; the function cannot be followed
        (see the module notes); the last path differs on replay.
    BeyondEnumeration
        The enumeration is estimated, or found, by its size, to take more
        than ``seconds`` (:func:`check_paths`); a path draws too often, or a
        draw has too many answers.
    """
    if not 1 <= n <= EXACT_LIMIT:
        raise BeyondEnumeration(f"the exact law of a function is enumerated for n <= {EXACT_LIMIT}; got {n}")
    if not 1 <= random_bits <= MAX_RANDOM_BITS:
        raise ValueError(f"the resolution of random() must be in [1, {MAX_RANDOM_BITS}] bits for the enumeration; "
                         f"got {random_bits}")
    runner = runner_of(function)
    tally, following, covered, paths, draws = Counter(), ([], []), 0.0, 0, 0
    while following[0] is not None:
        batch = runner.follow_paths(n, label, random_bits, following, BATCH_PATHS - paths % BATCH_PATHS, covered)
        tally.update(batch.tally)
        covered, paths, draws = batch.covered, paths + batch.paths, draws + batch.draws
        following = batch.following
        if following[0] is not None and paths % BATCH_PATHS == 0:
            check_paths(paths, draws, covered, seconds, label)
        if progress:
            progress(covered)
    denominator = math.lcm(*{product for _, product in tally})
    weights = Counter()
    for (deal, product), numerator in tally.items():
        weights[deal] += numerator * (denominator // product)
    return DealWeights(n, dict(weights), denominator, paths)


def _next_path(taken: list, drawn: list) -> tuple:
    """The next prefix in depth-first order (odometer on the last answer not at its bound), or ``(None, None)``."""
    taken, drawn = list(taken), list(drawn)
    while taken and taken[-1] == _branches(drawn[-1]) - 1:
        taken.pop()
        drawn.pop()
    if not taken:
        return None, None
    taken[-1] += 1
    return taken, drawn


def path_seconds(paths: int, draws: int) -> float:
    """Estimated seconds of following ``paths`` paths that asked for ``draws`` values in all: ``paths a + draws b``
    with ``(a, b)`` = :data:`~rnglab.core.rates.PATH_SECONDS` (a measure of the size, the same on every machine)."""
    per_path, per_draw = PATH_SECONDS
    return paths * per_path + draws * per_draw


def check_paths(paths: int, draws: int, covered: float, seconds: float, label: str) -> None:
    """Refuse an enumeration whose size, so far or estimated, exceeds ``seconds`` (:func:`path_seconds`).

    The first ``paths`` paths drew ``draws`` values and cover the probability
    ``covered``; the whole enumeration is estimated as ``path_seconds / covered``
    once the work done exceeds :data:`ESTIMATE_AFTER` (or ``seconds``). The
    refusal is :class:`BeyondEnumeration`, said by
    :func:`~rnglab.core.rates.check_work` with the paths of that mean length
    that fit.
    """
    done = path_seconds(paths, draws)
    if done <= min(ESTIMATE_AFTER, seconds):
        return
    estimate = done / covered if covered else math.inf
    fit = int(seconds / path_seconds(1, draws / paths))
    check_work(estimate, seconds, f"enumerating every path of {label} ({paths} paths covered {covered:.3g} of the "
               "probability)", f"about {fit} paths of {draws / paths:.3g} draws fit", BeyondEnumeration)


#: A function that deals from a source of its own (not ``rng``) escapes :func:`_check_replay` with probability at
#: most 2^-REPLAY_BITS when that source is uniform: it is replayed until ``(n!)^-replays`` is that small.
REPLAY_BITS = 40


def replays(n: int) -> int:
    """How many times :func:`_check_replay` runs a path: ``ceil(REPLAY_BITS / log2 n!)`` (one for ``n <= 1``, whose one
    deal no source can change). Two replays let a uniform shuffle of 4 items from another source through once in
    576 runs (seen in CI); 9 replays, once in 2^41."""
    bits = sum(math.log2(k) for k in range(2, min(n, 16) + 1))  # log2 n!, capped at log2 16! > REPLAY_BITS
    return 1 if n <= 1 else math.ceil(REPLAY_BITS / bits)


def _check_replay(function: Callable, n: int, label: str, first: tuple, random_bits: int) -> None:
    """Run a path again, :func:`replays` times (the first, at once, and the last): the same answers must give the
    same draws and deal."""
    deal, answers, drawn = first
    for _ in range(replays(n)):
        rng = PathRandom(answers, drawn, random_bits)
        again = call_once(function, n, rng, label)
        if again != deal or rng.drawn != drawn:
            raise ValueError(f"{label} dealt {_short(again)} on replaying the answers that gave {_short(deal)}: "
                             "it keeps hidden state (or draws from another source), so no law can be enumerated")


