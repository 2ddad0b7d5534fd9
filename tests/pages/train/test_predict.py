"""Predict, then reveal on the training page, out of a class: the learner clicks, on the step-0
heatmap, the input each output will use; until "which cells light up?" is revealed, nothing on
the page states its answer (the player stays at step 0, the right positions unframed); the
reveal grades the clicks and compares them with the learned weights in a sentence from the
numbers; "which score learns first?" reveals the engine's first run to 90 % held-out accuracy
and grades the guess, its live curves hidden while it is open."""

from __future__ import annotations

import numpy as np

from attention_core.formatting import fmt
from attention_core.training import TRAINING_SCORES
from attention_ui.kit.text.i18n import catalog
from attention_ui.train import compute, state
from attention_ui.train.schema import SCHEMA
from tests.support.pages import open_page, shown
from tests.support.train import SETTINGS, charts, engine_run, giveaways, keys, players, press_train

EN, JA = catalog("en"), catalog("ja")
START = f"{state.PLAYER}.start"


def predicting_page(compare: bool = False, lang: str = "en", picks=None):
    at = open_page("train", lang)
    for key, value in SETTINGS.items():
        at.session_state[key] = value
    at.toggle(key="train.predict").set_value(True).run()
    if picks is not None:  # the clicks, as the player sends them
        at.session_state[START] = {"pick": picks}
        at.run()
    press_train(at, SETTINGS)
    if compare:
        at.button(key=state.COMPARE_BUTTON).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_before_training_the_step_0_cells_are_clicked_with_no_answer_framed():
    at = open_page("train")
    for key, value in SETTINGS.items():
        at.session_state[key] = value
    at.toggle(key="train.predict").set_value(True).run()
    start = players(at)[START]
    assert start["pick"] == {"panel": 0, "chosen": [None] * 6}
    assert start["panels"][0]["rings"] == [], "the right positions would give the answer away"
    assert "right position" not in start["panels"][0]["title"]
    at.session_state[START] = {"pick": [5, 4, None, None, None, None]}
    at.run()
    at.run()
    assert players(at)[START]["pick"]["chosen"] == [5, 4, None, None, None, None]
    assert EN["watch.picked"].format(picked=2, rows=6) in shown(at)


def test_until_the_cells_are_revealed_nothing_states_them():
    picks = [5, 4, 3, 0, 0, 0]
    at = predicting_page(picks=picks)
    assert "train.chart.loss" in charts(at)
    assert not {g for g in giveaways(at) if not g.startswith("tasks.")}  # hints: out of class
    assert START in players(at), "the step-0 cells stay, to click again"
    assert "weight on the right position" not in shown(at)
    at.button(key="train.predict.reveal").click().run()
    assert not at.exception
    assert "train.player" in players(at)
    assert {"train.player", "fold.input", "export"} <= giveaways(at)
    assert "weight on the right position" in shown(at)
    # the clicks were the guesses, and the gap is the engine's numbers
    final = engine_run().snapshots[-1].weights[0].mean(axis=0)  # outputs × inputs
    mine = np.mean([final[row, c] for row, c in enumerate(picks)])
    best = np.mean(final.max(axis=1))
    right = sum(int(np.argmax(final[row])) == c for row, c in enumerate(picks))
    sentence = EN["watch.gap_far"].format(
        mine=fmt(float(mine)),
        gap=fmt(float(best - mine)),
        best=fmt(float(best)),
        rows_right=right,
        rows=6,
    )
    assert sentence in shown(at)


def test_the_gap_is_said_in_japanese_too():
    at = predicting_page(lang="ja", picks=[0, 0, 0, 0, 0, 0])
    at.button(key="train.predict.reveal").click().run()
    assert not at.exception
    assert "選んだセルには学習後の重みが平均" in shown(at)


def test_predict_mode_travels_in_the_address():
    at = open_page("train")
    at.toggle(key="train.predict").set_value(True).run()
    assert dict(at.query_params)["predict"] == "1"
    assert any(field.param == "predict" for field in SCHEMA.fields)


def test_which_score_learns_first_is_revealed_and_graded():
    at = predicting_page(compare=True)
    first = {s: compute.first_step_reaching(engine_run(s), 0.9) for s in TRAINING_SCORES}
    earliest = min(step for step in first.values() if step is not None)
    winner = next(s for s in TRAINING_SCORES if first[s] == earliest)
    loser = next(s for s in TRAINING_SCORES if first[s] != earliest)
    radio = at.radio(key=next(k for k in keys(at) if k.startswith("train.compare.predict.guess")))
    radio.set_value(TRAINING_SCORES.index(loser)).run()
    at.button(key="train.compare.predict.reveal").click().run()
    assert not at.exception, [e.value for e in at.exception]
    text = shown(at)
    best = EN[f"engine.value.score.{winner}"]
    # accuracy is measured at snapshots only: the step is the first snapshot at or past 90 %
    assert f"but first there: {best}, by the snapshot of step {earliest}." in text
    chosen = EN[f"engine.value.score.{loser}"]
    when = (
        f"there by the snapshot of step {first[loser]}"
        if first[loser]
        else "not there within 60 steps"
    )
    assert f"You chose {chosen}, {when}" in text
    assert "train.chart.compare.accuracy" in charts(at)


def test_while_which_score_learns_first_is_open_the_runs_train_without_live_curves(monkeypatch):
    """The compared runs' live accuracy curves would answer the question while they train:
    with the switch on, nothing but the progress is drawn until they finish (and the question
    is asked); with it off, the live curves are drawn. Seeds no other test trains, so the runs
    train here, in front of the page."""
    from attention_ui.train import view

    drawn = []
    monkeypatch.setattr(view, "show_moving_chart", lambda *a, **k: drawn.append(k))
    for seed, predict in ((11, True), (12, False)):
        values = {**SETTINGS, "train.seed": seed}
        at = open_page("train")
        for key, value in values.items():
            at.session_state[key] = value
        at.toggle(key="train.predict").set_value(predict).run()
        press_train(at, values)
        drawn.clear()
        at.button(key=state.COMPARE_BUTTON).click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert bool(drawn) is not predict, (seed, predict, len(drawn))
    assert "train.chart.compare.accuracy" in charts(at), "the finished curves, once revealed"
