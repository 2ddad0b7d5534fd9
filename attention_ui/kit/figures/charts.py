"""Drawing a Plotly figure: the one place every page's charts go through.

Each chart gets
- Plotly's camera button configured to save a PNG under a meaningful name (page, chart and
  settings, e.g. attention-explorer_luong_chart_A_dot_column.png) instead of 'newplot.png';
- a Japanese y-axis title written level, not on its side (kit.figures.level_titles);
- a text alternative: an accessible name and a short description (what it shows, its size, its
  largest entry), worded here from the figure's own numbers (kit.figures.alt_text), in the
  learner's language; Streamlit puts it on the chart as role="figure" with that aria-label;
- right under it, "Numbers as a table": a small fold (kit.folds) whose table is built only
  while it is open, with the very numbers the chart prints, in the app's one format.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from attention_core.formatting import fmt
from attention_ui.kit.export.names import file_name
from attention_ui.kit.figures.alt_text import ChartFacts, chart_facts, chart_table
from attention_ui.kit.figures.heatmap import BELOW_FLOOR, WEIGHT_FLOOR, DrawnFigure
from attention_ui.kit.figures.level_titles import level_y_titles
from attention_ui.kit.figures.live_chart import live_chart
from attention_ui.kit.folds import Fold, folded
from attention_ui.kit.text.i18n import t

TABLE_SUFFIX = ".numbers"  # the expander's widget key is the chart's key plus this


def chart_config(key: str, *details: object) -> dict[str, Any]:
    """Plotly's config for a chart drawn with widget key `key` (e.g. 'luong.chart.A'): the
    PNG is named after the key and `details` (settings such as the score; never user text).

    The mode bar keeps the camera alone: Plotly's default bar gave every chart 8 Tab stops
    (zoom, pan, box and lasso select, zoom in and out, autoscale, reset), which a keyboard
    learner crosses on each of a page's dozen charts and which small matrices do not need;
    dragging still zooms a line chart and a double click still resets it."""
    return {
        "toImageButtonOptions": {"format": "png", "filename": file_name(*key.split("."), *details)},
        "modeBarButtons": [["toImage"]],
        "displaylogo": False,
    }


def shareable(figure: go.Figure) -> DrawnFigure:
    """`figure`, finished, as a DrawnFigure for a cache that every session reads
    (st.cache_resource): its Japanese y-axis titles levelled now (show_chart would level them
    in place, on the shared object), its dicts read once through plotly's public
    `to_plotly_json`, and so its JSON and text alternative made once for every session. For
    figures on plotly's default template, which `DrawnFigure.drawn` adds back."""
    spec = level_y_titles(figure).to_plotly_json()
    layout = {name: value for name, value in spec["layout"].items() if name != "template"}
    return DrawnFigure({"data": spec["data"], "layout": layout})


def show_moving_chart(figure: go.Figure | DrawnFigure, alt: str, *, container: Any = None) -> None:
    """A chart redrawn while something runs (the training page's curves, a few times a second):
    no key, so each redraw updates the chart in place instead of making a new one; a static
    plot, so it takes no hover or focus meanwhile; no camera and no table, which the finished
    chart, drawn by `show_chart`, has."""
    where = container or st
    if isinstance(figure, DrawnFigure):
        # Streamlit validates a dict into a go.Figure, which adds plotly's default template
        # itself: the plain dicts (copied, as plotly pops each trace's type) draw the same
        # JSON as `drawn()`, whose template it would validate again on every redraw.
        figure = copy.deepcopy(figure.plain)
    where.plotly_chart(figure, config={"staticPlot": True}, alt=alt)


def show_chart(
    figure: go.Figure | DrawnFigure,
    key: str,
    *,
    details: tuple = (),
    container: Any = None,
    name: str = "",
    table: bool = True,
) -> None:
    """The chart (kit.figures.live_chart: redrawn in place by a later run with the same key,
    in `container`, else the current one) with the camera button's file
    name set from `key` and `details` (see `chart_config`), the chart's text alternative
    (named `name`, else after the figure's title, else after what it plots) and, with
    `table`, its numbers as a table on request: a fold under it, keyed `numbers_key(key)`.
    (A page that reruns the chart alone on an edit draws that fold itself, outside the chart's
    fragment, so that the edit does not send it again: `numbers_fold`, filled with
    `chart_numbers`.)"""
    where = container or st
    facts = _facts(figure)
    own = name or facts.title
    description = chart_description(facts)
    name = own or chart_name(facts)
    if own and description:
        description = t("figures.alt.named", name=own, description=description)
    live_chart(
        figure,
        key,
        config=chart_config(key, *details),
        alt=description or name,
        container=container,
    )
    if not table or facts.kind == "other":
        return
    box = numbers_fold(key, where=where)
    if box.open:
        with box.box:
            _numbers(figure, facts, name)


def numbers_key(key: str) -> str:
    """The widget key of the numbers' fold under the chart keyed `key` (True while open)."""
    return key + TABLE_SUFFIX


def numbers_fold(key: str, *, where: Any = None) -> Fold:
    """The fold under the chart keyed `key` that holds its numbers as a table (keyed
    `numbers_key(key)`; built only while open): show_chart's, or the one a page draws itself."""
    return folded(t("figures.table.label"), key=numbers_key(key), where=where, compact=True)


def chart_numbers(figure: go.Figure | DrawnFigure, *, name: str = "") -> None:
    """The chart's numbers as a table in the current container, as show_chart's fold holds
    them: for the fold a page draws itself (show_chart's `table=False`)."""
    facts = _facts(figure)
    _numbers(figure, facts, name or facts.title or chart_name(facts))


def _facts(figure: go.Figure | DrawnFigure) -> ChartFacts:
    if isinstance(figure, DrawnFigure):  # a matrix heatmap writes its row title level itself
        return figure.facts(chart_facts)
    return chart_facts(level_y_titles(figure))


def _numbers(figure: go.Figure | DrawnFigure, facts: ChartFacts, name: str) -> None:
    table = chart_table(
        figure, t("figures.alt.rows"), t("figures.table.panel"), t("figures.table.value")
    )
    named = facts.kind == "xy" and len(facts.series) > 1
    if named:
        table = table.rename(columns={table.columns[0]: t("figures.table.series")})
    numbers = table.columns[1:] if named else table.columns
    st.dataframe(
        table,
        alt=t("figures.table.alt", name=name),
        hide_index=facts.kind == "xy",  # points are numbered 0, 1, … there: not the chart's
        # numbers right-aligned, so that their digits line up as in a printed table
        column_config={c: st.column_config.TextColumn(alignment="right") for c in numbers},
    )


def below_floor_note(weights: np.ndarray) -> str:
    """What "<0.01" on a weights heatmap's cell means, when one of `weights` is printed so
    (above 0, below WEIGHT_FLOOR); else ""."""
    weights = np.asarray(weights, dtype=float)
    if not ((weights > 0) & (weights < WEIGHT_FLOOR)).any():
        return ""
    return t("figures.cells.below_floor", floor=fmt(WEIGHT_FLOOR), below=BELOW_FLOOR)


def chart_name(facts: ChartFacts) -> str:
    """A name for a chart that has none of its own: what it plots."""
    rows_title, cols_title = _axes(facts)
    if facts.kind == "heatmap":
        return t("figures.alt.heatmap_name", rows_title=rows_title, cols_title=cols_title)
    return t("figures.alt.xy_name", y_title=facts.y_title or "y", x_title=facts.x_title or "x")


def _axes(facts: ChartFacts) -> tuple[str, str]:
    return facts.y_title or t("figures.alt.rows"), facts.x_title or t("figures.alt.cols")


def chart_description(facts: ChartFacts) -> str:
    """Kind, size and largest entry in one sentence, from the chart's numbers ("" for a
    chart that is neither a heatmap nor lines and bars)."""
    if facts.kind == "heatmap":
        rows_title, cols_title = _axes(facts)
        words = {
            "rows": facts.size[0],
            "cols": facts.size[1],
            "rows_title": rows_title,
            "cols_title": cols_title,
        }
        if not facts.largest:
            return t("figures.alt.heatmap_blank", **words)
        row, col = facts.where
        many = facts.panels > 1
        return t(
            "figures.alt.heatmaps" if many else "figures.alt.heatmap",
            **words,
            panels=facts.panels,
            panel=facts.panel,
            value=facts.largest,
            row=row,
            col=col,
        )
    if facts.kind == "xy":
        points, count = facts.size
        words = {"points": points, "y_title": facts.y_title or "y"}
        words["x_title"] = facts.x_title or "x"
        if not facts.largest:
            return t("figures.alt.xy_blank", **words)
        series, x = facts.where
        if count == 1:
            return t("figures.alt.xy_one", **words, value=facts.largest, x=x)
        names = t("figures.alt.separator").join(
            s or t("figures.alt.unnamed_series") for s in facts.series
        )
        series = series or t("figures.alt.unnamed_series")
        return t(
            "figures.alt.xy_many",
            **words,
            count=count,
            names=names,
            value=facts.largest,
            series=series,
            x=x,
        )
    return ""
