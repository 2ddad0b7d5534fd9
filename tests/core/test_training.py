"""The tiny attention model of attention_core/tiny_model.py and its training (training.py).

Its gradients, written by hand, against central finite differences on every parameter; its
attention against the engine's own attention() and multi_head() on the same matrices; the
toy tasks against their definitions; and a run's determinism and shapes.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import (
    AttentionInputError,
    attention,
    model_gradients,
    model_loss,
    multi_head,
    toy_task,
    train_attention,
)
from attention_core.tiny_model import Architecture, init_params
from attention_core.toy_tasks import TASKS
from attention_core.training import (
    TRAINING_SCORES,
    TrainingSettings,
    model_forward,
    train_attention_steps,
)

RELATIVE_ERROR = 1e-6


def finite_difference_error(params, inputs, targets, score, heads, options, h=1e-3):
    """The largest relative error ‖g − ĝ‖ / (‖g‖ + ‖ĝ‖) over the parameters, between
    model_gradients g and central differences ĝ of model_loss on every entry; each entry must
    also agree within 1e-6 of its size plus 1e-11.

    ĝ is the fourth-order central difference (f(−2h) − 8 f(−h) + 8 f(h) − f(2h)) / 12h: its
    truncation error (h⁴) and its rounding error (ε·loss/h) both stay near 1e-12.
    """
    grads = model_gradients(params, inputs, targets, score, heads, **options)
    assert set(grads) == set(params)

    def loss_at(p, index, value):
        p[index] = value
        return model_loss(params, inputs, targets, score, heads, **options)

    worst = 0.0
    for name, p in params.items():
        numeric = np.zeros_like(p)
        for index in np.ndindex(p.shape):
            kept = p[index]
            f = [loss_at(p, index, kept + k * h) for k in (-2, -1, 1, 2)]
            p[index] = kept
            numeric[index] = (f[0] - 8 * f[1] + 8 * f[2] - f[3]) / (12 * h)
        exact = grads[name]
        assert exact.shape == p.shape, name
        assert np.allclose(exact, numeric, rtol=1e-6, atol=1e-11), name
        scale = np.linalg.norm(exact) + np.linalg.norm(numeric)
        worst = max(worst, np.linalg.norm(exact - numeric) / scale if scale else 0.0)
    return worst


def small_problem(task_name, score, heads=2, d_model=4, examples=3, seed=0):
    task = toy_task(task_name, size=16, seed=seed)
    rng = np.random.default_rng(seed)
    model = Architecture(score, heads, task.causal, task.features)
    params = init_params(rng, model, task.vocab, task.length, d_model, task.layers)
    options = {"causal": task.causal, "features": task.features}
    return params, task.inputs[:examples], task.targets[:examples], options


@pytest.mark.parametrize("score", TRAINING_SCORES)
@pytest.mark.parametrize("task_name", TASKS)
def test_hand_written_gradients_match_finite_differences_on_every_parameter(task_name, score):
    params, inputs, targets, options = small_problem(task_name, score)
    assert finite_difference_error(params, inputs, targets, score, 2, options) <= RELATIVE_ERROR


def test_a_training_run_is_a_pure_function_of_its_settings():
    task = toy_task("reverse", size=32, seed=3)
    first = train_attention(task, steps=30, seed=5, record_every=10)
    again = train_attention(toy_task("reverse", size=32, seed=3), steps=30, seed=5, record_every=10)
    assert np.array_equal(first.loss, again.loss)
    for a, b in zip(first.snapshots, again.snapshots, strict=True):
        assert a.step == b.step
        assert np.array_equal(a.weights, b.weights)
        for name in a.params:
            assert np.array_equal(a.params[name], b.params[name])


def test_the_progress_reports_end_with_the_same_run_as_a_plain_call():
    task = toy_task("previous", size=32)
    reports = list(train_attention_steps(task, TrainingSettings(steps=25, record_every=10)))
    assert [r.step for r in reports] == [0, 10, 20, 25]
    assert all(r.run is None for r in reports[:-1])
    plain = train_attention(task, steps=25, record_every=10)
    assert np.array_equal(reports[-1].run.loss, plain.loss)
    assert np.array_equal(reports[-1].run.params["W_Q"], plain.params["W_Q"])
    assert np.array_equal(reports[2].loss, plain.loss[:20])


def test_a_run_keeps_the_curves_and_snapshots_the_page_draws():
    task = toy_task("lookup", size=64)
    run = train_attention(task, heads=2, d_model=8, steps=20, record_every=5)
    assert run.loss.shape == (20,)
    assert list(run.snapshot_steps) == [0, 5, 10, 15, 20]
    assert run.accuracy.shape == run.on_target.shape == (5,)
    snapshot = run.snapshots[-1]
    assert snapshot.weights.shape == (8, 2, task.outputs, task.length)  # probe × H × T × L
    assert np.allclose(snapshot.weights.sum(axis=-1), 1.0)
    assert snapshot.on_target_by_head.shape == (2,)
    assert run.params is snapshot.params


def test_the_models_attention_is_multi_head_self_attention_of_the_engine():
    task = toy_task("previous", size=16)
    params = init_params(
        np.random.default_rng(1), Architecture("scaled_dot", 2), task.vocab, task.length, 8
    )
    run = model_forward(params, task.inputs[:1], task.length, "scaled_dot", 2, causal=True)
    X = params["E"][task.inputs[0]] + params["P"]  # L × d
    reference = multi_head(
        X, params["W_Q"], params["W_K"], params["W_V"], params["W_O"], heads=2, causal=True
    )
    assert np.allclose(run.weights[0], reference.weights, atol=1e-12, rtol=0)
    assert np.allclose(run.layers[0].out[0], reference.output, atol=1e-12, rtol=0)


@pytest.mark.parametrize("score", ["dot", "general", "concat", "location"])
def test_each_heads_weights_are_attention_with_that_score(score):
    task = toy_task("reverse", size=16)
    heads, d = 2, 8
    params = init_params(
        np.random.default_rng(2), Architecture(score, heads), task.vocab, task.length, d
    )
    run = model_forward(params, task.inputs[:1], task.length, score, heads)
    X = params["E"][task.inputs[0]] + params["P"]  # L × d
    d_h = d // heads
    for i in range(heads):
        cols = slice(i * d_h, (i + 1) * d_h)
        Q, V = (X @ params["W_Q"])[:, cols], (X @ params["W_V"])[:, cols]
        K = (X @ params["W_K"])[:, cols] if "W_K" in params else V
        extra = {
            "dot": {},
            "general": {"W": params.get("W", np.zeros((heads, 1, 1)))[i]},
            "concat": {"Wa": params.get("W_a", np.zeros((heads, 1, 1)))[i], "va": None},
            "location": {"Wa": params.get("W_a", np.zeros((heads, 1, 1)))[i]},
        }[score]
        if score == "concat":
            extra["va"] = params["v_a"][i]
        reference = attention(Q, K, V, score, layout="row", **extra)
        assert np.allclose(run.weights[0, i], reference.weights, atol=1e-12, rtol=0)


@settings(max_examples=30, deadline=None)
@given(
    score=st.sampled_from(TRAINING_SCORES),
    heads=st.sampled_from([1, 2]),
    d_head=st.integers(1, 3),
    vocab=st.integers(2, 5),
    length=st.integers(2, 5),
    data=st.data(),
)
def test_gradients_match_finite_differences_for_any_small_size(
    score, heads, d_head, vocab, length, data
):
    examples = data.draw(st.integers(1, 3), label="examples")
    outputs = data.draw(st.integers(1, length), label="T")
    layers = data.draw(st.sampled_from([1, 2]), label="layers")
    causal = data.draw(st.booleans(), label="causal")
    seed = data.draw(st.integers(0, 2**16), label="seed")
    rng = np.random.default_rng(seed)
    features = None
    if data.draw(st.booleans(), label="made of features"):
        features = (rng.random((vocab, vocab + 1)) < 0.5).astype(float)
    params = init_params(
        rng, Architecture(score, heads, causal, features), vocab, length, heads * d_head, layers
    )
    inputs = rng.integers(0, vocab, (examples, length))
    targets = rng.integers(0, vocab, (examples, outputs))
    options = {"causal": causal, "features": features}
    assert finite_difference_error(params, inputs, targets, score, heads, options) <= RELATIVE_ERROR


def test_a_two_layer_snapshot_keeps_both_layers_attention():
    task = toy_task("induction", size=32)
    run = train_attention(task, d_model=8, heads=2, steps=3, record_every=3)
    first, last = run.snapshots[-1].layer_weights
    assert first.shape == (8, 2, task.length, task.length)  # the first layer answers everywhere
    assert np.array_equal(last, run.snapshots[-1].weights)
    assert last.shape == (8, 2, task.outputs, task.length)
    assert np.allclose(np.triu(first[0, 0], k=1), 0)  # causal: nothing after the position


def test_settings_at_the_bounds_are_accepted_and_checked_before_the_first_report():
    task = toy_task("reverse", size=16)  # the smallest task
    run = train_attention(task, heads=4, d_model=4, steps=1, learning_rate=0.1, record_every=1)
    assert run.loss.shape == (1,) and [s.step for s in run.snapshots] == [0, 1]
    run = train_attention(task, heads=8, d_model=64, steps=5)  # record_every=10 > steps
    assert [s.step for s in run.snapshots] == [0, 5]
    with pytest.raises(AttentionInputError) as caught:
        train_attention_steps(
            task, TrainingSettings(record_every=3001)
        )  # raises here, not when iterated
    assert (
        caught.value.code == "out_of_bounds" and caught.value.params["parameter"] == "record_every"
    )
