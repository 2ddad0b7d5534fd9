"""The training page's checked tasks: train key lookup to 99 %, and show that location scores
cannot look a key up. Each rule reads the finished run of the page's settings (a snapshot of
the shared run, the engine's numbers); attention_ui.kit.teaching.task_panel draws them."""

from __future__ import annotations

import streamlit as st

from attention_core.formatting import fmt
from attention_ui.kit.teaching.tasks import Progress, Snapshot, Task, unfit
from attention_ui.train import claims, compute, runs, state


def train_lookup(s: Snapshot) -> Progress:
    """Key lookup trained to at least 99 % held-out accuracy."""
    if s["settings"].task != "lookup":
        return unfit("needs_lookup")
    if s["run"] is None:
        return unfit("needs_run")
    accuracy = float(s["run"].accuracy[-1])
    return Progress(accuracy >= 0.99, {"accuracy": fmt(100 * accuracy)})


def train_location_blind(s: Snapshot) -> Progress:
    """Key lookup with location scores, ending near chance: location reads no key."""
    settings = s["settings"]
    if settings.task != "lookup" or settings.score != "location":
        return unfit("needs_lookup_location")
    if s["run"] is None:
        return unfit("needs_run")
    chance = compute.task_of(settings.task, settings.seed).chance
    accuracy = float(s["run"].accuracy[-1])
    near = claims.NEAR_CHANCE * chance
    return Progress(accuracy < near, {"accuracy": fmt(100 * accuracy), "near": fmt(100 * near)})


TASKS: tuple[Task, ...] = (
    Task("train_lookup", "train", 2, train_lookup),
    Task("train_location_blind", "train", 1, train_location_blind),
)


def snapshot() -> dict:
    """The current settings and their finished run; the run is None until the page shows one
    (Train, or Train every score function, which trains these settings too) and while it
    trains: the rules then say what to do instead of checking."""
    settings = state.current()
    shown = st.session_state.get(state.TRAINED) or st.session_state.get(state.COMPARED)
    job = runs.kept(settings) if shown else None
    seen = job.seen() if job is not None else None
    return {"settings": settings, "run": seen.result if seen is not None else None}
