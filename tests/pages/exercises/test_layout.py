"""What the exercises page's charts and grids look like, as AppTest and the figure builders
see it: nothing printed over something else, every grid titled, letter pairs as text."""

from __future__ import annotations

import numpy as np

from attention_ui.exercises import state
from attention_ui.exercises.figures import shared_labels, sides_away_from
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


def test_the_weights_per_step_print_numbers_only_while_they_fit():
    at = open_exercise("en", "search")  # 30 steps: 31 columns in half the page
    assert "texttemplate" not in chart(at, "exercises.chart.search_weights")["data"][0]
    at.number_input(key=state.SEARCH_STEPS).set_value(5).run()
    assert chart(at, "exercises.chart.search_weights")["data"][0]["texttemplate"] == "%{text}"


def test_letter_pairs_read_as_pairs_not_as_a_python_list():
    at = open_exercise("en", "search")
    at.radio(key=state.SEARCH_SOURCE).set_value("names").run()
    caption = next(c.value for c in at.caption if "letter pairs (" in c.value)
    assert caption.endswith(": ␣h · ␣l · ␣s · ␣w · ␣z · a␣ · an · er · es · g␣ · ha · hu")


def test_names_drawn_at_one_point_share_one_label_in_the_names_plane():
    at = open_exercise("en", "search")
    at.radio(key=state.SEARCH_SOURCE).set_value("names").run()
    texts = chart(at, "exercises.chart.search")["data"][0]["text"]
    assert "Zhang, Smola" in texts and "" in texts  # the d2l table's two overlapping names
    assert texts.count("Lipton") == 1


def test_coinciding_points_share_a_label_and_labels_avoid_the_path():
    points = np.array([[0.0, 0.0], [0.001, 0.0], [1.0, 1.0]])
    box = (-1.0, 2.0, -1.0, 2.0)
    assert shared_labels(points, ["a", "b", "c"], box) == ["a, b", "", "c"]
    path = np.array([[1.0, 1.5], [1.0, 1.2], [1.0, 1.05]])  # arrives at c from above
    assert sides_away_from(points, path, box) == ["top center", "top center", "bottom center"]
