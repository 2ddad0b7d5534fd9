"""Trained weights travel: the training page puts the model at the slider's step into the
multi-head page and the Luong explorer, which compute the model's own weights from them and
say they are trained, on which task and at which step."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.training import model_forward
from attention_ui.kit.text.i18n import catalog
from attention_ui.train import compute, runs, state
from tests.plotly_json import chart
from tests.support.grids import type_cell
from tests.support.pages import open_page, shown
from tests.support.train import choose_step, press_train


def trained(lang="en", **values):
    at = open_page("train", lang)
    for key, value in values.items():
        at.session_state[f"train.{key}"] = value
    press_train(at, {f"train.{key}": value for key, value in values.items()})
    at.session_state["train.fold.transfer"] = True  # the hand-over's fold, opened
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def model_weights(settings, step, tokens):
    run = runs.kept(settings).seen().result
    task = compute.task_of(settings.task, settings.seed)
    # as the page computes from a kept snapshot: its float32 numbers, in float64
    params = {name: array.astype(float) for name, array in run.snapshot_at(step).params.items()}
    passed = model_forward(
        params,
        tokens[None],
        task.outputs,
        run.score,
        run.heads,
        causal=task.causal,
        features=task.features,
    )
    return passed.layers[-1].weights[:, 0]  # heads × L × T


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_open_in_multi_head_self_attention_shows_the_models_heads(lang):
    at = trained(lang, task="reverse", d_model=8, heads=2, steps=40)
    choose_step(at, 20)
    at.button(key="train.transfer.transformer").click().run()
    assert not at.exception, [e.value for e in at.exception]
    settings = state.settings_of(
        {"train.task": "reverse", "train.d_model": 8, "train.heads": 2, "train.steps": 40}
    )
    task = compute.task_of("reverse", 0)
    weights = model_weights(settings, 20, task.inputs[0])
    for head in range(2):
        drawn = np.asarray(
            chart(at, f"transformer.chart.head.{head + 1}")["data"][0]["z"], dtype=float
        )
        # snapshots are kept as float32 (train/snapshots.py): equal to float32's precision
        np.testing.assert_allclose(drawn[task.read_at], weights[head].T, rtol=1e-6, atol=1e-9)
    words = catalog(lang)
    assert words["train.settings.task_options.reverse"] in shown(at)
    assert "20" in shown(at)


@pytest.mark.parametrize("score", ["general", "concat", "location"])
def test_open_in_the_luong_explorer_shows_one_heads_weights_until_a_cell_is_edited(score):
    values = {"task": "previous", "score": score, "d_model": 8, "heads": 2, "steps": 30}
    at = trained(**values)
    at.button(key="train.transfer.luong").click().run()
    assert not at.exception, [e.value for e in at.exception]
    settings = state.settings_of({f"train.{k}": v for k, v in values.items()})
    task = compute.task_of("previous", 0)
    weights = model_weights(settings, 30, task.inputs[0])
    drawn = np.asarray(chart(at, "luong.chart.A")["data"][0]["z"], dtype=float)
    np.testing.assert_allclose(drawn, weights[0], atol=1e-12)  # head 1, L × T, masked cells 0
    note = catalog("en")["common.trained"].split("**")[1]
    assert note in shown(at)
    type_cell(at, "luong.Q", 0, "q1", 0.5)
    at.run()
    assert note not in shown(at)


def test_a_model_whose_shapes_do_not_fit_says_why_instead_of_opening():
    at = trained(task="reverse", score="dot", d_model=32, heads=1, steps=20)
    assert at.button(key="train.transfer.transformer").disabled
    assert at.button(key="train.transfer.luong").disabled
    words = catalog("en")
    assert words["train.transfer.transformer_score"] in shown(at)
    assert words["train.transfer.luong_size"].format(d_h=32, length=6, high=8) in shown(at)
