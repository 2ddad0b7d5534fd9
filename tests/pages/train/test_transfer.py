"""Trained weights travel: the training page puts the model at the slider's step into the
multi-head page and the Luong explorer, which compute the model's own weights from them and
say they are trained, on which task and at which step."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.training import model_forward
from attention_ui.kit.text.i18n import catalog
from attention_ui.train import compute, runs, state
from attention_ui.transformer.figures import key_blocks
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
    # the whole last layer (both heads, W_O and X), not "head 1 of its last layer"
    note = words["learned.handover.note"].format(
        task=words["train.settings.task_options.reverse"],
        score=words["engine.value.score.scaled_dot"],
        step="20",
        heads="2",
        tokens="{tokens}",
    )
    assert note.split("{tokens}")[0] in shown(at)
    assert words["common.trained"].split("{step}")[1].split("{head}")[0] not in shown(at)


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
    at.switch_page("pages/luong.py")  # AppTest reruns the page it was told, not the switched-to one
    type_cell(at, "luong.Q", 0, "q1", 0.5)
    at.run()  # the grid keeps the edit where it is drawn, below the note ...
    at.run()  # ... and its callback's st.rerun (not called by AppTest) draws the page again
    assert not at.exception and chart(at, "luong.chart.A"), "the Luong page, drawn"
    assert note not in shown(at)


def test_a_model_whose_shapes_do_not_fit_says_why_instead_of_opening():
    at = trained(task="reverse", score="dot", d_model=32, heads=1, steps=20)
    assert at.button(key="train.transfer.transformer").disabled
    assert at.button(key="train.transfer.luong").disabled
    words = catalog("en")
    assert words["train.transfer.transformer_score"] in shown(at)
    assert words["train.transfer.luong_size"].format(d_h=32, length=6, high=16) in shown(at)


def head_block(at, block: int) -> np.ndarray:
    """Head 1's weights drawn by the multi-head page for the keys of `block` (a longer
    sentence's head is cut into blocks of keys, the first keeping the head's chart key)."""
    key = "transformer.chart.head.1" + (f".keys{block + 1}" if block else "")
    return np.asarray(chart(at, key)["data"][0]["z"], dtype=float)


@pytest.mark.parametrize(
    ("task", "lang"),
    [("lookup", "en"), ("reverse", "ja"), ("previous", "ja"), ("induction", "en")],
)
def test_the_hand_over_at_the_defaults_opens_both_pages_with_the_trained_numbers(task, lang):
    """At the page's defaults (d_model 16, one head, 600 steps) both pages take the model at
    its last step: the multi-head page and the Luong explorer compute, from what they were sent,
    the attention the training snapshot computes, and say they hold trained numbers (the
    Luong page's puzzle too, instead of "random example with seed 0")."""
    at = trained(lang, task=task)
    settings = state.settings_of({"train.task": task})
    final = runs.kept(settings).seen().result.steps  # the player stops at the last step
    data = compute.task_of(task, 0)
    weights = model_weights(settings, final, data.inputs[0])  # heads × L × T
    words = catalog(lang)
    task_word = words[f"train.settings.task_options.{task}"]

    at.button(key="train.transfer.transformer").click().run()
    assert not at.exception, [e.value for e in at.exception]
    drawn = np.hstack([head_block(at, block) for block in range(len(key_blocks(data.length)))])
    np.testing.assert_allclose(drawn[data.read_at], weights[0].T, rtol=1e-6, atol=1e-9)
    note = [line for line in shown(at).splitlines() if task_word in line]
    assert note and str(final) in note[0] and words["learned.handover.positions"] in shown(at)
    # X's caption says what its rows are made of: a pair's two rows of E (key lookup), layer
    # 1's output added (induction), else one row of E and one of P
    captions = {"lookup": "learned.handover_pairs.x", "induction": "learned.handover.x_two_layers"}
    x_caption = captions.get(task, "learned.handover.x")
    assert words[x_caption] in shown(at)
    assert not [
        k for k in {*captions.values(), "learned.handover.x"} - {x_caption} if words[k] in shown(at)
    ]

    at.switch_page("pages/train.py").run()
    at.session_state["train.fold.transfer"] = True
    at.run()
    at.button(key="train.transfer.luong").click().run()
    assert not at.exception, [e.value for e in at.exception]
    drawn = np.asarray(chart(at, "luong.chart.A")["data"][0]["z"], dtype=float)
    np.testing.assert_allclose(drawn, weights[0], rtol=1e-6, atol=1e-9)  # L × T
    assert words["common.trained"].split("**")[1] in shown(at)
    # the story under the charts: a two-layer model's Q, K, V also hold layer 1's output
    story = "luong.trained_layers.why" if task == "induction" else "luong.trained.why"
    other = "luong.trained.why" if task == "induction" else "luong.trained_layers.why"
    told = {"head": "1", "task": task_word, "step": str(final)}
    assert words[story].format(**told, tokens="{tokens}").split("{tokens}")[0] in shown(at)
    assert words[other].format(**told, tokens="{tokens}").split("{tokens}")[0] not in shown(at)
    at.switch_page("pages/luong.py")  # AppTest reruns the page it was told, not the switched-to one
    at.toggle(key="luong.predict").set_value(True).run()
    caption = "\n".join(str(c.value) for c in at.caption)
    assert task_word in caption and str(final) in caption
    assert words["predict.luong.seed"].split("{")[0] not in caption
