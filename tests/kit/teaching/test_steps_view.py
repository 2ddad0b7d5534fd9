"""The step display's pure parts: axes of every step, the S and A hovers, one entry traced."""

import itertools

import numpy as np
import pytest

from attention_core import attention
from attention_core.attention import LAYOUTS, SCORES
from attention_ui.kit.teaching.steps_view import (
    score_hover,
    step_axes,
    step_figure,
    trace_entry,
    weight_hover,
)
from attention_ui.luong.model import causal_mask, engine_parameters
from attention_ui.luong.presets import PRESETS, random_matrices

TITLES = {"key": "key", "query": "query", "dim": "entry", "hidden": "hidden", "sum": "sum"}


def run(score: str, layout: str, **extra):
    sizes = PRESETS["concat"].sizes if score == "concat" else PRESETS["first"].sizes
    m = random_matrices(sizes, 3)
    Q, K, V = (m[name] if layout == "column" else m[name].T for name in ("Q", "K", "V"))
    return attention(Q, K, V, score, layout=layout, **engine_parameters(score, m), **extra), m


@pytest.mark.parametrize(("score", "layout"), list(itertools.product(SCORES, LAYOUTS)))
def test_every_step_has_one_label_per_row_and_column(score, layout):
    result, _ = run(score, layout, temperature=0.5, mask=None)
    for step in result.steps:
        axes = step_axes(step, layout, TITLES)
        assert (len(axes.y_labels), len(axes.x_labels)) == step.value.shape, step.key
    weights = step_axes(result.step("weights_softmax"), layout, TITLES)
    queries, keys = ["q1", "q2"], ["k1", "k2", "k3"]
    assert (weights.x_labels, weights.y_labels) == (
        (queries, keys) if layout == "column" else (keys, queries)
    )


def test_scaled_scores_hover_shows_the_products_then_the_division():
    result = attention([[1.0], [2.0]], [[3.0], [4.0]], [[1.0]], "scaled_dot")
    assert score_hover(result)[0][0] == "s₁₁ = k₁·q₁ = 3×1 + 4×2 = 11 → ÷√2 (≈ 1.41) = 7.78"


def test_weight_hover_gives_exp_over_sum_and_a_masked_weight_0():
    mask = causal_mask(2, 2)
    result = attention(np.eye(2), np.eye(2), np.eye(2), mask=mask)
    hover = weight_hover(result)
    assert hover[1][0] == "a₂₁ = exp(−∞) / Σ = 0 / 1 = 0"  # masked: s = −∞
    assert hover[0][1] == ("a₁₂ = exp(s − max) / Σ exp = exp(−1) / 1.37 = 0.368 / 1.37 = 0.269")


def test_step_figure_keeps_weights_on_a_fixed_zero_to_one_scale():
    result, _ = run("dot", "column")
    trace = step_figure(result.step("weights_softmax"), "column", TITLES).figure.data[0]
    assert (trace.zmin, trace.zmax) == (0, 1)


@pytest.mark.parametrize(("score", "layout"), list(itertools.product(SCORES, LAYOUTS)))
def test_a_traced_entry_adds_up_to_the_engines_score_weight_and_output(score, layout):
    result, m = run(score, layout, temperature=2.0)
    Q, V = (m["Q"], m["V"]) if layout == "column" else (m["Q"].T, m["V"].T)
    params = engine_parameters(score, m)
    weights = result.weights if layout == "column" else result.weights.T  # keys × queries
    output = result.output if layout == "column" else result.output.T
    for key, query in [(0, 0), (2, 1)]:
        trace = trace_entry(result, Q, V, key, query, params)
        assert trace.vectors[-1][1].sum() == pytest.approx(trace.raw_score, rel=1e-12)
        assert trace.weight == weights[key, query]
        np.testing.assert_allclose(trace.output, output[:, query])
        contributions = [trace_entry(result, Q, V, i, query, params).contribution for i in range(3)]
        np.testing.assert_allclose(np.sum(contributions, axis=0), trace.output, rtol=1e-12)
        assert [step.key for step, _ in trace.chain][-1] == "weights_softmax"
    assert trace.weight_name == ("a₃₂" if layout == "column" else "a₂₃")
