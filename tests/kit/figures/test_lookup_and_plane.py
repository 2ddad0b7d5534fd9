"""Figures of the lookup and of the plane: numbers from the engine, names as plain text."""

import numpy as np
import plotly.graph_objects as go

from attention_core import lookup
from attention_core.formatting import fmt
from attention_core.geometry import cone
from attention_core.lookup import lookup_many
from attention_ui.kit.figures.heatmap import plotly_text
from attention_ui.kit.figures.lookup import (
    BEST_COLOUR,
    OTHER_COLOUR,
    LookupCaptions,
    distribution_bar,
    record_labels,
    weight_formula,
    weights_bar,
    weights_heatmap,
)
from attention_ui.kit.figures.plane import PlaneCaptions, PlaneScene, plane_figure, view_box
from attention_ui.kit.grids.records_editor import D2L_RECORDS, check_records


def trace_named(figure: go.Figure, name: str) -> go.Scatter | None:
    """The trace with this (escaped) legend name, of a figure the tests build."""
    wanted = plotly_text(name)
    return next((trace for trace in figure.data if trace.name == wanted), None)


WITHOUT_LI = [r for r in D2L_RECORDS if r[0] != "Li"]
EN = LookupCaptions()  # the captions' English defaults, passed as the page passes its words


def test_weights_bar_draws_the_engines_weights_and_marks_the_best():
    result = lookup(WITHOUT_LI, "Li", "ngram", 0.1)
    bar = weights_bar(result, 0.1, "softmax", captions=EN).data[0]
    np.testing.assert_allclose(np.array(bar.y, dtype=float), result.weights)
    assert list(bar.x) == ["1 · Zhang", "2 · Lipton", "3 · Smola", "4 · Hu", "5 · Werness"]
    assert list(bar.marker.color) == [OTHER_COLOUR, BEST_COLOUR] + [OTHER_COLOUR] * 3
    assert bar.text[1] == f"{fmt(result.weights[1])}<br>(best)"  # its own line: legible on a phone


def test_hover_spells_out_the_similarity_and_the_weight():
    result = lookup(WITHOUT_LI, "Li", "ngram", 0.1)
    hover = weights_bar(result, 0.1, "softmax", captions=EN).data[0].customdata[1]
    assert "|{⟨l, li}| / |P(q) ∪ P(k)| = 2 / 8 = 0.25" in hover
    assert "exp(0.25/0.1) / Σⱼ exp(aⱼ/0.1) = 0.753" in hover


def test_weight_formula_follows_the_normalization():
    result = lookup(WITHOUT_LI, "Li", "edit", 2.0, "sum")
    assert weight_formula(result, 1, 2.0, "sum", EN).startswith("α = 0.333^(1/2)")
    exact = lookup(D2L_RECORDS, "Li", "exact")
    assert "exact" in weight_formula(exact, 2, 1.0, "softmax", EN)


def test_duplicate_keys_stay_separate_bars_labelled_by_row():
    records = [("Li", "Mu"), ("Li", "Ming")]
    result = lookup(records, "Li", "exact")
    assert record_labels(result, [3, 7]) == ["3 · Li", "7 · Li"]
    assert list(weights_bar(result, 1, "softmax", captions=EN).data[0].y) == [0.5, 0.5]


def test_distribution_sums_the_weight_of_each_first_name():
    records = [("Li", "Mu"), ("Lipton", "Mu"), ("Hu", "Rachel")]
    result = lookup(records, "Li", "ngram", 1.0)
    bar = distribution_bar(result, captions=EN).data[0]
    assert list(bar.x) == ["Mu", "Rachel"]
    np.testing.assert_allclose(
        np.array(bar.y, dtype=float), [result.weights[0] + result.weights[1], result.weights[2]]
    )
    assert "α1 + α2" in bar.customdata[0]


def test_names_with_html_are_escaped_everywhere():
    records = [("<script>alert(1)</script>", "<img src=x onerror=alert(1)>")]
    result = lookup(records, "<script>alert(1)</script>", "exact")
    figures = [
        weights_bar(result, 1, "softmax", captions=EN),
        distribution_bar(result, captions=EN),
        weights_heatmap(lookup_many(records, ["<b>x</b>"], "ngram"), 1, "softmax", captions=EN),
    ]
    for figure in figures:
        text = figure.to_json()
        assert "<script>" not in text and "<img" not in text and "<b>x" not in text


def test_heatmap_rows_are_queries_and_columns_records():
    table = lookup_many(D2L_RECORDS, ["Li", "Hu"], "edit", 0.5)
    trace = weights_heatmap(table, 0.5, "softmax", captions=EN).figure.data[0]
    np.testing.assert_allclose(np.array(trace.z, dtype=float), table.weights)
    assert list(trace.y) == ["q1 · Li", "q2 · Hu"]
    assert len(trace.x) == 6


def test_long_names_are_cut_in_labels():
    result = lookup([("X" * 10_000, "Y" * 10_000)], "X", "ngram")
    assert len(weights_bar(result, 1, "softmax", captions=EN).data[0].x[0]) < 40


def test_records_check_names_rows_cuts_long_names_and_skips_blank_rows():
    checked = check_records(
        [
            ("Li", "Mu", 1.0),
            ("", "", None),
            ("", "Ann", None),
            ("K" * 150, "V", float("inf")),
            ("Li", "Ming", None),
        ]
    )
    assert checked.rows == [1, 4, 5]
    assert checked.records[1][0] == "K" * 100 and checked.records[1][2] is None
    assert len(checked.problems) == 3  # row 3 without a key, row 4 too long, row 4's number
    assert "Row 3" in checked.problems[0] and "Row 4" in checked.problems[1]
    assert checked.duplicates == ["Li"]
    assert checked.missing_numbers == [4, 5]


def test_plane_figure_draws_values_hull_cone_and_the_output():
    values = np.array([[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]])
    output = np.array([1.2, 1.3])
    scene = PlaneScene(
        values, output, weights=[0.2, 0.3, 0.5], cone=cone(values), query=np.array([1.0, 1.0])
    )
    figure = plane_figure(scene, box=view_box(values), captions=PlaneCaptions())
    assert trace_named(figure, "convex hull of the values").fill == "toself"
    assert trace_named(figure, "cone of the values").fill == "toself"
    assert list(trace_named(figure, "output Σ αᵢ vᵢ").x) == [1.2]
    labels = list(trace_named(figure, "values vᵢ").text)
    assert labels == ["v1<br>α=0.2", "v2<br>α=0.3", "v3<br>α=0.5"]
    assert figure.layout.yaxis.scaleanchor == "x"  # equal scales, so the cone looks right


def test_view_box_holds_every_point_and_the_origin():
    x0, x1, y0, y1 = view_box(np.array([[3.0, 4.0]]), np.array([[-1.0, 0.5]]))
    assert x0 < -1 and x1 > 3 and y0 < 0 and y1 > 4
    assert np.isclose(x1 - x0, y1 - y0)
