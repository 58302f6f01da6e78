"""A run's threads kept on one CPU (rnglab.parallel.cpus)."""

from __future__ import annotations

import os
import threading

import pytest

from rnglab.parallel.cpus import threads_on_one_cpu

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this platform")


def affinity_of_a_new_thread() -> set[int]:
    seen = []
    thread = threading.Thread(target=lambda: seen.append(os.sched_getaffinity(0)))
    thread.start()
    thread.join()
    return seen[0]


def test_threads_started_in_the_block_run_on_the_caller_s_cpu_and_the_caller_gets_its_cpus_back():
    before = os.sched_getaffinity(0)
    with threads_on_one_cpu() as cpu:
        inside = affinity_of_a_new_thread()
    assert cpu in before and inside == {cpu}
    assert os.sched_getaffinity(0) == before and affinity_of_a_new_thread() == before


def test_the_caller_gets_its_cpus_back_when_the_block_raises():
    before = os.sched_getaffinity(0)
    with pytest.raises(KeyboardInterrupt), threads_on_one_cpu():
        raise KeyboardInterrupt
    assert os.sched_getaffinity(0) == before
