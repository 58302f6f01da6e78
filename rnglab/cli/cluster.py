"""Options that take a seed search beyond one process: ``--cluster``, ``--workers``, ``--journal``, ``--chunk``, ``--device``.

They are resolved here into one :class:`Scale` handed to the command; the work
itself is :mod:`rnglab.seeds.distributed` (dask is imported only when a
cluster is asked for).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import click

from .choices import DEVICE_NAMES
from .common import IntExpr


@dataclass(frozen=True)
class Scale:
    """Where and how a search runs: scheduler address or local workers, journal file, seeds per task, device."""

    cluster: str | None = None
    workers: int | None = None
    journal: str | None = None
    chunk: int | None = None
    device: str = "cpu"

    @property
    def engaged(self) -> bool:
        """True when the search goes through :func:`rnglab.seeds.distributed.run_search` (any option given)."""
        return self != Scale()


def scale_options(command):
    """Add the five options; pass ``scale`` (a :class:`Scale`)."""

    @functools.wraps(command)
    def wrapper(*args, cluster=None, workers=None, journal=None, chunk=None, device="cpu", **kwargs):
        if cluster is not None and workers is not None:
            raise click.UsageError("give --cluster (an existing scheduler) or --workers (local processes), not both")
        kwargs["scale"] = Scale(cluster, workers, journal, chunk, device)
        return command(*args, **kwargs)

    for option in reversed([
        click.option("--cluster", default=None, metavar="tcp://HOST:PORT",
                     help="Run the chunks on an existing dask.distributed scheduler (pip install rnglab[cluster])."),
        click.option("--workers", type=IntExpr(minimum=1), default=None, metavar="N",
                     help="Run the chunks on N worker processes of this machine (a local dask cluster)."),
        click.option("--journal", default=None, metavar="FILE",
                     help="Record each finished chunk in FILE; the same command with the same FILE resumes."),
        click.option("--chunk", type=IntExpr(minimum=1), default=None, metavar="SEEDS",
                     help="Seeds per task (default: seconds of work, at least 4 tasks per worker)."),
        click.option("--device", type=click.Choice(list(DEVICE_NAMES)), default="cpu", show_default=True,
                     help="Run the compiled kernel on the CPU or on a CUDA GPU (numba.cuda)."),
    ]):
        wrapper = option(wrapper)
    return wrapper

