"""Figures for shuffles: the position matrix as a heatmap."""

from __future__ import annotations

import numpy as np

from . import new_figure


def position_heatmap(probabilities, title: str):
    """Heatmap of ``n P(card i at position j)`` (1 is fair), rows cards, columns positions."""
    scaled = np.asarray(probabilities, dtype=float) * len(probabilities)
    spread = max(float(np.abs(scaled - 1).max()), 1e-12)
    figure, axes = new_figure(5.6, 4.8)
    image = axes.imshow(scaled, cmap="RdBu_r", vmin=1 - spread, vmax=1 + spread, origin="upper",
                        interpolation="nearest")
    axes.set_xlabel("final position j")
    axes.set_ylabel("card i (position in the unshuffled deck)")
    axes.set_title(title, fontsize=10)
    figure.colorbar(image, ax=axes, label="n · P(card i at j)")
    return figure
