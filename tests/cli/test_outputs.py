"""Output paths are checked while options are parsed, before any command computes anything."""

import pytest

from rnglab.cli import main


@pytest.mark.parametrize("command", [
    ["spectral", "randu"],
    ["spectral", "search", "--m", "2^20"],
    ["test", "randu"],
    ["reduce", "--range", "32768", "--n", "52"],
    ["fairness", "--n", "4", "--exact"],
])
@pytest.mark.parametrize("path, message", [
    ("/proc/x.png", "cannot write in folder /proc: No such file or directory"),
    ("/nonexistent-rnglab/x.png", "folder /nonexistent-rnglab does not exist; create it first"),
    ("/tmp", "Invalid value for '--plot': File '/tmp' is a directory."),   # click.Path(dir_okay=False)
    ("x.gif", "plot file must end in .png, .svg or .pdf; got x.gif"),
])
def test_unwritable_plot_paths_fail_first(command, path, message, capsys):
    assert main([*command, "--plot", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"Error: {message}\n"


def test_existing_plot_needs_force_whichever_comes_first(tmp_path, capsys):
    path = tmp_path / "p.png"
    path.write_bytes(b"keep")
    assert main(["reduce", "--range", "32768", "--n", "52", "--plot", str(path)]) == 2
    assert "already exists; choose another name or pass --force" in capsys.readouterr().err
    assert main(["reduce", "--range", "32768", "--n", "52", "--plot", str(path), "--force"]) == 0
    assert path.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("command", [["audit", "deitel-msvc"], ["report", "--quick"]])
@pytest.mark.parametrize("path", ["", " "])
def test_an_empty_output_folder_is_refused_before_writing_into_the_current_one(command, path, tmp_path,
                                                                               monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main([*command, "--out", path]) == 2
    assert capsys.readouterr().err == ("Error: Invalid value for '--out': an output folder must be named: "
                                       "an empty path would write into the current folder\n")
    assert list(tmp_path.iterdir()) == []
