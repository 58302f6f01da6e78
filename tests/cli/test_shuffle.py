"""The shuffle, deal, fairness and reach commands."""

import json

import pytest
from click.testing import CliRunner

from rnglab.cli import main, rnglab
from rnglab.generators import make_source
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles import reach as reach_module
from rnglab.shuffles.algorithms import make_shuffle, shuffle


def run(*args):
    result = CliRunner().invoke(rnglab, list(args), catch_exceptions=False)
    return result


def test_shuffle_prints_card_names():
    result = run("shuffle", "msvc", "--n", "52", "--count", "2", "--reducer", "modulo")
    lines = result.stdout.split()
    assert len(lines) == 104 and len(set(lines[:52])) == 52


def test_a_pipeline_shuffles_and_names_its_own_deck():
    data = json.loads(run("shuffle", "vbscript-xiangqi", "--json").stdout)
    jieqi = ["advisor"] * 2 + ["elephant"] * 2 + ["horse"] * 2 + ["chariot"] * 2 + ["cannon"] * 2 + ["soldier"] * 5
    assert data["deck"] == "jieqi" and data["n"] == 15
    assert data["cards"] == [[jieqi[i] for i in data["decks"][0]]]
    assert run("shuffle", "vbscript-xiangqi").stdout.split() == data["cards"][0]


@pytest.mark.parametrize("args, printed", [
    (["--deck", "xiangqi"], {"general": 1, "advisor": 2, "elephant": 2, "horse": 2, "chariot": 2, "cannon": 2,
                             "soldier": 5}),
    (["--n", "54"], {name: 1 for name in ["BJ", "RJ", "As", "Kd", "Tc"]}),
    (["--n", "15"], {str(i): 1 for i in range(15)}),
])
def test_shuffle_prints_the_deck_it_is_given(args, printed):
    names = run("shuffle", "java", *args).stdout.split()
    assert {name: names.count(name) for name in printed} == printed


def test_deal_holdem_json():
    data = json.loads(run("deal", "msvc", "--game", "holdem", "--players", "6", "--json").stdout)
    assert len(data["hands"]) == 6 and len(data["board"]["flop"]) == 3 and len(data["board"]["burn"]) == 3


def test_fairness_json_fields():
    data = json.loads(run("fairness", "--algo", "naive", "--n", "3", "--json").stdout)
    assert data["tv_distance"] == "1/18" and data["most_likely"]["prob"] == "5/27"
    assert data["position_max_deviation"] == "1/27" and data["exact"] is True


def test_fairness_over_seeds_and_plot(tmp_path):
    plot = tmp_path / "heat.png"
    data = json.loads(run("fairness", "msvc", "--algo", "poker1999", "--n", "5", "--seeds", "0..999",
                          "--json", "--plot", str(plot)).stdout)
    assert data["paths"] == 1000 and plot.exists()


def test_empirical_fairness_of_msvc_is_unremarkable_and_naive_is_rejected():
    fair = json.loads(run("fairness", "msvc", "--n", "52", "--seed", "1", "--shuffles", "65536", "--json").stdout)
    naive = json.loads(run("fairness", "msvc", "--n", "52", "--seed", "1", "--shuffles", "65536", "--algo", "naive",
                           "--json").stdout)
    # rand() % (i+1) on 2^15 values biases Fisher-Yates, too little for 65,536 shuffles to see (the ideal
    # source's law, uniform, gave no figure before)
    assert fair["shuffles"] == 65536 and fair["pvalue"] > 1e-6 and fair["shuffles_to_detect"] == 54_113_010
    assert fair["detect_source"] == "through modulo on 32768 source values"
    assert naive["pvalue"] < 1e-6 and fair["source"] == "msvc seed 1, modulo" and naive["shuffles_to_detect"] == 495


def test_exact_fairness_through_a_reducer():
    data = json.loads(run("fairness", "--n", "3", "--reducer", "modulo", "--range", "4", "--json").stdout)
    # j = x mod 3 from 4 values: j = 0 twice as likely; the first swap is biased, the second (mod 2) is not
    assert data["source"] == "ideal source of 4 values, modulo" and data["tv_distance"] == "1/6"
    assert data["most_likely"]["prob"] == "1/4"


def test_reach_bound_only_does_not_enumerate():
    data = json.loads(run("reach", "msvc", "--seeds", "0..2^32-1", "--bound-only", "--json").stdout)
    assert data["seeds"] == 2**32 and data["bound"] == 2**32 and data["distinct"] is None
    data = json.loads(run("reach", "delphi", "--seeds", "ms-midnight", "--window", "1d", "--bound-only",
                          "--json").stdout)
    assert data["seeds"] == 86400000 == data["bound"]


def test_reach_json():
    data = json.loads(run("reach", "msvc", "--seeds", "0..999", "--n", "6", "--json").stdout)
    assert data["seeds"] == 1000 and data["n_factorial"] == 720 and 0 < data["fraction"] <= 1


@pytest.mark.parametrize("args", [["fairness", "--algo", "naive", "--n", "5000"],
                                  ["reach", "msvc", "--seeds", "9..3", "--n", "5"],
                                  ["shuffle", "msvc", "--n", "0"],
                                  ["fairness", "msvc", "--algo", "naive", "--n", "4", "--exact"],
                                  ["fairness", "--n", "4", "--reducer", "modulo"],
                                  ["fairness", "--n", "4", "--range", "7"],
                                  ["fairness", "msvc", "--n", "4", "--range", "7"],
                                  ["reach", "msvc", "--seeds", "0..2^32-1"],
                                  ["deal", "msvc", "--game", "holdem", "--players", "30"],
                                  ["fairness", "--n", "5", "--reducer", "modulo", "--range", "3"],
                                  ["fairness", "--n", "3", "--algo", "sort-keys", "--key-bits", "10^6"],
                                  ["fairness", "--n", "3", "--algo", "sort-keys-redraw", "--key-bits", "1"],
                                  ["fairness", "msvc", "--n", "52", "--shuffles", "10"],
                                  ["fairness", "msvc", "--n", "52", "--shuffles", "10^12"],
                                  ["fairness", "--n", "1000", "--algo", "sattolo"],
                                  ["fairness", "--n", "30", "--algo", "transpositions", "--swaps", "10^6"]])
def test_bad_input_is_one_line_and_status_2(args, capsys):
    assert main(args) == 2
    error = capsys.readouterr().err
    assert error.startswith("Error:") and error.count("\n") == 1


def test_fairness_over_the_seeds_of_a_python_source():
    # Issue 11: the python source was looked up again by its name and failed with "unknown generator".
    result = run("fairness", "python", "--n", "4", "--seeds", "0..20", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["paths"] == 21 and data["source"] == "python, python-randbelow, seeds 0..20"


def test_reach_interrupted_says_what_the_seeds_dealt_reach_and_resumes_from_its_journal(tmp_path, monkeypatch,
                                                                                        capsys):
    journal = str(tmp_path / "reach.journal")
    command = ["reach", "msvc", "--seeds", "0..999", "--n", "5", "--algo", "naive", "--reducer", "modulo",
               "--chunk", "300", "--journal", journal]
    calls, distinct_keys = [], reach_module.distinct_keys

    def interrupted_third(*args):
        calls.append(args[-2:])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return distinct_keys(*args)

    monkeypatch.setattr(reach_module, "distinct_keys", interrupted_third)
    result = CliRunner().invoke(rnglab, command)
    first_600 = len({tuple(shuffle(5, make_source("msvc", seed=s), make_shuffle("naive"), REDUCERS["modulo"]).tolist()) for s in range(600)})
    assert result.exit_code == 130
    assert f"dealt 600 of 1,000 seeds: {first_600:,} distinct deals among them" in result.output
    assert f"Interrupted: run the same command (journal {journal})" in result.output

    monkeypatch.setattr(reach_module, "distinct_keys", distinct_keys)
    resumed = CliRunner().invoke(rnglab, [*command, "--json"])
    whole = json.loads(run("reach", "msvc", "--seeds", "0..999", "--n", "5", "--algo", "naive", "--reducer",
                           "modulo", "--json").stdout)
    assert resumed.exit_code == 0 and f"journal {journal}: 2 chunks already dealt" in resumed.stderr
    assert json.loads(resumed.stdout) == whole and whole["dealt"] == 1000 and whole["exact"]

    assert main([*command[:5], "6", *command[6:]]) == 2  # another deck: the journal is refused
    assert "records other work (deck differ)" in capsys.readouterr().err


@pytest.mark.parametrize("args", [["reach", "python", "--seeds", "0..100", "--n", "5"],
                                  ["reach", "mt19937", "--seeds", "0..10", "--n", "5", "--bound-only"]])
def test_reach_json_writes_the_mersenne_twisters_period_exactly(args):
    data = json.loads(run(*args, "--json").stdout)
    assert int(data["period"], 0) == 2**19937 - 1 and data["n_factorial"] == 120


@pytest.mark.parametrize("args, message", [
    (["deal", "vbscript-xiangqi"], ("holdem is dealt from the standard-52 deck (52 cards), not from the jieqi deck "
                                    "(15 items): the pipeline vbscript-xiangqi shuffles its own deck")),
    (["deal", "deitel-msvc", "--game", "doudizhu"], ("doudizhu is dealt from the standard-54 deck (54 cards), not "
                                                     "from the deitel deck (52 items)")),
])
def test_deal_refuses_a_pipeline_whose_deck_is_not_the_games(args, message, capsys):
    assert main(args) == 2
    assert capsys.readouterr().err.startswith(f"Error: {message}")


def test_deal_deals_a_pipelines_52_card_shuffle():
    data = json.loads(run("deal", "deitel-msvc", "--seed", "7", "--json").stdout)
    expected = json.loads(run("shuffle", "deitel-msvc", "--seed", "7", "--json").stdout)
    assert data["order"] == expected["decks"][0]


def test_deal_names_a_pipelines_cards_by_its_own_deck():
    # deitel-msvc seed 1 shuffles 8d 7c 5c Qc Ad 6d Jd 9s 3s 6s Jc 7h ... (rnglab shuffle, pinned to the book's
    # suits by tests/data/pipelines/names_c.txt): hands one card at a time, a burn before each street.
    lines = run("deal", "deitel-msvc", "--seed", "1").stdout.splitlines()
    assert lines == ["player 1: 8d 5c", "player 2: 7c Qc", "flop: 6d Jd 9s", "turn: 6s", "river: 7h",
                     "burn: Ad 3s Jc"]


def test_reach_text_shows_the_mersenne_twisters_period():
    lines = run("reach", "python", "--seeds", "0..100", "--n", "5").stdout.splitlines()
    assert "largest period                  2^19937-1" in lines


def test_reach_says_up_front_how_long_dealing_one_generator_per_seed_may_take(capsys):
    assert main(["reach", "python", "--seeds", "0..2^14+2^13", "--n", "4", "--json"]) == 0
    assert capsys.readouterr().err == ("dealing 24,577 seeds, one python generator per seed: up to 15 s of CPU "
                                       "(at most 0.6 ms a seed, measured)\n")


def test_fairness_over_seeds_one_generator_per_seed_is_announced_and_limited_as_reach(capsys):
    assert main(["fairness", "python", "--seeds", "0..2^14+2^13", "--n", "3", "--json"]) == 0
    assert capsys.readouterr().err == ("dealing 24,577 seeds, one python generator per seed: up to 15 s of CPU "
                                       "(at most 0.6 ms a seed, measured)\n")
    assert main(["fairness", "pcg64", "--seeds", "0..2^20", "--n", "3"]) == 2
    assert capsys.readouterr().err == (
        "Error: pcg64 is dealt one generator per seed (up to 0.6 ms each): at most 1,048,576 seeds in one run; "
        "seeds 0..1048576 holds 1,048,577, up to 0.2 h (split it into ranges of --seeds)\n")
