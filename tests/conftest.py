"""Settings of the whole test suite."""

import os
import sys

# The suite starts hundreds of Python processes (rnglab commands, documented examples, sandboxed user functions).
# Where the environment sets PYTHONDONTWRITEBYTECODE, none of them finds rnglab's modules compiled to bytecode and
# each compiles all of them again: 0.15-0.25 CPU s a process (`rnglab list`: 0.46-0.58 against 0.30-0.39 CPU s).
# The bytecode goes to the __pycache__ folders that Python writes by default (ignored by git).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
