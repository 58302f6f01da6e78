"""Tests of ``rnglab spectral`` and the spectral report section."""

import json

import pytest
from click.testing import CliRunner

from rnglab.cli import main, rnglab
from rnglab.cli.spectral import parse_dims


def invoke(*args):
    return CliRunner().invoke(rnglab, list(args))


def test_table_for_a_catalog_generator():
    result = invoke("spectral", "randu")
    assert result.exit_code == 0
    row = next(line.split() for line in result.stdout.splitlines() if line.startswith("3 "))
    assert row[1] == "118" and row[6] == "15" and row[7:] == ["9", "-6", "1"]


def test_json_for_options():
    result = invoke("spectral", "--a", "16807", "--m", "2^31-1", "--dims", "2..4", "--json")
    data = json.loads(result.stdout)
    assert (data["a"], data["m"], data["lattice_m"]) == (16807, 2**31 - 1, 2**31 - 1)
    assert [d["t"] for d in data["dims"]] == [2, 3, 4]
    first = data["dims"][0]
    assert set(first) >= {"t", "nu2", "nu", "log2_nu", "mu", "S", "planes", "witness"}
    assert first["nu2"] == 282475250 and first["witness"] == [16807, -1]
    assert data["M"] == min(d["S"] for d in data["dims"])


def test_big_integers_stay_integers_in_json():
    data = json.loads(invoke("spectral", "--a", "6364136223846793005", "--m", "2^64",
                             "--c", "1442695040888963407", "--dims", "2", "--json").stdout)
    assert data["m"] == 2**64 and isinstance(data["dims"][0]["nu2"], int)


def test_lattice_m_option():
    data = json.loads(invoke("spectral", "randu", "--lattice-m", "2^29", "--dims", "3",
                             "--json").stdout)
    assert data["lattice_m"] == 2**29 and data["dims"][0]["nu2"] == 118


def test_catalog_is_sorted_by_merit():
    data = json.loads(invoke("spectral", "--dims", "2..4", "--json").stdout)
    merits = [entry["M"] for entry in data]
    assert merits == sorted(merits, reverse=True)
    assert data[-1]["name"] == "randu"


def test_search():
    result = invoke("spectral", "search", "--m", "2^32", "--c", "0", "--candidates", "200",
                    "--top", "3", "--seed", "7", "--json")
    data = json.loads(result.stdout)
    assert data["seed"] == 7 and data["examined"] == 200 and len(data["best"]) == 3
    assert all(b["a"] % 8 in (3, 5) for b in data["best"])


def test_search_table_reports_rate():
    result = invoke("spectral", "search", "--m", "2^24", "--c", "odd", "--candidates", "100",
                    "--seed", "1")
    assert result.exit_code == 0 and "per second" in result.stdout and "seed 1" in result.stdout


def test_plots(tmp_path):
    for args in (["randu"], [], ["search", "--m", "2^20", "--candidates", "50", "--seed", "1"]):
        path = tmp_path / f"plot{len(args)}.png"
        assert invoke("spectral", *args, "--plot", str(path)).exit_code == 0
        assert path.read_bytes()[:4] == b"\x89PNG"


def test_plot_is_not_overwritten(tmp_path, capsys):
    path = tmp_path / "p.png"
    path.write_bytes(b"keep")
    assert main(["spectral", "randu", "--dims", "2", "--plot", str(path)]) == 2
    assert path.read_bytes() == b"keep"
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["pcg64"], "not a linear congruential generator"),
    (["randu", "--dims", "1..3"], "--dims must lie in"),
    (["randu", "--dims", "two"], "--dims must look like"),
    (["--a", "5", "--m", "1"], "m must be >= 2"),
    (["search"], "Missing option '--m'"),
    (["search", "--m", "2^32", "randu"], "unexpected extra argument (randu)"),
    (["search", "--m", "2^32", "--c", "2"], "must be 0 or odd (or the word odd); got 2"),
    (["search", "--m", "2^4000"], "m must be an integer in [16, 2^500); got about 2^4000"),
    (["--a", "3", "--m", "2^4000"], "m must be in [2, 2^500); got about 2^4000"),
    (["--a", "3", "--m", "101", "--c", "odd"], "cannot parse 'odd'"),
    (["search", "--m", "2^32", "--candidates", "10^15"],
     "--candidates above 100,000 can take hours (160 to 10,000 candidates a second"),
    (["mmix", "--dims", "2..64"], "dimensions above 48 take minutes"),
    (["mmix", "--dims", "2..20", "--planes-up-to", "20"], "counting hyperplanes above dimension 12"),
    (["randu", "--plot", "/proc/x.png"], "cannot write in folder /proc"),
    (["search", "--m", "2^20", "--plot", "/nonexistent-rnglab/x.png"], "folder /nonexistent-rnglab does not exist"),
    (["randu", "--plot", "x.gif"], "must end in .png, .svg or .pdf"),
    (["randu", "--lattice-m", "1"], "must be >= 2"),
])
def test_bad_input_is_one_line_and_status_2(args, message, capsys):
    assert main(["spectral", *args]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("Error:") and message in error and "\n" not in error


def test_plot_path_is_checked_before_the_test_runs(monkeypatch, capsys):
    from rnglab.cli import spectral

    monkeypatch.setattr(spectral, "spectral_test", lambda *args, **kwargs: pytest.fail("computed first"))
    assert main(["spectral", "test", "randu", "--plot", "/proc/x.png"]) == 2
    assert "cannot write in folder /proc" in capsys.readouterr().err


def test_existing_plot_is_replaced_with_force_before_or_after_it(tmp_path):
    path = tmp_path / "p.png"
    for order in (["--force", "--plot", str(path)], ["--plot", str(path), "--force"]):
        path.write_bytes(b"old")
        assert invoke("spectral", "randu", "--dims", "2", *order).exit_code == 0
        assert path.read_bytes()[:4] == b"\x89PNG"


def test_test_is_the_default_subcommand():
    assert invoke("spectral", "randu", "--dims", "3").stdout == invoke("spectral", "test", "randu", "--dims", "3").stdout
    help_text = invoke("spectral", "--help").stdout
    assert "search" in help_text and "test" in help_text


def test_parse_dims():
    assert parse_dims("2..4,8") == [2, 3, 4, 8]
    assert parse_dims("5") == [5]


@pytest.mark.parametrize("lattice_m, shown", [("3", "3"), ("2^32", "4294967296")])
def test_a_lattice_modulus_that_does_not_divide_m_is_refused(lattice_m, shown, capsys):
    assert main(["spectral", "randu", "--lattice-m", lattice_m]) == 2
    assert capsys.readouterr().err == (f"Error: lattice_m must divide m (the points lie on a lattice that contains "
                                       f"m Z^t); {shown} does not divide m = 2147483648\n")
