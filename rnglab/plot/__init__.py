"""Plotting helpers: matplotlib on the Agg backend, figures saved atomically.

Each capability keeps its own figures in a submodule (``rnglab.plot.lattice``,
...); they all save through :func:`save_figure`.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from rnglab.core.fileio import atomic_write, check_writable

#: Formats a figure can be saved in, by file suffix.
FIGURE_FORMATS = ("png", "svg", "pdf")


def new_figure(width: float = 6.4, height: float = 4.8):
    """Return ``(figure, axes)`` with rnglab's defaults."""
    return plt.subplots(figsize=(width, height), layout="constrained")


def figure_bytes(figure, fmt: str = "png") -> bytes:
    """Render a figure to bytes (PNG by default) and close it."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=110)
    plt.close(figure)
    return buffer.getvalue()


def check_figure_path(path: str | os.PathLike, force: bool = False) -> Path:
    """Check that a figure can be saved to ``path`` (see :func:`rnglab.core.fileio.check_writable`) in a known format.

    Raises
    ------
    ValueError
        If the suffix is not .png, .svg or .pdf, or the file could not be written.
    """
    path = Path(path)
    if path.suffix.lstrip(".").lower() not in FIGURE_FORMATS:
        raise ValueError(f"plot file must end in .png, .svg or .pdf; got {path.name}")
    return check_writable(path, force)


def save_figure(figure, path: str | os.PathLike, force: bool = False) -> str:
    """Save ``figure`` to ``path`` atomically; the format follows the suffix (png, svg, pdf).

    Raises
    ------
    ValueError
        If the file exists and ``force`` is false, or the suffix is not a known format.
    """
    try:
        path = check_figure_path(path, force)
    except ValueError:
        plt.close(figure)
        raise
    atomic_write(path, figure_bytes(figure, path.suffix.lstrip(".").lower()), force)
    return str(path)
