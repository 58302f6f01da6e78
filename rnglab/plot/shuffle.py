"""Figures for shuffles: the position matrix as a heatmap; the naive exchange's identity against its half rotations."""

from __future__ import annotations

import math

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


def identity_against_rotations_plot(rows, title: str):
    """The naive exchange's identity against the two half rotations: each deal's probability times ``n!`` (1 is a
    fair shuffle's) against ``n``, on a log scale; ``rows`` are
    :class:`~rnglab.shuffles.deal_probability.IdentityAgainstRotations`."""
    sizes = [row.n for row in rows]
    scale = [math.factorial(row.n) / row.n**row.n for row in rows]
    figure, axes = new_figure(6.4, 4.2)
    axes.plot(sizes, [row.identity * s for row, s in zip(rows, scale)], "o-", label="identity (involutions)")
    axes.plot(sizes, [row.rotations * s for row, s in zip(rows, scale)], "s--", label="two half rotations")
    lead = next((row.n for row in rows if row.ratio > 1), None)
    if lead is not None:
        axes.axvline(lead - 0.5, color="grey", linewidth=0.8)
        axes.annotate(f"identity leads from n = {lead}", (lead - 0.7, 0.1), xycoords=("data", "axes fraction"),
                      ha="right")
    axes.set_yscale("log")
    axes.set_xlabel("n (cards)")
    axes.set_ylabel("n! · P(deal)")
    axes.set_title(title, fontsize=10)
    axes.legend()
    return figure
