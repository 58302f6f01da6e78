"""``rnglab spectral`` for MRGs and combinations (rnglab.cli.spectral_mrg): LatMRG's figures, projections,
lacunary lags, the coefficient search, and the options it refuses.

The LCG path of the command is tested in tests/cli/test_spectral.py; the lattice work in tests/algebra/.
"""

import json

import pytest
from cli_runs import run
from click.testing import CliRunner

from rnglab.cli import main, rnglab
from rnglab.cli.spectral_mrg import MAX_LAGS, parse_lacunary


def invoke(*args):
    return CliRunner().invoke(rnglab, list(args))


def test_mrg32k3a_table_with_rogers():
    # LatMRG TestMRG32k3a.res: S_4 = 0.837843, S_11 = 0.639403 = M_12 (Rogers).
    result = invoke("spectral", "mrg32k3a", "--dims", "2..12", "--norm", "rogers")
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines() if line[:2].strip().isdigit()}
    assert rows["2"][1:4] == [str((4294967087 * 4294944443) ** 2), "1", "1"]
    assert rows["4"][1:3] == ["80601709987872970831494285955", "0.837843"]
    assert "M_12 = 0.639403" in result.stdout and "S_t = 1 by convention" in result.stdout


def test_inline_mrg_with_projections_json():
    # LatMRG guide (TestProjections): m = 1021, a = 333, M_{10,8,6,5} = 0.440728 at {1,6}.
    data = json.loads(invoke("spectral", "mrg:m=1021,a=333", "--dims", "2..10", "--projections", "8,6,5",
                             "--json").stdout)
    assert data["norm"] == "bestlat" and len(data["projections"]) == 18
    worst = min(data["projections"], key=lambda p: p["S"])
    assert worst["coordinates"] == [1, 6] and round(data["M_projections"], 6) == 0.440728


def test_lacunary_groups():
    # LatMRG TestLEC97.res: a = 16807, lags 1, 2, 3, d+1, ... (d = 131072): nu_4^2 = 43222, S_4 = 0.812106.
    data = json.loads(invoke("spectral", "mrg:m=2^31-1,a=16807", "--dims", "2..4", "--lacunary", "3:131072",
                             "--json").stdout)
    assert data["lacunary"] == [1, 2, 3, 131073]
    assert [d["nu2"] for d in data["dims"]] == [282475250, 408197, 43222]
    assert round(data["dims"][-1]["S"], 6) == 0.812106


def test_mrg_coefficient_search():
    result = invoke("spectral", "search", "--m", "2^31-1", "--order", "2", "--dims", "3..8", "--candidates", "300",
                    "--seed", "1", "--top", "2", "--full-period", "--json")
    data = json.loads(result.stdout)
    assert (data["k"], data["full_period"], len(data["best"])) == (2, True, 2)
    assert data["best"][0]["M"] == min(data["best"][0]["S"]) >= data["best"][1]["M"]


def test_an_mrg_search_without_dims_searches_k_plus_1_to_8(capsys):
    # the LCG default 2..8 would be refused for order 2 (t <= k are filled, S_t = 1): the default follows the order
    status = main(["spectral", "search", "--m", "2^31-1", "--order", "2", "--candidates", "20", "--seed", "1",
                   "--json"])
    assert status == 0 and json.loads(capsys.readouterr().out)["dims"] == [3, 4, 5, 6, 7, 8]


def test_the_table_of_an_mrg_with_lacunary_lags(capsys):
    # The LEC97 lags above, as printed: the lags, one row per dimension (nu^2, S_t, hyperplanes, the shortest dual
    # vector), and M_4 the smallest S_t.
    status, out, _ = run(["spectral", "mrg:m=2^31-1,a=16807", "--dims", "2..4", "--lacunary", "3:131072"], capsys)
    lines = out.splitlines()
    assert status == 0 and lines[:2] == ["mrg:m=2^31-1,a=16807: the MRG itself", "m = 2147483647, k = 1, a = 16807"]
    assert lines[2].startswith("normalisation bestlat: densest known lattices (Conway & Sloane 3rd ed., Table I.1(a))")
    assert lines[3:] == [
        "lacunary lags: 1, 2, 3, 131073",
        "t       nu^2         S  S_t = 1  planes  witness",
        "-  ---------  --------  -------  ------  -------------",
        "2  282475250  0.337513            16807  16807 -1",
        "3     408197  0.441184              764  90 -44 631",
        "4      43222  0.812106              319  15 191 54 -60",
        "M_4 = 0.337513 (min S_t over t = 2, 3, 4)"]


def test_the_table_of_the_projections_and_their_merit(capsys):
    status, out, _ = run(["spectral", "mrg:m=1021,a=333", "--dims", "2..6", "--projections", "4,3"], capsys)
    assert status == 0 and out.split("\n\n")[1].splitlines() == [
        "coordinates  nu^2         S  S_t = 1  planes  witness",
        "-----------  ----  --------  -------  ------  -------",
        "1,3           650  0.742522               34  11 23",
        "1,4           425  0.600409               28  16 -13",
        "M over successive dimensions and 2 projections = 0.488395"]
    assert "M_6 = 0.488395 (min S_t over t = 2, 3, 4, ..., 6)" in out


def test_the_search_table_ranks_the_coefficients_by_merit(capsys):
    status, out, _ = run(["spectral", "search", "--m", "2^31-1", "--order", "2", "--dims", "3..5", "--candidates",
                          "30", "--seed", "1", "--top", "2"], capsys)
    lines = out.splitlines()
    assert status == 0 and lines[:4] == [
        "rank  a_1..a_k                    M_5       S_3       S_4       S_5",
        "----  ---------------------  --------  --------  --------  --------",
        "   1  535214420:669652945    0.682264  0.697534  0.683737  0.682264",
        "   2  1608686208:2065143099  0.673856  0.673856  0.732921  0.817492"]
    assert lines[5].startswith("30 distinct candidates examined in ")
    assert lines[5].endswith("m = 2147483647, k = 2, normalisation bestlat, seed 1")


def test_lacunary_lags_as_given_or_in_groups():
    assert parse_lacunary("1,2,5,9", 4) == [1, 2, 5, 9]
    assert parse_lacunary("2:10", 5) == [1, 2, 11, 12, 21]


@pytest.mark.parametrize("args, message", [
    (["randu", "--norm", "rogers"], "--norm apply to MRGs and combinations; write an LCG as mrg:m=..,a=.. to use them"),
    (["randu", "--norm", "rogers", "--lacunary", "1,2"], "--norm, --lacunary apply to MRGs and combinations"),
    (["mrg:m=2^31-1,a=16807", "--dims", "2..4", "--lacunary", "4:3"], "--lacunary G:D needs 1 <= G <= D; got '4:3'"),
    (["mrg:m=2^31-1,a=16807", "--dims", "2..4", "--lacunary", "1,x"],
     "--lacunary must be integers separated by commas; got '1,x' (cannot parse 'x'"),
    (["mrg:m=2^31-1,a=16807", "--dims", "2..4", "--projections", "5,a"],
     "--projections must be integers separated by commas; got '5,a'"),
    (["mrg:m=2^31-1,a=16807", "--dims", "2..4", "--lacunary", ",".join(map(str, range(1, MAX_LAGS + 2)))],
     "--lacunary names at most 64 lags; got 65"),
])
def test_mrg_options_are_refused_in_one_line(args, message, capsys):
    status, out, err = run(["spectral", *args], capsys)
    assert (status, out) == (2, "") and err.startswith(f"Error: {message}") and err.count("\n") == 1
