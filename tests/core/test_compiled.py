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
    from rnglab.core.compiled import device, njit

    @device(inline=False)
    def plus_one(x):
        return x + 1

    @njit(cache=True)
    def helper(x):
        return plus_one(x)

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
    from rnglab.core.compiled import dispatcher, set_compile_listener
    set_compile_listener(lambda what, seconds: print(f"compiling {what} (about {seconds} s)"))
    import kernels
    print(kernels.kernel(3), *(kernels.kernel_for(int(k))(10) for k in sys.argv[1:]))
    print("misses", sum(len(dispatcher(kernel).stats.cache_misses) for kernel in (kernels.kernel, kernels.helper)))
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
                                  "8 11", "misses 2"]
    assert run(tmp_path, "1") == ["8 11", "misses 0"]           # both in numba's cache now, with the device call
    assert run(tmp_path, "1", "2") == ["compiling the kernel for 2 (about 1 s)", "8 11 12", "misses 0"]  # a new value


def test_a_device_function_is_inlined_in_numbas_ir_unless_marked_not_to():
    from rnglab.core.compiled import device, njit

    @device
    def inlined(x):
        inlined_sum = x + 1
        return inlined_sum

    @device(inline=False)
    def called(x):
        called_product = x * 3
        return called_product

    @njit()
    def kernel(x):
        return inlined(x) + called(x)

    assert kernel(2) == 9
    assert (inlined(2), called(2)) == (3, 6)  # plain Python functions still
    compiled = kernel.dispatcher()
    variables = " ".join(compiled.overloads[compiled.signatures[0]].type_annotation.typemap)  # numba IR's names
    assert "inlined_sum" in variables
    assert "called_product" not in variables


def test_generators_and_periods_do_not_import_numba():
    code = "import sys, rnglab.generators, rnglab.algebra.period; print('numba' in sys.modules)"
    environment = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    assert subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


def test_kernels_started_says_whether_a_kernel_has_run_in_the_process():
    code = ("import sys; from rnglab.core import compiled; print(compiled.kernels_started(), 'numba' in sys.modules); "
            "compiled.load_compiler(); print(compiled.kernels_started(), 'numba' in sys.modules)")
    environment = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    assert subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True,
                          check=True).stdout.split() == ["False", "False", "True", "True"]


def test_numpy_serves_a_process_until_its_work_would_have_paid_for_numbas_start(monkeypatch):
    # ski rental: numpy takes the work of a process where no kernel has run until NUMPY_WORK_LIMIT values in all
    from rnglab.core import compiled

    monkeypatch.setattr(compiled, "_started", False)
    monkeypatch.setattr(compiled, "_numpy_work", 0)
    assert not compiled.kernels_would_serve(compiled.NUMPY_WORK_LIMIT) and compiled._numpy_work == 0  # not counted
    assert not compiled.kernel_serves(compiled.NUMPY_WORK_LIMIT - 5) and compiled._numpy_work == compiled.NUMPY_WORK_LIMIT - 5
    assert not compiled.kernel_serves(5)
    assert compiled.kernels_would_serve(1) and compiled.kernel_serves(1) and compiled._numpy_work == compiled.NUMPY_WORK_LIMIT
    monkeypatch.setattr(compiled, "_numpy_work", 0)
    monkeypatch.setattr(compiled, "_started", True)  # a kernel has run: the kernels serve every size
    assert compiled.kernel_serves(1) and compiled._numpy_work == 0
