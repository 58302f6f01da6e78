"""The user's own shuffle function, examined exactly (every path of its random answers) or empirically.

A function ``shuffle(items, rng)`` that shuffles ``items`` in place (or returns
the shuffled list) is called with an ``rng`` offering the :class:`random.Random`
methods shuffles call: ``randrange``, ``randint``, ``choice``, ``getrandbits``,
``random``, ``uniform``, ``shuffle`` and ``sample`` (:class:`RandomMethods`, all
built on one uniform draw below a bound).

Exact
    :func:`function_law` runs the function once per possible sequence of
    random answers, depth first: each run replays a prefix of answers and
    takes answer 0 of every new draw, recording its bound, and the next prefix
    is the last path counted up like an odometer. A path whose draws have
    bounds ``b_1 .. b_k`` has probability ``1 / (b_1 ... b_k)`` exactly, so the
    law over the ``n!`` deals is exact. ``random()`` is ``j / 2^k`` with ``j``
    uniform below ``2^k`` (``k`` = :data:`RANDOM_BITS` unless given; CPython's
    own has 53 bits, beyond any enumeration), and a draw may have at most
    :data:`MAX_BRANCHES` answers. A function that asks for more than
    :data:`MAX_DRAWS` values on one path (a rejection loop), asks for
    different draws when a path is replayed (hidden state, or a source other
    than ``rng``), or gives another deal for the same answers, is refused.

Empirical
    :func:`function_position_counts` calls the function ``M`` times with an
    ``rng`` drawing from a real generator through a reducer, one call after
    another on one stream, for the position chi-square.

A call that runs past :data:`CALL_SECONDS` of processor time (a loop that does
not draw) is stopped where the platform allows (a ``SIGPROF`` timer, main
thread only); a function that cannot be loaded, raises or returns something
that is not a deal of the ``n`` items gives ``ValueError`` with one line.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import signal
import sys
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

import numpy as np

from ..generators import Source
from ..reduction.reducers import Reducer
from ..stream import uniforms
from .algorithms import permutation_rank, permutation_unrank
from .draws import SourceDraws, random_integers
from .fairness import EMPIRICAL_SECONDS, ExactFairness, Law, law_fairness

#: Resolution of ``random()`` in the exact enumeration: ``j / 2^k``, ``j`` uniform below ``2^k``.
RANDOM_BITS = 8
#: Most answers one draw may have in the exact enumeration (``randrange(b)``: ``b``; ``getrandbits(k)``: ``2^k``).
MAX_BRANCHES = 2**16
#: Most random values one call may ask for in the exact enumeration (a rejection loop has no last path).
MAX_DRAWS = 1000
#: Largest deck for the exact law over all ``n!`` deals.
EXACT_LIMIT = 10
#: Seconds of enumeration (estimated from the probability covered so far) beyond which it is refused.
EXACT_SECONDS = 60
#: Seconds of enumeration after which the estimate of the total is trusted enough to refuse early.
ESTIMATE_AFTER = 2.0
#: Processor seconds one call of the function may take.
CALL_SECONDS = 1.0
#: Calls of the empirical test timed before the whole run is estimated (and refused beyond its limit).
TIMED_CALLS = 64


class StopCall(BaseException):
    """Raised inside the user's function to end a call (a ``BaseException``: ``except Exception`` lets it pass)."""


# -- loading ---------------------------------------------------------------------------

def load_function(spec: str) -> Callable:
    """The function named by ``"package.module:function"`` or ``"path/to/file.py:function"``.

    The module is imported (a file path is loaded from that file; a dotted
    name is looked up with the current directory first on the path); nothing
    is evaluated as an expression.
    """
    where, _, name = spec.rpartition(":")
    if not where or not name.isidentifier():
        raise ValueError(f"--function must be package.module:function or path/to/file.py:function; got {spec!r}")
    try:
        module = _load_file(where) if where.endswith(".py") else _import(where)
    except ValueError:
        raise
    except (Exception, SystemExit) as error:
        raise ValueError(f"loading {where} failed: {_one_line(error)}") from None
    function = getattr(module, name, None)
    if not callable(function):
        raise ValueError(f"{where} has no function {name}")
    return function


def _load_file(path_text: str):
    path = Path(path_text)
    if not path.is_file():
        raise ValueError(f"no such file: {path_text}")
    name = f"rnglab_user_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _import(dotted: str):
    if not all(part.isidentifier() for part in dotted.split(".")):
        raise ValueError(f"{dotted!r} is not a module name (package.module) nor a .py file")
    added = "" not in sys.path and str(Path.cwd()) not in sys.path
    if added:
        sys.path.insert(0, str(Path.cwd()))
    try:
        return importlib.import_module(dotted)
    except ModuleNotFoundError as error:
        raise ValueError(f"no module named {error.name} (for {dotted})") from None
    finally:
        if added:
            sys.path.remove(str(Path.cwd()))


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:200]}" if text else type(error).__name__


# -- the rng the function receives -------------------------------------------------------

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
        values = range(_integer(start), _integer(stop), _integer(step))
        if not values:
            raise ValueError(f"empty range in randrange({start}, {stop}, {step})")
        return values[self.below(len(values))]

    def randint(self, a, b):
        """A uniform integer in ``[a, b]``, both ends included."""
        return self.randrange(a, _integer(b) + 1)

    def choice(self, seq):
        """A uniform element of a non-empty sequence."""
        if not len(seq):
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def getrandbits(self, k):
        """A uniform integer of ``k`` bits."""
        if _integer(k) < 0:
            raise ValueError("number of bits must be non-negative")
        return self.below(1 << k) if k else 0

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
        if not 0 <= _integer(k) <= n:
            raise ValueError("sample larger than population or is negative")
        picked = []
        for i in range(k):
            j = self.below(n - i)
            picked.append(pool[j])
            pool[j] = pool[n - i - 1]
        return picked


def _integer(value) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"an integer is required; got {type(value).__name__}")
    return value.__index__()


class PathRandom(RandomMethods):
    """The rng of one path: replays ``prefix`` (whose draws had ``bounds``), then answers 0 to each new draw.

    ``taken`` and ``drawn`` record the answers and bounds of the path.
    """

    def __init__(self, prefix: list, bounds: list, random_bits: int):
        self.prefix, self.bounds, self.random_bits = prefix, bounds, random_bits
        self.taken, self.drawn = [], []

    def below(self, bound):
        bound, step = _integer(bound), len(self.taken)
        if not 1 <= bound <= MAX_BRANCHES:
            raise StopCall(f"a draw with {bound} possible answers: the enumeration follows at most "
                           f"{MAX_BRANCHES} per draw")
        if step >= MAX_DRAWS:
            raise StopCall(f"more than {MAX_DRAWS} random values on one path (a rejection loop?): the exact "
                           "enumeration follows finite paths only; give GEN for the empirical test")
        if step < len(self.prefix) and bound != self.bounds[step]:
            raise StopCall(f"replayed with the same answers, draw {step + 1} asked for {bound} values, not "
                           f"{self.bounds[step]}: the function keeps hidden state or draws from another source")
        answer = self.prefix[step] if step < len(self.prefix) else 0
        self.taken.append(answer)
        self.drawn.append(bound)
        return answer

    def random(self):
        """``j / 2^k`` with ``j`` uniform below ``2^k`` (``k = random_bits``)."""
        return self.below(1 << self.random_bits) / (1 << self.random_bits)


class SourceRandom(RandomMethods):
    """An rng drawing from a generator: ``below`` through a reducer, ``random()`` from the uniform gateway."""

    def __init__(self, source: Source, reducer: Reducer | str):
        self.source, self.draws = source, SourceDraws(source, reducer)

    def below(self, bound):
        bound = _integer(bound)
        if bound < 1:
            raise ValueError(f"a draw below {bound}: bounds must be >= 1")
        return int(self.draws.below(bound)[0])

    def getrandbits(self, k):
        """``k`` bits assembled from pieces (:func:`~rnglab.shuffles.draws.random_integers`)."""
        if _integer(k) < 0:
            raise ValueError("number of bits must be non-negative")
        return int(random_integers(self.draws, k)[0]) if k else 0

    def random(self):
        """A uniform in ``[0, 1)``: one output ``(x - low) / R`` (:func:`~rnglab.stream.uniforms`)."""
        return float(uniforms(self.source, 1)[0])


# -- running the function ------------------------------------------------------------------

@contextmanager
def call_timer():
    """Arm :data:`CALL_SECONDS` of processor time per call (``SIGPROF``) where the platform allows.

    Yields ``arm(on)``; the previous ``SIGPROF`` handler is restored on exit.
    """
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield lambda on: None
        return

    def expired(signum, frame):
        raise StopCall(f"a call ran past {CALL_SECONDS} s of processor time without returning (a loop?)")

    previous = signal.signal(signal.SIGPROF, expired)
    try:
        yield lambda on: signal.setitimer(signal.ITIMER_PROF, CALL_SECONDS if on else 0)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def call_once(function: Callable, n: int, rng: RandomMethods, label: str, arm) -> tuple:
    """Call ``function(items, rng)`` on ``items = [0, .., n-1]``; return the deal as a tuple.

    The deal is ``items`` after the call when the function returns ``None``,
    else what it returns; it must be a permutation of ``0 .. n-1``.
    """
    items = list(range(n))
    arm(True)
    try:
        returned = function(items, rng)
    except StopCall as stop:
        raise ValueError(f"{label}: {stop}") from None
    except Exception as error:
        raise ValueError(f"{label} raised {_one_line(error)}") from None
    finally:
        arm(False)
    deal = items if returned is None else returned
    try:
        deal = tuple(deal)
    except TypeError:
        raise ValueError(f"{label} returned {type(returned).__name__}: neither None (in place) nor the deal") from None
    if sorted(deal, key=repr) != sorted(range(n), key=repr) or not all(type(card) is int for card in deal):
        raise ValueError(f"{label} dealt {_short(deal)}: not a permutation of the {n} items 0 .. {n - 1}")
    return deal


def _short(deal) -> str:
    text = repr(list(deal))
    return text if len(text) <= 80 else text[:77] + "..."


# -- exact -----------------------------------------------------------------------------------

def function_law(function: Callable, n: int, *, label: str = "the function", random_bits: int = RANDOM_BITS,
                 seconds: float = EXACT_SECONDS, progress=None) -> tuple[Law, int]:
    """The exact law of ``function`` on ``n`` items under an ideal source, and the number of paths.

    Enumerates every sequence of answers depth first (see the module notes);
    deal ``d`` gets ``sum over its paths of D / (b_1 ... b_k)`` over the common
    denominator ``D``, the least common multiple of the paths' products.
    The first path is replayed at once and the last one at the end: a
    function that answers the same random answers differently keeps state.
    ``progress(fraction)`` is called with the probability covered so far.

    Raises
    ------
    ValueError
        ``n`` outside ``[1, EXACT_LIMIT]``; the function cannot be followed
        (see the module notes); the last path differs on replay; or the
        enumeration is estimated, or found, to take more than ``seconds``.
    """
    if not 1 <= n <= EXACT_LIMIT:
        raise ValueError(f"the exact law of a function is enumerated for n <= {EXACT_LIMIT}; got {n} "
                         "(give GEN for the empirical test)")
    if not 1 <= random_bits <= 16:
        raise ValueError(f"--random-bits must be in [1, 16] for the enumeration; got {random_bits}")
    start = time.monotonic()
    tally, prefix, bounds, covered, paths = Counter(), [], [], 0.0, 0
    with call_timer() as arm:
        while prefix is not None:
            rng = PathRandom(prefix, bounds, random_bits)
            deal = call_once(function, n, rng, label, arm)
            if not paths:
                _check_replay(function, n, label, (deal, rng.taken, rng.drawn), random_bits, arm)
            tally[deal, math.prod(rng.drawn)] += 1
            covered, paths = covered + 1 / math.prod(rng.drawn), paths + 1
            _check_time(start, seconds, covered, paths, progress)
            prefix, bounds = _next_path(rng.taken, rng.drawn)
        _check_replay(function, n, label, (deal, rng.taken, rng.drawn), random_bits, arm)
    return _law(n, tally), paths


def _next_path(taken: list, drawn: list) -> tuple:
    """The next prefix in depth-first order (odometer on the last answer not at its bound), or ``(None, None)``."""
    taken, drawn = list(taken), list(drawn)
    while taken and taken[-1] == drawn[-1] - 1:
        taken.pop()
        drawn.pop()
    if not taken:
        return None, None
    taken[-1] += 1
    return taken, drawn


def _check_time(start: float, seconds: float, covered: float, paths: int, progress) -> None:
    elapsed = time.monotonic() - start
    if progress and paths % 256 == 0:
        progress(covered)
    estimate = elapsed / covered
    if elapsed > seconds or (elapsed > ESTIMATE_AFTER and estimate > seconds):
        raise ValueError(f"enumerating every path would take about {estimate:.3g} s (limit {seconds} s; "
                         f"{paths} paths covered {covered:.3g} of the probability): use a smaller n, "
                         "fewer --random-bits, or GEN for the empirical test")


def _check_replay(function: Callable, n: int, label: str, first: tuple, random_bits: int, arm) -> None:
    """Run a path again (the first, at once, and the last): the same answers must give the same draws and deal."""
    deal, answers, drawn = first
    rng = PathRandom(answers, drawn, random_bits)
    again = call_once(function, n, rng, label, arm)
    if again != deal or rng.drawn != drawn:
        raise ValueError(f"{label} dealt {_short(again)} on replaying the answers that gave {_short(deal)}: "
                         "it keeps hidden state (or draws from another source), so no law can be enumerated")


def _law(n: int, tally: Counter) -> Law:
    """The law over all ``n!`` deals (indexed by lexicographic rank) from ``{(deal, path product): paths}``."""
    denominator = math.lcm(*{product for _, product in tally})
    deals = list({deal for deal, _ in tally})
    ranks = permutation_rank(np.array(deals, dtype=np.int64).reshape(len(deals), n))
    index = dict(zip(deals, ranks.tolist()))
    counts = np.zeros(math.factorial(n), dtype=object)
    counts[:] = 0
    for (deal, product), paths in tally.items():
        counts[index[deal]] += paths * (denominator // product)
    return Law(n, counts, None, denominator, lambda rank: permutation_unrank(rank, n))


def function_fairness(function: Callable, n: int, *, label: str, random_bits: int = RANDOM_BITS,
                      seconds: float = EXACT_SECONDS, progress=None) -> ExactFairness:
    """Exact fairness of a user's function (:func:`function_law`), as rnglab's own algorithms report it."""
    law, paths = function_law(function, n, label=label, random_bits=random_bits, seconds=seconds, progress=progress)
    source = f"ideal source, random() at {random_bits} bits, {paths} paths enumerated"
    return law_fairness(law, label, source)


# -- empirical ------------------------------------------------------------------------------

def function_position_counts(function: Callable, n: int, source: Source, reducer: Reducer | str, shuffles: int,
                             *, label: str = "the function", progress=None) -> np.ndarray:
    """``counts[card, position]`` over ``shuffles`` calls of ``function`` on one stream (one after another).

    Raises ``ValueError`` when the first calls show that all of them would take
    more than :data:`EMPIRICAL_SECONDS`.
    """
    rng, counts, positions = SourceRandom(source, reducer), np.zeros((n, n), dtype=np.int64), np.arange(n)
    start = time.monotonic()
    with call_timer() as arm:
        for done in range(shuffles):
            counts[list(call_once(function, n, rng, label, arm)), positions] += 1
            if done == TIMED_CALLS:
                _check_empirical_time(time.monotonic() - start, done, shuffles)
            if progress:
                progress(1)
    return counts


def _check_empirical_time(elapsed: float, done: int, shuffles: int) -> None:
    estimate = elapsed / done * shuffles
    if estimate > EMPIRICAL_SECONDS:
        raise ValueError(f"{shuffles} calls would take about {estimate:.3g} s (limit {EMPIRICAL_SECONDS} s): "
                         f"up to {int(EMPIRICAL_SECONDS * done / elapsed)} fit")
