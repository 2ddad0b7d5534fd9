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
from dataclasses import dataclass

import plotly.graph_objects as go

from attention_ui.kit.figures.heatmap import CJK, DrawnFigure, level_row_title

_LINE_PX = 20  # one line of a 12-13 px annotation, with its padding
_CJK_CHAR_PX = 14


def level_y_titles(figure: go.Figure | DrawnFigure) -> go.Figure | DrawnFigure:
    """`figure` with each CJK y-axis title moved to a level annotation (in place; returned).
    A DrawnFigure's dicts are changed as they are (no go.Figure built)."""
    if isinstance(figure, DrawnFigure):
        _level_plain(figure.plain)
        return figure
    layout = figure.layout
    # in the axes' order (a layout's own order is not fixed: the same figure would give
    # different JSON from run to run, and the chart would be drawn again)
    for name in _y_axes(layout):
        axis = layout[name]
        text = axis.title.text if axis.title else None
        if not text or not CJK.search(text):
            continue
        axis_id = "y" + name[len("yaxis") :]
        axis.title.text = ""
        heatmap = any(
            trace.type == "heatmap" and (trace.yaxis or "y") == axis_id for trace in figure.data
        )
        place = _Place(text, axis_id, axis.anchor or "x", axis.domain, heatmap)
        note, margin = place.note(figure.layout.legend.to_plotly_json(), figure.layout.margin)
        figure.add_annotation(note)
        figure.update_layout(margin=margin)
    return figure


def _level_plain(spec: dict) -> None:
    """`level_y_titles` on plotly's plain dicts."""
    layout = spec["layout"]
    for name in _y_axes(layout):
        axis = layout[name]
        text = (axis.get("title") or {}).get("text")
        if not text or not CJK.search(text):
            continue
        axis_id = "y" + name[len("yaxis") :]
        axis["title"] = {**axis["title"], "text": ""}
        heatmap = any(
            trace.get("type") == "heatmap" and (trace.get("yaxis") or "y") == axis_id
            for trace in spec["data"]
        )
        place = _Place(text, axis_id, axis.get("anchor") or "x", axis.get("domain"), heatmap)
        margin = layout.get("margin", {})
        note, changed = place.note(
            layout.get("legend", {}), _Margin(margin.get("l"), margin.get("t"))
        )
        layout["annotations"] = [*layout.get("annotations", ()), note]
        layout["margin"] = {**margin, **changed}


def _y_axes(layout) -> list[str]:
    return sorted((key for key in layout if key.startswith("yaxis")), key=lambda k: (len(k), k))


@dataclass(frozen=True)
class _Margin:
    l: int | None  # noqa: E741 (plotly's name)
    t: int | None


@dataclass(frozen=True)
class _Place:
    """Where a y-axis title `text` (already made literal for plotly) goes, level."""

    text: str
    axis_id: str
    anchor: str
    domain: object
    heatmap: bool

    def note(self, legend: dict, margin) -> tuple[dict, dict]:
        """The annotation and the margins it needs (given the legend and margins so far)."""
        if self.heatmap:  # level in the top-left corner, left of the row labels
            return self._beside_rows(margin.l or 0)
        return self._above_plot(legend, margin.t)

    def _beside_rows(self, left: int) -> tuple[dict, dict]:
        # the axis title is already made literal for plotly; level_row_title makes it so again
        note = level_row_title(
            html.unescape(self.text), yref=f"{self.axis_id} domain", xref=f"{self.anchor} domain"
        )
        note["name"] = f"{self.axis_id} title"
        return note, {"l": max(left, _CJK_CHAR_PX * len(self.text) + 10)}

    def _above_plot(self, legend: dict, top: int | None) -> tuple[dict, dict]:
        at_top = self.domain is None or self.domain[1] >= 0.99
        legend_above = at_top and legend.get("orientation") == "h" and (legend.get("y") or 0) >= 1
        note = {
            "text": self.text,
            "x": 0,
            "xref": f"{self.anchor} domain",
            "xanchor": "left",
            "y": 1,
            "yref": f"{self.axis_id} domain",
            "yanchor": "bottom",
            "yshift": 4 + (_LINE_PX + 6 if legend_above else 0),
            "showarrow": False,
            "name": f"{self.axis_id} title",  # kit.figures.alt_text reads the title back from here
        }
        if not at_top:  # below the top, the gap between the panels holds the line
            return note, {}
        return note, {"t": (80 if top is None else top) + _LINE_PX * (2 if legend_above else 1)}
