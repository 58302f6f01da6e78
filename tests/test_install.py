"""What an installed (non-editable, possibly read-only) package needs: its data inside it, and a numba cache it can write.

The wheel itself is built, installed in a fresh virtual environment and run by ``.ci/run``.
"""

import importlib
import os
from importlib.resources import files
from pathlib import Path

import rnglab

catalog = importlib.import_module("rnglab.generators.catalog")   # the module; rnglab.generators.catalog is a function
battery = importlib.import_module("rnglab.empirical.battery")

PACKAGE = os.path.dirname(os.path.abspath(rnglab.__file__))


def test_data_files_resolve_inside_the_package():
    for name in ("catalog.toml", "batteries.toml"):
        resource = files("rnglab.data") / name
        assert resource.is_file() and Path(str(resource)).parent == Path(PACKAGE) / "data"
    assert catalog.CATALOG_PATH == files("rnglab.data") / "catalog.toml"
    assert battery.BATTERIES_PATH == files("rnglab.data") / "batteries.toml"


def test_catalog_and_batteries_load_from_the_package():
    assert "msvc" in catalog.catalog() and "smoke" in battery.batteries()


def test_license_and_package_data_are_declared():
    root = Path(PACKAGE).parent
    text = (root / "pyproject.toml").read_text()
    assert 'license-files = ["LICENSE"]' in text and '"rnglab.data" = ["*.toml"]' in text
    assert (root / "LICENSE").read_text().startswith("MIT License\n\nCopyright (c) 2026 rnglab developers")


def read_only_package(monkeypatch):
    """Make rnglab's own folder look unwritable, as in a read-only site-packages."""
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: not str(path).startswith(PACKAGE) and real_access(path, mode))


def test_writable_package_leaves_numba_alone(monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert rnglab._numba_cache_folder() is None


def test_numba_cache_dir_set_by_the_user_wins(monkeypatch, tmp_path):
    read_only_package(monkeypatch)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert rnglab._numba_cache_folder() is None


def test_read_only_package_caches_in_the_user_cache_folder(monkeypatch, tmp_path):
    read_only_package(monkeypatch)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert rnglab._numba_cache_folder() == str(tmp_path / "rnglab" / "numba")
    assert (tmp_path / "rnglab" / "numba").is_dir()


def test_unwritable_user_cache_falls_back_to_a_private_temporary_folder(monkeypatch, tmp_path):
    read_only_package(monkeypatch)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))   # makedirs under a file fails
    folder = rnglab._numba_cache_folder()
    assert os.path.basename(folder).startswith("rnglab-numba-") and os.stat(folder).st_mode & 0o077 == 0
