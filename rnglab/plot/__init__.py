"""Plotting helpers: matplotlib on the Agg backend, figures saved atomically.

Each capability keeps its own figures in a submodule (``rnglab.plot.lattice``,
...); they all save through :func:`save_figure`.
"""

from __future__ import annotations

import io
import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from ..fileio import atomic_write, check_writable  # noqa: E402


def new_figure(width: float = 6.4, height: float = 4.8):
    """Return ``(figure, axes)`` with rnglab's defaults."""
    return plt.subplots(figsize=(width, height), layout="constrained")


def figure_bytes(figure, fmt: str = "png") -> bytes:
    """Render a figure to bytes (PNG by default) and close it."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=110)
    plt.close(figure)
    return buffer.getvalue()


def save_figure(figure, path: str | os.PathLike, force: bool = False) -> str:
    """Save ``figure`` to ``path`` atomically; the format follows the suffix (png, svg, pdf).

    Raises
    ------
    ValueError
        If the file exists and ``force`` is false, or the suffix is not a known format.
    """
    path = check_writable(path, force)
    fmt = path.suffix.lstrip(".").lower() or "png"
    if fmt not in ("png", "svg", "pdf"):
        plt.close(figure)
        raise ValueError(f"plot file must end in .png, .svg or .pdf; got {path.name}")
    atomic_write(path, figure_bytes(figure, fmt), force)
    return str(path)
