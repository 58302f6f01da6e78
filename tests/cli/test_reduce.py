"""Tests for ``rnglab reduce`` and ``rnglab seeds``."""

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from rnglab.cli import main, rnglab


def run(args):
    return CliRunner().invoke(rnglab, args)


def test_reduce_json_has_exact_fractions():
    result = run(["reduce", "msvc", "--n", "52", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["range"] == 32768
    modulo = next(m for m in data["methods"] if m["method"] == "modulo")
    assert {"method", "n", "range", "counts_summary", "max_prob", "min_prob", "ratio", "tv_distance",
            "expected_draws"} <= set(modulo)
    assert (modulo["max_prob"], modulo["min_prob"], modulo["ratio"]) == ("631/32768", "315/16384", "631/630")
    assert modulo["counts_summary"] == [{"count": 631, "outputs": 8}, {"count": 630, "outputs": 44}]
    lemire = next(m for m in data["methods"] if m["method"] == "lemire")
    assert lemire["max_prob"] == lemire["min_prob"] == "1/52" and lemire["expected_draws"] == "4096/4095"


def test_reduce_range_and_single_method_table():
    result = run(["reduce", "--range", "2^32", "--n", "10000", "--reducer", "float-multiply"])
    assert result.exit_code == 0, result.output
    assert "float-multiply" in result.output and "429497/4294967296" in result.output


def test_reduce_samples_flags_modulo():
    result = run(["reduce", "msvc", "--seed", "5", "--n", "10000", "--reducer", "modulo", "--samples", "27995",
                  "--json"])
    empirical = json.loads(result.output)["methods"][0]["empirical"]
    assert empirical["flagged"] and empirical["predicted_draws"] == 27995 and empirical["seed"] == 5


def test_reduce_plot(tmp_path):
    path = tmp_path / "bias.png"
    assert run(["reduce", "msvc", "--n", "54", "--plot", str(path)]).exit_code == 0
    assert path.stat().st_size > 1000
    again = run(["reduce", "msvc", "--n", "54", "--plot", str(path)])
    assert again.exit_code != 0 and "already exists" in str(again.exception or again.output)


@pytest.mark.parametrize("args, message", [
    (["reduce", "msvc", "--n", "40000"], "n must be in [1, R] = [1, 32768] for this source; got 40000"),
    (["reduce", "msvc", "--n", "52", "--reducer", "mod"], "unknown reducer 'mod'"),
    (["reduce", "--n", "52"], "name a generator"),
    (["reduce", "msvc", "--range", "100", "--n", "5"], "not both"),
    (["reduce", "--range", "100", "--n", "5", "--samples", "100"], "draws from a generator"),
    (["reduce", "msvc", "--n", "52", "--samples", "10"], "at least n = 52"),
    (["reduce", "msvc", "--n", "2^^3"], "cannot parse"),
    (["seeds", "clock"], "unknown seed policy"),
    (["seeds", "ms-midnight", "--window", "2d"], "longer than 1d"),
    (["seeds", "time-s", "--window", "-3m"], "positive length"),
    (["seeds", "time-s", "--tables", "0"], "must be >= 1"),
])
def test_bad_input_is_one_line_and_status_2(args, message, capsys):
    assert main(args) == 2
    error = capsys.readouterr().err
    assert error.startswith("Error:") and message in error and error.count("\n") == 1


def test_seeds_reports_space_and_collision():
    result = run(["seeds", "time-s", "--window", "2026-11-22T10:00:00±60s", "--tables", "10",
                  "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["seeds"] == 120 and data["sizes"]["day"] == 86400
    assert data["collision"]["exact"] and abs(float(Fraction(data["collision"]["probability"])) - 0.3197575) < 1e-6
    first, second = data["tables"]["first_outputs"]
    assert first == second


def test_seeds_table_output():
    result = run(["seeds", "pid-time", "--window", "2026-11-22T10:00:00±60s", "--tables", "3"])
    assert result.exit_code == 0, result.output
    assert "32768 seeds" in result.output and "P(two share a seed)" in result.output


@pytest.mark.parametrize("args, first_rows", [
    (["pcg64", "--n", "2^64-1"], ["modulo,", "multiply-shift", "no", "1/9223372036854775808",
                                  "1/18446744073709551616", "2", "5.42e-20", "1", "4.042e+29"]),
    (["--range", "2^64+1", "--n", "2^64"], ["modulo,", "multiply-shift", "no", "2/18446744073709551617",
                                            "1/18446744073709551617", "2", "5.42e-20", "1", "4.042e+29"]),
])
def test_reduce_beyond_64_bits(args, first_rows):
    result = run(["reduce", *args])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[4].split() == first_rows


def test_reduce_json_keeps_the_exact_figures_the_table_rounds():
    result = run(["reduce", "pcg64", "--n", "2^64-1", "--reducer", "modulo", "--json"])
    assert json.loads(result.output)["methods"][0]["draws_to_detect"] == 404249048178493562308061149092


def test_reduce_on_a_range_of_4000_bits_shows_the_tiny_bias():
    result = run(["reduce", "--range", "2^4000", "--n", "3", "--reducer", "modulo", "--json"])
    assert result.exit_code == 0, result.output
    modulo = json.loads(result.output)["methods"][0]
    assert Fraction(modulo["tv_distance"]) == Fraction(2, 3 * 2**4000) and modulo["draws_to_detect"] > 2**8003
    table = run(["reduce", "--range", "2^4000", "--n", "3", "--reducer", "modulo"]).output
    assert " 5.06e-1205 " in table


def test_reduce_refuses_a_sample_beyond_the_time_budget(capsys):
    assert main(["reduce", "msvc", "--n", "52", "--samples", "10^12"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        ("Error: samples must be at most 10^10 (about 7 minutes at 25 million values/s); got 1000000000000, "
        "about 11.1 hours")]
