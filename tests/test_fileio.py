"""Output files are written atomically and never silently overwritten."""

import pytest

from rnglab.fileio import atomic_write
from rnglab.plot import new_figure, save_figure


def test_atomic_write_creates_and_refuses_to_overwrite(tmp_path):
    target = tmp_path / "sub" / "out.txt"
    atomic_write(target, "first")
    with pytest.raises(ValueError, match="already exists; choose another name or pass --force"):
        atomic_write(target, "second")
    assert target.read_text() == "first"
    atomic_write(target, "third", force=True)
    assert target.read_text() == "third"
    assert [p.name for p in target.parent.iterdir()] == ["out.txt"]   # no temporary files left


def test_directories_are_not_files(tmp_path):
    with pytest.raises(ValueError, match="is a directory"):
        atomic_write(tmp_path, "x", force=True)


def test_save_figure_checks_suffix_and_existing_files(tmp_path):
    figure, axes = new_figure()
    axes.plot([0, 1], [1, 0])
    path = save_figure(figure, tmp_path / "line.png")
    assert open(path, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    figure, _ = new_figure()
    with pytest.raises(ValueError, match="already exists"):
        save_figure(figure, tmp_path / "line.png")
    figure, _ = new_figure()
    with pytest.raises(ValueError, match=r"must end in \.png, \.svg or \.pdf"):
        save_figure(figure, tmp_path / "line.gif")
