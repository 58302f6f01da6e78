"""A user's shuffle function, run in a child process with a wall clock, a memory limit and its output captured.

``rnglab fairness --function FILE.py:NAME`` and an audit's ``function =``
run code rnglab did not write. It runs in a child process (``python -m
rnglab.shuffles.sandbox``, started in a new session) that imports the file
and answers requests in batches (:func:`rnglab.shuffles.paths.follow_paths`,
:func:`rnglab.shuffles.userfunc.count_positions`; thousands of calls per
request, never one process per call). The parent waits at most
:attr:`Limits.wall_seconds` for the import and for each batch; the child has
:attr:`Limits.memory_bytes` of address space beyond its own (``RLIMIT_AS``)
and, per batch, as many processor seconds as wall-clock ones
(``RLIMIT_CPU``). The child's standard output and error go to a file that is
never shown (a function that prints cannot spoil rnglab's output); requests
and replies travel on the descriptors that were its standard input and
output. Whatever the child does, the parent kills its whole process group
when done (``os.killpg``): threads and forked processes end with it.

Every ending of the user's code is one ``ValueError`` line: an exception
(its type, message and the user's file:line), ``sys.exit``, ``os._exit`` or
a crash (no reply), ``KeyboardInterrupt`` raised by the code, a fork, a thread
left running, the wall clock, the memory limit, a signal. A genuine Ctrl-C
reaches only the parent (the child is in its own session): it kills the child
and stays ``KeyboardInterrupt``.

Replies are pickled: the child is the user's own code, run for robustness, not
as a security boundary.
"""

from __future__ import annotations

import os
import pickle
import resource
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from rnglab.shuffles.paths import StopCall, one_line, where_raised

#: Seconds the child may take to start, and to import rnglab's own modules for a kind of batch (no user code runs
#: meanwhile).
PREPARE_SECONDS = 120.0
#: Length prefix of a message on the channel.
HEADER = struct.Struct("<Q")


@dataclass(frozen=True)
class Limits:
    """What the child may use: seconds of wall clock for the import and for each batch, and bytes of memory."""

    wall_seconds: float = 10.0
    memory_bytes: int = 2 * 2**30


#: The limits of every user function loaded from now on (tests make them small).
LIMITS = Limits()


@dataclass(frozen=True)
class UserFunction:
    """``NAME`` in the Python file ``path``, run in a child process (:meth:`running`)."""

    path: Path
    name: str
    label: str
    """The function as the user named it."""
    limits: Limits

    @contextmanager
    def running(self):
        """A :class:`Child` with the function loaded; killed, with all it started, on exit."""
        child = Child(self)
        try:
            yield child
        finally:
            child.close()


def user_function(path: Path, name: str, label: str) -> UserFunction:
    """The function ``name`` of the Python file ``path``, checked by importing it once in a child process."""
    function = UserFunction(path, name, label, LIMITS)
    with function.running():
        pass
    return function


# -- the parent's side --------------------------------------------------------------------------

class Child:
    """The child process of one :class:`UserFunction`: requests in, one reply per request, within the limits."""

    def __init__(self, function: UserFunction):
        self.function, self.limits, self.prepared = function, function.limits, False
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close(), with the process
        self.process = subprocess.Popen([sys.executable, "-P", "-m", __name__], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.log, start_new_session=True,
                                        env=_this_rnglab_first())
        try:
            self._started(f"starting the child process of {function.label}")
            self.ask("load", str(function.path), function.name, self.limits.memory_bytes,
                     doing=f"loading {function.label}")
        except BaseException:
            self.close()
            raise

    def _started(self, doing: str) -> None:
        """Wait for the child's first word: Python and rnglab started (their time is not the user's)."""
        if self._receive(time.monotonic() + PREPARE_SECONDS) != ("ok", None):
            raise ValueError(self._ended(doing))

    def follow_paths(self, *arguments):
        """:func:`rnglab.shuffles.paths.follow_paths` of the function, in the child."""
        return self.ask("follow_paths", *arguments)

    def count_positions(self, *arguments):
        """:func:`rnglab.shuffles.userfunc.count_positions` of the function, in the child: ``(counts, rng)``."""
        if not self.prepared:
            self.ask("prepare", "count_positions", *arguments[:2], seconds=PREPARE_SECONDS)
            self.prepared = True
        return self.ask("count_positions", *arguments)

    def ask(self, *request, doing: str | None = None, seconds: float | None = None):
        """Send ``request``; its reply, or the ending of the child as one ``ValueError`` line."""
        prefix, doing = bool(doing), doing or self.function.label
        seconds = self.limits.wall_seconds if seconds is None else seconds
        try:
            self.process.stdin.write(_framed(((seconds, self.limits.memory_bytes), *request)))
            self.process.stdin.flush()
        except BrokenPipeError:
            raise ValueError(self._ended(doing)) from None
        reply = self._receive(time.monotonic() + seconds)
        if reply is None:
            raise ValueError(self._ended(doing))
        if reply == "timeout":
            self.close()
            raise ValueError(f"{doing} ran past the wall-clock limit of {seconds:g} s "
                             "(it sleeps, waits or loops)")
        kind, value = reply
        if kind == "beyond":
            from rnglab.shuffles.paths import BeyondEnumeration

            raise BeyondEnumeration(value)
        if kind == "error":
            raise ValueError(f"{doing} {value}" if prefix else value)
        return value

    def _receive(self, deadline: float):
        """The next reply; ``None`` when the child ended without one, ``"timeout"`` past ``deadline``."""
        header = self._read(HEADER.size, deadline)
        if header is None or header == "timeout":
            return header
        body = self._read(HEADER.unpack(header)[0], deadline)
        return body if body is None or body == "timeout" else pickle.loads(body)

    def _read(self, size: int, deadline: float):
        channel, data = self.process.stdout.fileno(), b""
        while len(data) < size:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([channel], [], [], left)[0]:
                return "timeout"
            chunk = os.read(channel, size - len(data))
            if not chunk:
                return None
            data += chunk
        return data

    def _ended(self, doing: str) -> str:
        """The one line for a child that ended without replying (given a moment to finish ending)."""
        with suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=self.limits.wall_seconds)
        self.close()
        status = self.process.returncode
        if status is not None and status < 0:
            name = signal.Signals(-status).name
            why = {"SIGXCPU": "ran past its processor time limit",
                   "SIGKILL": "was killed (SIGKILL; out of memory?)"}.get(name, f"was killed by {name}")
            return f"{doing} {why}"
        return (f"{doing} ended the process (exit status {status}: sys.exit or os._exit) without giving a "
                "result")

    def close(self) -> None:
        """Kill the child's process group (threads and forks included), wait for the child, close the pipes."""
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.log):
            with suppress(OSError):
                stream.close()


def _this_rnglab_first() -> dict:
    """The environment, with the folder of the rnglab running here first on the child's path."""
    here = str(Path(__file__).resolve().parents[2])
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))}


def _framed(message) -> bytes:
    body = pickle.dumps(message)
    return HEADER.pack(len(body)) + body


# -- the child's side -----------------------------------------------------------------------

class Guarded:
    """The user's function, each call of which ends in one of the endings rnglab reports (:class:`StopCall`)."""

    def __init__(self, function, memory_bytes: int):
        self.function, self.memory_bytes, self.forked = function, memory_bytes, False
        self.threads = set(threading.enumerate())
        os.register_at_fork(after_in_parent=self._forked, after_in_child=lambda: os._exit(0))

    def _forked(self) -> None:
        self.forked = True

    def __call__(self, items, rng):
        try:
            returned = self.function(items, rng)
        except SystemExit as stop:
            raise StopCall(f"called sys.exit({stop.code!r}){where_raised(stop)}") from None
        except KeyboardInterrupt as interrupt:
            raise StopCall(f"raised KeyboardInterrupt{where_raised(interrupt)}") from None
        except MemoryError as error:
            raise StopCall(f"ran past the memory limit of {self.memory_bytes / 2**30:g} GiB"
                           f"{where_raised(error)}") from None
        if self.forked:
            raise StopCall("started a process (os.fork): a shuffle must not")
        if any(thread.is_alive() for thread in set(threading.enumerate()) - self.threads):
            raise StopCall("left a thread running: a shuffle must not")
        return returned


def _load(path: str, name: str, memory_bytes: int):
    """Import ``path`` and take ``name`` from it, guarded; every ending is one line."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"rnglab_user_{Path(path).stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except SystemExit as stop:
        raise ValueError(f"called sys.exit({stop.code!r}){where_raised(stop)}") from None
    except BaseException as error:  # noqa: BLE001 - the user's module may raise anything
        raise ValueError(f"failed: {one_line(error)}{where_raised(error)}") from None
    function = getattr(module, name, None)
    if not callable(function):
        raise ValueError(f"found no function {name} in {path}")  # noqa: TRY004 - a bad value of the spec
    return Guarded(function, memory_bytes)


def _address_space() -> int:
    """Bytes of address space this process uses now (0 where /proc is not there)."""
    try:
        fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    except OSError:
        return 0
    return int(fields.get("VmSize", "0 kB").split()[0]) * 1024


def _limit(which: int, value: int) -> None:
    _, hard = resource.getrlimit(which)
    resource.setrlimit(which, (value if hard == resource.RLIM_INFINITY else min(value, hard), hard))


def _handler(function, kind: str, arguments: list):
    """The call that answers a request of ``kind``, its modules imported (before the limits are set);
    ``prepare``: only the imports of a batch of kind ``arguments[0]`` (and the draws of ``count_positions``
    compiled, for ``n, rng`` that follow)."""
    if kind == "load":
        return _load
    if kind == "prepare":
        _handler(function, arguments[0], [])
        if arguments[0] == "count_positions":
            from rnglab.shuffles.userfunc import compile_draws

            n, rng = arguments[1:]
            compile_draws(rng, n)
        return lambda *ignored: None
    if kind == "follow_paths":
        from rnglab.shuffles.paths import follow_paths

        return lambda *arguments: follow_paths(function, *arguments)
    from rnglab.shuffles.userfunc import count_positions

    return lambda n, rng, *rest: (count_positions(function, n, rng, *rest), rng)


def _set_limits(seconds: float, memory_bytes: int) -> None:
    """``memory_bytes`` of address space beyond what the process uses now (``RLIMIT_AS``), and as many more
    processor seconds as the batch has wall-clock ones (the process's total, ``RLIMIT_CPU``)."""
    _limit(resource.RLIMIT_AS, _address_space() + memory_bytes)
    used = resource.getrusage(resource.RUSAGE_SELF)
    _limit(resource.RLIMIT_CPU, int(used.ru_utime + used.ru_stime + seconds) + 1)


def main() -> None:
    """The child: read requests on descriptor 0, reply on descriptor 1; the user's output goes to the log."""
    requests, replies = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)
    _limit(resource.RLIMIT_CORE, 0)  # a crash, or the processor limit, leaves no core file
    replies.write(_framed(("ok", None)))
    replies.flush()
    function = None
    while header := requests.read(HEADER.size):
        _limit(resource.RLIMIT_AS, resource.getrlimit(resource.RLIMIT_AS)[1])  # rnglab's own imports: no limit
        (seconds, memory_bytes), kind, *arguments = pickle.loads(requests.read(HEADER.unpack(header)[0]))
        answer = _handler(function, kind, arguments)
        _set_limits(seconds, memory_bytes)
        try:
            reply = ("ok", answer(*arguments))
        except ValueError as error:
            from rnglab.shuffles.paths import BeyondEnumeration

            reply = ("beyond" if isinstance(error, BeyondEnumeration) else "error", str(error))
        except Exception as error:  # noqa: BLE001 - whatever the user's code left behind, as one line
            reply = ("error", one_line(error))
        if function is None and reply[0] == "ok":
            function, reply = reply[1], ("ok", None)
        replies.write(_framed(reply))
        replies.flush()


if __name__ == "__main__":
    main()
