"""What the exercises page's charts and grids look like, as AppTest and the figure builders
see it: nothing printed over something else, every grid titled, letter pairs as text."""

from __future__ import annotations

import numpy as np

from attention_ui.exercises import state
from attention_ui.exercises.figures import STEP_ROW_PX, shared_labels, sides_away_from
from attention_ui.kit.text.i18n import catalog
from tests.plotly_json import chart
from tests.support.exercises import open_exercise


def test_exercise_4_titles_its_three_grids_in_both_languages():
    for lang in ("en", "ja"):
        at = open_exercise(lang, "se")
        words = catalog(lang)
        shown = [m.value for m in at.markdown]
        for name, size in (("X", (3, 4)), ("W1", (2, 3)), ("W2", (3, 2))):
            title = words[f"exercises.se.grid.{name}"].format(rows=size[0], cols=size[1])
            assert title in shown, (lang, name)


def test_every_weight_per_step_prints_its_number_one_row_per_step():
    """31 steps across half the page left cells of about 12 px, too narrow for any number, so
    colour alone carried them: one row per step (22 px) and one column per record, every cell
    printing its number; with more steps than fit, the caption names the table instead."""
    at = open_exercise("en", "search")  # 30 steps: 31 rows, 4 records across
    spec = chart(at, "exercises.chart.search_weights")
    trace = spec["data"][0]
    assert trace["texttemplate"] == "%{text}"
    assert trace["y"] == [str(j) for j in range(31)] and len(trace["x"]) == 4
    weights = np.asarray(trace["z"], dtype=float)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0)  # each step's weights, one row
    assert max(len(cell) for row in trace["text"] for cell in row) <= len("0.0116")
    margin = spec["layout"]["margin"]
    assert spec["layout"]["height"] - margin["t"] - margin["b"] <= 31 * STEP_ROW_PX + 8
    many = catalog("en")["exercises.search.weights_many"]
    assert many not in [c.value for c in at.caption]
    at.number_input(key=state.SEARCH_STEPS.key).set_value(80).run()
    assert "texttemplate" not in chart(at, "exercises.chart.search_weights")["data"][0]
    assert many in [c.value for c in at.caption]


def test_letter_pairs_read_as_pairs_not_as_a_python_list():
    at = open_exercise("en", "search")
    at.radio(key=state.SEARCH_SOURCE.key).set_value("names").run()
    caption = next(c.value for c in at.caption if "letter pairs (" in c.value)
    assert caption.endswith(": ␣h · ␣l · ␣s · ␣w · ␣z · a␣ · an · er · es · g␣ · ha · hu")


def test_names_drawn_at_one_point_share_one_label_in_the_names_plane():
    at = open_exercise("en", "search")
    at.radio(key=state.SEARCH_SOURCE.key).set_value("names").run()
    texts = chart(at, "exercises.chart.search")["data"][0]["text"]
    assert "Zhang, Smola" in texts and "" in texts  # the d2l table's two overlapping names
    assert texts.count("Lipton") == 1


def test_coinciding_points_share_a_label_and_labels_avoid_the_path():
    points = np.array([[0.0, 0.0], [0.001, 0.0], [1.0, 1.0]])
    box = (-1.0, 2.0, -1.0, 2.0)
    assert shared_labels(points, ["a", "b", "c"], box) == ["a, b", "", "c"]
    path = np.array([[1.0, 1.5], [1.0, 1.2], [1.0, 1.05]])  # arrives at c from above
    assert sides_away_from(points, path, box) == ["top center", "top center", "bottom center"]
