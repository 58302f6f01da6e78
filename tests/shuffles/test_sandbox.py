"""A user's shuffle function runs in a child process: every way it can end is one line and status 2.

The limits are made small here (2 s of wall clock per batch); rnglab's defaults
are 10 s and 2 GiB (docs/errors.md).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rnglab.cli import main
from rnglab.reduction.reducers import REDUCERS
from rnglab.shuffles import sandbox

HERE = Path(__file__).parents[1] / "userfunc"
HOSTILE = HERE / "hostile.py"

#: Each function of tests/userfunc/hostile.py (or file), and what its one line says.
ENDINGS = [
    (f"{HOSTILE}:exits", r"called sys.exit\(0\) at .*hostile.py:\d+"),
    (f"{HOSTILE}:hard_exit", r"ended the process \(exit status 0: sys.exit or os._exit\)"),
    (f"{HOSTILE}:interrupts", r"raised KeyboardInterrupt at .*hostile.py:\d+"),
    (f"{HOSTILE}:sleeps", "ran past the wall-clock limit of 2 s"),
    (f"{HOSTILE}:lingers", "left a thread running"),
    (f"{HOSTILE}:forks", r"started a process \(os.fork\)"),
    (f"{HOSTILE}:hogs", r"ran past the memory limit of 0.25 GiB at .*hostile.py:\d+"),
    (f"{HOSTILE}:raises", r"raised RuntimeError: deck is empty at .*hostile.py:\d+"),
    (f"{HOSTILE}:crashes", "was killed by SIGSEGV"),
    (f"{HOSTILE}:loops", "processor time|wall-clock limit"),  # 1 s of processor time: 2 s of a busy machine
    (f"{HERE / 'sleeps_at_import.py'}:shuffle", "loading .* ran past the wall-clock limit of 2 s"),
    (f"{HERE / 'loops_at_import.py'}:shuffle", "loading .* ran past (the wall-clock limit|its processor time)"),
    (f"{HERE / 'exits_at_import.py'}:shuffle", r"loading .* called sys.exit\(0\)"),
]


@pytest.fixture(autouse=True)
def small_limits(monkeypatch):
    monkeypatch.setattr(sandbox, "LIMITS", sandbox.Limits(wall_seconds=2.0, memory_bytes=2**28))


def run(capfd, *argv):
    start = time.monotonic()
    status = main(list(argv))
    out, err = capfd.readouterr()
    return status, out, err, time.monotonic() - start


def one_error_line(status, out, err, seconds, pattern):
    import re

    assert status == 2 and out == "" and seconds < 15
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and re.search(pattern, lines[0]), err


@pytest.mark.parametrize("spec,pattern", ENDINGS, ids=[spec.rsplit("/", 1)[1] for spec, _ in ENDINGS])
def test_fairness_function_ends_in_one_line(capfd, spec, pattern):
    one_error_line(*run(capfd, "fairness", "--n", "4", "--function", spec), pattern)


#: The endings in batches of draws from a generator: a wall-clock limit and an escape from the process group in the
#: default run (about 1 CPU s each: the child builds the generator), the others under -m slow (exits and hard_exit
#: with a generator are also rows of tests/hostile_table.py).
WITH_GEN = ["sleeps", "forks", *(pytest.param(name, marks=pytest.mark.slow) for name in ("exits", "hard_exit", "raises"))]


@pytest.mark.parametrize("name", WITH_GEN)
def test_fairness_function_with_gen_ends_in_one_line(capfd, name):
    pattern = {spec.rsplit(":", 1)[1]: p for spec, p in ENDINGS}[name]
    one_error_line(*run(capfd, "fairness", "pcg64", "--n", "4", "--shuffles", "100", "--function",
                        f"{HOSTILE}:{name}"), pattern)


def audit_toml(folder: Path, function: str) -> Path:
    shutil.copy(HOSTILE, folder / "hostile.py")
    for name in ("sleeps_at_import.py", "exits_at_import.py"):
        shutil.copy(HERE / name, folder / name)
    toml = folder / "game.toml"
    toml.write_text(f'generator = "pcg64"\nseeding = "os"\nfunction = "{function}"\ndeck = "52"\n')
    return toml


@pytest.mark.parametrize("spec,pattern", [(f"hostile.py:{spec.rsplit(':', 1)[1]}", pattern)
                                          for spec, pattern in ENDINGS if spec.startswith(str(HOSTILE))]
                         + [("sleeps_at_import.py:shuffle", ENDINGS[-3][1]),
                            ("exits_at_import.py:shuffle", ENDINGS[-1][1])],
                         ids=lambda value: value if ".py" in value else "")
def test_audit_function_ends_in_one_line_and_leaves_no_folder(capfd, tmp_path, spec, pattern):
    toml, out = audit_toml(tmp_path, spec), tmp_path / "report"
    one_error_line(*run(capfd, "audit", str(toml), "--out", str(out), "--json"), pattern)
    assert not out.exists()


def test_printing_leaves_json_and_the_verdict_intact(capfd):
    status, out, err, _ = run(capfd, "fairness", "--n", "4", "--function", f"{HOSTILE}:prints", "--json")
    assert status == 0 and json.loads(out)["reachable"] == 24 and "noise" not in out + err
    status, out, err, _ = run(capfd, "fairness", "--n", "4", "--function", f"{HOSTILE}:prints")
    assert status == 0 and "not json" not in out + err and "deals reachable: 24 of 24" in out


def test_audit_toml_takes_only_a_python_file_in_its_own_folder(capfd, tmp_path):
    (tmp_path / "inner").mkdir()
    shutil.copy(HERE / "articles.py", tmp_path / "articles.py")
    (tmp_path / "inner" / "linked.py").symlink_to(tmp_path / "articles.py")
    for function, pattern in [(str(tmp_path / "articles.py") + ":fisher_yates", "own folder"),
                              ("../articles.py:fisher_yates", "own folder"), ("linked.py:fisher_yates", "own folder"),
                              ("shutil:rmtree", "file.py:function"), ("os.path:join", "file.py:function")]:
        toml = tmp_path / "inner" / "game.toml"
        toml.write_text(f'generator = "pcg64"\nseeding = "os"\nfunction = "{function}"\n')
        one_error_line(*run(capfd, "audit", str(toml), "--out", str(tmp_path / "out")), pattern)
        assert not (tmp_path / "out").exists()


def test_a_genuine_ctrl_c_is_interrupted_and_kills_the_child(tmp_path):
    # the child tells when it is inside the function (its own pid in a file): no sleep races a loaded machine,
    # and no other sandbox on the machine (another test, another checkout) is taken for it
    announce = tmp_path / "running"
    code = "from rnglab.console import run; run()"
    process = subprocess.Popen([sys.executable, "-c", code, "fairness", "--n", "4", "--function",
                                f"{HOSTILE}:announces_and_sleeps"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "RNGLAB_TEST_ANNOUNCE": str(announce)})
    while not announce.exists() or not announce.read_text():  # until the child is inside the function
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    child = Path("/proc", announce.read_text())
    assert "rnglab.shuffles.sandbox" in (child / "cmdline").read_text()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and err.strip() == "Interrupted." and out == ""
    assert not child.exists()  # the parent killed it and waited for it


def test_limits_default_to_ten_seconds_and_two_gib():
    assert sandbox.Limits() == sandbox.Limits(wall_seconds=10.0, memory_bytes=2 * 2**30)


def test_the_child_gives_what_the_function_gives_here(monkeypatch):
    # the same law and the same position counts, in batches in the child as in one run in this process
    monkeypatch.setattr(sandbox, "LIMITS", sandbox.Limits())
    from userfunc import articles

    from rnglab.generators import make_source
    from rnglab.shuffles.userfunc import function_fairness, function_position_counts, load_function

    child = load_function(f"{HERE / 'articles.py'}:naive_exchange")
    here, there = (function_fairness(f, 5, label="naive") for f in (articles.naive_exchange, child))
    assert there.tv_distance == here.tv_distance > 0 and there.position_matrix == here.position_matrix
    here, there = (function_position_counts(f, 8, make_source("msvc", seed=3), REDUCERS["modulo"], 3000)
                   for f in (articles.naive_exchange, child))
    assert (here == there).all() and here.sum() == 8 * 3000
