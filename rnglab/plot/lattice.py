"""Pictures of the spectral test: the lattice in 2-D, the planes in 3-D, S_t by dimension."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from rnglab.algebra.spectral import SpectralResult, pairs_in_window
from rnglab.plot import new_figure, plt

#: About this many lattice points are shown in the 2-D window.
WINDOW_POINTS = 600


def _figures_of(result: SpectralResult, t: int):
    return next((d for d in result.dims if d.t == t), None)


def draw_pairs(axes, result: SpectralResult) -> None:
    """The lattice of successive pairs in a corner window, with the lines of the 2-D witness."""
    m = result.lattice_m
    side = max(2, min(m, math.isqrt(WINDOW_POINTS * m)))
    points = np.array(pairs_in_window(result.a, m, side), dtype=float) / m
    axes.scatter(points[:, 0], points[:, 1], s=4, color="tab:blue")
    figures = _figures_of(result, 2)
    if figures is not None:
        s1, s2 = figures.witness
        width = side / m
        values = [s1 * x + s2 * y for x in (0, width) for y in (0, width)]
        for k in range(math.floor(min(values)), math.ceil(max(values)) + 1):
            # The lines s . u = k that cross the window.
            if s2:
                xs = np.array([0.0, width])
                axes.plot(xs, (k - s1 * xs) / s2, color="tab:red", lw=0.5, alpha=0.6)
            else:
                axes.axvline(k / s1, color="tab:red", lw=0.5, alpha=0.6)
        axes.set_xlim(0, width)
        axes.set_ylim(0, width)
        axes.set_title(f"pairs in [0, {width:.3g})^2: lines 1/nu_2 apart\nwitness s = {figures.witness}",
                       fontsize=9)
    axes.locator_params(nbins=4)
    axes.set_xlabel("x_n / m")
    axes.set_ylabel("x_(n+1) / m")
    axes.set_aspect("equal")


def _edge_on_view(direction) -> tuple[float, float]:
    """Elevation and azimuth (degrees) of a line of sight perpendicular to ``direction``."""
    s = np.array(direction, dtype=float)
    helper = np.array([0.0, 0.0, 1.0]) if abs(s[2]) < 0.9 * np.linalg.norm(s) else np.array([1.0, 0.0, 0.0])
    sight = np.cross(s, helper)
    sight /= np.linalg.norm(sight)
    return math.degrees(math.asin(sight[2])), math.degrees(math.atan2(sight[1], sight[0]))


def draw_triples(axes, result: SpectralResult, states: np.ndarray, m: int) -> None:
    """Successive triples of the generator, seen edge-on to the planes of fewest count."""
    u = np.asarray(states, dtype=float) / m
    triples = np.stack([u[:-2], u[1:-1], u[2:]], axis=1)
    axes.scatter(triples[:, 0], triples[:, 1], triples[:, 2], s=0.3, color="tab:blue", alpha=0.5)
    figures = _figures_of(result, 3)
    if figures is not None:
        direction = figures.planes_vector or figures.witness
        elevation, azimuth = _edge_on_view(direction)
        axes.view_init(elev=elevation, azim=azimuth)
        planes = f"{figures.planes} planes" if figures.planes else f"nu_3^2 = {figures.nu2}"
        axes.set_title(f"{len(triples)} triples, seen along the planes\n"
                       f"s = {direction}: {planes}", fontsize=9)
    axes.set_proj_type("ortho")
    axes.set_box_aspect((1, 1, 1))
    for name, ticks, label in (("x", axes.set_xticks, "x_n / m"), ("y", axes.set_yticks, "x_(n+1) / m"),
                               ("z", axes.set_zticks, "x_(n+2) / m")):
        ticks([0, 1])
        getattr(axes, f"set_{name}label")(label, fontsize=8, labelpad=-8)
    axes.tick_params(labelsize=7, pad=-2)
    axes.grid(False)


def draw_merits(axes, results: Sequence[tuple[str, SpectralResult]]) -> None:
    """Grouped bars of S_t by dimension, one colour per generator."""
    dims = sorted({d.t for _, result in results for d in result.dims if d.S is not None})
    width = 0.8 / max(1, len(results))
    for index, (label, result) in enumerate(results):
        merits = {d.t: d.S for d in result.dims if d.S is not None}
        xs = [t - 0.4 + width * (index + 0.5) for t in dims]
        axes.bar(xs, [merits.get(t, 0.0) for t in dims], width=width, label=label,
                 color=plt.cm.tab20(index % 20) if len(results) > 10 else None)
    axes.set_xticks(dims)
    axes.set_ylim(0, 1.3 if len(results) > 1 else 1)
    axes.axhline(1.0, color="grey", lw=0.5)
    axes.set_xlabel("dimension t")
    axes.set_ylabel("S_t = nu_t / (gamma_t^(1/2) m^(1/t))")
    axes.set_title("normalised spectral figure of merit (1 = best possible)", fontsize=9)
    if len(results) > 1:
        axes.legend(fontsize=7, ncol=min(len(results), 7), loc="upper center")


def generator_figure(label: str, result: SpectralResult, states: np.ndarray, m: int):
    """Three panels for one generator: 2-D lattice window, 3-D planes, S_t bars."""
    figure = plt.figure(figsize=(14, 4.6), layout="constrained")
    draw_pairs(figure.add_subplot(1, 3, 1), result)
    draw_triples(figure.add_subplot(1, 3, 2, projection="3d"), result, states, m)
    draw_merits(figure.add_subplot(1, 3, 3), [(label, result)])
    figure.suptitle(f"spectral test of {label} (a = {result.a}, lattice modulus {result.lattice_m})")
    return figure


def merits_figure(results: Sequence[tuple[str, SpectralResult]]):
    """Bar chart of S_t by dimension for several generators."""
    figure, axes = new_figure(max(6.4, 0.5 * len(results) + 5), 4.8)
    draw_merits(axes, results)
    return figure
