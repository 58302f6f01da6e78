"""Figures of battery p-values: one point per test on [0, 1], and histograms of second-level p-values."""

from __future__ import annotations

import numpy as np

from rnglab.core.params import human_bytes
from rnglab.empirical.verdicts import DEFAULT_WINDOW
from rnglab.plot import new_figure

#: Ticks of the logit p-value axis and their labels: evenly spaced on that axis (every factor 10^4), so that no two
#: labels meet; the window's ends are shown by the shading and named in the axis label.
TICKS = [1e-12, 1e-8, 1e-4, 0.5, 1 - 1e-4, 1 - 1e-8, 1 - 1e-12]
TICK_LABELS = ["1e-12", "1e-8", "1e-4", "0.5", "1 - 1e-4", "1 - 1e-8", "1 - 1e-12"]
#: P-values are drawn clipped to [CLIP, 1 - CLIP]; the axis reaches to MARGIN (1 - MARGIN is still below 1 in
#: double precision), far enough beyond that no marker is cut in half.
CLIP, MARGIN = 1e-14, 1e-16


def battery_figure(result, labels: list[str], window: tuple[float, float] = DEFAULT_WINDOW):
    """P-values of a battery run, one row per test, with the two tails outside ``window`` shaded.

    A second row of panels shows, for each second-level result (``pvalues``
    held), the histogram of its first-level p-values against the uniform level.
    """
    repeated = [(label, r) for label, r in zip(labels, result.results) if getattr(r, "pvalues", ())]
    columns = max(len(repeated), 1)
    figure, _axes = new_figure(7.2, 0.35 * len(labels) + 1.9 + (2.4 if repeated else 0))
    figure.clear()
    grid = figure.add_gridspec(2 if repeated else 1, columns, height_ratios=[2, 1] if repeated else [1])
    _pvalue_strip(figure.add_subplot(grid[0, :]), result, labels, window)
    for column, (label, second) in enumerate(repeated):
        _histogram(figure.add_subplot(grid[1, column]), label, np.asarray(second.pvalues))
    return figure


def _pvalue_strip(axes, result, labels, window) -> None:
    pvalues = np.clip([r.pvalue for r in result.results], CLIP, 1 - CLIP)
    suspect = np.array([p < window[0] or p > window[1] for p in pvalues])
    rows = np.arange(len(labels))
    axes.set_xscale("logit")
    axes.axvspan(MARGIN, window[0], color="tab:red", alpha=0.15)
    axes.axvspan(window[1], 1 - MARGIN, color="tab:red", alpha=0.15)
    axes.scatter(pvalues[~suspect], rows[~suspect], color="tab:blue", zorder=3, label="inside the window")
    axes.scatter(pvalues[suspect], rows[suspect], color="tab:red", marker="x", zorder=3,
                 label=f"suspect (beyond {CLIP:g} drawn at the edge)")
    axes.set_yticks(rows, labels)
    axes.set_ylim(len(labels) - 0.4, -0.6)
    axes.set_xlim(MARGIN, 1 - MARGIN)
    axes.set_xticks(TICKS, TICK_LABELS, fontsize="small")
    axes.minorticks_off()
    axes.set_xlabel(f"p-value (logit scale); suspect outside [{window[0]:g}, {window[1]:g}] (shaded)")
    axes.set_title(f"{result.generator}: battery {result.battery}, seed {result.seed}")
    axes.figure.legend(loc="outside lower center", ncol=2, fontsize="small", frameon=False)


def _histogram(axes, label: str, pvalues: np.ndarray) -> None:
    bins = min(max(len(pvalues) // 5, 5), 20)
    axes.hist(pvalues, bins=bins, range=(0, 1), color="tab:blue", edgecolor="white")
    axes.axhline(len(pvalues) / bins, color="black", linestyle="--", linewidth=1)
    axes.set_title(label, fontsize="small")
    axes.set_xlim(0, 1)



#: The smallest tail distance drawn: p-values beyond it (RANDU's 1e-160) would flatten the rest of the curve.
FLOOR = 1e-40


def until_fail_figure(result, thresholds=None):
    """The most extreme p-value of each stage of a run-until-fail against the data read (log-log).

    The vertical axis is ``min(p, 1 - p)`` of the stage's most extreme result;
    the grade thresholds are drawn as horizontal lines, and the stage that
    failed, if any, is marked.
    """
    from rnglab.empirical.verdicts import Thresholds

    thresholds = thresholds or Thresholds()
    figure, axes = new_figure(8.4, 4.0)
    curve = result.worst_distance
    data = np.array([b for b, _ in curve], dtype=float)
    distance = np.clip([q for _, q in curve], FLOOR, 0.5)
    axes.plot(data, distance, marker="o", color="tab:blue", label="most extreme p-value of the stage")
    for level, name, colour in ((thresholds.unusual, "unusual", "tab:olive"),
                                (thresholds.suspicious, "suspicious", "tab:orange"),
                                (thresholds.fail, "FAIL", "tab:red")):
        axes.axhline(level, color=colour, linestyle="--", linewidth=1, label=f"{name} below {level:g}")
    if result.bytes_to_fail is not None:
        axes.scatter([data[-1]], [distance[-1]], color="tab:red", marker="x", s=80, zorder=3,
                     label=f"FAIL at {result.bytes_to_fail:,} bytes")
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    axes.set_ylim(0.5, min(thresholds.fail, distance.min()) / 100)
    axes.set_xlabel("data read (bytes, log scale)")
    axes.set_ylabel(f"min(p, 1 - p), worse upwards (floor {FLOOR:g})")
    axes.set_title(f"{result.generator}: battery {result.battery} until it fails, seed {result.seed}")
    axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small")
    return figure


def data_to_fail_figure(runs, cap: int):
    """The data each generator's run-until-fail read before its first FAIL, one horizontal bar each (log axis).

    Parameters
    ----------
    runs : sequence of UntilFailResult
        One run per generator, drawn top to bottom in the order given.
    cap : int
        The limit on the data of every run, drawn as a dashed line.

    A run with a FAIL is a red bar to the data at which it failed; a run without
    one is a grey, hatched bar to the data its last stage read, marked ``>`` at
    its end: the data to fail lies beyond the bar, not at it.
    """
    figure, axes = new_figure(8.4, 1.2 + 0.24 * len(runs))
    rows = np.arange(len(runs))
    for row, run in zip(rows, runs):
        failed = run.bytes_to_fail is not None
        read = run.bytes_to_fail if failed else (run.stages[-1].bytes if run.stages else 1)
        axes.barh(row, read, color="tab:red" if failed else "0.8", hatch="" if failed else "///",
                  edgecolor="0.35", linewidth=0.5)
        if not failed:
            axes.text(read, row, " >", va="center", ha="left", fontsize="small")
    axes.axvline(cap, color="0.2", linestyle="--", linewidth=1)
    axes.set_yticks(rows, [run.generator for run in runs], fontsize="small")
    axes.invert_yaxis()
    axes.set_xscale("log", base=2)
    axes.set_xlim(2**9, cap * 2)
    ticks = [2**k for k in range(10, cap.bit_length() + 1, 2)]
    axes.set_xticks(ticks, [human_bytes(t) for t in ticks])
    axes.set_xlabel("data read from the stream's start (log scale); dashed: the cap")
    axes.set_title(f"battery {runs[0].battery} until it fails: data read at the first FAIL", fontsize="medium")
    return figure
