"""The user's own shuffle function, loaded by name and examined exactly or empirically.

``rnglab fairness --function package.module:shuffle`` (or ``path/file.py:shuffle``):
the function ``shuffle(items, rng)`` is examined exactly by enumerating every
path of its random answers (:mod:`rnglab.shuffles.paths`), giving its law over
the ``n!`` deals, its position matrix and rnglab's exact fairness summary; or
empirically, called ``M`` times with an ``rng`` drawing from a real generator
through a reducer (:class:`SourceRandom`), one call after another on one
stream, for the position chi-square.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..generators import Source
from ..reduction.reducers import Reducer
from ..stream import uniforms
from .draws import SourceDraws, random_integers
from .fairness import EMPIRICAL_SECONDS, ExactFairness, deal_law, law_fairness
from .paths import EXACT_SECONDS, RANDOM_BITS, RandomMethods, call_once, call_timer, enumerate_deals, integer, one_line

#: Outputs read ahead per card before each call of the empirical test (more are drawn one by one).
READ_AHEAD = 4
#: Calls of the empirical test timed before the whole run is estimated (and refused beyond its limit).
TIMED_CALLS = 64


# -- loading ---------------------------------------------------------------------------

def load_function(spec: str) -> Callable:
    """The function named by ``"package.module:function"`` or ``"path/to/file.py:function"``.

    The module is imported (a file path is loaded from that file; a dotted
    name is looked up with the current directory first on the path); nothing
    is evaluated as an expression. Anything the import raises becomes one line.
    """
    where, _, name = spec.rpartition(":")
    if not where or not name.isidentifier():
        raise ValueError(f"--function must be package.module:function or path/to/file.py:function; got {spec!r}")
    module = _load_file(where) if where.endswith(".py") else _import(where)
    function = getattr(module, name, None)
    if not callable(function):
        raise ValueError(f"{where} has no function {name}")  # noqa: TRY004 - a bad value of --function
    return function


def _load_file(path_text: str):
    path = Path(path_text)
    if not path.is_file():
        raise ValueError(f"no such file: {path_text}")
    name = f"rnglab_user_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    _importing(path_text, spec.loader.exec_module, module)
    return module


def _import(dotted: str):
    if not all(part.isidentifier() for part in dotted.split(".")):
        raise ValueError(f"{dotted!r} is not a module name (package.module) nor a .py file")
    added = "" not in sys.path and str(Path.cwd()) not in sys.path
    if added:
        sys.path.insert(0, str(Path.cwd()))
    try:
        return _importing(dotted, importlib.import_module, dotted)
    finally:
        if added:
            sys.path.remove(str(Path.cwd()))


def _importing(where: str, load: Callable, argument):
    """``load(argument)``, with whatever the module's code raises turned into one ``ValueError`` line."""
    try:
        return load(argument)
    except ModuleNotFoundError as error:
        raise ValueError(f"no module named {error.name} (loading {where})") from None
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the user's module may raise anything
        raise ValueError(f"loading {where} failed: {one_line(error)}") from None


class SourceRandom(RandomMethods):
    """An rng drawing from a generator: ``below`` through a reducer, ``random()`` from the uniform gateway.

    :meth:`read_ahead` reads the next outputs in one block and hands them back
    (``Source.unread``): the stream is unchanged, and single draws are then
    served from memory instead of one generator call each.
    """

    def __init__(self, source: Source, reducer: Reducer | str):
        self.source, self.draws = source, SourceDraws(source, reducer)

    def read_ahead(self, count: int) -> None:
        """Read the next ``count`` outputs at once and hand them back, in order."""
        self.source.unread(self.source.random_raw(count))

    def below(self, bound):
        return int(self.draws.below(integer(bound))[0])

    def bits(self, k):
        """``k`` bits assembled from pieces (:func:`~rnglab.shuffles.draws.random_integers`)."""
        return int(random_integers(self.draws, k)[0])

    def random(self):
        """A uniform in ``[0, 1)``: one output ``(x - low) / R`` (:func:`~rnglab.stream.uniforms`)."""
        return float(uniforms(self.source, 1)[0])


# -- exact ----------------------------------------------------------------------------------

def function_fairness(function: Callable, n: int, *, label: str, random_bits: int = RANDOM_BITS,
                      seconds: float = EXACT_SECONDS, progress=None) -> ExactFairness:
    """Exact fairness of a user's function (:func:`~rnglab.shuffles.paths.enumerate_deals`), as rnglab reports its own."""
    deals = enumerate_deals(function, n, label=label, random_bits=random_bits, seconds=seconds, progress=progress)
    source = f"ideal source, random() at {random_bits} bits, {deals.paths} paths enumerated"
    return law_fairness(deal_law(deals), label, source)


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
            rng.read_ahead(READ_AHEAD * n)
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
