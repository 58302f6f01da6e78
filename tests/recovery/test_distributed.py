"""Seed searches in chunks: on a local dask cluster (127.0.0.1 only), with a journal, and their errors."""

import json
import os
import signal

import pytest

from rnglab.cli import main
from rnglab.generators import as_generator, make_source
from rnglab.parallel.chunks import uncovered
from rnglab.parallel.cluster import cluster_client
from rnglab.parallel.journal import open_journal
from rnglab.recovery.crack import crack, make_plan, observe
from rnglab.recovery.distributed import KIND, MAX_SCALED_SEEDS, run_search, search_identity
from rnglab.reduction.reducers import REDUCERS
from rnglab.seeds.space import parse_seed_space
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.cards import standard_deck

distributed = pytest.importorskip("distributed")

#: MSVC seed whose deal starts with the cards seen, and a space around it with a hundred chance matches too.
SEED = 1_000_617
SPACE = "1000000..1200000"


def seen(generator="msvc", seed=SEED, algo="fisher-yates", reducer="modulo", k=2):
    return " ".join(standard_deck().names(shuffle(52, make_source(generator, seed), make_shuffle(algo), REDUCERS[reducer])[:k]))


def plan_of(space=SPACE, cards=None):
    return make_plan(as_generator("msvc"), parse_seed_space(space), observe(cards or seen()), make_shuffle("fisher-yates"))


@pytest.fixture(scope="module")
def reference():
    """The candidates of the search in one process (crack, today's path)."""
    result = crack(as_generator("msvc"), parse_seed_space(SPACE), observe(seen()))
    assert SEED in [c.seed for c in result.candidates] and result.candidate_count > 50
    return result


@pytest.fixture(scope="module")
def client():
    with cluster_client(workers=2) as running:
        yield running


def test_two_local_workers_find_exactly_the_candidates_of_one_process(client, reference):
    result, failures = run_search(plan_of(), client, chunk=20_000)
    assert failures == [] and result.complete and result.searched == 200_001
    assert result.candidates == reference.candidates and result.candidate_count == reference.candidate_count


@pytest.mark.slow  # starts its own local cluster through the command
def test_the_command_on_two_local_workers(capsys, reference):
    assert main(["crack", "msvc", "--seeds", SPACE, "--seen", seen(), "--workers", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["complete"] and data["failed"] == [] and data["candidate_count"] == reference.candidate_count
    assert [c["seed"] for c in data["candidates"]] == [c.seed for c in reference.candidates]


def test_a_killed_worker_leaves_the_result_complete_and_equal(client, reference):
    pids = list(client.run(os.getpid).values())
    killed = []

    def kill_one(_):
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    result, failures = run_search(plan_of(), client, chunk=10_000, on_progress=kill_one)
    assert killed and failures == [] and result.complete
    assert result.candidates == reference.candidates
    assert pids[0] not in client.run(os.getpid).values()


def test_a_chunk_that_keeps_failing_is_reported_and_left_uncovered(client):
    # lcg:a=2 reaches its fixed point 0 within 10 steps and lemire then rejects every draw: every task raises
    plan = make_plan(as_generator("lcg:a=2,m=2^10"), parse_seed_space("1..99"), observe("Ac 2c 3c 4c 5c"), make_shuffle("fisher-yates"), REDUCERS["lemire"])
    result, failures = run_search(plan, client, chunk=50, retries=1)
    assert not result.complete and result.remaining == [[1, 100]] and result.searched == 0
    assert sorted((f.first, f.stop) for f in failures) == [(1, 51), (51, 100)]  # in the order they completed
    assert all("stuck" in f.error for f in failures)


def test_interrupted_journal_resumes_without_searching_a_chunk_twice(tmp_path, reference):
    path, plan = tmp_path / "search.journal", plan_of()
    finished = []

    def interrupt_after_three(seeds):
        finished.append(seeds)
        if len(finished) == 3:
            raise KeyboardInterrupt

    first, _ = run_search(plan, chunk=30_000, journal=open_journal(path, KIND, search_identity(plan)),
                          on_progress=interrupt_after_three)
    assert not first.complete and first.searched == 90_000 and first.remaining == [[1_090_000, 1_200_001]]
    second, _ = run_search(plan, chunk=30_000, journal=open_journal(path, KIND, search_identity(plan)))
    assert second.complete and second.shuffled == 200_001 - 90_000
    assert second.candidates == reference.candidates
    chunks = [tuple(json.loads(line)["chunk"]) for line in path.read_text().splitlines()[1:]]
    assert len(chunks) == 7 and sum(b - a for a, b in chunks) == 200_001 and uncovered([(1_000_000, 1_200_001)],
                                                                                      chunks) == []


def test_the_command_resumes_after_a_torn_record(tmp_path, capsys):
    path = tmp_path / "j"
    argv = ["crack", "msvc", "--seeds", SPACE, "--seen", seen(), "--journal", str(path), "--chunk", "50000", "--json"]
    assert main(argv) == 0
    whole = json.loads(capsys.readouterr().out)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:3]) + lines[3][:20])  # two chunks recorded, the third cut by a crash
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["candidates"] == whole["candidates"] and again["complete"] and again["shuffled"] == 100_001
    chunks = [tuple(json.loads(line)["chunk"]) for line in path.read_text().splitlines()[1:]]
    assert len(chunks) == len(set(chunks)) == 5


def test_a_journal_refuses_another_search(tmp_path):
    path = tmp_path / "j"
    open_journal(path, KIND, search_identity(plan_of()))
    with pytest.raises(ValueError, match="other work.*cards"):
        open_journal(path, KIND, search_identity(plan_of(cards="2c 3c")))


def test_uncovered_ranges():
    assert uncovered([(0, 10), (20, 30)], [(0, 3), (5, 8), (20, 30)]) == [(3, 5), (8, 10)]
    assert uncovered([(0, 10)], []) == [(0, 10)] and uncovered([(0, 10)], [(0, 10)]) == []


def test_reach_on_two_local_workers_counts_the_deals_of_one_process(client):
    from rnglab.shuffles.reach import reachable_deals

    space = parse_seed_space("0..4999")
    here = reachable_deals(as_generator("msvc"), space, 6, make_shuffle("naive"), REDUCERS["modulo"], chunk=700)
    there = reachable_deals(as_generator("msvc"), space, 6, make_shuffle("naive"), REDUCERS["modulo"], chunk=700, client=client)
    assert there == here and 1 < here.distinct < 720  # 5,000 seeds over 6! = 720 deals: collisions, not all reached


def test_a_battery_over_seeds_on_two_local_workers_gives_the_p_values_of_one_process(client):
    from rnglab.empirical.battery import get_battery, select_entries
    from rnglab.empirical.over_seeds import battery_over_seeds
    from rnglab.generators import as_generator

    generator = as_generator("minstd")
    battery = get_battery("smoke")
    battery = type(battery)(battery.name, battery.description, select_entries(battery, ["frequency", "serial"], 20_000))
    here = battery_over_seeds(generator.make, "minstd", battery, [(1, 9)], chunk=3)
    there = battery_over_seeds(generator.make, "minstd", battery, [(1, 9)], chunk=3, client=client)
    assert there.complete and there.runs == 8 and there.pvalues == here.pvalues and there.uniformity == here.uniformity


@pytest.mark.parametrize("on_cluster", [False, True])
def test_a_multiplier_search_in_chunks_finds_the_multipliers_of_one_process(client, on_cluster):
    from rnglab.algebra.multiplier_chunks import search_in_chunks
    from rnglab.algebra.multipliers import search_multipliers

    # equal M_6 occur among the best (37829 and 196245): the order, a larger M then a smaller a, settles them
    whole = search_multipliers(2**20, "0", dims=range(2, 7), top=6, candidates=600, seed=8)
    result, outcome = search_in_chunks(2**20, "0", range(2, 7), 6, 600, 8, chunk=53,
                                       client=client if on_cluster else None)
    assert outcome.complete and result.examined == whole.examined and result.best == whole.best


# -- the sources path in chunks: a seed space beyond one run's limit (issue 27, item 10) ----------------------

#: CPython random seed planted in a space of 600 seeds; one run is patched down to 256 seeds to keep it fast.
PYTHON_SEED, PYTHON_SPACE, SMALL_LIMIT = 1_234, "1000..1599", 256


def python_seen(k=5):
    return " ".join(standard_deck().names(shuffle(52, make_source("python", PYTHON_SEED), make_shuffle("fisher-yates"),
                                                  REDUCERS["python-randbelow"])[:k]))


@pytest.fixture
def small_one_run(monkeypatch):
    """One run of the sources path shuffles at most SMALL_LIMIT seeds."""
    import rnglab.recovery.crack as crack_module

    monkeypatch.setattr(crack_module, "MAX_SLOW_SEEDS", SMALL_LIMIT)


def python_argv(*more):
    return ["crack", "python", "--seeds", PYTHON_SPACE, "--seen", python_seen(), "--json", *more]


def test_a_sources_space_beyond_one_run_is_refused_with_the_options_that_serve_it(small_one_run, capsys):
    with pytest.raises(ValueError, match="more than 256 in one run.*--journal FILE.*--workers N.*--cluster"):
        make_plan(as_generator("python"), parse_seed_space(PYTHON_SPACE), observe(python_seen()))
    assert main(python_argv()) == 2 and "--journal" in capsys.readouterr().err


def test_a_sources_space_beyond_one_run_completes_with_a_journal_and_resumes(small_one_run, monkeypatch, tmp_path,
                                                                             capsys):
    import rnglab.recovery.distributed as distributed_module

    argv, calls, search_chunk = python_argv("--journal", str(tmp_path / "j"), "--chunk", "100"), [], \
        distributed_module.search_chunk

    def interrupted_at_the_fourth(plan, first, stop, device="cpu"):
        calls.append((first, stop))
        if len(calls) == 4:  # the first call loads the path, the next two are chunks: Ctrl-C during the third
            raise KeyboardInterrupt
        return search_chunk(plan, first, stop, device)

    monkeypatch.setattr(distributed_module, "search_chunk", interrupted_at_the_fourth)
    assert main(argv) == 130
    out, err = capsys.readouterr()
    assert f"Interrupted: run the same command (journal {tmp_path / 'j'})" in err
    first = json.loads(out)
    assert not first["complete"] and first["shuffled"] == 200 and first["remaining"] == [[1200, 1600]]
    monkeypatch.setattr(distributed_module, "search_chunk", search_chunk)
    assert main(argv) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["complete"] and second["shuffled"] == 400
    assert [c["seed"] for c in second["candidates"]] == [PYTHON_SEED] and second["searched"] == 600


def test_a_sources_space_beyond_one_run_on_two_local_workers_with_a_journal(small_one_run, client, tmp_path):
    plan = make_plan(as_generator("python"), parse_seed_space(PYTHON_SPACE), observe(python_seen()), max_seeds=MAX_SCALED_SEEDS)
    journal = open_journal(tmp_path / "j", KIND, search_identity(plan))
    result, failures = run_search(plan, client, chunk=SMALL_LIMIT, journal=journal)
    assert failures == [] and result.complete and result.method == "sources" and result.shuffled == 600
    assert [c.seed for c in result.candidates] == [PYTHON_SEED]
    chunks = [tuple(json.loads(line)["chunk"]) for line in (tmp_path / "j").read_text().splitlines()[1:]]
    assert sorted(chunks) == [(1000, 1256), (1256, 1512), (1512, 1600)]


def test_a_chunk_beyond_one_run_is_refused(small_one_run, capsys):
    assert main(python_argv("--journal", "unused", "--chunk", "257")) == 2
    assert "--chunk 257 seeds is more than one run searches on the sources path (256)" in capsys.readouterr().err


def test_every_default_task_is_within_one_run():
    from rnglab.recovery.crack import one_run_limit
    from rnglab.recovery.distributed import TASK_CHUNK

    assert all(seeds <= one_run_limit(method) for method, seeds in TASK_CHUNK.items())


@pytest.mark.slow  # starts its own local cluster through the command
def test_the_command_searches_a_sources_space_beyond_one_run_on_two_local_workers(small_one_run, tmp_path, capsys):
    assert main(python_argv("--workers", "2", "--journal", str(tmp_path / "j"))) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["complete"] and data["failed"] == [] and [c["seed"] for c in data["candidates"]] == [PYTHON_SEED]
