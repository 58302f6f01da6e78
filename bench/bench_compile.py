"""What a first seed search compiles: CPU seconds of ``rnglab crack`` on an empty numba cache, against the same
command with every kernel cached (the reference).

Issue 31 asks for one cached kernel per reducer, not per generator: once a reducer's kernel is cached, the
first crack of another generator with that reducer compiles under 2 s. Each command runs as a fresh process
(``python -m rnglab``, this checkout on ``PYTHONPATH``) with ``NUMBA_CACHE_DIR`` set to a folder of its own:

* cold: a new, empty folder (a fresh install's first crack: every kernel it runs is compiled);
* after msvc: borland's crack (the same reducer, ``modulo``, another LCG) in the folder msvc's cold run filled;
* warm: the same command once more in a filled folder (numba loads every kernel: the reference).

Compiling is the difference with the warm run. Best of ``REPEAT`` (each cold run in a new folder), CPU time
(user + system of the child): the machine is shared.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from common import markdown_table, write_fragment

CHECKOUT = Path(__file__).resolve().parent.parent
REPEAT = 3
#: A million seeds searched for five cards (no seed need match: every seed is followed until it misfits); a day of
#: seeds is dealt by numpy in a new process, without numba (``rnglab.core.compiled.kernel_serves``).
SEARCH = ["--seeds", "0..999999", "--seen", "Kc 8s 8c 6d Qh"]
#: Goal of issue 31: compiling for a generator whose reducer's kernel is cached.
GOAL = 2.0


def cpu_seconds(generator: str, cache: Path) -> float:
    """CPU seconds (user + system) of ``rnglab crack GENERATOR`` run with numba's cache in ``cache``."""
    environment = {**os.environ, "PYTHONPATH": str(CHECKOUT), "NUMBA_CACHE_DIR": str(cache)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)  # rnglab's bytecode cached, as after an install
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "rnglab", "crack", generator, *SEARCH], env=environment, check=True,
                   capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def one_round() -> dict[str, float]:
    """Each run of one round, in a new cache folder."""
    with tempfile.TemporaryDirectory(prefix="rnglab-numba-") as folder:
        cache = Path(folder)
        times = {"msvc cold": cpu_seconds("msvc", cache), "borland after msvc": cpu_seconds("borland", cache)}
        times["msvc warm"], times["borland warm"] = cpu_seconds("msvc", cache), cpu_seconds("borland", cache)
    return times


def main() -> None:
    cpu_seconds("msvc", Path(tempfile.mkdtemp(prefix="rnglab-numba-")))  # Python's bytecode of this checkout
    rounds = [one_round() for _ in range(REPEAT)]
    best = {name: min(r[name] for r in rounds) for name in rounds[0]}
    compile_first = best["msvc cold"] - best["msvc warm"]
    compile_second = best["borland after msvc"] - best["borland warm"]
    rows = [["`crack msvc`, empty cache", f"{best['msvc cold']:.2f}", f"{best['msvc warm']:.2f}",
             f"{compile_first:.2f}", "", ""],
            ["`crack borland`, msvc's kernels cached (same reducer)", f"{best['borland after msvc']:.2f}",
             f"{best['borland warm']:.2f}", f"{compile_second:.2f}", f"{GOAL:g}",
             "yes" if compile_second < GOAL else "no"]]
    table = markdown_table(["command", "CPU s", "warm CPU s (reference)", "compiling s", "goal s", "met"], rows)
    body = (f"`rnglab crack GENERATOR {' '.join(SEARCH[:2])} --seen '{SEARCH[3]}'` as a fresh process, numba's "
            f"cache in a folder of its own; best of {REPEAT} rounds, each in a new folder; CPU time of the child. "
            f"Compiling: CPU s less the warm run's. Load average at the end: {os.getloadavg()[0]:.1f}.\n\n{table}\n")
    print(write_fragment("compile", "First seed search: what numba compiles", body).read_text())


if __name__ == "__main__":
    main()
