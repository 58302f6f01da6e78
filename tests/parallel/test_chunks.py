"""run_chunks in local worker processes: the results of one process, from other processes, in range order."""

import os

import pytest

from rnglab.parallel.chunks import run_chunks
from rnglab.parallel.cluster import check_workers


def squares_and_pid(first, stop):
    return [[x * x for x in range(first, stop)], os.getpid()]


def fails_at_seven(first, stop):
    if first <= 7 < stop:
        raise ArithmeticError("seven")
    return stop - first


def test_processes_give_the_results_of_one_process_from_other_processes():
    here = run_chunks(squares_and_pid, [(0, 10), (20, 23)], 3)
    done = []
    there = run_chunks(squares_and_pid, [(0, 10), (20, 23)], 3, processes=2, on_progress=done.append)
    assert [part[0] for part in there.results()] == [part[0] for part in here.results()] == \
        [[0, 1, 4], [9, 16, 25], [36, 49, 64], [81], [400, 441, 484]]
    assert {part[1] for part in here.results()} == {os.getpid()}
    assert os.getpid() not in {part[1] for part in there.results()}
    assert there.complete and there.ran == 13 and sorted(done) == [1, 3, 3, 3, 3]


def test_a_task_that_raises_in_a_process_stops_the_run_with_its_error():
    with pytest.raises(ArithmeticError, match="seven"):
        run_chunks(fails_at_seven, [(0, 20)], 2, processes=2)


@pytest.mark.parametrize("args", [["reach", "msvc", "--seeds", "0..99", "--n", "5"],
                                  ["crack", "msvc", "--seen", "As Kd", "--seeds", "0..99"]])
@pytest.mark.parametrize("workers", ["2^70", "0"])
def test_worker_counts_beyond_four_per_core_are_refused_before_any_process_starts(args, workers, capsys,
                                                                                  monkeypatch):
    from rnglab.cli import main
    from rnglab.parallel import cluster

    monkeypatch.setattr(cluster, "_distributed", lambda: pytest.fail("a cluster was started"))
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert check_workers(12) == 12
    assert main([*args, "--workers", workers]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("got 0" in err or "--workers must be in [1, 12] (4 per core of this "
                                     "machine's 3: more processes only queue for the cores); got "
                                     f"{2**70}" in err)


class LostOnce:
    """A stand-in for a dask client whose first future of every chunk comes back ``lost`` (its result died with its
    worker), the next ``finished``; and for ``distributed.as_completed`` over its futures."""

    loop = None

    def __init__(self):
        self.submitted = []

    def scheduler_info(self, n_workers):
        return {"workers": {"w": {}}}

    def submit(self, task, first, stop, retries, pure):
        again = any(chunk == (first, stop) for chunk, _ in self.submitted)
        future = type("Future", (), {"key": len(self.submitted), "status": "finished" if again else "lost",
                                     "result": lambda self: task(first, stop),
                                     "exception": lambda self, timeout: None})()
        self.submitted.append(((first, stop), future))
        return future


class Completed:
    def __init__(self, futures, loop):
        self.futures = list(futures)

    def add(self, future):
        self.futures.append(future)

    def __iter__(self):
        while self.futures:
            yield self.futures.pop(0)


def test_a_chunk_whose_result_was_lost_with_its_worker_is_submitted_again(monkeypatch):
    # a fresh-clone CI run counted such a chunk as a failure ("NoneType: None") after a worker was killed under load
    import distributed

    monkeypatch.setattr(distributed, "as_completed", Completed)
    client = LostOnce()
    outcome = run_chunks(squares_and_pid, [(0, 6)], 3, client)
    assert outcome.failures == [] and outcome.left == []
    assert sorted((a, b, r[0]) for a, b, r in outcome.records) == [(0, 3, [0, 1, 4]), (3, 6, [9, 16, 25])]
    assert [chunk for chunk, _ in client.submitted] == [(0, 3), (3, 6), (0, 3), (3, 6)]
