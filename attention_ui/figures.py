"""Plotly figures as pure functions: arrays and labels in, `go.Figure` out.

Tests call these directly to check labels and hover texts without a browser. Colour scales
are readable with colour-blind vision: a diverging red-blue scale centred on 0 for signed
values (scores), d2l's single-hue red for weights in [0, 1], Cividis for anything else.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Sequence

import numpy as np
import plotly.graph_objects as go

from attention_core import Step, fmt

SIGNED_SCALE = "RdBu_r"
WEIGHT_SCALE = "Reds"
VALUE_SCALE = "Cividis"
# Print numbers on the cells only while they stay legible.
MAX_CELLS_WITH_TEXT = 12 * 12


def plotly_text(text: str) -> str:
    """User text made literal for Plotly, which renders a subset of HTML in labels and hovers."""
    return html.escape(str(text), quote=False)


def heatmap(
    values: np.ndarray,
    x_labels: Sequence[str],
    y_labels: Sequence[str],
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    hover: Sequence[Sequence[str]] | None = None,
    colorscale: str | None = None,
    zmin: float | None = None,
    zmax: float | None = None,
    show_text: bool | None = None,
) -> go.Figure:
    """A matrix drawn as it is written: row 1 at the top, one labelled cell per entry.

    −∞ (a masked score) is drawn as an empty cell labelled '−∞'. `hover` holds one text per
    cell (plain text; it is escaped here); lines break before each ' = ' so long arithmetic
    stays readable.
    """
    values = np.asarray(values, dtype=float)
    finite = np.where(np.isfinite(values), values, np.nan)
    if colorscale is None:
        colorscale = _default_scale(finite)
    zmid = 0.0 if colorscale == SIGNED_SCALE else None
    if show_text is None:
        show_text = values.size <= MAX_CELLS_WITH_TEXT
    cell_text = [[fmt(v, 3) for v in row] for row in values]
    if hover is None:
        hover = cell_text
    hover_html = [[plotly_text(h).replace(" = ", "<br>= ") for h in row] for row in hover]
    x = [plotly_text(label) for label in x_labels]
    y = [plotly_text(label) for label in y_labels]
    trace = {
        "type": "heatmap",
        "z": finite,
        "x": x,
        "y": y,
        "text": cell_text,
        "customdata": hover_html,
        "texttemplate": "%{text}" if show_text else None,
        "hovertemplate": "%{customdata}<extra></extra>",
        "colorscale": _scale(colorscale),
        "zmid": zmid,
        "zmin": zmin,
        "zmax": zmax,
        "xgap": 1,
        "ygap": 1,
        "colorbar": {"thickness": 12, "len": 0.9},
    }
    layout = {
        "height": max(180, 70 + 38 * len(y_labels)) + (30 if title else 0),
        "margin": {"l": 10, "r": 10, "t": 60 if title else 30, "b": 10},
        "xaxis": {"title": {"text": plotly_text(x_title)}, "side": "top", "type": "category"},
        "yaxis": {
            "title": {"text": plotly_text(y_title)},
            "autorange": "reversed",
            "type": "category",
        },
    }
    if title:
        layout["title"] = {"text": plotly_text(title)}
    # One constructor call from plain dicts: building a go.Heatmap first (validated, then
    # deep-copied into the figure) and calling update_layout/update_xaxes/update_yaxes made a
    # heatmap 5-6× slower to build, for the same figure. Plotly's validation of these fixed,
    # known-good properties took over half of what was left; tests/ui/test_figures.py pins
    # that the unvalidated figure is the validated one.
    return DrawnFigure(
        data=[{key: value for key, value in trace.items() if value is not None}],
        layout=layout,
        _validate=False,
    )


class DrawnFigure(go.Figure):
    """A finished go.Figure that makes its `to_dict()` once.

    st.plotly_chart calls to_dict() on every draw, and plotly's to_dict deep-copies the whole
    figure, default template included (most of a millisecond). Pages keep their figures
    between reruns and may draw one twice in a run, so the copy is made once and shared.
    Treat the figure and that dict as read-only (plotly does not report every change); to
    change a figure, change it in `heatmap` or copy it first: go.Figure(figure.to_dict()).
    """

    _drawn: dict | None = None

    def to_dict(self) -> dict:
        if self._drawn is None:
            self._drawn = super().to_dict()
        return self._drawn


def step_heatmap(
    step: Step,
    x_labels: Sequence[str],
    y_labels: Sequence[str],
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    colorscale: str | None = None,
    zmin: float | None = None,
    zmax: float | None = None,
) -> go.Figure:
    """`heatmap` of one engine step, each cell's hover spelling out its arithmetic."""
    return heatmap(
        step.value,
        x_labels,
        y_labels,
        title=title,
        x_title=x_title,
        y_title=y_title,
        hover=hover_texts(step.value.shape, step.entry),
        colorscale=colorscale,
        zmin=zmin,
        zmax=zmax,
    )


def hover_texts(shape: tuple[int, int], explain: Callable[[int, int], str]) -> list[list[str]]:
    """One text per cell from an engine explainer (symbols and numbers: no words to translate)."""
    return [[explain(i, j) for j in range(shape[1])] for i in range(shape[0])]


def _scale(name: str) -> list[list]:
    """A named scale as the list of stops plotly's validation sends ("RdBu_r" is plotly.py's
    name, unknown to plotly.js); worked out once per name, a fresh copy per figure."""
    return [list(stop) for stop in _scale_stops(name)]


@functools.cache
def _scale_stops(name: str) -> tuple[tuple, ...]:
    return tuple(tuple(stop) for stop in go.Heatmap(colorscale=name).colorscale)


def _default_scale(values: np.ndarray) -> str:
    if np.isnan(values).all():
        return VALUE_SCALE
    low, high = np.nanmin(values), np.nanmax(values)
    if low >= 0 and high <= 1:
        return WEIGHT_SCALE
    return SIGNED_SCALE if low < 0 < high else VALUE_SCALE
