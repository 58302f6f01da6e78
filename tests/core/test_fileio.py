"""Output files are written atomically and never silently overwritten."""

import os
import re
import stat
import threading
from pathlib import Path

import pytest

from rnglab.core.fileio import atomic_write, check_writable
from rnglab.plot import check_figure_path, new_figure, save_figure


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
    assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    figure, _ = new_figure()
    with pytest.raises(ValueError, match="already exists"):
        save_figure(figure, tmp_path / "line.png")
    figure, _ = new_figure()
    with pytest.raises(ValueError, match=r"must end in \.png, \.svg or \.pdf"):
        save_figure(figure, tmp_path / "line.gif")


def test_racing_writers_exactly_one_wins(tmp_path):
    target = tmp_path / "race.txt"
    start = threading.Barrier(8)
    outcomes = []

    def write(number):
        start.wait()
        try:
            atomic_write(target, f"writer {number}")
            outcomes.append(number)
        except ValueError:
            pass

    for _ in range(25):
        target.unlink(missing_ok=True)
        outcomes.clear()
        writers = [threading.Thread(target=write, args=(n,)) for n in range(8)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
        assert len(outcomes) == 1 and target.read_text() == f"writer {outcomes[0]}"
    assert [p.name for p in tmp_path.iterdir()] == ["race.txt"]


def test_files_get_the_permissions_the_umask_asks_for(tmp_path):
    previous = os.umask(0o022)
    try:
        atomic_write(tmp_path / "a.txt", "x")
        atomic_write(tmp_path / "a.txt", "y", force=True)
        os.umask(0o077)
        atomic_write(tmp_path / "b.txt", "x")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "b.txt").stat().st_mode) == 0o600


@pytest.mark.parametrize("path, message", [
    ("/proc/x.png", "cannot write in folder /proc: No such file or directory"),
    ("/nonexistent-rnglab/x.png", "folder /nonexistent-rnglab does not exist; create it first"),
])
def test_check_writable_tries_the_folder(path, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        check_writable(path)


def test_check_figure_path_checks_the_format_first(tmp_path):
    with pytest.raises(ValueError, match=r"must end in \.png, \.svg or \.pdf; got x\.gif"):
        check_figure_path(tmp_path / "x.gif")
    assert check_figure_path(tmp_path / "x.svg") == tmp_path / "x.svg"
