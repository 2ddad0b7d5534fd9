"""The training page through AppTest: what the learner sees is what the engine's training
computes for the settings on the page, in English and Japanese."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import toy_task, train_attention
from attention_core.formatting import fmt
from attention_ui.kit.state.settings import defaults
from attention_ui.kit.text.i18n import catalog
from attention_ui.train import compute, state
from tests.plotly_json import chart
from tests.support.pages import open_page, shown

EN, JA = catalog("en"), catalog("ja")
# Small runs keep the tests quick; every number is still the engine's for these settings.
QUICK = {"train.steps": 60, "train.d_model": 8, "train.task": "reverse"}


def no_exception(at) -> None:
    assert not at.exception, [e.value for e in at.exception]


def engine_run(**changes):
    values = {**defaults(state.SETTINGS), **QUICK, **changes}
    s = state.settings_of(values)
    return train_attention(
        toy_task(s.task, size=compute.TASK_SIZE, seed=s.seed),
        score=s.score,
        heads=s.heads,
        d_model=s.d_model,
        steps=s.steps,
        learning_rate=s.learning_rate,
        seed=s.seed,
        record_every=compute.record_every(s.steps),
    )


def trained_page(lang: str = "en", **changes):
    at = open_page("train", lang)
    for key, value in {**QUICK, **changes}.items():
        at.session_state[key] = value
    at.button(key=state.TRAIN_BUTTON).click().run()
    no_exception(at)
    return at


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_page_opens_with_every_setting_and_no_run_yet(lang):
    at = open_page("train", lang)
    no_exception(at)
    words = catalog(lang)
    assert at.title[0].value == words["train.title"]
    labels = {w.label for kind in (at.selectbox, at.select_slider, at.number_input) for w in kind}
    for s in state.SETTINGS:
        assert words[s.label] in labels
    assert not at.get("plotly_chart")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_train_draws_the_engines_curves_and_weights(lang):
    at = trained_page(lang)
    run = engine_run()
    loss = chart(at, "train.chart.loss")["data"][0]
    np.testing.assert_array_equal(np.asarray(loss["y"], dtype=float), run.loss)
    accuracy = chart(at, "train.chart.accuracy")["data"][0]
    np.testing.assert_array_equal(np.asarray(accuracy["y"], dtype=float), run.accuracy)
    weights = chart(at, "train.chart.weights.0")["data"][0]
    np.testing.assert_allclose(
        np.asarray(weights["z"], dtype=float), run.snapshots[-1].weights[0, 0]
    )
    task = compute.task_of("reverse", 0)
    frames = chart(at, "train.chart.weights.0")["layout"]["shapes"]
    framed = [(round(f["y0"] + 0.5), round(f["x0"] + 0.5)) for f in frames]
    assert framed == [(row, int(column)) for row, column in enumerate(task.attend[0])]


def test_the_slider_scrubs_back_to_an_earlier_snapshot():
    at = trained_page()
    run = engine_run()
    early = int(run.snapshot_steps[1])
    at.select_slider(key=state.STEP).set_value(early).run()
    no_exception(at)
    weights = chart(at, "train.chart.weights.0")["data"][0]
    np.testing.assert_allclose(
        np.asarray(weights["z"], dtype=float), run.snapshot_at(early).weights[0, 0]
    )
    assert not np.allclose(run.snapshot_at(early).weights[0, 0], run.snapshots[-1].weights[0, 0])


def test_a_japanese_curves_y_title_is_written_level():
    at = trained_page("ja")
    layout = chart(at, "train.chart.loss")["layout"]
    assert not layout["yaxis"].get("title", {}).get("text")
    assert any(JA["train.curves.loss"] in str(a.get("text")) for a in layout["annotations"])


def test_the_tasks_check_the_trained_run():
    at = trained_page(**{"train.task": "lookup", "train.score": "location", "train.steps": 60})
    run = engine_run(**{"train.task": "lookup", "train.score": "location", "train.steps": 60})
    text = shown(at)
    accuracy = EN["tasks.train_lookup.progress"].format(accuracy=fmt(100 * run.accuracy[-1]))
    assert accuracy in text
    assert EN["tasks.reason.needs_lookup_location"] not in text
