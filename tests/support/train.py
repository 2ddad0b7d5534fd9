"""The training page in AppTest: settings of a quick run in which some score function learns,
the engine's own run for them, and the charts and widgets a run drew."""

from __future__ import annotations

import time

from streamlit.testing.v1 import AppTest

from attention_core import toy_task, train_attention
from attention_ui.kit.state.settings import defaults
from attention_ui.train import compute, state
from tests.plotly_json import charts as live_charts

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


def giveaways(at: AppTest) -> set[str]:
    """What on the training page states which cells light up at the end: the weights' charts,
    the typed input and its steps, the weights sent to other pages, the export, the task hints
    (the sentences are checked by their words)."""
    found = {c for c in charts(at) if c.startswith(("train.chart.weights", "train.chart.step"))}
    prefixes = ("train.probe", "train.transfer", "tasks.")
    found |= {k for k in keys(at) if k.startswith(prefixes)}
    found |= {"export" for e in at.expander if str(e.icon) == ":material/download:"}
    return found


def polled(job, seconds: float = 300.0):
    """Wait for a run as a page does, polling it (train/runs.py cancels a run nobody polls);
    what it came to."""
    deadline = time.monotonic() + seconds
    while not job.finished.wait(0.3) and time.monotonic() < deadline:
        job.seen()
    assert job.finished.is_set(), "the run did not finish"
    return job.seen()
