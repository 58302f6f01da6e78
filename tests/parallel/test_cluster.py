"""The dask client of the seed searches: its address and worker checks, its errors, and no cluster unless asked.

Searches run on a cluster (the candidates of one process, found by two local workers) are in
tests/recovery/test_distributed.py.
"""

import os
import signal
import socket

import pytest

from rnglab.parallel import cluster
from rnglab.parallel.cluster import check_address, check_placement, check_workers, cluster_client, worker_count


def test_an_unreachable_scheduler_is_one_error(monkeypatch):
    pytest.importorskip("distributed")
    with socket.socket() as probe:  # a port of 127.0.0.1 that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "1s")
    import dask

    dask.config.refresh()
    with pytest.raises(ValueError, match=f"cannot reach the dask scheduler at tcp://127.0.0.1:{port}"), \
            cluster_client(f"tcp://127.0.0.1:{port}"):
        pass


def test_without_dask_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "distributed", None)
    with pytest.raises(ValueError, match=r"rnglab\[cluster\]"), cluster_client(workers=2):
        pass


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "tls://scheduler.example.org:1", " tcp://[::1]:65535 ",
                                     "tcp://host-2:8786"])
def test_scheduler_addresses_accepted(address):
    assert check_address(address) == address.strip()


@pytest.mark.parametrize("address", ["127.0.0.1:8786", "tcp://127.0.0.1", "tcp://127.0.0.1:0", "tcp://127.0.0.1:65536",
                                     "udp://127.0.0.1:8786", "tcp://-host:8786", "tcp://host:123456"])
def test_scheduler_addresses_refused(address):
    with pytest.raises(ValueError, match=r"tcp://HOST:PORT with a port in \[1, 65535\]; got"):
        check_address(address)


def test_workers_at_most_four_per_core(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert check_workers(1) == 1 and check_workers(8) == 8
    for workers in (0, 9):
        with pytest.raises(ValueError, match=rf"--workers must be in \[1, 8\] .*got {workers}$"):
            check_workers(workers)


def test_a_placement_is_a_scheduler_or_local_workers_checked_before_any_work(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert check_placement(None, None) == (None, None)
    assert check_placement(" tcp://127.0.0.1:8786 ", None) == ("tcp://127.0.0.1:8786", None)
    assert check_placement(None, 8) == (None, 8)
    for address, workers, rule in [("tcp://127.0.0.1:8786", 2, "not both"), ("127.0.0.1:8786", None, "tcp://HOST:PORT"),
                                   (None, 9, r"--workers must be in \[1, 8\]")]:
        with pytest.raises(ValueError, match=rule):
            check_placement(address, workers)
        with pytest.raises(ValueError, match=rule), cluster_client(address, workers):  # refused before dask is asked
            pass


def test_worker_count_is_one_without_a_client_and_the_scheduler_s_count_with_one():
    class Client:
        def __init__(self, workers):
            self.workers = workers

        def scheduler_info(self, n_workers):
            assert n_workers == -1  # every worker, not dask's first few
            return {"workers": {f"tcp://127.0.0.1:{port}": {} for port in range(self.workers)}}

    assert worker_count(None) == 1 and worker_count(Client(3)) == 3 and worker_count(Client(0)) == 1


def test_no_cluster_unless_asked_and_not_both_kinds(monkeypatch):
    monkeypatch.setattr(cluster, "_distributed", lambda: pytest.fail("dask was imported"))
    with cluster_client() as client:
        assert client is None
    with pytest.raises(ValueError, match=r"give --cluster .* or --workers .*, not both"), \
            cluster_client("tcp://127.0.0.1:8786", 2):
        pass


def test_processes_start_deaf_to_ctrl_c_and_the_handler_comes_back():
    before = signal.getsignal(signal.SIGINT)
    with cluster._deaf_to_ctrl_c():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) is before
