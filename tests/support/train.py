"""The training page in AppTest: settings of a quick run in which some score function learns,
the engine's own run for them, and the charts and widgets a run drew."""

from __future__ import annotations

import json
import time

from streamlit.testing.v1 import AppTest

from attention_core import toy_task, train_attention
from attention_ui.kit.state.settings import defaults
from attention_ui.kit.text.i18n import catalog
from attention_ui.train import compute, runs, state
from tests.plotly_json import charts as live_charts

PLAYER = "attention_train_player"
FOLDS = ("model", "learned", "transfer", "input")  # and the export, a fold of its own

# A run of a few seconds in which some score function reaches 90 % held-out accuracy.
SETTINGS = {
    "train.task": "reverse",
    "train.steps": 60,
    "train.d_model": 8,
    "train.learning_rate": 0.05,
}


def engine_run(score: str = "scaled_dot"):
    """The engine's run of SETTINGS with this score function, trained here."""
    s = state.settings_of({**defaults(state.SETTINGS), **SETTINGS, "train.score": score})
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


def keys(at: AppTest) -> set[str]:
    """The keys of the run's buttons, toggles, text and number boxes and radios."""
    widgets = [*at.button, *at.toggle, *at.text_input, *at.number_input, *at.radio]
    return {str(w.key) for w in widgets}


def charts(at: AppTest) -> set[str]:
    """The keys of the run's charts."""
    return {c.proto.id.rsplit("-", 1)[-1] for c in live_charts(at)}


def players(at: AppTest) -> dict[str, dict]:
    """The attention players drawn (train/player.py), by key: the data each was sent."""
    return {
        e.proto.id.rsplit("-", 1)[-1]: json.loads(e.proto.json)
        for e in at.get("bidi_component")
        if e.proto.component_name == PLAYER
    }


def folds(at: AppTest) -> set[str]:
    """The training page's folds drawn (train.fold.<name>), by name."""
    found = set()
    for lang in ("en", "ja"):
        words = catalog(lang)
        for name in FOLDS:
            if any(e.label == words[f"watch.{name}_fold"] for e in at.expander):
                found.add(name)
    return found


def giveaways(at: AppTest) -> set[str]:
    """What on the training page states which cells light up at the end: the trained
    attention (the player of every snapshot, the live one), the typed input and its steps, the
    weights sent to other pages, the export, what each head learned (their folds), the task
    hints (the sentences are checked by their words)."""
    found = {k for k in players(at) if k in ("train.player", "train.player.live")}
    found |= {c for c in charts(at) if c.startswith(("train.chart.step", "train.chart.learned"))}
    prefixes = ("train.probe", "train.transfer", "tasks.")
    found |= {k for k in keys(at) if k.startswith(prefixes)}
    found |= {"export" for e in at.expander if str(e.icon) == ":material/download:"}
    found |= {f"fold.{name}" for name in folds(at) if name != "model"}
    return found


def press_train(at: AppTest, values: dict | None = None) -> AppTest:
    """Train pressed, and the page once the run of the page's settings (`values` by key, the
    rest at their defaults) has finished: a run that takes longer than the page waits shows
    the live screen first."""
    at.button(key=state.TRAIN_BUTTON).click().run()
    settings = state.settings_of({**defaults(state.SETTINGS), **(values or {})})
    for _ in range(3):  # the live screen until the run has finished (a run may wait in line)
        job = runs.kept(settings)
        if job is None or ("train.player.live" not in players(at) and not at.get("progress")):
            break
        polled(job)
        at.run()
    return at


def choose_step(at: AppTest, step: int) -> AppTest:
    """The player stopped at `step` (its state, as the browser sends it); AppTest calls no
    component callback, so the page follows on the run after."""
    at.session_state[state.PLAYER] = {"step": step}
    at.run()
    return at.run()


def polled(job, seconds: float = 300.0):
    """Wait for a run as a page does, polling it (train/runs.py cancels a run nobody polls);
    what it came to."""
    deadline = time.monotonic() + seconds
    while not job.finished.wait(0.3) and time.monotonic() < deadline:
        job.seen()
    assert job.finished.is_set(), "the run did not finish"
    return job.seen()
