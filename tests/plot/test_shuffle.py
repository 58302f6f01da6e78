"""Figures for shuffles (rnglab.plot.shuffle): the heatmap holds n P(card i at j), white at 1; the naive exchange's
identity and half rotations are drawn as n! P(deal)."""

import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from rnglab.plot import save_figure
from rnglab.plot.shuffle import identity_against_rotations_plot, position_heatmap
from rnglab.shuffles.deal_probability import identity_against_rotations


def test_the_heatmap_holds_n_times_the_probabilities_centred_on_1(tmp_path):
    # the naive exchange on 3 cards, counted over its 27 runs: rows cards, columns final positions
    runs = np.array([[9, 10, 8], [9, 8, 10], [9, 9, 9]]) / 27
    figure = position_heatmap(runs, "naive, n = 3")
    axes = figure.axes[0]
    image = axes.images[0]
    assert np.allclose(image.get_array(), 3 * runs)
    norm = image.norm
    assert (norm.vcenter, norm.vmin, norm.vmax) == pytest.approx((1.0, 1 - 3 / 27, 1 + 3 / 27))   # |3 P - 1| <= 1/9
    assert (axes.get_xlabel(), axes.get_title()) == ("final position j", "naive, n = 3")
    assert figure.axes[1].get_ylabel() == "n · P(card i at j)"
    path = save_figure(figure, tmp_path / "heat.png")
    assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and [p.name for p in tmp_path.iterdir()] == ["heat.png"]


def test_a_card_that_never_lands_somewhere_keeps_the_scale_at_0():
    sattolo = np.array([[0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]])
    norm = position_heatmap(sattolo, "sattolo").axes[0].images[0].norm
    assert (norm.vmin, norm.vmax) == (0.0, 2.0)
    # no shuffle at all: 3 P - 1 reaches 2, and the scale stops at 0, not at 1 - 2
    norm = position_heatmap(np.eye(3), "identity").axes[0].images[0].norm
    assert (norm.vmin, norm.vmax) == (0.0, 3.0)


def test_identity_and_half_rotations_are_drawn_as_n_factorial_times_their_probability():
    rows = [identity_against_rotations(n) for n in range(4, 9)]
    axes = identity_against_rotations_plot(rows, "naive").axes[0]
    identity, rotations = axes.get_lines()
    scale = [math.factorial(n) / n**n for n in range(4, 9)]
    assert list(identity.get_xdata()) == list(range(4, 9))
    assert identity.get_ydata() == pytest.approx([row.identity * s for row, s in zip(rows, scale)])
    assert rotations.get_ydata() == pytest.approx([row.rotations * s for row, s in zip(rows, scale)])
    # n = 4: 10 involutions of 4^4 runs give the identity, 15 the half rotations (OEIS A000085, A192053)
    assert (rows[0].identity, rows[0].rotations) == (10, 15) and not axes.texts     # the rotations lead throughout
    assert axes.get_yscale() == "log" and axes.get_ylabel() == "n! · P(deal)"


def test_where_the_identity_takes_the_lead_is_marked():
    rows = [SimpleNamespace(n=n, identity=i, rotations=r, ratio=i / r) for n, i, r in ((17, 5, 6), (18, 7, 6))]
    axes = identity_against_rotations_plot(rows, "t").axes[0]
    assert axes.get_lines()[2].get_xdata()[0] == 17.5
    assert [text.get_text() for text in axes.texts] == ["identity leads from n = 18"]
