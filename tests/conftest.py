"""Settings of the whole test suite."""

import os
import sys

import pytest

# The suite starts hundreds of Python processes (rnglab commands, documented examples, sandboxed user functions).
# Where the environment sets PYTHONDONTWRITEBYTECODE, none of them finds rnglab's modules compiled to bytecode and
# each compiles all of them again: 0.15-0.25 CPU s a process (`rnglab list`: 0.46-0.58 against 0.30-0.39 CPU s).
# The bytecode goes to the __pycache__ folders that Python writes by default (ignored by git).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


@pytest.fixture(autouse=True)
def kernels_serve_every_size(monkeypatch):
    """Every test runs the kernels wherever rnglab has them, whatever ran before it in its worker: code with a numpy
    path for small work (the same values) takes it only in a process where no kernel has run and little work was
    done (:func:`rnglab.core.compiled.kernel_serves`). Tests of those numpy paths set the process's state
    themselves (``compiled._started`` and ``compiled._numpy_work``); the commands run as new processes take them."""
    from rnglab.core import compiled

    monkeypatch.setattr(compiled, "_numpy_work", compiled.NUMPY_WORK_LIMIT)
