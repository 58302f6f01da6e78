"""The console-script entry point: Ctrl-C is handled before any heavy import.

``rnglab`` (the console script) and ``python -m rnglab`` both call :func:`main`,
which installs the interrupt handler first and only then imports the command
line (click, numpy, ...), so that Ctrl-C at any moment after rnglab's own code
starts ends with one line, ``Interrupted.``, and status 130. An interrupt that
some lower layer catches and does not re-raise still ends the run with 130.
"""

from __future__ import annotations

import _thread
import os
import signal
import sys
import threading

#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED_STATUS = 130
#: Delay before an interrupt lost in a context that can only report it is raised again.
REDELIVERY_SECONDS = 0.01


class _InterruptWatch:
    """Remembers whether Ctrl-C was pressed, and raises ``KeyboardInterrupt`` as Python does."""

    def __init__(self):
        self.seen = False

    def __call__(self, signum, frame):
        self.seen = True
        raise KeyboardInterrupt


def raise_again(hook):
    """An ``sys.unraisablehook`` that raises an interrupt again where it can propagate, and passes the rest on.

    Ctrl-C that lands in code whose exceptions Python can only report (a
    weak reference's callback in the import machinery, a ``__del__``) would
    print "Exception ignored in" with a traceback and be lost: instead the
    interrupt is delivered again to the main thread (``_thread.interrupt_main``)
    a moment later, from a timer's thread, once this hook has returned: called
    here, the handler would run inside the hook, where it is only reported again.
    """

    def handle(unraisable):
        if issubclass(unraisable.exc_type, KeyboardInterrupt):
            timer = threading.Timer(REDELIVERY_SECONDS, _thread.interrupt_main)
            timer.daemon = True
            timer.start()
        else:
            hook(unraisable)

    return handle


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status; Ctrl-C gives 130 and one line."""
    watch = _InterruptWatch()
    signal.signal(signal.SIGINT, watch)
    sys.unraisablehook = raise_again(sys.unraisablehook)
    try:
        from .cli import main as run_command_line

        status = run_command_line(argv)
    except KeyboardInterrupt:
        status = None
    if watch.seen or status is None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)      # a second Ctrl-C must not print a traceback
        if status != INTERRUPTED_STATUS:                  # a command that stops itself says so itself
            print("Interrupted.", file=sys.stderr, flush=True)
        return INTERRUPTED_STATUS
    return status


def run() -> None:
    """Entry point of the console script and of ``python -m rnglab``.

    After an interrupt the process ends at once with 130, its output
    flushed, without the interpreter's shutdown: under load a full test run
    twice saw a child print ``Interrupted.`` and then die by SIGINT (status
    -2), an interrupt re-raised during shutdown (cause not found).
    """
    status = main()
    if status == INTERRUPTED_STATUS:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)
