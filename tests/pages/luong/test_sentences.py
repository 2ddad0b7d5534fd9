"""The Luong page's sentences hold, in English and Japanese, Vaswani et
al.'s reason for 1/√d_k included, shown as the gradient it protects."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import attention, query_gradient
from attention_core.scaling import SMALL_GRADIENT, scaling_demo
from attention_ui.kit.text.i18n import LANGUAGES, catalog, step_sentence, t
from attention_ui.luong import state
from attention_ui.luong.model import TEMPERATURES
from attention_ui.luong.presets import PRESETS
from attention_ui.luong.tasks import luong_mean
from attention_ui.luong.view import scaling_gradient_text
from tests.support.pages import open_fold, open_page, shown

# --- 26 · the independence assumption ---------------------------------------------------------


@pytest.mark.parametrize(("lang", "word"), [("en", "independent"), ("ja", "独立")])
def test_the_variance_argument_states_its_independence_assumption(lang, word):
    run = attention(np.eye(4), np.eye(4), np.eye(4), "scaled_dot")
    assert word in step_sentence(run.step("scaled"), lang)
    why = catalog(lang)["luong.scaling.why"]
    assert word in why and "Vaswani" in why
    at = open_page("luong", lang)
    at.selectbox(key=state.SCORE.key).set_value("scaled_dot").run()
    assert why in shown(open_fold(at, state.FORMULA_BOX))


# --- Vaswani et al.: the gradient the scaling keeps ---------------------------------------------


def test_the_demos_gradient_norms_are_query_gradients_jacobians():
    """The demo's vectorised ‖∂o/∂q‖ against the engine's query_gradient, query by query."""
    for d_k, seed in ((1, 0), (3, 5), (64, 0), (512, 7)):
        demo = scaling_demo(d_k, seed)
        rng = np.random.default_rng(seed)
        q = rng.standard_normal((d_k, demo.queries))
        k = rng.standard_normal((d_k, demo.keys))
        v = rng.standard_normal((1, demo.keys))
        for score, median, small in (
            ("dot", demo.gradient_unscaled, demo.small_unscaled),
            ("scaled_dot", demo.gradient_scaled, demo.small_scaled),
        ):
            norms = np.array([query_gradient(q[:, j], k, v, score).norm for j in range(q.shape[1])])
            assert median == pytest.approx(float(np.median(norms)), rel=1e-9, abs=1e-300)
            assert small == float((norms < SMALL_GRADIENT).mean())


def test_without_the_scaling_the_typical_gradient_vanishes_as_d_k_grows():
    small, large = scaling_demo(2, 0), scaling_demo(4096, 0)
    assert large.gradient_unscaled < 1e-6 < large.gradient_scaled  # "extremely small gradients"
    assert large.small_unscaled > 0.5 and large.small_scaled == 0
    assert small.gradient_unscaled > 0.1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_scaling_demo_shows_the_gradient_beside_the_spread_and_the_top_weight(lang):
    at = open_fold(open_page("luong", lang), state.FORMULA_BOX)
    at.selectbox(key=state.SCORE.key).set_value("scaled_dot").run()
    at.number_input(key=state.SCALING_D_K.key).set_value(512).run()
    assert not at.exception
    assert scaling_gradient_text(scaling_demo(512, 0), lang) in shown(at)


# --- 27 · the story box waits for the reveal ---------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_examples_story_is_hidden_until_the_predictions_are_revealed(lang):
    at = open_page("luong", lang)
    story = t("luong.preset.first.why", lang)
    assert story in shown(at)  # shown while predict-then-reveal is off
    at.toggle(key="luong.predict").set_value(True).run()
    assert story not in shown(at)
    at.button(key="luong.predict.reveal").click().run()
    assert story in shown(at)


# --- 28 · the mean-of-values task is solvable by its hint ---------------------------------------


def test_the_mean_task_is_solved_by_its_hint_and_not_by_tau_at_the_slider_top():
    matrices = PRESETS["first"].column_matrices()
    snapshot = {"Q": matrices["Q"], "K": matrices["K"], "V": matrices["V"], "score": "dot"}
    hot = luong_mean({**snapshot, "tau": max(TEMPERATURES)})
    assert not hot.solved  # τ = 20 leaves the first example 0.66 off the mean
    zero_q = luong_mean({**snapshot, "Q": np.zeros_like(matrices["Q"]), "tau": 1.0})
    assert zero_q.solved  # hint 2's way
    for lang in LANGUAGES:
        words = catalog(lang)
        assert "τ" not in words["tasks.luong_mean.hint1"] + words["tasks.luong_mean.hint2"]
        assert "Q" in words["tasks.luong_mean.hint2"]
        assert "20" in words["tasks.luong_mean.solution"]  # says where τ's slider stops


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_scaling_reason_says_what_vaswani_et_al_assume_and_nothing_unsourced(lang):
    """The paper: "assume that the components of q and k are independent random variables with
    mean 0 and variance 1. Then their dot product ... has mean 0 and variance d_k." It says
    nothing about trained queries and keys being correlated."""
    why = catalog(lang)["luong.scaling.why"]
    if lang == "en":
        assert "independent random variables with mean 0 and variance 1" in why
        assert "mean 0 and variance d_k" in why and "correlated" not in why
    else:
        assert "平均 0・分散 1 の独立な確率変数" in why and "平均は 0、分散は d_k" in why
        assert "相関" not in why and "違いえ" not in why and "Vaswani ら" in why
