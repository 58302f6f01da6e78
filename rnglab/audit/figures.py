"""The audit's figures, as base64 PNG for a self-contained page (drawn by :mod:`rnglab.plot`)."""

from __future__ import annotations

import base64
from collections.abc import Callable


def png(draw: Callable, *arguments) -> str:
    """The figure ``draw(*arguments)`` (a :mod:`rnglab.plot` function) as base64 PNG."""
    from rnglab.plot import figure_bytes

    return base64.b64encode(figure_bytes(draw(*arguments))).decode()
