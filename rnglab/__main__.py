"""``python -m rnglab``: the command line."""

from .cli import run

run()
