"""Figures of battery p-values (rnglab.plot.pvalues): the points drawn are the p-values, clipped where said, with
the suspect ones apart; the histograms count the second-level p-values; a run until it fails is drawn stage by stage."""

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from rnglab.core.params import human_bytes
from rnglab.empirical.verdicts import Thresholds
from rnglab.plot import save_figure
from rnglab.plot.pvalues import CLIP, FLOOR, TICK_LABELS, battery_figure, data_to_fail_figure, until_fail_figure


def battery(*results):
    return SimpleNamespace(results=list(results), generator="randu", battery="smoke", seed=1)


def test_each_p_value_is_a_point_on_its_row_and_the_suspect_ones_are_crosses():
    run = battery(SimpleNamespace(pvalue=0.5), SimpleNamespace(pvalue=1e-163), SimpleNamespace(pvalue=0.9995),
                  SimpleNamespace(pvalue=0.01))
    figure = battery_figure(run, ["a", "b", "c", "d"])
    [strip] = figure.axes
    inside, suspect = strip.collections[-2:]
    assert np.allclose(inside.get_offsets(), [[0.5, 0], [0.01, 3]])
    assert np.allclose(suspect.get_offsets(), [[CLIP, 1], [0.9995, 2]])          # 1e-163 drawn at the edge
    assert [label.get_text() for label in strip.get_yticklabels()] == ["a", "b", "c", "d"]
    assert [label.get_text() for label in strip.get_xticklabels()] == TICK_LABELS
    assert strip.get_xscale() == "logit" and strip.get_title() == "randu: battery smoke, seed 1"
    assert strip.get_xlabel() == "p-value (logit scale); suspect outside [0.001, 0.999] (shaded)"


def test_a_second_level_entry_gets_the_histogram_of_its_p_values():
    pvalues = np.linspace(0.01, 0.99, 50)
    run = battery(SimpleNamespace(pvalue=0.3, pvalues=tuple(pvalues)), SimpleNamespace(pvalue=0.6))
    _, histogram = battery_figure(run, ["serial", "gap"]).axes
    bars = histogram.patches
    assert len(bars) == 10                                            # 50 // 5 bins, between 5 and 20
    assert [bar.get_height() for bar in bars] == [5] * 10             # evenly spread: 5 a bin
    assert histogram.get_lines()[0].get_ydata()[0] == 5              # the uniform level, 50 / 10
    assert histogram.get_title() == "serial" and histogram.get_xlim() == (0, 1)


def run_until_fail(curve, bytes_to_fail):
    stages = [SimpleNamespace(bytes=data) for data, _ in curve]
    return SimpleNamespace(worst_distance=curve, bytes_to_fail=bytes_to_fail, stages=stages, generator="randu",
                           battery="small", seed=1)


def test_a_run_until_it_fails_is_drawn_stage_by_stage_with_its_failure():
    curve = [(1024, 0.3), (2048, 1e-4), (4096, 1e-160)]
    axes = until_fail_figure(run_until_fail(curve, 4096)).axes[0]
    line, unusual, suspicious, fail = axes.get_lines()
    assert list(line.get_xdata()) == [1024, 2048, 4096]
    assert list(line.get_ydata()) == [0.3, 1e-4, FLOOR]                 # 1e-160 drawn at the floor
    defaults = Thresholds()
    assert [level.get_ydata()[0] for level in (unusual, suspicious, fail)] == \
        [defaults.unusual, defaults.suspicious, defaults.fail]
    assert np.allclose(axes.collections[0].get_offsets(), [[4096, FLOOR]])  # the cross on the failing stage
    labels = [text.get_text() for text in axes.get_legend().get_texts()]
    assert labels[-1] == "FAIL at 4,096 bytes" and labels[1:4] == ["unusual below 0.001", "suspicious below 1e-05",
                                                                    "FAIL below 1e-10"]
    assert axes.get_xscale() == "log" and axes.get_yscale() == "log"


def test_a_run_without_failure_has_no_cross():
    axes = until_fail_figure(run_until_fail([(1024, 0.3), (2048, 0.2)], None)).axes[0]
    assert not axes.collections and "FAIL at" not in " ".join(t.get_text() for t in axes.get_legend().get_texts())


def test_the_data_to_fail_bars(tmp_path):
    runs = [run_until_fail([(1024, 0.3), (2048, 1e-12)], 2048), run_until_fail([(1024, 0.3), (2**20, 0.4)], None)]
    runs[1].generator = "pcg64"
    figure = data_to_fail_figure(runs, 2**20)
    axes = figure.axes[0]
    failed, passed = axes.patches
    assert (failed.get_width(), passed.get_width()) == (2048, 2**20)
    assert (failed.get_hatch() or "", passed.get_hatch()) == ("", "///")
    assert [text.get_text() for text in axes.texts] == [" >"]            # the pass: the data to fail lies beyond
    assert axes.get_lines()[0].get_xdata()[0] == 2**20                    # the cap
    assert [label.get_text() for label in axes.get_yticklabels()] == ["randu", "pcg64"]
    ticks = [2**k for k in range(10, 21, 2)]
    assert [label.get_text() for label in axes.get_xticklabels()] == [human_bytes(t) for t in ticks]
    assert human_bytes(2**20) == "1 MiB"
    path = save_figure(figure, tmp_path / "fail.png")
    assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("pvalue", [0.0, 1.0])
def test_p_values_of_exactly_0_and_1_are_clipped_inside_the_axis(pvalue):
    figure = battery_figure(battery(SimpleNamespace(pvalue=pvalue)), ["x"])
    [[x, _]] = figure.axes[0].collections[-1].get_offsets()
    assert x == (CLIP if pvalue == 0 else 1 - CLIP)
