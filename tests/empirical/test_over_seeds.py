"""A battery once per seed: the p-values of single runs, their uniformity across seeds, the journal, the command."""

import json

import pytest

from rnglab.cli import main
from rnglab.empirical.battery import Battery, get_battery, run_battery, select_entries
from rnglab.empirical.over_seeds import KIND, battery_over_seeds, work_identity
from rnglab.empirical.secondlevel import anderson_darling_uniform
from rnglab.generators import as_generator
from rnglab.parallel.journal import open_journal
from rnglab.streams.gateway import BitSelection

MINSTD = as_generator("minstd")


def small_battery(tests=("frequency", "serial"), n=20_000) -> Battery:
    smoke = get_battery("smoke")
    return Battery(smoke.name, smoke.description, select_entries(smoke, list(tests), n))


def test_each_seed_gives_the_p_values_of_its_own_run():
    battery = small_battery()
    result = battery_over_seeds(MINSTD.make, "minstd", battery, [(5, 9)], chunk=3)
    alone = run_battery(MINSTD.make, battery, 7)  # what rnglab test minstd --seed 7 reports
    assert result.labels == ("frequency", "serial") and result.runs == 4 and result.complete
    assert [column[2] for column in result.pvalues] == [r.pvalue for r in alone.results]
    assert result.uniformity[1] == anderson_darling_uniform(result.pvalues[1])


def test_an_interrupted_run_resumes_from_its_journal_without_running_a_seed_twice(tmp_path):
    battery, path, finished = small_battery(), tmp_path / "seeds.journal", []
    whole = battery_over_seeds(MINSTD.make, "minstd", battery, [(1, 11)], chunk=2)

    def interrupt_after_two(seeds):
        finished.append(seeds)
        if len(finished) == 2:
            raise KeyboardInterrupt

    identity = work_identity("minstd", battery, BitSelection(), [(1, 11)])
    first = battery_over_seeds(MINSTD.make, "minstd", battery, [(1, 11)], chunk=2,
                               journal=open_journal(path, KIND, identity), on_progress=interrupt_after_two)
    assert not first.complete and first.runs == 4 and first.left == ((5, 11),)
    second = battery_over_seeds(MINSTD.make, "minstd", battery, [(1, 11)], chunk=2,
                                journal=open_journal(path, KIND, identity))
    assert second.complete and second.pvalues == whole.pvalues and second.uniformity == whole.uniformity
    chunks = [tuple(json.loads(line)["chunk"]) for line in path.read_text().splitlines()[1:]]
    assert chunks == [(1, 3), (3, 5), (5, 7), (7, 9), (9, 11)]


def test_a_journal_of_another_battery_is_refused(tmp_path):
    path = tmp_path / "j"
    open_journal(path, KIND, work_identity("minstd", small_battery(), BitSelection(), [(1, 11)]))
    with pytest.raises(ValueError, match="other work.*entries"):
        open_journal(path, KIND, work_identity("minstd", small_battery(n=10_000), BitSelection(), [(1, 11)]))


def test_runs_until_failure_over_seeds_give_each_seed_its_own_run(capsys):
    from rnglab.empirical.over_seeds import until_fail_over_seeds

    randu, battery = as_generator("randu"), small_battery(("serial", "birthday-spacings"), n=None)
    result = until_fail_over_seeds(randu.make, "randu", battery, [(1, 4)], 2**24, chunk=2)
    assert result.complete and [row[0] for row in result.rows] == [1, 2, 3]
    for seed, failed, read, worst in result.rows:  # what rnglab test randu --until-fail --seed S says
        argv = ["test", "randu", "--seed", str(seed), "--battery", "smoke", "--tests", "serial,birthday-spacings",
                "--until-fail", "--max-bytes", "16MiB", "--json"]
        assert main(argv) == 1
        alone = json.loads(capsys.readouterr().out)
        assert worst == "FAIL" and failed == alone["bytes_to_fail"] <= read < 2**21
