"""``rnglab period``: human and JSON output, the walk, and one-line errors."""

import json

import pytest
from cli_runs import run


def test_minstd_by_options(capsys):
    status, out, _ = run(["period", "--a", "16807", "--m", "2^31-1"], capsys)
    assert status == 0
    assert "period     2147483646\n" in out and "tail       0\n" in out
    assert "[yes] a is a primitive root modulo m" in out and "maximal" in out


def test_json_keys_and_big_integers(capsys):
    status, out, _ = run(["period", "lcg:a=5,c=1,m=2^128", "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and data["generator"] == "lcg:a=5,c=1,m=2^128"
    assert {key: data[key] for key in ("a", "c", "m", "seed", "period", "tail", "max_period", "is_max")} == {
        "a": 5, "c": 1, "m": 2**128, "seed": 1, "period": 2**128, "tail": 0, "max_period": 2**128, "is_max": True}
    assert data["bit_periods"][:3] == [2, 4, 8]


def test_catalog_generator_shows_bit_periods(capsys):
    status, out, _ = run(["period", "randu", "--seed", "2"], capsys)
    assert status == 0 and "period     268435456 = 2^28" in out and "[no ] seed is odd" in out
    assert "  bit   0: 1\n" in out and "  ...\n" in out and "  bit  30: 268435456 = 2^28" in out


def test_tail_of_a_non_invertible_multiplier(capsys):
    _, out, _ = run(["period", "--a", "2", "--c", "1", "--m", "2^10", "--seed", "0", "--json"], capsys)
    assert (json.loads(out)["period"], json.loads(out)["tail"]) == (1, 10)


def test_walk_confirms_the_algebra(capsys):
    status, out, _ = run(["period", "--a", "5", "--c", "1", "--m", "2^20", "--walk"], capsys)
    assert status == 0 and "walk       period 1048576, tail 0: agrees with the algebra" in out


def test_walk_json(capsys):
    status, out, _ = run(["period", "--a", "3", "--m", "2^16", "--walk", "--json"], capsys)
    walked = json.loads(out)["walk"]
    assert status == 0 and walked["period"] == 2**14 and walked["agrees_with_algebra"] is True


def test_walk_refuses_beyond_max_steps(capsys):
    status, _, err = run(["period", "mmix", "--walk"], capsys)
    assert status == 2 and err.startswith("Error: the walk needs about 18446744073709551616 steps")


@pytest.mark.parametrize("args, message", [
    (["--a", "16807", "--m", "1"], "m must be >= 2"),
    (["--a", "0", "--m", "2^31-1"], "a must be in (0, m)"),
    (["--a", "3", "--m", "10", "--c", "10"], "c must be in [0, m)"),
    (["--a", "3", "--m", "10", "--seed", "11"], "must be in [0, 9]; got 11"),
    (["--a", "3", "--m", "10", "--seed", "0"], "seed must be non-zero when c = 0"),
    (["pcg64"], "pcg64 is not a linear congruential generator"),
    (["--a", "3", "--m", "2^128+1", "--c", "1"], "cannot factor m = about 2^128 within the budget of 2,000,000 units"),
])
def test_bad_input_is_one_line_with_status_2(args, message, capsys):
    status, out, err = run(["period"] + args, capsys)
    assert status == 2 and out == "" and message in err and err.count("\n") == 1
