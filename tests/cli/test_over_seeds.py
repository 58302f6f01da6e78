"""``rnglab test GEN --seeds A..B`` (rnglab.cli.over_seeds): a line per test of its p-values across the seeds,
a line per seed until it fails, and the exit status.

The work, the journal and the p-values of each seed are tested in tests/empirical/test_over_seeds.py.
"""

import json

import pytest
from cli_runs import run

from rnglab.cli import main


@pytest.mark.parametrize(("generator", "status"), [("pcg64", 0), ("randu", 1)])
def test_the_command_fails_randu_across_seeds_and_passes_pcg64(generator, status, capsys):
    # RANDU's planes: birthday spacings and the serial test give p-values outside [0.001, 0.999] at all 8 seeds
    argv = ["test", generator, "--tests", "birthday-spacings,serial", "--seeds", "1..8", "--json"]
    assert main(argv) == status
    data = json.loads(capsys.readouterr().out)
    assert data["runs"] == 8 and (("FAIL" in data["verdicts"]) == (status == 1))


def test_the_table_gives_each_test_s_p_values_across_the_seeds(capsys):
    # RANDU's planes: every seed's birthday spacings and serial p-values are outside [0.001, 0.999]; their
    # Anderson-Darling uniformity across the seeds is below double precision ("eps").
    status, out, err = run(["test", "randu", "--tests", "birthday-spacings,serial", "--seeds", "1..4"], capsys)
    lines = out.splitlines()
    assert status == 1 and lines[0].startswith("generator randu, battery smoke, seeds 1..4: 4 seeds run in ")
    assert lines[2:] == [
        "test               seeds  smallest p  outside [0.001, 0.999]  uniformity p (A^2)  verdict",
        "-----------------  -----  ----------  ----------------------  ------------------  -------",
        "birthday-spacings      4  eps                              4  eps                 FAIL",
        "serial                 4  2.1e-12                          4  eps                 FAIL"]
    assert err.splitlines()[-1] == "2 of 2 tests' p-values across the seeds reached FAIL: exit status 1"


def test_fail_on_never_keeps_status_0_across_seeds(capsys):
    status, out, err = run(["test", "randu", "--tests", "serial", "--seeds", "1..2", "--fail-on", "never"], capsys)
    assert status == 0 and out.splitlines()[-1].split()[-1] == "FAIL" and "exit status" not in err


def test_until_fail_over_seeds_gives_a_line_per_seed_and_the_spread(capsys):
    status, out, _ = run(["test", "randu", "--battery", "smoke", "--tests", "serial,birthday-spacings",
                          "--until-fail", "--max-bytes", "1MiB", "--seeds", "1..3"], capsys)
    lines = out.splitlines()
    assert status == 1 and lines[0].startswith("generator randu, battery smoke until it fails, seeds 1..3, ")
    assert lines[2:] == [
        "seed  data needed to fail  data read  worst verdict",
        "----  -------------------  ---------  -------------",
        "   1  32 KiB               32 KiB     FAIL",
        "   2  16 KiB               16 KiB     FAIL",
        "   3  32 KiB               32 KiB     FAIL",
        "",
        "3 of 3 seeds FAILed; data needed to fail: 16 KiB to 32 KiB, median 32 KiB; limit 1 MiB"]
