"""What long work shows while it runs: on a terminal only, on standard error, never in ``--json`` output.

One place for it: a bar for work of known length (:func:`progress`), a running
count with a rate for work of unknown length (:func:`counter`), a bar fed by
``callback(done, total)`` for library functions that learn their total as they
go (:func:`with_progress`), and the notice before a kernel compiles
(:func:`announce_compiles`). The library takes plain callbacks (``on_progress``,
``progress``) and never writes to the terminal; these build them.

``RNGLAB_PROGRESS=1`` shows progress even when standard error is not a
terminal, ``RNGLAB_PROGRESS=0`` hides it on one (for scripts and tests).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click


def shown() -> bool:
    """Whether progress goes to standard error: a terminal (or ``RNGLAB_PROGRESS=1``), and the command has no ``--json``.

    ``--json`` is read from the running command's parameters (``as_json``, from
    :data:`rnglab.cli.common.json_option`), so commands need not pass it down.
    """
    context = click.get_current_context(silent=True)
    if context is not None and context.params.get("as_json"):
        return False
    forced = os.environ.get("RNGLAB_PROGRESS")
    return forced == "1" if forced in ("0", "1") else sys.stderr.isatty()


def progress(length: int, label: str, **options):
    """A progress bar of ``length`` steps on standard error (a context manager; ``bar.update(k)`` adds k).

    ``options`` go to :func:`click.progressbar` (``item_show_func`` to name the step running).
    """
    return click.progressbar(length=length, label=label, file=sys.stderr, show_eta=True,
                             hidden=not shown(), **options)


class Counter:
    """A running count with its rate, rewritten in place on standard error: ``label: 1,234,567 (89,012/s)``."""

    def __init__(self, label: str, unit: str, visible: bool):
        self.label, self.unit, self.visible = label, unit, visible
        self.count, self.start, self.shown_at, self.width = 0, time.monotonic(), 0.0, 0

    def update(self, steps: int) -> None:
        """Add ``steps`` and redraw at most ten times a second."""
        self.count += steps
        now = time.monotonic()
        if self.visible and now - self.shown_at >= 0.1:
            self.shown_at = now
            rate = self.count / max(now - self.start, 1e-9)
            line = f"{self.label}: {self.count:,} {self.unit} ({rate:,.0f}/s)"
            click.echo(f"\r{line.ljust(self.width)}", nl=False, err=True)
            self.width = len(line)

    def close(self) -> None:
        """Blank the line."""
        if self.visible and self.width:
            click.echo("\r" + " " * self.width + "\r", nl=False, err=True)


@contextmanager
def counter(label: str, unit: str = "done") -> Iterator[Counter]:
    """A :class:`Counter` for work of unknown length, cleared at the end."""
    running = Counter(label, unit, shown())
    try:
        yield running
    finally:
        running.close()


def with_progress(label: str, run: Callable[[Callable[..., None]], Any]) -> Any:
    """Call ``run(callback)`` with a bar fed by ``callback(done, total[, step])`` (the bar opens at the first call).

    ``step``, when given, names what runs now (a test, a report section) after the bar.
    """
    state: dict[str, Any] = {}

    def callback(done: int, total: int, step: str | None = None) -> None:
        if not shown():
            return
        if "bar" not in state:
            state["bar"] = progress(total, label, item_show_func=lambda item: item).__enter__()
        state["bar"].update(done - state["bar"].pos, step)

    try:
        return run(callback)
    finally:
        if "bar" in state:
            state["bar"].__exit__(None, None, None)


def announce_compiles() -> None:
    """Say on standard error, before it happens, that a described kernel is compiling (terminal only).

    ``compiling the seed-search kernel for this reducer (once, about 8 s)``: once,
    because numba keeps the result in its on-disk cache (:mod:`rnglab.core.compiled`).
    """
    from rnglab.core.compiled import set_compile_listener

    def notice(description: str, seconds: float) -> None:
        if shown():
            click.echo(f"compiling {description} (once, about {seconds:.0f} s)", err=True)

    set_compile_listener(notice)
