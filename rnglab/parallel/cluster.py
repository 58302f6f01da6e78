"""A dask.distributed client: on an existing scheduler (``tcp://HOST:PORT``) or on local worker processes.

dask is an optional dependency (``pip install "rnglab[cluster]"``), imported
only when a cluster is asked for.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import threading

from rnglab.core.params import describe_int

#: Where dask's schedulers listen: tcp:// or tls://, a host name or address, a port.
ADDRESS = re.compile(r"(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):(\d{1,5})")
#: Most local worker processes per core: each runs one single-threaded task at a time, so workers beyond the
#: cores only queue for them, and each is a Python process of its own (about 100 MB with numba loaded);
#: 2^70 workers asked LocalCluster for processes until the machine stalled.
MAX_WORKERS_PER_CORE = 4


def check_address(address: str) -> str:
    """Check a scheduler address, ``tcp://HOST:PORT`` (or ``tls://``), port in [1, 65535]."""
    match = ADDRESS.fullmatch(address.strip())
    if not match or not 1 <= int(match.group(3)) <= 65535:
        raise ValueError(f"a dask scheduler address is tcp://HOST:PORT with a port in [1, 65535]; got {address!r}")
    return address.strip()


def check_workers(workers: int) -> int:
    """Check a number of local workers: at least 1, at most :data:`MAX_WORKERS_PER_CORE` per core of this machine."""
    cores = os.cpu_count() or 1
    if not 1 <= workers <= MAX_WORKERS_PER_CORE * cores:
        raise ValueError(f"--workers must be in [1, {MAX_WORKERS_PER_CORE * cores}] ({MAX_WORKERS_PER_CORE} per core "
                         f"of this machine's {cores}: more processes only queue for the cores); got {describe_int(workers)}")
    return workers


def check_placement(address: str | None, workers: int | None) -> tuple[str | None, int | None]:
    """Check where chunked work is to run: a scheduler ``address`` or a number of local ``workers``, not both.

    Returns the address stripped and the workers, each ``None`` when not given.
    """
    if address is not None and workers is not None:
        raise ValueError("give --cluster (an existing scheduler) or --workers (local processes), not both")
    return (None if address is None else check_address(address)), (None if workers is None else check_workers(workers))


def worker_count(client) -> int:
    """Workers of ``client`` (1 for ``None``: this process)."""
    if client is None:
        return 1
    return max(1, len(client.scheduler_info(n_workers=-1)["workers"]))


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ValueError("--cluster and --workers need dask.distributed: pip install \"rnglab[cluster]\"") from None
    return distributed


@contextlib.contextmanager
def cluster_client(address: str | None = None, workers: int | None = None):
    """A dask client on the scheduler at ``address``, or on ``workers`` local worker processes; else ``None``.

    Local workers listen on 127.0.0.1 only, run one task at a time, and share the
    cores among their compiled kernels (``NUMBA_NUM_THREADS`` = cores / workers);
    a local cluster has no dashboard and its workers no statistical profiler (which
    samples every 10 ms): with the heartbeats, an idle 2-worker cluster took about
    0.1 core of a loaded 2-core machine, a twentieth of it.
    The connection to a scheduler waits dask's ``distributed.comm.timeouts.connect``
    (30 s; ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s`` shortens it).

    Raises
    ------
    ValueError
        When dask is not installed, ``address`` is malformed or cannot be reached,
        or ``workers`` is below 1.
    """
    address, workers = check_placement(address, workers)
    if address is None and workers is None:
        yield None
        return
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        if address is not None:
            client = stack.enter_context(_connect(distributed, address))
        else:
            client = stack.enter_context(_local_cluster(distributed, workers))
        yield client


def _connect(distributed, address: str):
    try:
        return distributed.Client(address, set_as_default=False)
    except (OSError, TimeoutError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ValueError(f"cannot reach the dask scheduler at {address}: {reason}") from None


@contextlib.contextmanager
def _local_cluster(distributed, workers: int):
    threads = max(1, (os.cpu_count() or 1) // workers)
    with _deaf_to_ctrl_c(), _dask_config().set({"distributed.worker.profile.enabled": False}):
        # worker processes inherit both: Ctrl-C stops the client, which then closes them; each nanny hands
        # its worker the configuration of the moment it was made
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                           dashboard_address=None, silence_logs=logging.CRITICAL,
                                           env={"NUMBA_NUM_THREADS": str(threads)})
    with cluster, distributed.Client(cluster, set_as_default=False) as client:
        yield client


def _dask_config():
    """dask's configuration module (dask is installed with distributed)."""
    import dask.config

    return dask.config


@contextlib.contextmanager
def _deaf_to_ctrl_c():
    """Ignore SIGINT while processes are started (a process started with SIGINT ignored keeps ignoring it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
