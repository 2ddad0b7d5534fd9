"""The Nadaraya–Watson page through AppTest: every preset in both languages, the numbers on the
charts are the engine's, gaps instead of NaN, σ's claims, leave-one-out, and the table.

Expected numbers come from `attention_core.nadaraya_watson` / `leave_one_out` on the same inputs.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import nadaraya_watson
from attention_core.formatting import fmt
from attention_core.regression import bandwidth_range, leave_one_out
from attention_ui.kit.figures.heatmap import cell_text
from attention_ui.kit.grids.points_editor import current_points
from attention_ui.kit.text.i18n import LANGUAGES, catalog
from attention_ui.regression import data, state
from attention_ui.regression.figures import COLOUR_ROW_PX, MAX_POINTS_WITH_NUMBERS
from tests.conftest import APP, open_app_page
from tests.plotly_json import chart, charts
from tests.support.grids import type_cell

EN = catalog("en")


@pytest.fixture
def at() -> AppTest:
    return open_app_page("regression")


def trace(figure: dict, name: str) -> dict:
    return next(t for t in figure["data"] if t.get("name") == name)


def prediction_curve(at: AppTest) -> tuple[np.ndarray, list]:
    curve = trace(chart(at, "regression.chart.data"), EN["regression.chart.prediction"])
    return np.asarray(curve["x"], dtype=float), list(curve["y"])


def table(at: AppTest) -> tuple[np.ndarray, np.ndarray]:
    rows = current_points(state.POINTS, at.session_state)
    return np.array([r[0] for r in rows]), np.array([r[1] for r in rows])


def texts(at: AppTest) -> str:
    kinds = ("markdown", "error", "warning", "info", "success", "caption")
    return "\n".join(e.value for kind in kinds for e in getattr(at, kind))


def edit(at: AppTest, row: int, column: str, value) -> None:
    type_cell(at, state.POINTS, row, column, value)


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("preset", data.PRESETS)
def test_every_preset_runs_in_both_languages_with_the_engines_prediction(preset, lang):
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("pages/regression.py").run()
    at.button(key=f"regression.preset.{preset}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == catalog(lang)["regression.title"]
    x, y = data.preset_points(preset, 0, state.COUNT.default)
    np.testing.assert_allclose(table(at), (x, y))
    curve_x, curve_y = prediction_curve_any(at)
    expected = nadaraya_watson(curve_x, x, y, "gaussian", 0.5).prediction
    np.testing.assert_allclose(np.array(curve_y, dtype=float), expected, rtol=1e-9)
    # the data and the weights; σ's path and leave-one-out once opened, the steps on request
    assert len(charts(at)) == 2


def prediction_curve_any(at: AppTest) -> tuple[np.ndarray, list]:
    """The prediction trace in either language (the second trace: after the true function)."""
    figure = chart(at, "regression.chart.data")
    curve = figure["data"][1]
    return np.asarray(curve["x"], dtype=float), list(curve["y"])


def test_the_default_data_is_d2ls_noisy_function_with_its_seed_shown(at):
    x, y = data.preset_points("noisy", 0, state.COUNT.default)
    np.testing.assert_allclose(table(at), (x, y))
    assert "seed 0" in texts(at)
    at.number_input(key=state.SEED.key).set_value(7).run()
    assert not at.exception
    np.testing.assert_allclose(table(at), data.preset_points("noisy", 7, state.COUNT.default))
    assert "seed 7" in texts(at)


def test_changing_sigma_changes_the_curve_to_the_engines(at):
    before = prediction_curve(at)[1]
    at.number_input(key=state.SIGMA.key).set_value(2.0).run()
    curve_x, after = prediction_curve(at)
    x, y = table(at)
    np.testing.assert_allclose(after, nadaraya_watson(curve_x, x, y, "gaussian", 2.0).prediction)
    assert not np.allclose(before, after)


def test_weights_heatmap_is_one_chart_of_queries_by_training_points_sorted_by_x(at):
    """One chart (it was 7 blocks of 6 points, 7,763 px of page at 1400 px): 12 queries × 40
    points, the engine's weights in the order of x on the 0…1 scale, colour only in rows
    COLOUR_ROW_PX high (a cell's number on a phone would be under 11 px), and a caption that
    says where the numbers are."""
    figure = chart(at, "regression.chart.weights")
    assert not any(
        i.endswith("-regression.chart.weights.2") for i in [e.proto.id for e in charts(at)]
    )
    trace = figure["data"][0]
    z = np.asarray(trace["z"], dtype=float)
    x, y = table(at)
    queries = data.queries_along(x, 12)
    weights = nadaraya_watson(queries, x, y, "gaussian", 0.5).weights
    order = np.argsort(x, kind="stable")
    np.testing.assert_allclose(z, weights[:, order])
    np.testing.assert_allclose(z.sum(axis=1), 1.0)
    assert trace["zmin"] == 0 and trace["zmax"] == 1
    assert "texttemplate" not in trace
    assert "α" in trace["customdata"][0][0]
    layout = figure["layout"]
    margins = layout["margin"]["t"] + layout["margin"]["b"]
    assert layout["height"] == margins + 12 * COLOUR_ROW_PX
    assert EN["regression.heatmap.many"] in [c.value for c in at.caption]


def test_a_few_points_print_every_weight_on_its_cell(at):
    """With at most MAX_POINTS_WITH_NUMBERS training points every cell prints its number."""
    at.number_input(key=state.COUNT.key).set_value(MAX_POINTS_WITH_NUMBERS).run()
    trace = chart(at, "regression.chart.weights")["data"][0]
    x, y = table(at)
    weights = nadaraya_watson(data.queries_along(x, 12), x, y, "gaussian", 0.5).weights
    order = np.argsort(x, kind="stable")
    assert trace["texttemplate"] == "%{text}"
    assert trace["text"][5] == [cell_text(w, weights=True) for w in weights[5, order]]
    assert EN["regression.heatmap.many"] not in [c.value for c in at.caption]
    at.number_input(key=state.COUNT.key).set_value(MAX_POINTS_WITH_NUMBERS + 1).run()
    assert "texttemplate" not in chart(at, "regression.chart.weights")["data"][0]


def test_many_queries_keep_the_weights_chart_within_its_height(at):
    at.slider(key=state.QUERIES.key).set_value(60).run()
    figure = chart(at, "regression.chart.weights")
    assert len(figure["data"][0]["y"]) == 60 and figure["layout"]["height"] <= 640
    assert EN["regression.heatmap.many"] in [c.value for c in at.caption]


def open_folded(at: AppTest) -> AppTest:
    """σ as the temperature and leave-one-out, folded: built only once opened."""
    at.session_state[state.TEMPERATURE_BOX] = True
    at.session_state[state.LOO_BOX] = True
    return at.run()


def test_the_folded_sections_are_built_only_once_opened(at):
    assert not any(
        e.proto.id.endswith(("-regression.chart.sigma", "-regression.chart.loo"))
        for e in charts(at)
    )
    assert LOO_TEXT_START not in "\n".join(m.value for m in at.markdown)
    open_folded(at)
    ids = [e.proto.id for e in charts(at)]
    assert any(i.endswith("-regression.chart.sigma") for i in ids)
    assert any(i.endswith("-regression.chart.loo") for i in ids)


LOO_TEXT_START = EN["regression.loo.text"][:30]


def test_a_query_no_point_reaches_leaves_a_gap_and_a_sentence_never_nan(at):
    at.button(key="regression.preset.few").click().run()
    at.radio(key=state.KERNEL.key).set_value("boxcar").run()
    at.number_input(key=state.SIGMA.key).set_value(0.3).run()
    at.toggle(key=state.SHOW_STEPS.key).set_value(True).run()
    assert not at.exception
    _, curve = prediction_curve(at)
    assert None in curve  # a gap in the line, not a number
    shown = texts(at)
    assert "The curve has" in shown and "no prediction" in shown
    assert "NaN" not in shown and "nan" not in shown.lower().split()
    step_prediction = chart(at, "regression.step.nw_prediction")
    assert "NaN" not in json.dumps(step_prediction["data"][0].get("text"))


def test_a_tiny_sigma_claims_nearest_neighbour_and_a_huge_one_the_mean(at):
    open_folded(at)
    at.number_input(key=state.SIGMA.key).set_value(0.001).run()
    assert "nearest-neighbour lookup" in "\n".join(s.value for s in at.success)
    at.number_input(key=state.SIGMA.key).set_value(1000.0).run()
    _x, y = table(at)
    assert f"the mean of all y**, {fmt_mean(y)}" in "\n".join(s.value for s in at.success)


def fmt_mean(y):
    return fmt(float(np.mean(y)))


def test_between_the_extremes_neither_claim_is_made(at):
    open_folded(at)
    shown = "\n".join(s.value for s in at.success)
    assert "nearest-neighbour lookup" not in shown and "mean of all y" not in shown
    assert "between the two extremes" in "\n".join(i.value for i in at.info)


def test_leave_one_out_marks_its_minimum_and_the_button_uses_it(at):
    open_folded(at)
    x, y = table(at)
    sigmas = np.unique(np.clip(bandwidth_range(x, 41), *state.SIGMA_RANGE))
    expected = leave_one_out(x, y, "gaussian", sigmas)
    figure = chart(at, "regression.chart.loo")
    best = trace(figure, EN["regression.loo.best"])
    assert best["x"][0] == pytest.approx(expected.best_bandwidth)
    at.button(key=state.LOO_BUTTON).click().run()
    assert not at.exception
    assert at.number_input(key=state.SIGMA.key).value == pytest.approx(
        expected.best_bandwidth, rel=1e-3
    )


def test_a_table_edit_moves_the_prediction_and_survives_another_page(at):
    edit(at, 0, "y", 50.0)
    at.run()
    x, y = table(at)
    assert y[0] == 50.0
    curve_x, curve = prediction_curve(at)
    np.testing.assert_allclose(curve, nadaraya_watson(curve_x, x, y, "gaussian", 0.5).prediction)
    at.switch_page("pages/home.py").run()
    at.switch_page("pages/regression.py").run()
    assert not at.exception
    assert table(at)[1][0] == 50.0


def test_duplicate_x_are_allowed_and_explained(at):
    x, _ = table(at)
    edit(at, 1, "x", float(x[0]))
    at.run()
    assert not at.exception and not at.error
    assert any("Repeated x (allowed)" in i.value and "rows 1, 2" in i.value for i in at.info)


def test_steps_show_formulas_at_the_learners_sizes(at):
    m = state.COUNT.default
    assert not any(rf"{{12 \times {m}}}" in element.value for element in at.latex)
    at.toggle(key=state.SHOW_STEPS.key).set_value(True).run()
    assert len(charts(at)) == 2 + 8  # the data, the weights, 8 steps
    latex = [element.value for element in at.latex]
    assert any(rf"{{12 \times {m}}}" in text for text in latex)
    at.slider(key=state.QUERIES.key).set_value(5).run()
    assert any(rf"{{5 \times {m}}}" in element.value for element in at.latex)
