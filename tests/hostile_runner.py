"""Worker for tests/test_hostile.py: run hostile-table rows in this one process.

Usage: ``python tests/hostile_runner.py START SECONDS MEMORY_BYTES``

Runs rows START, START+1, ... of ``hostile_table.ROWS`` through ``rnglab.cli.main(argv)``
with standard input empty, standard output and error captured, a per-row alarm of
SECONDS and an address-space limit of MEMORY_BYTES for the whole process. After
importing the CLI it writes ``{"ready": true}``, then one JSON record per row, on the
file descriptor that was standard output when it started; anything else that writes to
descriptor 1 goes to /dev/null. A row stuck in compiled code never sees its alarm: the
parent process (test_hostile.py) kills the worker and starts a new one after that row.
"""

from __future__ import annotations

import io
import json
import os
import resource
import signal
import sys
import time
import traceback

#: Longest stdout/stderr text copied into a record (the lengths are always recorded).
KEEP_CHARS = 2000


class RowTimeout(BaseException):
    """Raised by the alarm when a row runs past its time bound."""


def _alarm(signum, frame):
    raise RowTimeout()


def _captured_stream() -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace", write_through=True)


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8", errors="replace")


def run_row(main, argv: list[str], seconds: float) -> dict:
    """Run one invocation in-process and describe what it did."""
    out, err = _captured_stream(), _captured_stream()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(""), out, err
    status, exception, trace = None, None, ""
    start = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        status = main(list(argv))
    except RowTimeout:
        exception = "timeout"
    except BaseException as error:  # noqa: BLE001 - a traceback in a real run: record it, whatever it is
        exception = type(error).__name__
        trace = traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        elapsed = time.perf_counter() - start
        sys.stdin, sys.stdout, sys.stderr = saved
    stdout, stderr = _text(out), _text(err)
    return {"status": status, "exception": exception, "traceback": trace[-KEEP_CHARS:],
            "seconds": round(elapsed, 3), "stdout": stdout[:KEEP_CHARS], "stdout_chars": len(stdout),
            "stderr": stderr[:KEEP_CHARS], "stderr_chars": len(stderr)}


def main() -> None:
    start, seconds, memory = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    records = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from hostile_table import ROWS

    from rnglab.cli import main as cli_main

    signal.signal(signal.SIGALRM, _alarm)
    records.write(json.dumps({"ready": True}) + "\n")
    for index in range(start, len(ROWS)):
        record = run_row(cli_main, ROWS[index].argv, seconds)
        record["index"] = index
        records.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
