"""Japanese (CJK) y-axis titles written level, as Japanese is read.

Plotly turns every y-axis title on its side and has no setting to keep it level; a Japanese
title on its side ("重み", "一つ抜きの二乗誤差") reads as a column of tipped characters. Each such
title becomes a level annotation instead:
- over a line or bar chart: just above the plot's top-left corner, where a reader looks for
  what the values are (the top margin grows by one line, above a legend placed there);
- beside a heatmap: level in the top-left corner, left of the row labels (as
  `heatmap_layout` writes a matrix's row title), the left margin wide enough for it.
English titles stay as plotly draws them. A pure function of the figure; applying it twice
changes nothing more (a title moved is no longer an axis title).
"""

from __future__ import annotations

import html

import plotly.graph_objects as go

from attention_ui.kit.figures.heatmap import CJK, level_row_title

_LINE_PX = 20  # one line of a 12-13 px annotation, with its padding
_CJK_CHAR_PX = 14


def level_y_titles(figure: go.Figure) -> go.Figure:
    """`figure` with each CJK y-axis title moved to a level annotation (in place; returned)."""
    layout = figure.layout
    # in the axes' order (a layout's own order is not fixed: the same figure would give
    # different JSON from run to run, and the chart would be drawn again)
    names = sorted((key for key in layout if key.startswith("yaxis")), key=lambda k: (len(k), k))
    for name in names:
        axis = layout[name]
        text = axis.title.text if axis.title else None
        if not text or not CJK.search(text):
            continue
        axis_id = "y" + name[len("yaxis") :]
        axis.title.text = ""
        if _draws_heatmap(figure, axis_id):
            _beside_rows(figure, text, axis_id, axis.anchor or "x")
        else:
            _above_plot(figure, text, axis_id, axis.anchor or "x", axis.domain)
    return figure


def _draws_heatmap(figure: go.Figure, axis_id: str) -> bool:
    return any(trace.type == "heatmap" and (trace.yaxis or "y") == axis_id for trace in figure.data)


def _beside_rows(figure: go.Figure, text: str, axis_id: str, anchor: str) -> None:
    # the axis title is already made literal for plotly; level_row_title makes it so again
    note = level_row_title(html.unescape(text), yref=f"{axis_id} domain", xref=f"{anchor} domain")
    figure.add_annotation(note, name=f"{axis_id} title")
    left = figure.layout.margin.l or 0
    figure.layout.margin.l = max(left, _CJK_CHAR_PX * len(text) + 10)


def _above_plot(figure: go.Figure, text: str, axis_id: str, anchor: str, domain) -> None:
    at_top = domain is None or domain[1] >= 0.99
    legend = figure.layout.legend
    legend_above = at_top and legend.orientation == "h" and (legend.y or 0) >= 1
    figure.add_annotation(
        text=text,
        x=0,
        xref=f"{anchor} domain",
        xanchor="left",
        y=1,
        yref=f"{axis_id} domain",
        yanchor="bottom",
        yshift=4 + (_LINE_PX + 6 if legend_above else 0),
        showarrow=False,
        name=f"{axis_id} title",  # kit.figures.alt_text reads the title back from here
    )
    if at_top:  # below the top, the gap between the panels holds the line
        top = figure.layout.margin.t
        figure.layout.margin.t = (80 if top is None else top) + _LINE_PX * (
            2 if legend_above else 1
        )
