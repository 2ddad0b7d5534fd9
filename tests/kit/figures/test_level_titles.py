"""kit.figures.level_titles: a Japanese y-axis title becomes a level note (over a line chart:
above the plot's top-left corner, the top margin one line taller; beside a grid of heatmaps:
left of its top row); English titles stay; the alt text and the numbers table still name it."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attention_ui.kit.figures.alt_text import chart_facts, chart_table
from attention_ui.kit.figures.grid import heatmap_grid
from attention_ui.kit.figures.level_titles import level_y_titles


def line(y_title: str) -> go.Figure:
    figure = go.Figure(go.Scatter(x=[1, 2, 3], y=[0.2, 0.5, 0.3], name="p"))
    figure.update_layout(margin={"t": 30}, yaxis_title=y_title, xaxis_title="σ")
    return figure


def test_a_japanese_title_is_written_level_above_the_plot():
    figure = level_y_titles(line("重み &lt;α&gt;"))
    assert figure.layout.yaxis.title.text == ""
    (note,) = figure.layout.annotations
    assert (note.text, note.textangle, note.xanchor, note.yanchor) == (
        "重み &lt;α&gt;",
        None,
        "left",
        "bottom",
    )
    assert (note.xref, note.yref, note.y) == ("x domain", "y domain", 1)
    assert figure.layout.margin.t == 50
    assert chart_facts(figure).y_title == "重み <α>"
    assert list(chart_table(figure, "r", "p", "v").columns) == ["σ", "重み <α>"]
    level_y_titles(figure)  # once is enough: nothing more moves, no margin grows again
    assert len(figure.layout.annotations) == 1 and figure.layout.margin.t == 50


def test_an_english_title_stays_on_the_axis():
    figure = level_y_titles(line("weight"))
    assert figure.layout.yaxis.title.text == "weight" and not figure.layout.annotations
    assert figure.layout.margin.t == 30


def test_a_lower_panels_title_sits_in_the_gap_above_it_and_a_legend_above_is_cleared():
    figure = make_subplots(rows=2, cols=1, vertical_spacing=0.06)
    figure.add_trace(go.Scatter(y=[1, 2]), row=1, col=1)
    figure.add_trace(go.Bar(y=[0.3, 0.7]), row=2, col=1)
    figure.update_yaxes(title_text="y", row=1, col=1)
    figure.update_yaxes(title_text="重み", row=2, col=1)
    figure.update_layout(margin={"t": 30}, legend={"orientation": "h", "y": 1.02})
    level_y_titles(figure)
    (note,) = figure.layout.annotations
    assert (note.xref, note.yref, note.text) == ("x2 domain", "y2 domain", "重み")
    assert figure.layout.margin.t == 30  # the top panel's title is not Japanese
    loo = line("一つ抜きの二乗誤差")
    loo.update_layout(legend={"orientation": "h", "y": 1.02, "yanchor": "bottom"})
    level_y_titles(loo)
    assert loo.layout.annotations[0].yshift > 20 and loo.layout.margin.t == 70  # over the legend


def test_a_heatmap_grids_row_title_goes_left_of_its_top_row():
    figure = level_y_titles(heatmap_grid(np.full((2, 2, 2, 2), 0.5), "キー", "クエリ"))
    notes = [a for a in figure.layout.annotations if a.text == "クエリ"]
    assert [(a.xanchor, a.yanchor, a.xref) for a in notes] == [
        ("right", "bottom", "x domain"),  # each row's first column: x, then x3
        ("right", "bottom", "x3 domain"),
    ]
    assert figure.layout.margin.l >= 3 * 14
    assert not [a for a in figure.select_yaxes() if a.title.text]
