"""What the Luong page says about its steps and presets: the share of a key's value, the causal
preset, the entry followed, masked softmax weights, the 1/√d_k argument and its demo."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import attention
from attention_core.scaling import scaling_demo
from attention_ui.kit.teaching.steps_view import trace_entry, vectors_sentence
from attention_ui.kit.text.i18n import LANGUAGES, catalog, step_sentence
from attention_ui.luong.presets import PRESETS
from attention_ui.luong.view import scaling_demo_text

EN, JA = catalog("en"), catalog("ja")


def test_the_japanese_share_is_of_the_keys_value_not_of_the_output():
    """Rotation preset: v₁ = (10, 0), o₁ = (0, 9.09): o₁ is not 4.53 % v₁ by any reading."""
    share = JA["luong.steps.share"]
    assert "出力のうち" not in share
    assert "のバリューの {percent} %" in share  # a share of k's value, as the English says
    assert "{percent} % of {kname}'s value" in EN["luong.steps.share"]


def test_the_causal_preset_does_not_call_q_equal_k_equal_v_self_attention():
    assert PRESETS["causal"].mask == "causal"
    for texts in (EN, JA):
        assert "as in self-attention" not in texts["luong.preset.causal.why"]
        assert "X W_Q" in texts["luong.preset.causal.why"]  # says what self-attention does


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_follow_one_entry_names_what_really_meets(lang):
    Q, K, V = [[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0]]
    location = attention(Q, K, V, "location", Wa=[[1.0, 2.0], [3.0, 4.0]])
    trace = trace_entry(location, np.array(Q), np.array(V), 0, 0, {"Wa": [[1.0, 2.0], [3.0, 4.0]]})
    sentence = vectors_sentence(trace, "luong", lang)
    assert "k₁" not in sentence and "W_a" in sentence  # keys are not used
    general = attention(Q, K, V, "general", W=[[2.0, 0.0], [0.0, 2.0]])
    trace = trace_entry(general, np.array(Q), np.array(V), 0, 0)
    assert "W·q₁" in vectors_sentence(trace, "luong", lang)
    assert [name for name, _ in trace.vectors][:2] == ["k₁", "W·q₁"]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_softmax_weights_are_not_called_all_positive_when_some_are_masked(lang):
    run = attention([[1.0], [1.0]], np.eye(2), np.eye(2), mask=[[True], [False]])
    assert run.weights[1, 0] == 0
    sentence = step_sentence(run.step("weights_softmax"), lang)
    assert "are positive and sum to 1" not in sentence and "重みはすべて正" not in sentence
    assert ("masked" in sentence) if lang == "en" else ("マスク" in sentence)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_scaling_gives_the_variance_argument_and_the_demo_shows_it(lang):
    run = attention(np.eye(4), np.eye(4), np.eye(4), "scaled_dot")
    sentence = step_sentence(run.step("scaled"), lang)
    assert "does not saturate" not in sentence and "飽和しません" not in sentence
    assert "d_k = 4" in sentence
    small, large = scaling_demo(2, 7), scaling_demo(512, 7)
    assert large.std_unscaled > 10 * small.std_unscaled  # grows like √d_k
    assert 0.8 < large.std_scaled < 1.2  # back to about 1
    assert large.top_weight_unscaled > large.top_weight_scaled
    text = scaling_demo_text(large, lang)
    assert f"{large.std_unscaled:.3g}"[:3] in text.replace("−", "-")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_dot_score_says_that_length_counts_as_well_as_direction(lang):
    """k·q = ‖k‖ ‖q‖ cos θ: for q = (1, 0), k1 = (3, 3) at 45° outscores k2 = (1, 0.1) at 6°."""
    sentence = catalog(lang)["engine.step.scores_dot.sentence"]
    assert "‖k‖ ‖q‖ cos θ" in sentence
    assert ("lengths count as well as the direction" if lang == "en" else "長さも効く") in sentence
    K = np.array([[3.0, 1.0], [3.0, 0.1]])  # k1 and k2 as columns
    scores = attention([[1.0], [0.0]], K, np.eye(2), "dot").scores[:, 0]
    angles = np.arctan2(K[1], K[0])
    assert angles[1] < angles[0] and scores[0] > scores[1]
