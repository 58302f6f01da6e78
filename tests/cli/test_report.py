"""``rnglab report`` (rnglab.cli.report): the output folder is checked while the options are parsed, before the
report's minutes of work; one line and status 2. The report's contents are tested in tests/cli/test_basic.py
and tests/report/."""

from rnglab.cli import main


def refusal(args, capsys) -> str:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and err.count("\n") == 1
    return err


def test_a_folder_that_is_not_empty_is_refused_without_force(tmp_path, capsys):
    (tmp_path / "kept.txt").write_text("mine")
    err = refusal(["report", "--out", str(tmp_path)], capsys)
    assert "already exists and is not empty; choose another folder or pass --force to replace it whole" in err
    assert [p.name for p in tmp_path.iterdir()] == ["kept.txt"]


def test_a_file_is_not_a_folder(tmp_path, capsys):
    target = tmp_path / "report.md"
    target.write_text("mine")
    err = refusal(["report", "--out", str(target)], capsys)
    assert "Invalid value for '--out'" in err and "is a file" in err and target.read_text() == "mine"
