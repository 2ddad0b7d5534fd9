"""The training page's sentences about runs (train/claims.py), each on the states that would
make it false: a run that reaches 90 % and keeps it, one that reaches it and collapses
(induction at η = 0.05), one that nearly reaches it and collapses, one that stays near chance;
the comparison naming every score function's final accuracy and which was first; and the
tasks panel before any run is trained."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from attention_core import toy_task, train_attention
from attention_core.formatting import fmt
from attention_ui.kit.text.i18n import catalog
from attention_ui.train import claims, state
from tests.support.pages import open_page, shown
from tests.support.train import players, press_train

EN, JA = catalog("en"), catalog("ja")
CHANCE = 1 / 6


def run_of(accuracy, every=6, on_target=None):
    """The fields of a run the claims read: held-out accuracy at snapshots every `every` steps."""
    accuracy = np.asarray(accuracy, dtype=float)
    steps = np.arange(len(accuracy)) * every
    on_target = np.linspace(0.2, 0.9, len(accuracy)) if on_target is None else on_target
    return SimpleNamespace(
        accuracy=accuracy, snapshot_steps=steps, record_every=every, on_target=on_target
    )


# The states each sentence must tell apart (held-out accuracy at each snapshot).
STATES = {
    "kept": ([0.1, 0.5, 0.93, 0.97, 1.0], ["learned", "ended_at_peak"]),
    "slipped a little": ([0.1, 0.5, 0.95, 0.99, 0.96], ["learned", "ended"]),
    "collapsed": ([0.1, 0.908, 0.6, 0.2, 0.083], ["learned", "collapsed"]),
    "collapsed short of 90 %": ([0.1, 0.898, 0.5, 0.069], ["not_yet", "collapsed"]),
    "still climbing": ([0.1, 0.3, 0.5, 0.7], ["not_yet", "ended_at_peak"]),
    "near chance": ([0.15, 0.2, 0.18, 0.16], ["near_chance"]),
}


@pytest.mark.parametrize(("accuracy", "keys"), STATES.values(), ids=STATES.keys())
def test_each_run_sentence_is_said_only_in_the_state_it_describes(accuracy, keys):
    said = claims.run_claims(run_of(accuracy), CHANCE)
    assert [c.key for c in said] == keys
    numbers = said[0].numbers
    assert numbers["peak"] == max(accuracy) and numbers["final"] == accuracy[-1]
    assert numbers["peak_step"] == 6 * int(np.argmax(accuracy))


def test_the_first_step_at_90_percent_is_the_first_snapshot_at_or_past_it():
    """Accuracy is measured at snapshots only: the sentence names the snapshot's step and says
    how often snapshots are taken, not that the run reached 90 % exactly there."""
    (learned, _) = claims.run_claims(run_of([0.1, 0.89, 0.9, 0.95], every=6), CHANCE)
    assert learned.numbers["step"] == 12 and learned.numbers["every"] == 6
    for words in (EN, JA):
        text = words["train.claims.learned"]
        assert "{every}" in text and "{step}" in text
    assert "first snapshot at or past" in EN["train.claims.learned"]
    assert "first reached" not in EN["train.claims.learned"]


def test_induction_at_a_large_learning_rate_is_said_to_collapse():
    """Reproduced with the engine: induction at η = 0.05 (seed 0, the page's other defaults)
    reaches 90.8 % at the snapshot of step 96 and ends at 8.3 %, below chance; at η = 0.02 it
    keeps what it learned (97 % at the end)."""
    task = toy_task("induction", size=256, seed=0)
    collapsing = train_attention(task, learning_rate=0.05, steps=600, record_every=6)
    said = claims.run_claims(collapsing, task.chance)
    assert [c.key for c in said] == ["learned", "collapsed"]
    assert collapsing.accuracy.max() >= claims.LEARNED
    assert collapsing.accuracy[-1] < task.chance
    for lang in ("en", "ja"):
        text = " ".join(claims.sentence(c, lang) for c in said)
        assert fmt(100 * collapsing.accuracy.max()) in text
        assert fmt(100 * collapsing.accuracy[-1]) in text
    kept = train_attention(task, learning_rate=0.02, steps=600, record_every=6)
    assert "collapsed" not in [c.key for c in claims.run_claims(kept, task.chance)]


def test_the_page_says_the_collapse_of_the_run_it_trained():
    at = open_page("train", "en")
    values = {"train.task": "induction", "train.learning_rate": 0.05, "train.steps": 600}
    for key, value in values.items():
        at.session_state[key] = value
    at.default_timeout = 300  # 600 steps of two layers, on a loaded machine
    press_train(at, values)  # the live screen until the run has finished
    assert not at.exception
    assert "train.player" in players(at), "the finished run is drawn"
    assert "Then it collapsed" in shown(at)


def compared(**finals_and_firsts):
    """Five runs: each score's accuracy at snapshots (steps 0, 6, 12, …)."""
    return {name: run_of(accuracy) for name, accuracy in finals_and_firsts.items()}


def test_the_comparison_names_every_score_functions_final_and_which_was_first():
    """ "While dot reaches 100 %" when four scores reach 100 % and general was first."""
    runs = compared(
        dot=[0.2, 0.5, 0.95, 1.0],
        scaled_dot=[0.2, 0.6, 0.92, 1.0],
        general=[0.2, 0.93, 1.0, 1.0],
        concat=[0.2, 0.3, 0.7, 0.98],
        location=[0.25, 0.26, 0.27, 0.27],
    )
    (claim,) = claims.location_claims(runs, 0.25)
    assert claim.key == "location_blind"
    assert claim.numbers["first_names"] == ["general"] and claim.numbers["step"] == 6
    text = claims.sentence(claim, "en")
    for name, final in (("dot", 100), ("scaled dot", 100), ("general", 100), ("concat", 98)):
        assert f"{name} {final} %" in text
    assert "general, by the snapshot of step 6" in text
    ja = claims.sentence(claim, "ja")
    assert JA["engine.value.score.general"] in ja and "、" in ja


def test_a_tie_for_first_names_every_score_function_in_it():
    runs = compared(dot=[0.2, 0.95, 1.0], general=[0.2, 0.91, 1.0], location=[0.25, 0.26, 0.27])
    (claim,) = claims.location_claims(runs, 0.25)
    assert claim.numbers["first_names"] == ["dot", "general"]
    assert "dot and general, by the snapshot of step 6" in claims.sentence(claim, "en")


def test_location_is_not_called_blind_when_nothing_else_learns_or_it_learns_too():
    nothing = compared(dot=[0.2, 0.5, 0.6], location=[0.25, 0.26, 0.27])
    assert claims.location_claims(nothing, 0.25) == []
    learns = compared(dot=[0.2, 0.95, 1.0], location=[0.2, 0.5, 0.95])
    assert [c.key for c in claims.location_claims(learns, 0.25)] == ["location_positions"]


def test_the_lookup_comparison_over_several_seeds_holds_what_the_sentence_says():
    """The comparison sentence's premises, trained as the reviewer did (key lookup, defaults,
    seeds 0-2): location stays near chance and every score that reads the keys learns."""
    for seed in range(3):
        task = toy_task("lookup", size=256, seed=seed)
        runs = {
            score: train_attention(task, score=score, steps=600, seed=seed, record_every=6)
            for score in ("dot", "scaled_dot", "general", "concat", "location")
        }
        said = claims.location_claims(runs, task.chance)
        assert [c.key for c in said] == ["location_blind"], seed
        finals = said[0].numbers["finals"]
        assert set(finals) == {"dot", "scaled_dot", "general", "concat"}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_before_any_run_the_tasks_ask_for_one_instead_of_blaming_an_empty_input(lang):
    words = catalog(lang)
    at = open_page("train", lang)
    text = shown(at)
    assert words["tasks.reason.needs_run"] in text
    assert words["tasks.reason.no_inputs"] not in text


def test_after_training_every_score_function_the_tasks_check_the_run_of_these_settings():
    """ "Train every score function" trains the page's own settings too: the tasks check that
    run instead of asking for one (they said an input was empty)."""
    at = open_page("train", "en")
    for key, value in {"train.steps": 60, "train.d_model": 8}.items():
        at.session_state[key] = value
    at.button(key=state.COMPARE_BUTTON).click().run(timeout=300)
    assert not at.exception
    text = shown(at)
    assert EN["tasks.reason.needs_run"] not in text
    assert EN["tasks.train_lookup.progress"].split("{")[0] in text
