"""The text alternative's facts, read in one pass per trace (alt_text._heatmap_facts, plain's
fast path for text without tags or entities), are the facts the earlier reading gave: the
reference below is that reading, kept verbatim, compared on every kind of heatmap."""

from __future__ import annotations

import html
import re

import numpy as np
import plotly.graph_objects as go
import pytest

from attention_core.formatting import fmt
from attention_ui.kit.figures import alt_text
from attention_ui.kit.figures.alt_text import ChartFacts, chart_facts, chart_table, plain
from attention_ui.kit.figures.grid import GridSettings, heatmap_grid
from attention_ui.kit.figures.heatmap import WEIGHTS, DrawnFigure, Titles, heatmap

_TAG = re.compile(r"<[^>]*>")


def _reference_plain(text: object) -> str:
    if text is None:
        return ""
    return html.unescape(_TAG.sub(" ", str(text))).strip().replace("  ", " ")


def _reference_labels(trace) -> tuple[list[str], list[str]]:
    values_of = alt_text.values_of
    z = np.asarray(values_of(trace.z))
    rows = (
        [_reference_plain(s) for s in values_of(trace.y)] if values_of(trace.y) is not None else []
    )
    cols = (
        [_reference_plain(s) for s in values_of(trace.x)] if values_of(trace.x) is not None else []
    )
    n_rows, n_cols = z.shape[0], z.shape[1] if z.ndim == 2 else 1
    rows = rows if len(rows) == n_rows else [str(i + 1) for i in range(n_rows)]
    cols = cols if len(cols) == n_cols else [str(j + 1) for j in range(n_cols)]
    return rows, cols


def _reference_heatmap_facts(figure, heatmaps, title, x_title, y_title) -> ChartFacts:
    values_of = alt_text.values_of
    plain_heatmaps = [trace.to_plotly_json() for trace in heatmaps]
    names = alt_text.panel_names(alt_text.plain_figure(figure)["layout"], plain_heatmaps)
    best = None
    for index, trace in enumerate(heatmaps):
        z = np.asarray(values_of(trace.z), dtype=float)
        if not np.isfinite(z).any():
            continue
        i, j = np.unravel_index(np.nanargmax(np.where(np.isfinite(z), z, np.nan)), z.shape)
        if best is None or z[i, j] > best[0]:
            best = (float(z[i, j]), index, int(i), int(j))
    first = np.asarray(values_of(heatmaps[0].z))
    size = (first.shape[0], first.shape[1] if first.ndim == 2 else 1)
    if best is None:
        return ChartFacts(
            "heatmap", title, x_title, y_title, size, len(heatmaps), "", ("", ""), "", ()
        )
    value, index, i, j = best
    rows, cols = _reference_labels(heatmaps[index])
    return ChartFacts(
        "heatmap",
        title,
        x_title,
        y_title,
        size,
        len(heatmaps),
        fmt(value),
        (rows[i], cols[j]),
        names[index] if len(heatmaps) > 1 else "",
        (),
    )


def _reference_facts(figure: go.Figure) -> ChartFacts:
    title = _reference_plain(figure.layout.title.text)
    x_title, y_title = alt_text._axis_titles(alt_text.plain_figure(figure)["layout"])
    heatmaps = [trace for trace in figure.data if trace.type == "heatmap"]
    return _reference_heatmap_facts(figure, heatmaps, title, x_title, y_title)


def _figures() -> list[go.Figure]:
    rng = np.random.default_rng(7)
    masked = rng.normal(size=(3, 4))
    masked[0, 1] = -np.inf
    figures = [
        heatmap(rng.normal(size=(3, 2)), ["q1", "q2"], ["k1", "k2", "k3"], Titles("S")),
        heatmap(masked, list("abcd"), list("xyz"), Titles("<b>S</b> &amp; T", "keys")),
        heatmap(np.full((2, 2), -np.inf), ["a", "b"], ["c", "d"]),  # every entry masked
        heatmap(np.array([[1.0, 3.0], [3.0, 2.0]]), ["a", "b"], ["c", "d"]),  # a tie: the first
        heatmap(np.array([[np.nan, -1e300]]), ["a", "b"], ["c"]),
        heatmap(np.array([[0.5]]), ["  two  spaces "], ["a <i>tag</i> & &lt;x&gt;"]),
        heatmap(rng.random((13, 13)), list("abcdefghijklm"), list("nopqrstuvwxyz"), looks=WEIGHTS),
        heatmap(rng.normal(size=(2, 3)), ["only one"], ["r1", "r2"]),  # labels that do not fit
        heatmap_grid(rng.random((2, 3, 4, 5)), "Keys", "Queries"),
        heatmap_grid(
            rng.random((1, 2, 2, 2)),
            "k",
            "q",
            GridSettings(titles=["left <b>one</b>", "right & two"], row_titles=["row"]),
        ),
        heatmap_grid(np.stack([np.full((1, 2, 2), -np.inf), rng.random((1, 2, 2))]), "k", "q"),
    ]
    rebuilt = [go.Figure(figure.figure.to_dict()) for figure in figures[:3]]  # typed arrays in z
    return figures + rebuilt


@pytest.mark.parametrize("index", range(len(_figures())))
def test_the_facts_are_those_of_the_earlier_reading(index):
    drawn = _figures()[index]  # a heatmap's facts are read from its dicts
    figure = drawn.figure if isinstance(drawn, DrawnFigure) else drawn
    assert chart_facts(drawn) == _reference_facts(figure)
    heatmaps = [trace for trace in figure.data if trace.type == "heatmap"]
    for trace in heatmaps:
        assert alt_text._labels(trace.to_plotly_json()) == _reference_labels(trace)
    chart_table(figure, "rows", "panel", "value")  # the table reads the same labels


@pytest.mark.parametrize(
    "text",
    [
        None,
        "",
        "plain",
        "  padded  ",
        "two  spaces",
        "a<br>b",
        "&amp;",
        "x & y",
        "1 < 2",
        "<b>",
        3.5,
        "日本語 <i>斜体</i>",
        "a&#x27;b",
        "line\nbreak",
        "   ",
    ],
)
def test_plain_text_as_before(text):
    assert plain(text) == _reference_plain(text)
