"""The code base passes ``ruff check`` with the rule set of pyproject.toml (ruff pinned in the dev extra)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "All checks passed!"), done.stdout + done.stderr


def test_ruff_sees_a_finding(tmp_path):
    # the same call on a file with an unused import and a relative import: the rule set is active
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "probe.py").write_text("import os\nfrom . import neighbour\n")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "F401" in done.stdout and "TID252" in done.stdout
