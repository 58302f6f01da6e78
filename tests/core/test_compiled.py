"""Kernels compile on first use: numba is not imported before, and a first compile is announced once per kernel."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]

#: A module with a described kernel and a kernel per closure value (as the seed-search kernels are built).
KERNELS = textwrap.dedent('''
    import functools
    from rnglab.core.compiled import njit

    @njit(cache=True)
    def helper(x):
        return x + 1

    @njit(cache=True, description="the test kernel", seconds=1)
    def kernel(x):
        return helper(x) * 2

    @functools.cache
    def kernel_for(k):
        @njit(cache=True, description=f"the kernel for {k}", seconds=1)
        def compiled(x):
            return x + k
        return compiled
''')

RUN = textwrap.dedent('''
    import sys
    from rnglab.core.compiled import set_compile_listener
    set_compile_listener(lambda what, seconds: print(f"compiling {what} (about {seconds} s)"))
    import kernels
    print(kernels.kernel(3), *(kernels.kernel_for(int(k))(10) for k in sys.argv[1:]))
''')


def run(folder: Path, *codes: str) -> list[str]:
    environment = {**os.environ, "PYTHONPATH": f"{CHECKOUT}{os.pathsep}{folder}",
                   "NUMBA_CACHE_DIR": str(folder / "cache")}
    output = subprocess.run([sys.executable, "-c", RUN, *codes], env=environment, capture_output=True, text=True,
                            check=True, cwd=folder).stdout
    return output.splitlines()


def test_first_compile_is_announced_once_per_kernel_from_a_fresh_cache(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    assert run(tmp_path, "1") == ["compiling the test kernel (about 1 s)", "compiling the kernel for 1 (about 1 s)",
                                  "8 11"]
    assert run(tmp_path, "1") == ["8 11"]                       # both in numba's cache now
    assert run(tmp_path, "1", "2") == ["compiling the kernel for 2 (about 1 s)", "8 11 12"]  # a new closure value


def test_generators_and_periods_do_not_import_numba():
    code = "import sys, rnglab.generators, rnglab.algebra.period; print('numba' in sys.modules)"
    environment = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    assert subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True,
                          check=True).stdout.strip() == "False"
