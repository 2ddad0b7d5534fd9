"""The training page's own figures (pure: arrays and words in, plotly's figure dicts out): the
curves of a run (loss at every step, held-out accuracy at every snapshot), several runs
overlaid, and the frames marking the positions each output should attend to on a weights
heatmap."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from attention_ui.kit.figures.heatmap import DrawnFigure, plotly_text
from attention_ui.kit.figures.level_titles import level_y_titles

CURVE_HEIGHT = 260
# One colour per curve, readable with colour-blind vision (Okabe and Ito's palette).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
MARK_COLOUR = "#0072B2"


def thinned(
    steps: Sequence[int], values: Sequence[float], at_most: int
) -> tuple[np.ndarray, np.ndarray]:
    """At most `at_most` of the points (steps, values), evenly spread over the steps, the
    first and the last always among them: a curve drawn while a run trains needs no more
    points than its chart has pixels across, and each redraw sends them all."""
    steps, values = np.asarray(steps), np.asarray(values, dtype=float)
    if len(steps) <= at_most:
        return steps, values
    kept = np.unique(np.linspace(0, len(steps) - 1, at_most).round().astype(int))
    return steps[kept], values[kept]


def curves(
    series: Mapping[str, tuple[Sequence[int], Sequence[float]]],
    titles: tuple[str, str, str],
    *,
    y_range: tuple[float, float] | None = None,
    x_max: int | None = None,
    marker_step: int | None = None,
) -> DrawnFigure:
    """One line per named series of (steps, values), titled (chart, step axis, value axis);
    `x_max` fixes the step axis (so that the curve grows along it while the run trains);
    `marker_step` draws a dashed line at the step the slider shows."""
    title, x_title, y_title = titles
    traces = [
        {
            "type": "scatter",
            "x": np.asarray(steps, dtype=int),
            "y": np.asarray(values, dtype=float),
            "mode": "lines",
            "name": plotly_text(name),
            "line": {"color": COLOURS[number % len(COLOURS)], "width": 2},
            "hovertemplate": "%{x}: %{y:.4f}<extra>" + plotly_text(name) + "</extra>",
        }
        for number, (name, (steps, values)) in enumerate(series.items())
    ]
    layout = {
        "title": {"text": plotly_text(title)},
        "height": CURVE_HEIGHT + (60 if len(series) > 1 else 0),
        "margin": {"l": 10, "r": 10, "t": 40, "b": 10},
        "showlegend": len(series) > 1,
        # under the step axis's title, not over it
        "legend": {"orientation": "h", "y": -0.45, "yanchor": "top"},
        "xaxis": {"title": {"text": plotly_text(x_title)}},
        "yaxis": {"title": {"text": plotly_text(y_title)}},
    }
    if x_max:
        layout["xaxis"]["range"] = [0, x_max]
    if y_range:
        layout["yaxis"]["range"] = list(y_range)
    if marker_step is not None:  # the step the slider shows
        layout["shapes"] = [
            {
                "type": "line",
                "xref": "x",
                "yref": "paper",
                "x0": marker_step,
                "x1": marker_step,
                "y0": 0,
                "y1": 1,
                "line": {"dash": "dash", "color": "#555555"},
            }
        ]
    # Plain dicts, as the kit's heatmaps (kit/figures/heatmap.py): the curves are redrawn
    # several times a second while a run trains, and plotly's validation was most of it.
    # a Japanese y-axis title written level, as show_chart does for other figures
    return level_y_titles(DrawnFigure({"data": traces, "layout": layout}))


def frames(attend: Sequence[int], mark_name: str) -> tuple[dict, ...]:
    """For a T × L weights heatmap (its `Looks.shapes`): a frame around each output's right
    input position (`attend[t]` for output t), where the weight should go. The frames are
    shapes, not a trace: the chart's text alternative and table read the weights alone."""
    return tuple(
        {
            "type": "rect",
            "xref": "x",
            "yref": "y",
            "x0": int(column) - 0.5,
            "x1": int(column) + 0.5,
            "y0": row - 0.5,
            "y1": row + 0.5,
            "line": {"color": MARK_COLOUR, "width": 3},
            "name": mark_name,
        }
        for row, column in enumerate(attend)
    )
