"""Bias pictures: the exact probability of every output of ``[0, n)`` under each reduction method."""

from __future__ import annotations

import numpy as np

from rnglab.plot import new_figure


def bias_heatmap(probabilities: dict[str, np.ndarray], n: int, range_size: int, title: str | None = None):
    """A heatmap of ``n p_v - 1`` (relative deviation from uniform), one row per method.

    Parameters
    ----------
    probabilities : dict
        ``method -> array of p_v`` (length ``n``).
    n, range_size : int
        The bound and the source's ``R``, for the title.

    Returns
    -------
    matplotlib.figure.Figure
    """
    names = list(probabilities)
    deviation = np.vstack([np.asarray(probabilities[m], dtype=np.float64) * n - 1 for m in names])
    limit = max(float(np.abs(deviation).max()), 1e-12)
    figure, axes = new_figure(8, 1.2 + 0.45 * len(names))
    image = axes.imshow(deviation, aspect="auto", cmap="RdBu_r", vmin=-limit, vmax=limit,
                        interpolation="nearest", extent=(-0.5, n - 0.5, len(names) - 0.5, -0.5))
    axes.set_yticks(range(len(names)), names)
    axes.set_xlabel("output v")
    axes.set_title(title or f"relative deviation n p_v - 1 from uniform, n = {n}, R = {range_size}")
    figure.colorbar(image, ax=axes, label="n p_v - 1")
    return figure
