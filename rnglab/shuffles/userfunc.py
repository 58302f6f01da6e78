"""The user's own shuffle function, loaded from its file and examined exactly or empirically.

``rnglab fairness --function path/to/file.py:shuffle``: the function
``shuffle(items, rng)`` runs in a child process (:mod:`rnglab.shuffles.sandbox`:
a wall clock, a memory limit, its output kept apart, every way it can end
reported in one line). It is examined exactly by enumerating every path of
its random answers (:mod:`rnglab.shuffles.paths`), giving its law over the
``n!`` deals, its position matrix and rnglab's exact fairness summary; or
empirically, called ``M`` times with an ``rng`` drawing from a real generator
through a reducer (:class:`SourceRandom`), one call after another on one
stream, for the position chi-square. Either way the calls go to the child in
batches. A plain Python callable (rnglab's own, or a test's) runs in this
process.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from rnglab.generators import Source
from rnglab.reduction.reducers import Reducer
from rnglab.shuffles.draws import SourceDraws, random_integers
from rnglab.shuffles.paths import (
    BATCH_SECONDS,
    RANDOM_BITS,
    InProcess,
    RandomMethods,
    call_once,
    enumerate_deals,
    integer,
)
from rnglab.shuffles.sandbox import UserFunction, user_function
from rnglab.streams.gateway import uniforms

if TYPE_CHECKING:
    from rnglab.shuffles.fairness import ExactFairness

#: Outputs read ahead per card before each call of the empirical test (more are drawn one by one).
READ_AHEAD = 4
#: Calls of the empirical test in one batch after the timed ones.
POSITION_BATCH = 2048


# -- loading ---------------------------------------------------------------------------

def load_function(spec: str, folder: Path | None = None) -> UserFunction:
    """The function named by ``"path/to/file.py:function"``, imported once in a child process to check it.

    Only a Python file is accepted, not a module name. With ``folder`` (an
    audit's TOML folder), the file must lie in that folder itself once every
    link is resolved. Anything the import does becomes one ``ValueError`` line.
    """
    where, _, name = spec.rpartition(":")
    if not where.endswith(".py") or not name.isidentifier():
        raise ValueError(f"a function is given as path/to/file.py:function (a Python file); got {spec!r}")
    path = Path(where) if folder is None else _in_folder(Path(where), folder)
    if not path.is_file():
        raise ValueError(f"no such file: {where}")
    return user_function(path, name, spec)


def _in_folder(path: Path, folder: Path) -> Path:
    """``folder / path``, refused unless it resolves to a file in ``folder`` itself (no ``..``, no link out)."""
    resolved = (folder / path).resolve()
    if path.is_absolute() or resolved.parent != folder.resolve():
        raise ValueError(f"function = {str(path)!r}: the file must be a .py file in the TOML file's own folder "
                         f"({folder.resolve()}), named without a folder; an audit TOML runs that code")
    return resolved


class Running(InProcess):
    """A plain callable run here, with the methods of a child process (:class:`~rnglab.shuffles.sandbox.Child`)."""

    def count_positions(self, n: int, rng: SourceRandom, shuffles: int, label: str) -> tuple:
        """:func:`count_positions` of the function."""
        return count_positions(self.function, n, rng, shuffles, label), rng


def running(function: UserFunction | Callable):
    """A context giving the function's runner: its child process for a user's function, the runner itself for
    one already running (a child, or :class:`Running`), else :class:`Running`."""
    if isinstance(function, UserFunction):
        return function.running()
    return nullcontext(function if hasattr(function, "count_positions") else Running(function))


class SourceRandom(RandomMethods):
    """An rng drawing from a generator: ``below`` through a reducer, ``random()`` from the uniform gateway.

    :meth:`read_ahead` reads the next outputs in one block and hands them back
    (``Source.unread``): the stream is unchanged, and single draws are then
    served from memory instead of one generator call each.
    """

    def __init__(self, source: Source, reducer: Reducer):
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
        """A uniform in ``[0, 1)``: one output ``(x - low) / R`` (:func:`~rnglab.streams.gateway.uniforms`)."""
        return float(uniforms(self.source, 1)[0])


# -- exact ----------------------------------------------------------------------------------

def function_fairness(function: UserFunction | Callable, n: int, *, label: str, random_bits: int = RANDOM_BITS,
                      seconds: float | None = None, progress=None) -> ExactFairness:
    """Exact fairness of a user's function (:func:`~rnglab.shuffles.paths.enumerate_deals`), as rnglab reports its own."""
    from rnglab.core.rates import EXACT_SECONDS
    from rnglab.shuffles.fairness import deal_law, law_fairness

    with running(function) as runner:
        deals = enumerate_deals(runner, n, label=label, random_bits=random_bits,
                                seconds=EXACT_SECONDS if seconds is None else seconds, progress=progress)
    source = f"ideal source, random() at {random_bits} bits, {deals.paths} paths enumerated"
    return law_fairness(deal_law(deals), label, source)


# -- empirical ------------------------------------------------------------------------------

def count_positions(function: Callable, n: int, rng: SourceRandom, shuffles: int, label: str) -> np.ndarray:
    """``counts[card, position]`` over ``shuffles`` calls of ``function`` with ``rng`` (one after another), or
    fewer when :data:`~rnglab.shuffles.paths.BATCH_SECONDS` have passed (at least one; the calls made are
    ``counts[0].sum()``, and the stream is the same however the calls are cut into batches)."""
    counts, positions, start = np.zeros((n, n), dtype=np.int64), np.arange(n), time.monotonic()
    compile_draws(rng, n)
    for done in range(shuffles):
        if done and time.monotonic() - start > BATCH_SECONDS:
            break
        rng.read_ahead(READ_AHEAD * n)
        counts[list(call_once(function, n, rng, label)), positions] += 1
    return counts


def compile_draws(rng: SourceRandom, n: int) -> None:
    """Draw once from a copy of ``rng``: its compiled code is made (or loaded) before any call is timed."""
    spare = copy.deepcopy(rng)
    spare.below(max(n, 2))
    spare.random()


def function_position_counts(function: UserFunction | Callable, n: int, source: Source, reducer: Reducer,
                             shuffles: int, *, label: str = "the function", progress=None) -> np.ndarray:
    """``counts[card, position]`` over ``shuffles`` calls of ``function`` on one stream (one after another).

    The calls go in batches (:func:`count_positions`, in the function's child
    process for a user's function): up to :data:`POSITION_BATCH` at a time. Raises ``ValueError`` up front when
    ``shuffles`` calls exceed, by their size at the deck-at-a-time rate,
    :data:`~rnglab.shuffles.fairness.EMPIRICAL_SECONDS`
    (:func:`~rnglab.shuffles.fairness.check_empirical_work`). ``source`` itself
    is read from only when the function runs in this process.
    """
    from rnglab.shuffles.fairness import check_empirical_work

    check_empirical_work(shuffles, n, label, "deck at a time")
    rng, counts, done = SourceRandom(source, reducer), np.zeros((n, n), dtype=np.int64), 0
    with running(function) as runner:
        while done < shuffles:
            batch, rng = runner.count_positions(n, rng, min(shuffles - done, POSITION_BATCH), label)
            made = int(batch[0].sum())
            counts, done = counts + batch, done + made
            if progress:
                progress(made)
    return counts
