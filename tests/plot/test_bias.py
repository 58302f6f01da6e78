"""The bias heatmap (rnglab.plot.bias): the image holds n p_v - 1 for every method, on a scale symmetric about 0."""

from fractions import Fraction
from pathlib import Path

import numpy as np

from rnglab.plot import save_figure
from rnglab.plot.bias import bias_heatmap


def modulo_law(n: int, values: int) -> np.ndarray:
    """P(x mod n = v) for x uniform on ``values`` values: the first values % n outputs have one more."""
    return np.array([Fraction(values // n + (v < values % n), values) for v in range(n)], dtype=float)


def test_each_row_is_a_methods_relative_deviation_from_uniform():
    # R = 6, n = 4: modulo gives 0 and 1 twice, 2 and 3 once: n p_v - 1 = +1/3, +1/3, -1/3, -1/3
    figure = bias_heatmap({"modulo": modulo_law(4, 6), "lemire": np.full(4, 0.25)}, 4, 6)
    axes, colorbar = figure.axes
    image = axes.images[0]
    assert np.allclose(image.get_array(), [[1 / 3, 1 / 3, -1 / 3, -1 / 3], [0, 0, 0, 0]])
    assert image.get_clim() == (-1 / 3, 1 / 3) or np.allclose(image.get_clim(), (-1 / 3, 1 / 3))
    assert [label.get_text() for label in axes.get_yticklabels()] == ["modulo", "lemire"]
    assert axes.get_xlabel() == "output v" and colorbar.get_ylabel() == "n p_v - 1"
    assert axes.get_title() == "relative deviation n p_v - 1 from uniform, n = 4, R = 6"
    assert image.get_extent() == [-0.5, 3.5, 1.5, -0.5]                   # one column an output, one row a method


def test_an_unbiased_picture_keeps_a_scale_and_a_given_title():
    figure = bias_heatmap({"lemire": np.full(52, 1 / 52)}, 52, 2**32, title="fair")
    image = figure.axes[0].images[0]
    assert np.allclose(image.get_array(), 0, atol=1e-15) and image.get_clim()[1] > 0
    assert figure.axes[0].get_title() == "fair"


def test_rand_mod_52_on_15_bits_is_saved_as_a_png_and_an_svg(tmp_path):
    law = modulo_law(52, 32768)
    assert np.isclose(law[0] * 52 - 1, 52 * 631 / 32768 - 1)
    png = save_figure(bias_heatmap({"modulo": law}, 52, 32768), tmp_path / "bias.png")
    svg = save_figure(bias_heatmap({"modulo": law}, 52, 32768), tmp_path / "bias.svg")
    assert Path(png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in Path(svg).read_bytes()[:2000]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bias.png", "bias.svg"]   # no temporary file left
