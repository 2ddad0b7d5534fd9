"""Predict, then reveal on the training page, out of a class: until "which cells light up?" is
revealed, nothing on the page states its answer; "which score learns first?" reveals the engine's
first run to 90 % held-out accuracy and grades the guess (its reveal raised: the winners of
negative speeds were none)."""

from __future__ import annotations

from attention_core.training import TRAINING_SCORES
from attention_ui.kit.text.i18n import catalog
from attention_ui.train import compute, state
from tests.support.pages import open_page, shown
from tests.support.train import SETTINGS, charts, engine_run, giveaways, keys

EN = catalog("en")


def predicting_page(compare: bool = False):
    at = open_page("train")
    for key, value in SETTINGS.items():
        at.session_state[key] = value
    at.toggle(key="train.predict").set_value(True).run()
    at.button(key=state.TRAIN_BUTTON).click().run()
    if compare:
        at.button(key=state.COMPARE_BUTTON).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_until_the_cells_are_revealed_nothing_states_them():
    at = predicting_page()
    assert "train.chart.loss" in charts(at)
    assert not {g for g in giveaways(at) if not g.startswith("tasks.")}  # hints: out of class
    assert "weight on the right position" not in shown(at)
    at.button(key="train.predict.reveal").click().run()
    assert not at.exception
    assert "train.chart.weights.0" in charts(at)
    assert {"train.chart.weights.0", "train.probe.reverse", "export"} <= giveaways(at)
    assert "weight on the right position" in shown(at)
    assert "no guess. The most weight goes to" in shown(at)


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
