"""The training page through AppTest: what the learner sees is what the engine's training
computes for the settings on the page, in English and Japanese: the model at step 0 before
anything is pressed, the curves and every snapshot's attention once trained, the step chosen in
the player followed by the curves."""

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
from tests.support.train import players, press_train

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


def percent(weights) -> list[int]:
    return np.rint(np.clip(weights, 0, 1) * 100).astype(int).ravel().tolist()


def trained_page(lang: str = "en", **changes):
    at = open_page("train", lang)
    values = {**QUICK, **changes}
    for key, value in values.items():
        at.session_state[key] = value
    press_train(at, values)
    no_exception(at)
    return at


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_page_opens_on_the_model_at_step_0(lang):
    at = open_page("train", lang)
    no_exception(at)
    words = catalog(lang)
    assert at.title[0].value == words["train.title"]
    labels = {w.label for kind in (at.selectbox, at.select_slider, at.number_input) for w in kind}
    for s in state.SETTINGS:
        assert words[s.label] in labels
    # the defaults' model as initialised: key lookup's first four examples, one per row
    run = train_attention(
        toy_task("lookup", size=compute.TASK_SIZE, seed=0), steps=10, record_every=10
    )
    start = players(at)["train.player.start"]
    assert start["steps"] == [0]
    panel = start["panels"][0]
    assert panel["z"][0] == percent(run.snapshots[0].weights[:4, 0, 0, :])
    assert len(panel["y"]) == 4
    assert words["train.snapshot.title"].format(step="0") in [h.value for h in at.header]
    assert "train.player" not in players(at)


def test_key_lookup_shows_four_examples_whose_answer_moves():
    at = trained_page(**{"train.task": "lookup"})
    task = compute.task_of("lookup", 0)
    panel = players(at)["train.player"]["panels"][0]
    rings = [column for _, column in panel["rings"]]
    assert rings == [int(task.attend[e][0]) for e in range(4)]
    assert len(set(rings)) > 1, "the answer's position moves between the examples"
    run = engine_run(**{"train.task": "lookup"})
    assert panel["z"][-1] == percent(run.snapshots[-1].weights[:4, 0, 0, :])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_train_draws_the_engines_curves_and_every_snapshots_attention(lang):
    at = trained_page(lang)
    run = engine_run()
    loss = chart(at, "train.chart.loss")["data"][0]
    np.testing.assert_array_equal(np.asarray(loss["y"], dtype=float), run.loss)
    accuracy = chart(at, "train.chart.accuracy")["data"][0]
    np.testing.assert_array_equal(np.asarray(accuracy["y"], dtype=float), run.accuracy)
    drawn = players(at)["train.player"]
    assert drawn["steps"] == [int(s) for s in run.snapshot_steps]
    assert drawn["words"]["play"] == catalog(lang)["watch.play"]
    panel = drawn["panels"][0]
    # kept as float32 (train/snapshots.py): a weight's percent may round the other way
    expected = np.array([percent(s.weights[0, 0]) for s in run.snapshots])
    assert np.abs(np.array(panel["z"]) - expected).max() <= 1
    task = compute.task_of("reverse", 0)
    assert panel["rings"] == [[row, int(column)] for row, column in enumerate(task.attend[0])]


@pytest.mark.parametrize(
    ("lang", "title"), [("en", "Layer {} · head {}"), ("ja", "第 {} 層 · ヘッド {}")]
)
def test_induction_draws_both_layers_named(lang, title):
    at = trained_page(lang, **{"train.task": "induction", "train.steps": 20, "train.heads": 2})
    run = engine_run(**{"train.task": "induction", "train.steps": 20, "train.heads": 2})
    panels = players(at)["train.player"]["panels"]
    titles = [p["title"] for p in panels]
    assert titles == [title.format(layer, head) for layer in (1, 2) for head in (1, 2)]
    final = run.snapshots[-1].layer_weights
    assert panels[1]["z"][-1] == percent(final[0][0, 1])  # layer 1, head 2: L × L (float64)
    assert panels[2]["z"][-1] == percent(final[1][0, 0])  # layer 2, head 1: T × L


def test_a_step_chosen_in_the_player_moves_the_page_to_it():
    at = trained_page()
    run = engine_run()
    early = int(run.snapshot_steps[1])
    at.session_state[state.PLAYER] = {"step": early}
    at.run()
    at.run()  # AppTest calls no component callback: the page follows on its next run
    no_exception(at)
    assert EN["train.snapshot.title"].format(step=str(early)) in [h.value for h in at.header]
    marker = chart(at, "train.chart.loss")["layout"]["shapes"][0]
    assert marker["x0"] == early
    assert players(at)["train.player"]["index"] == 1


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
