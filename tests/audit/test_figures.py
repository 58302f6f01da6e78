"""The audit's figures (rnglab.audit.figures): a plot function's figure as base64 PNG, for a self-contained page."""

import base64
import struct

import matplotlib.pyplot as plt

from rnglab.audit.figures import png
from rnglab.plot import new_figure


def test_a_figure_is_a_base64_png_of_its_size_and_is_closed():
    drawn = []

    def draw(width, height):
        figure, axes = new_figure(width, height)
        axes.plot([0, 1], [0, 1])
        drawn.append(figure)
        return figure

    data = base64.b64decode(png(draw, 2.0, 1.0), validate=True)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (220, 110)             # 2 x 1 inches at the 110 dpi of figure_bytes
    assert not plt.fignum_exists(drawn[0].number)                       # closed once drawn
