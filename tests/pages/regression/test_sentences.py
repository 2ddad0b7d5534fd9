"""The Nadaraya–Watson page says what d2l's "Attention Pooling by Similarity" says, and each
sentence that depends on the numbers is shown only when they make it true."""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import nadaraya_watson
from attention_ui.kit.text.i18n import LANGUAGES, catalog, step_sentence, t
from attention_ui.regression import data, state
from attention_ui.regression.view import Settings, chart_caption, kernel_comparison
from tests.conftest import open_app_page
from tests.plotly_json import chart
from tests.support.grids import edit_grid

EN, JA = catalog("en"), catalog("ja")


@pytest.fixture
def at() -> AppTest:
    return open_app_page("regression")


def texts(at: AppTest) -> str:
    kinds = ("markdown", "error", "warning", "info", "success", "caption")
    return "\n".join(e.value for kind in kinds for e in getattr(at, kind))


# --- 14: d2l's current data ----------------------------------------------------------------


def test_the_noisy_example_is_d2ls_current_recipe():
    assert state.COUNT.default == 40  # d2l: n = 40
    x, y = data.preset_points("noisy", 3, 4000)
    residual = y - data.d2l_function(x)
    assert 0.95 < np.std(residual) < 1.05  # unit variance, not a standard deviation of 0.5
    assert "variance 1" in EN["regression.preset_text.noisy"]
    assert "standard deviation 0.5 (as in d2l)" not in EN["regression.preset_text.noisy"]
    assert "分散 1" in JA["regression.preset_text.noisy"]
    for lang in LANGUAGES:  # the older edition's function as a formula, not with a caret
        shown = t("regression.preset_text.noisy", lang, seed=0, count=40)
        assert "$f(x) = 2\\sin x + x^{0.8}$" in shown and "x^0.8" not in shown


# --- 15: d2l trains nothing; learning σ is its exercise 2 ---------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_leave_one_out_is_d2ls_exercise_2_not_its_training(lang):
    title, text = t("regression.loo.title", lang), t("regression.loo.text", lang)
    assert "learned" not in title.lower() and "学習" not in title
    assert "learns its bandwidth" not in text
    assert "2.1" in text and "2.2" in text and "σ → 0" in text


# --- 16: the heatmap is transposed from d2l's picture --------------------------------------


def test_the_heatmap_caption_says_it_is_d2ls_picture_transposed():
    assert "transpose" in EN["regression.heatmap.caption"]
    assert "d2l's picture: one row per query" not in EN["regression.heatmap.caption"]
    assert "転置" in JA["regression.heatmap.caption"]


# --- 17: triangular (d2l's "Epanechikov") and the real Epanechnikov -----------------------


def test_the_page_compares_the_two_kernels_with_the_engines_numbers():
    x, y = np.array([0.0, 0.6, 2.0]), np.array([0.0, 1.0, 5.0])
    for lang in LANGUAGES:
        text = kernel_comparison(x, y, 1.0, Settings("triangular", 1.5, 12, 0), lang)
        assert "1.71" in text and "1.82" in text  # 1.714 and 1.817 at the app's 3 digits
    # nothing to compare where one kernel reaches no point
    assert kernel_comparison(x, y, 9.0, Settings("epanechnikov", 1.5, 12, 0)) is None


@pytest.mark.parametrize("kernel", ["triangular", "epanechnikov"])
def test_choosing_either_kernel_says_what_d2l_calls_epanechikov(at, kernel):
    at.radio(key=state.KERNEL.key).set_value(kernel).run()
    assert not at.exception
    shown = texts(at)
    assert EN[f"regression.kernel_note.{kernel}"] in shown
    assert "“Epanechikov”" in EN[f"regression.kernel_note.{kernel}"]
    assert EN["regression.kernel.triangular"] == "Triangular (d2l's “Epanechikov”)"


# --- 18: repeated x act as one point at the mean of their y, with their combined weight ------


def test_repeated_x_act_as_one_point_at_their_mean_with_their_combined_weight(at):
    for key in ("regression.check.duplicates", "regression.data.table_help"):
        assert "combined weight" in EN[key] and "mean of their y" in EN[key]
        assert "重みの合計" in JA[key]
    x = data.preset_points("noisy", 0, state.COUNT.default)[0]
    edit_grid(at, state.POINTS, {1: {"x": str(float(x[0])), "y": "100"}})
    at.session_state[state.TEMPERATURE_BOX] = True  # σ's chart, folded: built once opened
    at.slider(key=state.QUERIES.key).set_value(1).run()  # x*1 is the axis' left end: nearest x[0]
    assert not at.exception
    figure = chart(at, "regression.chart.sigma")
    labels = " ".join(a.get("text", "") for a in figure["layout"].get("annotations", []))
    assert "nearest points (rows 1, 2), mean of their y" in labels


def test_at_a_tiny_sigma_repeated_x_give_the_mean_of_their_y():
    x, y = np.array([0.0, 1.0, 1.0, 3.0]), np.array([1.0, 2.0, 4.0, 0.0])
    weights = nadaraya_watson([1.2], x, y, "gaussian", 0.01).weights[0]
    claim = data.sigma_claim(weights, y, np.abs(x - 1.2))
    assert claim.kind == "nearest_shared" and claim.points == (1, 2) and claim.value == 3.0


# --- 19: "they sum to 1" only where a point reaches the chosen query ----------------------


def test_few_points_boxcar_sigma_0_3_query_4_does_not_claim_a_sum_of_1(at):
    at.button(key=f"{state.PRESET.key}.few").click().run()
    at.radio(key=state.KERNEL.key).set_value("boxcar").run()
    at.number_input(key=state.SIGMA.key).set_value(0.3).run()
    at.slider(key=state.CHOSEN.key).set_value(4).run()
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert EN["regression.chart.caption_none"] in " ".join(captions)
    assert not [c for c in captions if "sum to 1" in c and "do not" not in c]


def test_the_caption_follows_the_chosen_querys_weights():
    for lang in LANGUAGES:
        assert t("regression.chart.caption_sum", lang) in chart_caption(np.array([0.5, 0.5]), lang)
        assert t("regression.chart.caption_none", lang) in chart_caption(np.zeros(3), lang)


# --- 20: the constant kernel, and the kernel value relative to the nearest point ----------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_step_sentences_say_what_each_kernel_does(lang):
    x, y = [0.0, 1.0, 4.0], [1.0, 2.0, 3.0]
    constant = nadaraya_watson([0.5], x, y, "constant", 0.3)
    sentence = step_sentence(constant.step("nw_kernel"), lang)
    assert "far points count less" not in sentence and "1/m" in sentence
    np.testing.assert_allclose(constant.weights, 1 / 3)
    gaussian = nadaraya_watson([0.5], x, y, "gaussian", 1.0)
    exponentials = step_sentence(gaussian.step("nw_exponentials"), lang)
    assert "κ(u)/κ(u_" in exponentials
    assert "a positive kernel value" not in exponentials


# --- 21: the data are synthetic --------------------------------------------------------------


def test_the_intro_does_not_call_synthetic_data_real():
    assert "real data" not in EN["regression.intro"] and "synthetic" in EN["regression.intro"]
    assert "実データ" not in JA["regression.intro"] and "合成" in JA["regression.intro"]


# --- d2l's exercise 3 and one-hot classification, computed on the page ----------------------


def test_the_bridge_to_dot_product_attention_is_computed(at):
    at.toggle(key=state.SHOW_BRIDGE.key).set_value(True).run()
    assert not at.exception
    assert len(at.dataframe) == 1  # the bridge's table (the training grid is a component)
    agree = [m.value for m in at.markdown if "dot-product attention with τ = σ² = 0.25" in m.value]
    assert agree, texts(at)


def test_classification_with_one_hot_values_is_computed(at):
    at.button(key=f"{state.PRESET.key}.step").click().run()
    at.toggle(key=state.SHOW_CLASSES.key).set_value(True).run()
    assert not at.exception
    figure = chart(at, "regression.chart.classes")
    assert [trace["name"] for trace in figure["data"]] == ["class 0", "class 2"]
    assert any("The predicted class is **" in m.value for m in at.markdown)


def test_leave_one_out_credits_d2l_with_the_questions_its_exercise_asks_and_answers_itself():
    """d2l's exercise 2.1 asks what happens if (f(xᵢ) − yᵢ)² is minimised directly (with a
    hint); the answer is the page's, and it holds: with distinct xᵢ each point predicts itself
    as σ → 0, so the in-sample error falls towards 0."""
    en, ja = catalog("en")["regression.loo.text"], catalog("ja")["regression.loo.text"]
    assert "2.1 asks what happens if you minimise (f(xᵢ) − yᵢ)² directly" in en
    assert "Our answer:" in en and "shows why" not in en
    assert "何が起きるかを問います" in ja and "このアプリの答え:" in ja and "示します" not in ja
    assert "whether you still observe overfitting" in en and "過剰適合" in ja
    x, y = data.preset_points("noisy")
    assert len(set(x)) == len(x)
    errors = [
        np.mean((nadaraya_watson(x, x, y, "gaussian", sigma).prediction - y) ** 2)
        for sigma in (1.0, 0.1, 0.01, 1e-4)  # the closest two points are 0.001 apart
    ]
    assert errors[0] > errors[1] > errors[2] > errors[3] and errors[3] < 1e-12


def test_the_boxcar_says_it_follows_d2ls_code_and_a_point_one_sigma_away_gets_no_weight(at):
    """d2l's text: 1 if ‖q − k‖ ≤ 1; its code: |u| < 1. The page says it follows the code, and
    the engine does: at x* = 1 with σ = 1, the point at x = 0 (|u| = 1) gets weight 0."""
    at.radio(key=state.KERNEL.key).set_value("boxcar").run()
    assert not at.exception
    assert EN["regression.kernel_note.boxcar"] in texts(at)
    for lang in LANGUAGES:
        note = catalog(lang)["regression.kernel_note.boxcar"]
        assert "‖q − k‖ ≤ 1" in note and "|u| < 1" in note
    weights = nadaraya_watson([1.0], [0.0, 0.5], [1.0, 2.0], "boxcar", 1.0).weights[0]
    assert weights.tolist() == [0.0, 1.0]
