"""Issue 9's found sentences, one test each: each fails on the round-1 text or code.

(Item 10, error numbers written with fmt, is tested in tests/ui/test_i18n.py; item 11, long
formulas, in tests/browser/test_formulas_fit.py.)
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import attention, scaling_demo
from attention_ui.database.view import divide_by_sum_latex
from attention_ui.gallery.cases import Case, outside_hull_but_in_cone
from attention_ui.kit.teaching.steps_view import trace_entry, vectors_sentence
from attention_ui.kit.text.i18n import LANGUAGES, catalog, step_sentence
from attention_ui.luong.presets import PRESETS
from attention_ui.luong.view import scaling_demo_text

EN, JA = catalog("en"), catalog("ja")


def test_1_japanese_share_does_not_say_a_percentage_of_the_output_is_k1s_value():
    """Rotation preset: v₁ = (10, 0), o₁ = (0, 9.09): o₁ is not 4.53 % v₁ by any reading."""
    share = JA["luong.steps.share"]
    assert "出力のうち" not in share
    assert "のバリューの {percent} %" in share  # a share of k's value, as the English says
    assert "{percent} % of {kname}'s value" in EN["luong.steps.share"]


def test_2_the_hull_but_not_cone_note_needs_weights_that_keep_the_output_in_the_cone():
    values = np.array([[1.0, 0.0], [0.0, 1.0]])
    negative = np.array([-1.0, 0.5])  # output (−1, 0.5): outside the cone
    case = Case("nonneg", negative, values.T @ negative)
    assert not outside_hull_but_in_cone(case, values)
    doubled = np.array([1.0, 1.0])  # output (1, 1): in the cone, outside the hull
    assert outside_hull_but_in_cone(Case("nonneg", doubled, values.T @ doubled), values)


def test_3_the_causal_preset_does_not_call_q_equal_k_equal_v_self_attention():
    assert PRESETS["causal"].mask == "causal"
    for texts in (EN, JA):
        assert "as in self-attention" not in texts["luong.preset.causal.why"]
        assert "X W_Q" in texts["luong.preset.causal.why"]  # says what self-attention does


def test_4_divide_by_sum_shows_d2ls_formula_and_marks_the_power_as_this_apps():
    d2l = r"\alpha_i = \frac{a(q, k_i)}{\sum_j a(q, k_j)}"
    assert divide_by_sum_latex(1.0) == (d2l,)
    formulas = divide_by_sum_latex(0.1)
    assert formulas[0] == d2l and "1/\\tau" in formulas[1]
    for texts in (EN, JA):
        assert "{power}" in texts["database.normalization.power_note"]


def test_5_the_number_column_is_not_called_a_score():
    assert "Score" not in EN["database.table.number"]
    assert "点数" not in JA["database.table.number"] and "スコア" not in JA["database.table.number"]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_6_follow_one_entry_names_what_really_meets(lang):
    Q, K, V = [[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0]]
    location = attention(Q, K, V, "location", Wa=[[1.0, 2.0], [3.0, 4.0]])
    trace = trace_entry(location, np.array(Q), np.array(V), 0, 0, Wa=[[1.0, 2.0], [3.0, 4.0]])
    sentence = vectors_sentence(trace, "luong", lang)
    assert "k₁" not in sentence and "W_a" in sentence  # keys are not used
    general = attention(Q, K, V, "general", W=[[2.0, 0.0], [0.0, 2.0]])
    trace = trace_entry(general, np.array(Q), np.array(V), 0, 0)
    assert "W·q₁" in vectors_sentence(trace, "luong", lang)
    assert [name for name, _ in trace.vectors][:2] == ["k₁", "W·q₁"]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_7_softmax_weights_are_not_called_all_positive_when_some_are_masked(lang):
    run = attention([[1.0], [1.0]], np.eye(2), np.eye(2), mask=[[True], [False]])
    assert run.weights[1, 0] == 0
    sentence = step_sentence(run.step("weights_softmax"), lang)
    assert "are positive and sum to 1" not in sentence and "重みはすべて正" not in sentence
    assert ("masked" in sentence) if lang == "en" else ("マスク" in sentence)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_8_scaling_gives_the_variance_argument_and_the_demo_shows_it(lang):
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


def test_9_the_story_says_the_temperature_step_is_this_apps_not_d2ls():
    assert "one step of d2l's argument" not in EN["database.story.intro"]
    assert "step 4" in EN["database.story.intro"] and "ステップ 4" in JA["database.story.intro"]
