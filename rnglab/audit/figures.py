"""The audit's figures, as base64 PNG for a self-contained page (drawn by :mod:`rnglab.plot`)."""

from __future__ import annotations

import base64


def heatmap_png(matrix, n: int) -> str:
    """The position matrix (:func:`rnglab.plot.shuffle.position_heatmap`) as base64 PNG."""
    from ..plot import figure_bytes
    from ..plot.shuffle import position_heatmap

    return base64.b64encode(figure_bytes(position_heatmap(matrix, f"position matrix, {n} cards"))).decode()


def pvalues_png(result, labels: list[str]) -> str:
    """A battery's p-values (:func:`rnglab.plot.pvalues.battery_figure`) as base64 PNG."""
    from ..plot import figure_bytes
    from ..plot.pvalues import battery_figure

    return base64.b64encode(figure_bytes(battery_figure(result, labels))).decode()
