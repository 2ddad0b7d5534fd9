"""Attention pooling drawn in the plane: 2-D values, their cone and hull, and the output point.

Pure functions (arrays in, `go.Figure` out), so tests can check what is drawn without a browser.
Colours are colour-blind safe: the cone is light blue, the hull orange, the values dark blue,
the output black; the path of the output over temperatures is a dotted grey line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from attention_core import Cone, cone_polygon, convex_hull, fmt
from attention_ui.kit.figures.heatmap import plotly_text

CONE_FILL = "rgba(158, 202, 225, 0.35)"
CONE_LINE = "#6baed6"
HULL_FILL = "rgba(253, 174, 107, 0.45)"
HULL_LINE = "#e6550d"
VALUE_COLOUR = "#08519c"
OUTPUT_COLOUR = "#000000"
PATH_COLOUR = "#737373"
QUERY_COLOUR = "#54278f"


@dataclass(frozen=True)
class PlaneCaptions:
    """Translated names of what the plane figure shows."""

    cone: str = "cone of the values"
    hull: str = "convex hull of the values"
    values: str = "values vᵢ"
    output: str = "output Σ αᵢ vᵢ"
    path: str = "output as τ changes"
    query: str = "query q"
    weight: str = "α"


def view_box(*point_sets: np.ndarray, margin: float = 0.15) -> tuple[float, float, float, float]:
    """(x0, x1, y0, y1): a square view holding every point and the origin, with a margin."""
    points = np.vstack(
        [np.zeros((1, 2)), *[np.asarray(p, dtype=float).reshape(-1, 2) for p in point_sets]]
    )
    low, high = points.min(axis=0), points.max(axis=0)
    centre, half = (low + high) / 2, max(float((high - low).max()) / 2, 1.0)
    half *= 1 + margin
    return centre[0] - half, centre[0] + half, centre[1] - half, centre[1] + half


def plane_figure(
    values: np.ndarray,
    output: np.ndarray | None,
    *,
    weights: Sequence[float] | None,
    box: tuple[float, float, float, float],
    cone_shape: Cone | None = None,
    show_hull: bool = True,
    path: np.ndarray | None = None,
    query: np.ndarray | None = None,
    title: str = "",
    height: int = 460,
    captions: PlaneCaptions,
) -> go.Figure:
    """The values as labelled points, optionally their cone and hull, and the output point.

    values : (m, 2); output : (2,) or None; weights : one per value (shown next to it)
    box : the view (x0, x1, y0, y1), shared by the figures that should be compared
    path : (t, 2) outputs over a range of temperatures, drawn as a dotted line
    """
    values = np.asarray(values, dtype=float)
    x0, x1, y0, y1 = box
    figure = go.Figure()
    if cone_shape is not None:
        radius = 3 * max(abs(x0), abs(x1), abs(y0), abs(y1))
        polygon = cone_polygon(cone_shape, radius)
        filled = cone_shape.kind in ("wedge", "half_plane", "plane")
        figure.add_trace(
            go.Scatter(
                x=polygon[:, 0],
                y=polygon[:, 1],
                mode="lines",
                name=plotly_text(captions.cone),
                fill="toself" if filled else None,
                fillcolor=CONE_FILL,
                line={"color": CONE_LINE, "width": 1 if filled else 4},
                hoverinfo="skip",
            )
        )
    if show_hull:
        hull = convex_hull(values)
        closed = np.vstack([hull, hull[:1]])
        figure.add_trace(
            go.Scatter(
                x=closed[:, 0],
                y=closed[:, 1],
                mode="lines",
                name=plotly_text(captions.hull),
                fill="toself" if hull.shape[0] >= 3 else None,
                fillcolor=HULL_FILL,
                line={"color": HULL_LINE, "width": 2 if hull.shape[0] >= 3 else 5},
                hoverinfo="skip",
            )
        )
    if path is not None and len(path) > 1:
        path = np.asarray(path, dtype=float)
        figure.add_trace(
            go.Scatter(
                x=path[:, 0],
                y=path[:, 1],
                mode="lines",
                name=plotly_text(captions.path),
                line={"color": PATH_COLOUR, "dash": "dot", "width": 2},
                hoverinfo="skip",
            )
        )
    labels = []
    for i in range(values.shape[0]):
        label = f"v{i + 1}"
        if weights is not None:
            label += f" · {captions.weight}={fmt(weights[i])}"
        labels.append(plotly_text(label))
    hover = [
        plotly_text(
            f"v{i + 1} = ({fmt(x)}, {fmt(y)})"
            + ("" if weights is None else f"; {captions.weight}{i + 1} = {fmt(weights[i])}")
        )
        for i, (x, y) in enumerate(values)
    ]
    figure.add_trace(
        go.Scatter(
            x=values[:, 0],
            y=values[:, 1],
            mode="markers+text",
            name=plotly_text(captions.values),
            text=labels,
            textposition=label_sides(values[:, 0]),
            customdata=hover,
            hovertemplate="%{customdata}<extra></extra>",
            marker={"color": VALUE_COLOUR, "size": 11, "symbol": "circle"},
        )
    )
    if query is not None:
        q = np.asarray(query, dtype=float).reshape(2)
        figure.add_annotation(
            x=float(q[0]),
            y=float(q[1]),
            ax=0,
            ay=0,
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            showarrow=True,
            arrowhead=3,
            arrowwidth=2,
            arrowcolor=QUERY_COLOUR,
            text="",
        )
        figure.add_trace(
            go.Scatter(
                x=[q[0]],
                y=[q[1]],
                mode="markers+text",
                name=plotly_text(captions.query),
                text=["q"],
                textposition="bottom right",
                textfont={"color": QUERY_COLOUR},
                marker={"color": QUERY_COLOUR, "size": 8, "symbol": "diamond"},
                hovertemplate=plotly_text(f"{captions.query} = ({fmt(q[0])}, {fmt(q[1])})")
                + "<extra></extra>",
            )
        )
    if output is not None:
        out = np.asarray(output, dtype=float).reshape(2)
        figure.add_trace(
            go.Scatter(
                x=[out[0]],
                y=[out[1]],
                mode="markers",
                name=plotly_text(captions.output),
                marker={
                    "color": OUTPUT_COLOUR,
                    "size": 16,
                    "symbol": "star",
                    "line": {"color": "white", "width": 1},
                },
                hovertemplate=plotly_text(f"{captions.output} = ({fmt(out[0])}, {fmt(out[1])})")
                + "<extra></extra>",
            )
        )
    figure.update_layout(
        title={"text": plotly_text(title)} if title else None,
        height=height,
        margin={"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
        legend={"orientation": "h", "y": -0.08},
        showlegend=height >= 380,
    )
    figure.update_xaxes(range=[x0, x1], zeroline=True, zerolinecolor="#bdbdbd", title_text="x")
    figure.update_yaxes(
        range=[y0, y1],
        zeroline=True,
        zerolinecolor="#bdbdbd",
        title_text="y",
        scaleanchor="x",
        scaleratio=1,
    )
    return figure


def label_sides(x: np.ndarray) -> list[str]:
    """Where each point's label goes: towards the middle of the plot, so that a label of a
    point near the left or right edge is not drawn past the chart's edge (on a phone)."""
    x = np.asarray(x, dtype=float)
    low, high = (float(x.min()), float(x.max())) if x.size else (0.0, 0.0)
    third = (high - low) / 3
    if third <= 0:
        return ["top center"] * x.size
    return [
        "top left" if v > high - third else "top right" if v < low + third else "top center"
        for v in x
    ]
