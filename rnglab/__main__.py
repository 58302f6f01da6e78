"""``python -m rnglab``: the command line."""

from .console import run

run()
