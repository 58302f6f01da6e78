"""The console-script entry point: Ctrl-C is handled before any heavy import.

``rnglab`` (the console script) and ``python -m rnglab`` both call :func:`main`,
which installs the interrupt handler first and only then imports the command
line (click, numpy, ...), so that Ctrl-C at any moment after rnglab's own code
starts ends with one line, ``Interrupted.``, and status 130. An interrupt that
some lower layer catches and does not re-raise still ends the run with 130, and
so does an error raised while the interrupt is pending or chained from it (an
``ImportError`` from an import that Ctrl-C cut short).

Standard output is written through :class:`GuardedOutput`, so that an output
error ends every command the same way: one line, ``Error: cannot write to
standard output: ...``, and status 2 (a full disk, a closed descriptor), or,
when the reader of a pipe went away (``rnglab stream msvc | head -c 10``), no
message and status 141, what a shell reports for a tool ended by SIGPIPE: a
consumer that stops reading is the normal end of a stream, but the output was
cut short, so it never reads as success.

The process keeps one heap for every thread (:func:`limit_malloc_arenas`):
a run until it fails runs each battery entry in a thread of its own.
"""

from __future__ import annotations

import _thread
import ctypes
import errno
import io
import os
import signal
import sys
import threading
import time

#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED_STATUS = 130
#: Exit status when standard output cannot be written (the status of bad input, distinct from a FAIL's 1).
OUTPUT_ERROR_STATUS = 2
#: Exit status when the reader of standard output went away (128 + SIGPIPE, as shells report it).
CLOSED_PIPE_STATUS = 141
#: glibc's ``mallopt`` parameter for the most heaps ("arenas") its allocator keeps.
M_ARENA_MAX = -8
#: The heaps rnglab's processes keep: every thread allocates from the same one.
MALLOC_ARENAS = 1
#: How often the thread that raises an interrupt again looks whether the hook that caught it has returned.
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
    from a thread that waits until this hook has returned: delivered while the
    hook runs (its own wait for the thread to start, on a loaded machine), the
    handler would raise inside the hook, where it is only reported again.
    """

    def handle(unraisable):
        if not issubclass(unraisable.exc_type, KeyboardInterrupt):
            hook(unraisable)
            return
        inside = [True]
        threading.Thread(target=_interrupt_once_returned, args=(inside,), daemon=True).start()
        inside[0] = False  # the hook's last step: a store, after which it checks for no signal before returning

    return handle


def _interrupt_once_returned(inside: list) -> None:
    """Interrupt the main thread once ``inside[0]`` is false: the hook that started this thread has returned."""
    while inside[0]:
        time.sleep(REDELIVERY_SECONDS)
    _thread.interrupt_main()


class OutputFailed(Exception):
    """Standard output refused a write; ``error`` is the system's :class:`OSError`.

    Not an ``OSError`` itself, so that no command's own handling of file errors takes it for one of its files.
    """

    def __init__(self, error: OSError):
        super().__init__(error.strerror or str(error))
        self.error = error


class GuardedOutput(io.FileIO):
    """Descriptor 1, whose write errors raise :class:`OutputFailed` once; later writes are discarded.

    Discarding after the error lets the interpreter's last flush at exit pass
    without a second report. ``closed``: the ``OSError`` to raise at the first
    write, for a descriptor that was closed when rnglab started (it is then
    held open on ``/dev/null``, so that no file rnglab opens takes its number).
    """

    def __init__(self, closed: OSError | None = None):
        super().__init__(1, "wb", closefd=False)
        self.refusal, self.discarding = closed, False

    def write(self, data) -> int:
        if self.discarding:
            return len(data)
        try:
            if self.refusal is not None:
                raise self.refusal
            return super().write(data)
        except OSError as error:
            self.discarding = True
            raise OutputFailed(error) from None


def guard_standard_output() -> None:
    """Make ``sys.stdout`` write through :class:`GuardedOutput`, with the encoding and buffering it had."""
    try:
        os.fstat(1)
        closed = None
    except OSError as error:
        closed = error
        held = os.open(os.devnull, os.O_WRONLY)   # the lowest free descriptor: 1 itself, unless 0 is closed too
        if held != 1:
            os.dup2(held, 1)
            os.close(held)
    template = sys.stdout or sys.stderr
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(GuardedOutput(closed)),
                                  encoding=getattr(template, "encoding", None) or "utf-8",
                                  errors=getattr(template, "errors", None) or "strict",
                                  line_buffering=bool(getattr(sys.stdout, "line_buffering", False)))


def report_output_error(failure: OutputFailed) -> int:
    """Say why standard output could not be written (nothing when the reader of a pipe went away); the status."""
    if failure.error.errno == errno.EPIPE:
        return CLOSED_PIPE_STATUS
    print(f"Error: cannot write to standard output: {failure}", file=sys.stderr, flush=True)
    return OUTPUT_ERROR_STATUS


def caused_by_interrupt(error: BaseException) -> bool:
    """Whether ``error`` is, or was raised while handling or because of, a ``KeyboardInterrupt``."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status; Ctrl-C gives 130 and one line.

    Any error raised while an interrupt is pending, or chained from one (an
    import cut short by Ctrl-C raises ``ImportError``), counts as the interrupt;
    an :class:`OutputFailed` gives one line and status 2 (141 for a closed pipe).
    """
    watch = _InterruptWatch()
    signal.signal(signal.SIGINT, watch)
    sys.unraisablehook = raise_again(sys.unraisablehook)
    try:
        from rnglab.cli import main as run_command_line

        status = run_command_line(argv)
        sys.stdout.flush()
    except KeyboardInterrupt:
        status = None
    except OutputFailed as failure:
        status = report_output_error(failure)
    except Exception as error:
        if not (watch.seen or caused_by_interrupt(error)):
            raise
        status = None
    if watch.seen or status is None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)      # a second Ctrl-C must not print a traceback
        if status != INTERRUPTED_STATUS:                  # a command that stops itself says so itself
            print("Interrupted.", file=sys.stderr, flush=True)
        return INTERRUPTED_STATUS
    return status


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Keep at most ``arenas`` heaps in glibc's allocator (``mallopt(M_ARENA_MAX, arenas)``); whether it took.

    glibc gives each new thread a heap ("arena") of its own, up to eight per
    core, and a heap keeps the pages a freed array held for the next request
    made there. A run until it fails runs its 27 battery entries in threads,
    each freeing and allocating arrays of megabytes: on 64 MiB of input the
    process peaked at 834 MiB, and at 532 MiB with one heap, in the same CPU
    time (the arrays are allocated while the thread holds the interpreter
    lock, so one heap's lock is seldom waited for). Called before any thread
    starts; elsewhere (another C library, no ``mallopt``) it does nothing.
    """
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):
        return False
    return bool(mallopt(M_ARENA_MAX, arenas))


def run() -> None:
    """Entry point of the console script and of ``python -m rnglab``.

    After an interrupt the process ends at once with 130, its output
    flushed, without the interpreter's shutdown: under load a full test run
    twice saw a child print ``Interrupted.`` and then die by SIGINT (status
    -2), an interrupt re-raised during shutdown (cause not found).
    """
    limit_malloc_arenas()
    guard_standard_output()
    status = main()
    if status == INTERRUPTED_STATUS:
        try:
            sys.stdout.flush()
        except OutputFailed:
            pass
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)
