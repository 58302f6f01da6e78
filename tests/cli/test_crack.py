"""``rnglab crack``: JSON and tables, the --outputs mode, and one-line errors with exit status 2."""

import json

import pytest
from cli_runs import run
from click.testing import CliRunner

from rnglab.cli import crack as crack_cli
from rnglab.generators import make_source
from rnglab.recovery.crack import CrackResult
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.shuffles.cards import standard_deck

DECK = standard_deck()


def dealt(generator, seed, algo, method, k):
    return " ".join(DECK.names(shuffle(52, make_source(generator, seed), make_shuffle(algo), REDUCERS[method])[:k]))


def test_json_has_seeds_candidates_and_expected_matches(capsys):
    seed = 18_438_316
    seen = dealt("delphi", seed, "poker1999", "multiply-shift", 6)
    status, out, _ = run(["crack", "delphi", "--seeds", "ms-midnight", "--window", "2026-11-22T05:07:18±60s",
                          "--algo", "poker1999", "--seen", seen, "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and data["searched"] == 120_000
    assert [c["seed"] for c in data["candidates"]] == [seed] and " ".join(data["candidates"][0]["deck"][:6]) == seen
    assert data["expected_false_matches"] == pytest.approx(120_000 / (52 * 51 * 50 * 49 * 48 * 47))


def test_table_lists_the_predicted_deck(capsys):
    seed = 1_790_012_345
    seen = dealt("msvc", seed, "fisher-yates", "modulo", 5)
    status, out, _ = run(["crack", "msvc", "--seeds", f"{seed - 5000}..{seed + 5000}", "--seen", seen], capsys)
    assert status == 0 and "candidates: 1" in out
    assert f"{seed}  {seen}" in out


def test_positions_and_indices(capsys):
    deck = shuffle(52, make_source("msvc", 777), make_shuffle("fisher-yates"), REDUCERS["modulo"])
    status, out, _ = run(["crack", "msvc", "--seeds", "0..2000", "--seen", f"{deck[40]} {deck[7]} {deck[51]} {deck[3]}",
                          "--positions", "40,7,51,3", "--json"], capsys)
    assert status == 0 and 777 in [c["seed"] for c in json.loads(out)["candidates"]]


def test_outputs_recover_java_state(capsys):
    source = make_source("java", 42)
    values = [int(v) for v in source.random_raw(5)]
    signed = [v - 2**32 if v >= 2**31 else v for v in values]
    status, out, _ = run(["crack", "java", "--outputs", f"{signed[0]},{signed[1]}", "--predict", "3", "--json"],
                         capsys)
    data = json.loads(out)
    assert status == 0 and 42 in data["seeds"]
    assert data["predicted"][data["seeds"].index(42)] == values[2:]
    status, out, _ = run(["crack", "java", "--outputs", f"{signed[0]},{signed[1]}", "--predict", "3"], capsys)
    assert status == 0 and "next outputs: " + " ".join(map(str, signed[2:])) in out


def test_interrupted_search_exits_130_with_resume_hint(monkeypatch):
    partial = CrackResult("msvc", "fisher-yates", "modulo", "seeds 0..99", [[0, 100]], 52, [0], ["Ac"], 40, 40,
                          0.1, 1, None, "compiled", [], 0, 0.5, complete=False, remaining=[[40, 100]])
    monkeypatch.setattr(crack_cli, "_search", lambda *args: partial)
    result = CliRunner().invoke(crack_cli.crack_command, ["msvc", "--seeds", "0..99", "--seen", "Ac"])
    assert result.exit_code == 130 and "resume with --seeds 40..99" in result.output


@pytest.mark.parametrize("args, message", [
    (["--seeds", "0..100", "--seen", "As Qx"], "unknown card"),
    (["--seeds", "0..100", "--seen", "As 7h As"], "appears twice"),
    (["--seeds", "0..100", "--seen", " ".join(map(str, range(53)))], "holds 52"),
    (["--seeds", "ms-midnight", "--window", "0m", "--seen", "As"], "positive length"),
    (["--seeds", "ms-midnight", "--window", "3d", "--seen", "As"], "repeat every day"),
    (["--seeds", "time-s", "--window", "300y", "--seen", "As"], "200 years"),
    (["--seeds", "os", "--window", "1d", "--seen", "As"], "not enumerable"),
    (["--seeds", "0..2^40", "--seen", "As"], "must be in [0, 4294967295]"),
    (["--seeds", "0..100", "--seen", "As", "--algo", "bogo"], "'bogo' is not one of"),
    (["--seeds", "0..100", "--seen", "As", "--reducer", "nope"], "'nope' is not one of"),
    (["--seeds", "0..100"], "--seen"),
    (["--seen", "As"], "at least"),  # no seed space: the lattice, which says how many cards it needs
    (["--seeds", "0..1", "--window", "1d", "--seen", "As"], "applies to a seed policy"),
])
def test_bad_input_is_one_line_and_status_2(capsys, args, message):
    status, _out, err = run(["crack", "msvc", *args], capsys)
    assert status == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_crack_of_an_inline_lcg_uses_the_reducer_deal_used(capsys):
    # Issue 11: crack defaulted to modulo for an inline lcg: spec while shuffle and deal defaulted to lemire,
    # so the deal below was not found (0 candidates) without --reducer lemire.
    spec = "lcg:a=1103515245,c=12345,m=2^31,output=bits(16,15)"
    status, out, _ = run(["deal", spec, "--seed", "5", "--json"], capsys)
    order = json.loads(out)["order"]
    status, out, _ = run(["crack", spec, "--seeds", "0..100", "--seen", " ".join(map(str, order[:6])), "--json"],
                         capsys)
    result = json.loads(out)
    assert status == 0 and result["reducer"] == "lemire" and [c["seed"] for c in result["candidates"]] == [5]
