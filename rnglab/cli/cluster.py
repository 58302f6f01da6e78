"""Options that take chunked work beyond one process: ``--cluster``, ``--workers``, ``--journal``, ``--chunk``, ``--device``.

They are resolved here into one :class:`Scale` handed to the command; the work
itself is :mod:`rnglab.parallel` (dask is imported only when a cluster is asked
for). Each command takes the options that fit it (:func:`scale_options`).
"""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass

import click

from rnglab.cli.choices import DEVICE_NAMES
from rnglab.cli.common import IntExpr, lazy

check_placement = lazy("parallel.cluster", "check_placement")
open_journal = lazy("parallel.journal", "open_journal")


@dataclass(frozen=True)
class Scale:
    """Where and how chunked work runs: scheduler address or local workers, journal file, units per task, device."""

    cluster: str | None = None
    workers: int | None = None
    journal: str | None = None
    chunk: int | None = None
    device: str = "cpu"

    @property
    def engaged(self) -> bool:
        """True when the work goes through :mod:`rnglab.parallel` (any option given)."""
        return self != Scale()


def scale_options(journal: bool = True, chunk: str | None = "SEEDS", device: bool = False):
    """Add ``--cluster`` and ``--workers``, and ``--journal``, ``--chunk UNITS``, ``--device`` where asked; pass ``scale``.

    Parameters
    ----------
    journal : bool
        Whether the work is long enough to resume (``--journal FILE``).
    chunk : str or None
        The unit of ``--chunk`` (``SEEDS``, ``CANDIDATES``); ``None``: no ``--chunk``.
    device : bool
        Whether the work has a GPU kernel (``--device``).
    """
    options = [
        click.option("--cluster", default=None, metavar="tcp://HOST:PORT",
                     help="Run the chunks on an existing dask.distributed scheduler (pip install rnglab[cluster])."),
        click.option("--workers", type=IntExpr(minimum=1), default=None, metavar="N",
                     help="Run the chunks on N worker processes of this machine (a local dask cluster)."),
    ]
    if journal:
        options.append(click.option("--journal", default=None, metavar="FILE",
                                    help="Record each finished chunk in FILE; the same command with the same FILE "
                                         "resumes."))
    if chunk:
        options.append(click.option("--chunk", type=IntExpr(minimum=1), default=None, metavar=chunk,
                                    help=f"{chunk.capitalize()} per task (default: seconds of work, several tasks "
                                         "per worker)."))
    if device:
        options.append(click.option("--device", type=click.Choice(list(DEVICE_NAMES)), default="cpu",
                                    show_default=True,
                                    help="Run the compiled kernel on the CPU or on a CUDA GPU (numba.cuda); "
                                         "the GPU's speed has not been measured."))

    def decorate(command):
        @functools.wraps(command)
        def wrapper(*args, cluster=None, workers=None, journal=None, chunk=None, device="cpu", **kwargs):
            try:
                check_placement(cluster, workers)  # refused before any work starts
            except ValueError as error:
                raise click.UsageError(str(error)) from None
            return command(*args, scale=Scale(cluster, workers, journal, chunk, device), **kwargs)

        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper

    return decorate


def exit_incomplete(failures, journal: str | None, resume: str, unit: str = "seeds", note: str = "") -> None:
    """Say which chunks failed and how to go on, then exit 1 (chunks failed) or 130 (interrupted).

    ``resume``: the ``--seeds`` (or other) ranges left, for a run without a journal;
    ``unit`` and ``note`` name the failed ranges (``seeds 0..99 (searched space)``).
    """
    for failure in failures:
        click.echo(f"Failed: {unit} {failure.first}..{failure.stop - 1}{note} after every retry: {failure.error}",
                   err=True)
    again = f"run the same command (journal {journal})" if journal else f"resume with {resume}"
    click.echo(f"{'Incomplete' if failures else 'Interrupted'}: {again}", err=True)
    raise click.exceptions.Exit(1 if failures else 130)


@contextlib.contextmanager
def held_journal(path: str | None, kind: str, work: dict, done: str = "searched"):
    """The journal ``path`` of command ``kind`` on ``work``, held for the block (``None`` without ``--journal``).

    Says on standard error how many chunks it already holds, and closes it when the block ends however it ends
    (Ctrl-C, an error, an exit), releasing its lock, so a later run in the same process can take it again.
    """
    if path is None:
        yield None
        return
    with open_journal(path, kind, work) as journal:
        if journal.done:
            click.echo(f"journal {path}: {len(journal.done)} chunks already {done}", err=True)
        yield journal
