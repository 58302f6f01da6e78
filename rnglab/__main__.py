"""``python -m rnglab``: the command line."""

from rnglab.console import run

run()
