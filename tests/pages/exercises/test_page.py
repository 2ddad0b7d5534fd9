"""The exercises page: every number it shows is the engine's on the same inputs, in English and
Japanese, and bad input (a zero or huge learning rate, 10⁴ steps, an empty feature map, a
cleared cell) gets a message and bounded work instead of a traceback."""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import query_gradient
from attention_core.formatting import fmt
from attention_core.gradient import weighted_covariance
from attention_core.search import MAX_SEARCH_STEPS, gradient_search
from attention_core.squeeze_excitation import squeeze_excitation
from attention_ui.exercises import state
from attention_ui.kit.grids.matrix_editor import matrix_values
from attention_ui.kit.text.i18n import catalog
from tests.plotly_json import chart
from tests.support.exercises import open_exercise
from tests.support.grids import edit_grid

FIRST_QUADRANT = np.array([[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]])


def texts(at: AppTest) -> str:
    return "\n".join(
        e.value for kind in (at.markdown, at.warning, at.error, at.info, at.success) for e in kind
    )


def heatmap_values(at: AppTest, key: str) -> np.ndarray:
    return np.asarray(chart(at, key)["data"][0]["z"], dtype=float)


def test_the_jacobian_and_the_covariance_shown_are_the_engines_and_agree():
    at = open_exercise(section="grad")
    g = query_gradient([1.0, 0.5], FIRST_QUADRANT.T, FIRST_QUADRANT.T)
    np.testing.assert_allclose(heatmap_values(at, "exercises.chart.jacobian"), g.jacobian)
    np.testing.assert_allclose(
        heatmap_values(at, "exercises.chart.covariance"),
        weighted_covariance(FIRST_QUADRANT.T, g.weights),
    )
    assert f"‖∂o/∂q‖ = **{fmt(g.norm)}**" in texts(at)
    assert not at.warning  # a live gradient: no "numerically gone"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_one_huge_score_prints_a_tiny_nonzero_norm_and_says_it_is_numerically_gone(lang):
    at = open_exercise(lang, "grad")
    at.button(key="exercises.grad.huge").click().run()
    assert not at.exception
    g = query_gradient([10.0, 0.0], state.HUGE_POINTS.T, state.HUGE_POINTS.T)
    assert 0 < g.norm < 1e-15
    assert fmt(g.norm) in texts(at)
    gone = catalog(lang)["exercises.grad.gone"].split("{")[0]
    assert any(w.value.startswith(gone) for w in at.warning)


def test_lowering_tau_sharpens_the_weights_and_scales_the_jacobian():
    at = open_exercise(section="grad")
    at.slider(key=state.GRAD_TAU.key).set_value(0.5).run()
    g = query_gradient([1.0, 0.5], FIRST_QUADRANT.T, FIRST_QUADRANT.T, temperature=0.5)
    np.testing.assert_allclose(heatmap_values(at, "exercises.chart.jacobian"), g.jacobian)
    np.testing.assert_allclose(
        heatmap_values(at, "exercises.chart.covariance"),
        weighted_covariance(FIRST_QUADRANT.T, g.weights) / 0.5,
    )


def test_the_search_path_and_loss_curve_are_the_engines_descent():
    at = open_exercise(section="search")
    keys = state.MATRICES[state.SEARCH_KEYS].T
    path = gradient_search([-1.0, -1.0], keys, 1, learning_rate=0.5, steps=30)
    loss = chart(at, "exercises.chart.loss")["data"][0]
    np.testing.assert_allclose(np.asarray(loss["y"], dtype=float), path.losses)
    # one row per step, one column per record
    np.testing.assert_allclose(heatmap_values(at, "exercises.chart.search_weights"), path.weights)
    assert np.all(np.diff(path.losses) < 0)
    shown = texts(at)
    assert catalog("en")["exercises.search.found"].format(target="r2") in shown
    assert "(0, 0)" in shown  # the hard lookup's gradient


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_hard_lookups_formula_speaks_the_learners_language(lang):
    """Its words ("otherwise", "or undefined") come from the catalog, not English only."""
    at = open_exercise(lang, "search")
    formulas = " ".join(latex.value for latex in at.latex)
    words = catalog(lang)
    for key in ("exercises.search.hard_otherwise", "exercises.search.hard_undefined"):
        assert words[key] in formulas
    if lang == "ja":
        assert "otherwise" not in formulas and "undefined" not in formulas


def test_names_become_letter_pair_keys_and_the_search_finds_the_target():
    at = open_exercise(section="search")
    at.radio(key=state.SEARCH_SOURCE.key).set_value("names").run()
    assert not at.exception
    assert any("letter pairs (␣ is a space):" in c.value for c in at.caption)
    loss = np.asarray(chart(at, "exercises.chart.loss")["data"][0]["y"], dtype=float)
    assert loss[-1] < loss[0]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_bad_search_settings_get_a_message_and_bounded_work(lang):
    at = open_exercise(lang, "search")
    at.session_state[state.SEARCH_RATE.key] = 0.0
    at.run()
    assert not at.exception
    errors = "\n".join(e.value for e in at.error)
    assert ("learning rate" in errors) if lang == "en" else ("学習率" in errors)
    at.session_state[state.SEARCH_RATE.key] = 1e6
    at.run()
    assert not at.exception and len(at.error) == 1
    at.session_state[state.SEARCH_RATE.key] = 0.5
    at.session_state[state.SEARCH_STEPS.key] = 10_000
    at.run()
    assert not at.exception
    capped = catalog(lang)["exercises.search.capped"].format(requested=10_000, cap=MAX_SEARCH_STEPS)
    assert capped in [w.value for w in at.warning]
    losses = chart(at, "exercises.chart.loss")["data"][0]["y"]
    assert len(losses) == MAX_SEARCH_STEPS + 1


def test_the_se_steps_and_gates_are_the_engines():
    at = open_exercise(section="se")
    X, W1, W2 = (state.MATRICES[k] for k in (state.SE_X, state.SE_W1, state.SE_W2))
    se = squeeze_excitation(X, W1, W2)
    soft = squeeze_excitation(X, W1, W2, gate="softmax")
    np.testing.assert_allclose(heatmap_values(at, "exercises.chart.se_squeeze")[:, 0], se.squeezed)
    np.testing.assert_allclose(heatmap_values(at, "exercises.chart.se_scale"), se.output)
    bars = chart(at, "exercises.chart.gates")["data"]
    np.testing.assert_allclose(np.asarray(bars[0]["y"], dtype=float), se.gates)
    np.testing.assert_allclose(np.asarray(bars[1]["y"], dtype=float), soft.gates)
    shown = texts(at)
    assert f"**{fmt(se.gate_sum)}**" in shown
    assert catalog("en")["exercises.se.no_sum"] in shown  # the sigmoid gates do not sum to 1


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_empty_feature_map_and_a_cleared_cell_are_named(lang):
    at = open_exercise(lang, "se")
    edit_grid(at, state.SE_X, {1: {"p2": None}})
    at.run()
    assert not at.exception
    errors = "\n".join(e.value for e in at.error)
    assert "X" in errors and "c2" in errors and "p2" in errors
    at.session_state[state.SE_CHANNELS.key] = 0
    at.run()
    assert not at.exception
    errors = "\n".join(e.value for e in at.error)
    assert ("X is empty" in errors) if lang == "en" else ("X が空です" in errors)
    at.session_state[state.SE_CHANNELS.key] = 99  # a crafted value past the browser's max
    at.run()
    assert not at.exception
    assert len(matrix_values(state.SE_X, at.session_state)) <= state.MAX_CHANNELS


def test_exercise_one_ranks_the_closest_name_first_and_reveals_the_answer_on_request():
    at = open_exercise()
    at.text_input(key=state.MATCH_QUERY.key).set_value("Lipt").run()
    table = at.dataframe[0].value
    assert table.iloc[0, 1] == "Lipton"
    assert catalog("en")["exercises.match.answer"] not in texts(at)
    at.toggle(key=state.MATCH_ANSWER.key).set_value(True).run()
    shown = texts(at)
    assert catalog("en")["exercises.match.answer"] in shown
    assert catalog("en")["exercises.match.answer_exact_miss"].format(query="Lipt") in shown


def test_crafted_widget_values_are_put_back_in_range():
    at = open_exercise(section="grad")
    at.session_state[state.GRAD_Q1.key] = 1e9
    at.run()
    assert not at.exception
    low, high = state.GRAD_Q1.field.low, state.GRAD_Q1.field.high
    assert low <= at.slider(key=state.GRAD_Q1.key).value <= high
