"""A chart's text alternative and table come from the figure's own traces: its size, its largest
entry and every number as the chart prints it (attention_core.fmt), labels as the user typed
them."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attention_core.formatting import fmt
from attention_ui.kit.figures.alt_text import chart_facts, chart_table
from attention_ui.kit.figures.grid import GridSettings, heatmap_grid
from attention_ui.kit.figures.heatmap import DrawnFigure, Titles, heatmap

WORDS = ("rows", "panel", "value")


def test_a_heatmap_states_its_size_and_largest_entry_where_it_is():
    values = np.array([[0.25, -1.5, 3.0], [7.123456, 0.0, -np.inf]])
    figure = heatmap(values, ["k1", "k2", "k3"], ["q1", "q2"], Titles("S", "key"))
    facts = chart_facts(figure)
    assert (facts.kind, facts.title, facts.size, facts.panels) == ("heatmap", "S", (2, 3), 1)
    assert facts.largest == fmt(7.123456) == "7.12"
    assert facts.where == ("q2", "k1")
    assert facts.x_title == "key"


def test_the_table_holds_what_each_cell_prints_masked_scores_included():
    values = np.array([[0.25, -1.5], [1e-17, -np.inf]])
    table = chart_table(heatmap(values, ["k1", "k2"], ["q1", "q2"], Titles(y="query")), *WORDS)
    assert table.index.name == "query"
    assert list(table.columns) == ["k1", "k2"]
    assert table.values.tolist() == [[fmt(0.25), fmt(-1.5)], [fmt(1e-17), "−∞"]]


def test_every_entry_masked_says_so_instead_of_a_largest_entry():
    facts = chart_facts(heatmap(np.full((2, 2), -np.inf), ["a", "b"], ["c", "d"]))
    assert facts.largest == "" and facts.size == (2, 2)


def test_labels_come_back_as_typed_not_as_plotly_markup():
    figure = heatmap(np.eye(2), ["<b>k</b>", "a & b"], ["q1", "q2"], Titles("<i>S</i>"))
    facts = chart_facts(figure)
    assert facts.title == "<i>S</i>"
    assert list(chart_table(figure, *WORDS).columns) == ["<b>k</b>", "a & b"]


def test_a_japanese_row_title_written_level_is_still_the_rows_title():
    figure = heatmap(np.eye(2), ["a", "b"], ["c", "d"], Titles(x="キー", y="クエリ"))
    assert (chart_facts(figure).x_title, chart_facts(figure).y_title) == ("キー", "クエリ")


def test_a_grid_of_heatmaps_names_the_panel_of_its_largest_entry():
    matrices = np.zeros((2, 3, 2, 2))
    matrices[1, 2, 0, 1] = 0.9
    settings = GridSettings(titles=["τ = 1", "τ = 2", "τ = 4"], row_titles=["a", "b"])
    figure = heatmap_grid(matrices, "Keys", "Queries", settings)
    facts = chart_facts(figure)
    assert (facts.panels, facts.size, facts.largest) == (6, (2, 2), "0.9")
    assert facts.panel == "τ = 4 · b"
    assert facts.where == ("1", "2")
    table = chart_table(figure, *WORDS)
    assert table.shape == (12, 2)
    assert table.loc[("τ = 4 · b", "1"), "2"] == "0.9"


def test_lines_and_bars_give_one_row_per_point_and_the_largest_on_the_first_axis():
    figure = go.Figure(
        [
            go.Scatter(x=[0.5, 1.0, 1.5], y=[2.0, 3.25, -1.0], name="ŷ"),
            go.Bar(x=[0.5, 1.0], y=[9.0, 1.0], name="α", yaxis="y2"),
        ]
    )
    figure.update_layout(xaxis_title="x", yaxis_title="y", yaxis2={"overlaying": "y"})
    facts = chart_facts(figure)
    assert (facts.kind, facts.size, facts.series) == ("xy", (3, 2), ("ŷ", "α"))
    assert (facts.largest, facts.where) == ("3.25", ("ŷ", "1"))  # α's 9 is on the other axis
    table = chart_table(figure, *WORDS)
    assert table.values.tolist() == [
        ["ŷ", "0.5", "2"],
        ["ŷ", "1", "3.25"],
        ["ŷ", "1.5", "−1"],
        ["α", "0.5", "9"],
        ["α", "1", "1"],
    ]


def test_a_bar_chart_of_categories_keeps_its_labels():
    figure = go.Figure(go.Bar(x=["Li · 1", "Wang · 2"], y=[0.25, 0.75]))
    figure.update_layout(yaxis_title="weight")
    facts = chart_facts(figure)
    assert (facts.largest, facts.where) == ("0.75", ("", "Wang · 2"))
    assert chart_table(figure, *WORDS).values.tolist() == [["Li · 1", "0.25"], ["Wang · 2", "0.75"]]


def test_a_figure_rebuilt_from_another_reads_the_same():
    """go.Figure(figure.to_dict()) holds its arrays in plotly's base64 form (pages copy figures
    that way to change them)."""
    values = np.array([[0.5, 2.0], [-1.0, np.nan]])
    figure = heatmap(values, ["a", "b"], ["c", "d"])
    line = go.Figure(go.Scatter(x=np.array([0.0, 1.0]), y=np.array([3.0, 4.0])))
    for original in (figure, line):
        source = original.figure if isinstance(original, DrawnFigure) else original
        copy = go.Figure(source.to_dict())
        assert chart_facts(copy) == chart_facts(original)
        assert chart_table(copy, *WORDS).equals(chart_table(original, *WORDS))
