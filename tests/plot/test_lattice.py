"""Pictures of the spectral test (rnglab.plot.lattice): the points, lines and bars drawn are the lattice's own."""

import math
from pathlib import Path

import numpy as np
import pytest

from rnglab.algebra.spectral import spectral_test
from rnglab.generators import make_source
from rnglab.plot import new_figure, plt, save_figure
from rnglab.plot.lattice import _edge_on_view, draw_pairs, generator_figure, merits_figure


@pytest.fixture(scope="module")
def small():
    """x -> 3 x mod 31: a full-period multiplicative generator small enough to draw every pair."""
    return spectral_test(3, 31, 0, range(2, 5), planes_up_to=3)


def test_the_pairs_are_every_lattice_point_and_lie_on_the_witness_lines(small):
    _, axes = new_figure()
    draw_pairs(axes, small)
    points = axes.collections[0].get_offsets()
    assert sorted(map(tuple, np.rint(np.asarray(points) * 31).astype(int))) == sorted((x, 3 * x % 31) for x in range(31))
    s1, s2 = next(d for d in small.dims if d.t == 2).witness
    assert (s1 + 3 * s2) % 31 == 0                                       # a vector of the dual lattice
    levels = set()
    for line in axes.get_lines():
        xs, ys = line.get_data()
        values = s1 * np.asarray(xs) + s2 * np.asarray(ys)
        assert np.allclose(values, values[0]) and np.isclose(values[0], round(values[0]))
        levels.add(round(values[0]))
    on = {round(s1 * x + s2 * y) for x, y in np.asarray(points)}
    assert on <= levels                                                  # every point on a drawn line
    assert (axes.get_xlabel(), axes.get_ylabel()) == ("x_n / m", "x_(n+1) / m")
    plt.close(axes.figure)


@pytest.mark.parametrize("direction", [(1, -6, 9), (0, 0, 1), (3, 4, 0), (1, 1, 1)])
def test_the_view_is_edge_on_to_the_planes(direction):
    elevation, azimuth = map(math.radians, _edge_on_view(direction))
    sight = (math.cos(elevation) * math.cos(azimuth), math.cos(elevation) * math.sin(azimuth), math.sin(elevation))
    assert abs(np.dot(sight, direction)) < 1e-9 * np.linalg.norm(direction)


def test_randus_figure_shows_its_triples_on_15_planes_and_its_merits():
    randu = spectral_test(65539, 2**31, 0, range(2, 9), planes_up_to=3)
    states = make_source("randu").random_states(1002)
    figure = generator_figure("randu", randu, states, 2**31)
    _, triples, bars = figure.axes
    xs, ys, zs = triples.collections[0]._offsets3d
    assert len(xs) == 1000 and np.allclose(zs, (6 * np.asarray(ys) - 9 * np.asarray(xs)) % 1)   # x_(n+2) = 6x - 9x
    assert "1000 triples, seen along the planes" in triples.get_title() and "15 planes" in triples.get_title()
    assert [bar.get_height() for bar in bars.patches] == pytest.approx([d.S for d in randu.dims])
    assert [tick.get_text() for tick in bars.get_xticklabels()] == [str(t) for t in range(2, 9)]
    assert figure.get_suptitle() == f"spectral test of randu (a = 65539, lattice modulus {2**30})"
    plt.close(figure)


def test_the_merits_of_several_generators_side_by_side(small, tmp_path):
    other = spectral_test(65539, 2**31, 0, range(2, 5))
    figure = merits_figure([("small", small), ("randu", other)])
    axes = figure.axes[0]
    assert [text.get_text() for text in axes.get_legend().get_texts()] == ["small", "randu"]
    heights = [bar.get_height() for bar in axes.patches]
    assert heights == pytest.approx([d.S for d in small.dims] + [d.S for d in other.dims])
    assert axes.get_ylim() == (0, 1.3) and axes.get_xlabel() == "dimension t"
    path = save_figure(figure, tmp_path / "merits.svg")
    assert b"<svg" in Path(path).read_bytes()[:2000] and [p.name for p in tmp_path.iterdir()] == ["merits.svg"]
