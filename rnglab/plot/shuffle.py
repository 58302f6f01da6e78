"""Figures for shuffles: the position matrix as a heatmap."""

from __future__ import annotations

import numpy as np

from rnglab.plot import new_figure


def position_heatmap(probabilities, title: str):
    """Heatmap of ``n P(card i at position j)`` (1 is fair), rows cards, columns positions.

    The quantity is at least 0: the colour scale runs from ``max(0, 1 - d)`` to
    ``1 + d`` (``d`` the largest deviation from 1), white at 1, each side
    stretched to its own length, so a small deviation stays visible and no
    colour stands for an impossible negative value.
    """
    from matplotlib.colors import TwoSlopeNorm

    scaled = np.asarray(probabilities, dtype=float) * len(probabilities)
    spread = max(float(np.abs(scaled - 1).max()), 1e-12)
    figure, axes = new_figure(5.6, 4.8)
    norm = TwoSlopeNorm(vcenter=1.0, vmin=max(0.0, 1 - spread), vmax=1 + spread)
    image = axes.imshow(scaled, cmap="RdBu_r", norm=norm, origin="upper", interpolation="nearest")
    axes.set_xlabel("final position j")
    axes.set_ylabel("card i (position in the unshuffled deck)")
    axes.set_title(title, fontsize=10)
    figure.colorbar(image, ax=axes, label="n · P(card i at j)")
    return figure
