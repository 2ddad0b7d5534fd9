"""The exercises page's figures, as pure functions (arrays and words in, go.Figure out).

Colours are colour-blind safe (the plane figures' palette): values dark blue, query purple,
output black, covariance ellipse orange, Jacobian ellipse dashed blue, target record orange.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import plotly.graph_objects as go

from attention_core.formatting import fmt
from attention_ui.exercises.compute import Gradient, Squeeze
from attention_ui.kit.figures.blocks import colour_bar_below
from attention_ui.kit.figures.heatmap import WEIGHTS, DrawnFigure, Titles, heatmap, plotly_text
from attention_ui.kit.figures.plane import (
    CONE_LINE,
    HULL_LINE,
    QUERY_COLOUR,
    VALUE_COLOUR,
    PlaneCaptions,
    PlaneScene,
    plane_figure,
    view_box,
)

# Every chart here keeps 10 px around its plot.
MARGIN = {"l": 10, "r": 10, "t": 10, "b": 10}


@dataclass(frozen=True)
class EllipseCaptions:
    cov_name: str
    jac_name: str


def _traced(points: np.ndarray, name: str, hover: str | Sequence[str], **style: Any) -> go.Scatter:
    """A trace through `points` (n × 2) hovering `hover`: one text, or one per point."""
    each = not isinstance(hover, str)
    return go.Scatter(
        x=points[:, 0],
        y=points[:, 1],
        name=plotly_text(name),
        customdata=[plotly_text(text) for text in hover] if each else None,
        hovertemplate=("%{customdata}" if each else plotly_text(hover)) + "<extra></extra>",
        **style,
    )


def ellipse_points(centre: np.ndarray, matrix: np.ndarray, count: int = 73) -> np.ndarray:
    """(count, 2): the ellipse {centre + M^½ u : |u| = 1} of a symmetric 2 × 2 matrix M.

    For a covariance it is the one-standard-deviation ellipse; negative eigenvalues (none for a
    covariance) are drawn as 0.
    """
    symmetric = (np.asarray(matrix, dtype=float) + np.asarray(matrix, dtype=float).T) / 2
    eigenvalues, eigenvectors = np.linalg.eigh(symmetric)
    half_axes = eigenvectors * np.sqrt(np.clip(eigenvalues, 0.0, None))  # columns: half axes
    angles = np.linspace(0.0, 2 * np.pi, count)
    circle = np.vstack([np.cos(angles), np.sin(angles)])  # 2 × count
    return (np.asarray(centre, dtype=float)[:, None] + half_axes @ circle).T


def gradient_figure(
    values: np.ndarray, numbers: Gradient, *, captions: PlaneCaptions, ellipses: EllipseCaptions
) -> go.Figure:
    """The values (= keys), q, the output o and, around o, the ellipses of Cov_p(k) and ∂o/∂q."""
    result, covariance = numbers.result, numbers.covariance
    output, jacobian = result.output, result.jacobian
    cov_line, jac_line = ellipse_points(output, covariance), ellipse_points(output, jacobian)
    box = view_box(values, result.query, output, cov_line, jac_line)
    avoid = (cov_line, jac_line)
    scene = PlaneScene(values, output, weights=result.weights, query=result.query, avoid=avoid)
    figure = plane_figure(scene, box=box, captions=captions)
    for line, name, matrix, style in (
        (cov_line, ellipses.cov_name, covariance, {"color": HULL_LINE, "width": 3}),
        (jac_line, ellipses.jac_name, jacobian, {"color": CONE_LINE, "width": 2, "dash": "dash"}),
    ):
        entries = "; ".join(fmt(x) for x in np.asarray(matrix).ravel())
        figure.add_trace(_traced(line, name, f"{name} = [{entries}]", mode="lines", line=style))
    return figure


@dataclass(frozen=True)
class SearchCaptions:
    """The search figure's words: its axes, the two traces and the hover's words."""

    x: str
    y: str
    records: str
    path: str
    loss: str
    step: str


def search_figure(
    keys_2d: np.ndarray,
    labels: Sequence[str],
    target: int,
    path_2d: np.ndarray,
    losses: np.ndarray,
    *,
    captions: SearchCaptions,
) -> go.Figure:
    """Records' keys and the query's descent path in the plane (or its projection)."""
    box = view_box(keys_2d, path_2d)
    hit = [i == target for i in range(len(labels))]
    figure = go.Figure(
        go.Scatter(
            x=keys_2d[:, 0],
            y=keys_2d[:, 1],
            mode="markers+text",
            name=plotly_text(captions.records),
            text=[plotly_text(label) for label in shared_labels(keys_2d, labels, box)],
            textposition=sides_away_from(keys_2d, path_2d, box),
            marker={
                "color": [HULL_LINE if h else VALUE_COLOUR for h in hit],
                "size": [16 if h else 11 for h in hit],
                "symbol": ["star" if h else "circle" for h in hit],
            },
            hovertemplate="%{text}: (%{x:.3~g}, %{y:.3~g})<extra></extra>",
        )
    )
    step, loss = captions.step, captions.loss
    hover = [
        f"{step} {t}: q = ({fmt(x)}, {fmt(y)}), {loss} = {fmt(v)}"
        for t, ((x, y), v) in enumerate(zip(path_2d, losses, strict=True))
    ]
    path_style = {
        "line": {"color": QUERY_COLOUR, "width": 2},
        "marker": {"size": 5, "color": QUERY_COLOUR},
    }
    figure.add_trace(_traced(path_2d, captions.path, hover, mode="lines+markers", **path_style))
    x0, x1, y0, y1 = box
    figure.update_layout(
        height=420,
        margin=MARGIN,
        legend={"orientation": "h", "y": -0.16, "yanchor": "top"},  # below the "x"
    )
    figure.update_xaxes(range=[x0, x1], title_text=plotly_text(captions.x), zeroline=True)
    figure.update_yaxes(
        range=[y0, y1],
        title_text=plotly_text(captions.y),
        scaleanchor="x",
        scaleratio=1,
        zeroline=True,
    )
    return figure


# Points closer than this share of the view's span are drawn as one, their labels joined.
_SAME_POINT = 0.02
# Path points within this share of the span decide whether a label goes above or below.
_NEAR_PATH = 0.08


def shared_labels(points: np.ndarray, labels: Sequence[str], box) -> list[str]:
    """Each point's label, or "" where an earlier point sits at the same place, which then
    carries both names ("Zhang, Smola"): two labels at one point print over each other."""
    span = max(box[1] - box[0], box[3] - box[2])
    shown = [str(label) for label in labels]
    for i in range(len(points)):
        if not shown[i]:
            continue
        for j in range(i + 1, len(points)):
            if shown[j] and np.linalg.norm(points[i] - points[j]) < _SAME_POINT * span:
                shown[i], shown[j] = f"{shown[i]}, {shown[j]}", ""
    return shown


def sides_away_from(points: np.ndarray, path: np.ndarray, box) -> list[str]:
    """'top center' or 'bottom center' for each point: the side the query's path passes less
    near, so that the path (and the target's star at its end) does not run through the name."""
    span = max(box[1] - box[0], box[3] - box[2])
    sides = []
    for point in points:
        offsets = path - point
        near = np.abs(offsets[:, 0]) < _NEAR_PATH * span
        near &= np.abs(offsets[:, 1]) < _NEAR_PATH * span
        above = int(np.count_nonzero(near & (offsets[:, 1] > 0)))
        below = int(np.count_nonzero(near & (offsets[:, 1] < 0)))
        sides.append("bottom center" if above > below else "top center")
    return sides


# The weights per step, one row per step: a row this high prints a cell's number at plotly's
# full 12 px (its text fits the row's height), and 31 steps stay one chart of 31 × 22 px; the
# records across are few and wide, where the 31 steps across had cells of about 12 px, too
# narrow for any number.
STEP_ROW_PX = 22
# Up to this many steps and records every cell prints its number: 50 rows are 1,100 px high,
# and 7 records leave a phone's cells about 40 px wide ("0.0116" at 10 px and more).
MAX_STEPS_WITH_TEXT = 50
MAX_RECORDS_WITH_TEXT = 7
# Above MAX_STEPS_WITH_TEXT the rows shrink so that the chart stays this high.
MAX_STEPS_PX = 1_100


@dataclass(frozen=True)
class StepCaptions:
    title: str = "Weights p per step"
    step: str = "step"
    records: str = "records"


def weights_per_step_figure(
    weights: np.ndarray, names: Sequence[str], captions: StepCaptions = StepCaptions()
) -> DrawnFigure:
    """Exercise 3's weights p after each step, (steps + 1) × records: one row per step, read
    down a record's column to see its weight grow; every cell prints its number while
    `numbers_fit` (else the chart's table holds them)."""
    steps, records = np.shape(weights)
    hover = [
        [f"{captions.step} {j}, {name}: p = {fmt(weights[j, i])}" for i, name in enumerate(names)]
        for j in range(steps)
    ]
    row_px = STEP_ROW_PX if steps <= MAX_STEPS_WITH_TEXT else max(4, MAX_STEPS_PX // steps)
    figure = heatmap(
        weights,
        list(names),
        [str(j) for j in range(steps)],
        Titles(captions.title, captions.records, captions.step),
        hover=hover,
        looks=replace(WEIGHTS, show_text=numbers_fit(steps, records), cells_px=row_px * steps + 8),
    )
    # its colour bar under the cells: beside them it took 60 px of a phone's width from them
    colour_bar_below(figure, shown=True)
    return figure


def numbers_fit(steps: int, records: int) -> bool:
    """Whether every cell of the weights-per-step chart prints its number legibly."""
    return steps <= MAX_STEPS_WITH_TEXT and records <= MAX_RECORDS_WITH_TEXT


def loss_figure(losses: np.ndarray, *, x_title: str, y_title: str) -> go.Figure:
    """The loss −log p(target) after each step."""
    points = np.column_stack([np.arange(len(losses)), losses])
    hover = [f"{x_title} {t}: {y_title} = {fmt(v)}" for t, v in enumerate(losses)]
    style = {"line": {"color": QUERY_COLOUR}, "marker": {"size": 4}}
    figure = go.Figure(_traced(points, y_title, hover, mode="lines+markers", **style))
    figure.update_layout(height=300, margin=MARGIN)
    figure.update_xaxes(title_text=plotly_text(x_title))
    figure.update_yaxes(title_text=plotly_text(y_title), rangemode="tozero")
    return figure


@dataclass(frozen=True)
class GatesCaptions:
    """The gates chart's words: its two bars' names and its axes."""

    sigmoid: str
    softmax: str
    channel: str
    weight: str


def gates_figure(labels: Sequence[str], numbers: Squeeze, captions: GatesCaptions) -> go.Figure:
    """The channel weights of SE's sigmoid next to a softmax's, as grouped bars."""
    figure = go.Figure()
    for gates, name, colour in (
        (numbers.sigmoid.gates, captions.sigmoid, HULL_LINE),
        (numbers.softmax.gates, captions.softmax, VALUE_COLOUR),
    ):
        figure.add_trace(
            go.Bar(
                x=[plotly_text(label) for label in labels],
                y=gates,
                name=plotly_text(name),
                marker_color=colour,
                text=[fmt(g) for g in gates],
                textposition="outside",
                customdata=[
                    plotly_text(f"{name}, {label} = {fmt(g)}")
                    for label, g in zip(labels, gates, strict=True)
                ],
                hovertemplate="%{customdata}<extra></extra>",
            )
        )
    figure.update_layout(
        barmode="group",
        height=320,
        margin=MARGIN,
        # below the axis title (at -0.2 its first row touched the Japanese title on a phone)
        legend={"orientation": "h", "y": -0.3, "yanchor": "top"},
    )
    figure.update_xaxes(title_text=plotly_text(captions.channel))
    figure.update_yaxes(title_text=plotly_text(captions.weight), range=[0, 1.15])
    return figure
