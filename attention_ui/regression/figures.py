"""The regression page's charts, as pure functions: arrays and words in, `go.Figure` out.

Colours come from the Okabe–Ito palette, which stays distinguishable with colour-blind vision;
the weights heatmap uses the app's shared 0…1 red scale (d2l's picture).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attention_core import NadarayaWatsonResult, Step
from attention_core.formatting import fmt
from attention_ui.kit.figures.heatmap import (
    WEIGHTS,
    DrawnFigure,
    Looks,
    Titles,
    heatmap,
    hover_texts,
    plotly_text,
)

if TYPE_CHECKING:
    from attention_ui.kit.grids.points_editor import PointsInput

# Okabe–Ito: blue, orange, bluish green, vermillion, grey
BLUE, ORANGE, GREEN, RED, GREY = "#0072B2", "#E69F00", "#009E73", "#D55E00", "#7f7f7f"
MAX_HEIGHT = 640


def data_figure(
    points: PointsInput,
    curve: NadarayaWatsonResult,
    words: Mapping[str, str],
    *,
    truth_y: np.ndarray | None = None,
    chosen: tuple[float, np.ndarray] | None = None,
) -> go.Figure:
    """Top: the training points, the true function, the `curve`'s prediction (None where there
    is no prediction, so the line has a gap). Bottom: the `chosen` query's weights, given as
    (x*, its weights), as bars at the training points' x (d2l's attention pooling seen from
    one query)."""
    x_train, y_train = points.x, points.y
    weights = chosen[1] if chosen is not None else np.zeros(len(x_train))
    point_hover = [
        plotly_text(words["point_hover"].format(row=row, x=fmt(x), y=fmt(y), weight=fmt(w)))
        for row, x, y, w in zip(points.rows, x_train, y_train, weights, strict=True)
    ]
    prediction_hover = "x* = %{x:.3~g}<br>ŷ = %{y:.3~g}"
    top = [
        _gapped_line(curve.x_query, curve.prediction, words["prediction"], prediction_hover),
        go.Scatter(
            x=x_train,
            y=y_train,
            mode="markers",
            name=words["data"],
            marker={"color": ORANGE, "size": 9, "line": {"color": "black", "width": 1}},
            customdata=point_hover,
            hovertemplate="%{customdata}<extra></extra>",
        ),
    ]
    if truth_y is not None:
        truth = go.Scatter(
            x=curve.x_query,
            y=truth_y,
            mode="lines",
            name=words["truth"],
            line={"color": GREY, "dash": "dash"},
            hovertemplate="x = %{x:.3~g}<br>f(x) = %{y:.3~g}<extra></extra>",
        )
        top.insert(0, truth)
    figure = make_subplots(
        rows=2, cols=1, shared_xaxes=True, row_heights=[0.68, 0.32], vertical_spacing=0.06
    )
    for trace in top:
        figure.add_trace(trace, row=1, col=1)
    if chosen is not None:
        _chosen_bars(figure, x_train, chosen, words["weights"], point_hover)
    figure.update_xaxes(title_text=plotly_text(words["x_axis"]), row=2, col=1)
    figure.update_yaxes(title_text=plotly_text(words["y_axis"]), row=1, col=1)
    figure.update_yaxes(title_text=plotly_text(words["weight_axis"]), range=[0, 1.05], row=2, col=1)
    figure.update_layout(
        height=560,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom"},  # grows upward
        hovermode="closest",
    )
    return figure


def _chosen_bars(
    figure: go.Figure,
    x_train: np.ndarray,
    chosen: tuple[float, np.ndarray],
    name: str,
    hover: list[str],
) -> None:
    """The chosen query's weights as bars below, and its x* marked on both panels."""
    chosen_x, weights = chosen
    figure.add_trace(
        go.Bar(
            x=x_train,
            y=weights,
            name=name,
            marker={"color": GREEN},
            width=_bar_width(x_train),
            customdata=hover,
            hovertemplate="%{customdata}<extra></extra>",
        ),
        row=2,
        col=1,
    )
    for row in (1, 2):
        figure.add_vline(x=chosen_x, line={"color": RED, "dash": "dot"}, row=row, col=1)


def _bar_width(x: np.ndarray) -> float:
    distinct = np.unique(x)
    span = float(distinct[-1] - distinct[0]) if distinct.size > 1 else 1.0
    return max(span / 80, 1e-3)


# The weights heatmap prints each cell's number while a phone's chart has room for it: about
# 230 px for the cells, and plotly sizes every cell's text to fit the longest ("0.0116"), so
# at most this many training points (more make the text smaller than 11 px), and at most
# MAX_ROWS_WITH_NUMBERS queries (more make its rows too thin). Beyond that the chart is d2l's
# picture, colour only: each number is in its hover and in the chart's table.
MAX_POINTS_WITH_NUMBERS = 5
MAX_ROWS_WITH_NUMBERS = 15
# A row's height when the cells print no number (thin rows: one screen holds 12 queries).
COLOUR_ROW_PX = 24


def weights_heatmap(
    weights: np.ndarray,
    x_query: np.ndarray,
    x_train: np.ndarray,
    rows: Sequence[int],
    hover: Sequence[Sequence[str]],
    words: Mapping[str, str],
) -> DrawnFigure:
    """d2l's picture, one chart: queries × training points, the training points in the order
    of x, on the one 0…1 scale; each cell prints its number while they fit a phone's chart
    (`prints_numbers`), else the cells are colour only in rows COLOUR_ROW_PX high."""
    order = np.argsort(x_train, kind="stable")
    numbers = prints_numbers(np.shape(weights))
    # colour only: rows COLOUR_ROW_PX high, the chart MAX_HEIGHT at most
    rows_px = max(120, COLOUR_ROW_PX * len(x_query))
    colour = {} if numbers else {"cells_px": rows_px, "max_height": MAX_HEIGHT}
    return heatmap(
        weights[:, order],
        [f"x{rows[i]} = {fmt(x_train[i])}" for i in order],
        [f"x*{j + 1} = {fmt(q)}" for j, q in enumerate(x_query)],
        Titles(words["title"], words["x_title"], words["y_title"]),
        hover=[[row[i] for i in order] for row in hover],
        looks=replace(WEIGHTS, show_text=numbers, **colour),
    )


def prints_numbers(shape: tuple[int, int]) -> bool:
    """Whether a weights heatmap of `shape` (queries, training points) prints its numbers."""
    queries, points = shape
    return points <= MAX_POINTS_WITH_NUMBERS and queries <= MAX_ROWS_WITH_NUMBERS


def sigma_figure(
    sigmas: np.ndarray,
    predictions: np.ndarray,
    sigma: float,
    nearest_y: float,
    mean_y: float,
    words: Mapping[str, str],
) -> go.Figure:
    """One query's prediction as σ sweeps from tiny to huge (log axis): it starts at the
    nearest point's y (or has no prediction) and ends at the mean of all y."""
    figure = go.Figure(
        _gapped_line(sigmas, predictions, words["prediction"], "σ = %{x:.3~g}<br>ŷ = %{y:.3~g}")
    )
    figure.add_hline(
        y=nearest_y,
        line={"color": ORANGE, "dash": "dash"},
        # on the far side of its line from the mean, in two lines, at the end with more room
        # beside the σ line: at the top left the curve's rise and the σ line ran through it
        annotation_text=plotly_text(words["nearest"]).replace(": ", ":<br>", 1),
        annotation_position=("bottom " if nearest_y <= mean_y else "top ")
        + ("left" if _right_half(sigmas, sigma) else "right"),
    )
    figure.add_hline(
        y=mean_y,
        line={"color": GREEN, "dash": "dot"},
        annotation_text=plotly_text(words["mean"]),
        annotation_position="bottom right",
    )
    return _against_sigma(figure, sigma, words, marker=RED, showlegend=False)


def _right_half(sigmas: np.ndarray, sigma: float) -> bool:
    """Whether σ lies in the right half of the log σ axis that `sigmas` span."""
    low, high = np.log10(float(np.min(sigmas))), np.log10(float(np.max(sigmas)))
    return high > low and (np.log10(sigma) - low) / (high - low) > 0.5


def loo_figure(
    sigmas: np.ndarray, errors: np.ndarray, best: int | None, sigma: float, words: Mapping[str, str]
) -> go.Figure:
    """Leave-one-out error against σ (log axis), its minimum marked."""
    hover = "σ = %{x:.3~g}<br>" + plotly_text(words["hover"]) + " = %{y:.3~g}"
    figure = go.Figure(
        _gapped_line(sigmas, errors, words["error"], hover, mode="lines+markers", width=2)
    )
    if best is not None:
        figure.add_trace(
            go.Scatter(
                x=[float(sigmas[best])],
                y=[float(errors[best])],
                mode="markers",
                name=words["best"],
                marker={"color": RED, "size": 14, "symbol": "star"},
                hovertemplate=plotly_text(words["best"]) + "<br>σ = %{x:.3~g}<extra></extra>",
            )
        )
    return _against_sigma(
        figure,
        sigma,
        words,
        marker=GREY,
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom"},
    )


def _gapped_line(
    x: np.ndarray, y: np.ndarray, name: str, hover: str, *, mode: str = "lines", width: int = 3
) -> go.Scatter:
    """A blue line with a gap wherever y is not finite (no prediction there): never a line
    drawn across a region no training point reaches."""
    return go.Scatter(
        x=x,
        y=[None if not np.isfinite(v) else float(v) for v in y],
        mode=mode,
        name=name,
        connectgaps=False,
        line={"color": BLUE, "width": width},
        hovertemplate=hover + "<extra></extra>",
    )


def _against_sigma(
    figure: go.Figure, sigma: float, words: Mapping[str, str], *, marker: str, **layout
) -> go.Figure:
    """The frame both σ charts share: a log σ axis, the current σ marked, the axis titles."""
    figure.add_vline(x=sigma, line={"color": marker, "dash": "dot"})
    # On a log axis plotly places an annotation at x = log10(σ), not at σ (add_vline's own
    # annotation_text put "σ = 0.5" near σ ≈ 3.2): given here in the axis's own terms.
    figure.add_annotation(
        x=float(np.log10(sigma)),
        xref="x",
        y=1,
        yref="y domain",
        yanchor="top",  # inside the plot: above it is the legend's
        xanchor="left",
        xshift=3,
        text=plotly_text(words["current"]),
        showarrow=False,
    )
    figure.update_xaxes(type="log", title_text=plotly_text(words["x_axis"]))
    figure.update_yaxes(title_text=plotly_text(words["y_axis"]))
    figure.update_layout(height=340, margin={"l": 10, "r": 10, "t": 30, "b": 10}, **layout)
    return figure


def step_figures(
    steps: Sequence[Step], rows: Sequence[int], words: Mapping[str, str]
) -> dict[str, DrawnFigure]:
    """Each engine step's matrix with the page's labels: queries (x*1, x*2, …) down, training
    points (x<row>) across; `words` has the axis titles "query" and "key"."""
    built = {}
    for step in steps:
        y_labels = [f"x*{j + 1}" for j in range(step.value.shape[0])]
        columns = {"nw_sums": ["Σ"], "nw_prediction": ["ŷ"]}.get(
            step.key, [f"x{row}" for row in rows]
        )
        built[step.key] = heatmap(
            step.value,
            columns,
            y_labels,
            Titles(x=words["key"] if len(columns) > 1 else "", y=words["query"]),
            hover=hover_texts(step.value.shape, step.entry),
            # no prediction prints '—', never 'NaN'; many queries thin the rows, not the page long
            looks=Looks(
                missing="—" if step.key == "nw_prediction" else None, max_height=MAX_HEIGHT
            ),
        )
    return built


def classes_figure(
    curve_x: np.ndarray,
    probabilities: np.ndarray,
    reached: np.ndarray,
    class_names: Sequence[str],
    words: Mapping[str, str],
) -> go.Figure:
    """One line per class: the weight of that class's points at each query along the axis,
    None where no point reaches the query (the line has a gap there)."""
    colours = (BLUE, ORANGE, GREEN, RED, GREY)
    figure = go.Figure()
    for index, name in enumerate(class_names):
        values = [
            float(p) if ok else None for p, ok in zip(probabilities[:, index], reached, strict=True)
        ]
        figure.add_trace(
            go.Scatter(
                x=curve_x,
                y=values,
                mode="lines",
                name=plotly_text(name),
                line={"color": colours[index % len(colours)]},
                hovertemplate="x* = %{x:.3~g}<br>p = %{y:.3~g}<extra></extra>",
            )
        )
    figure.update_layout(
        height=320,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        xaxis_title=plotly_text(words["x_axis"]),
        yaxis={"title": plotly_text(words["y_axis"]), "range": [-0.02, 1.02]},
        legend={"orientation": "h", "y": -0.25, "yanchor": "top"},  # below the axis title
    )
    return figure
