"""Tasks the app checks: the one place their rules live (no Streamlit in here).

Each task reads a plain snapshot of one page's inputs (a dict the panel builds from the page's
state accessors, see attention_ui/task_panel.py), recomputes with `attention_core`, and returns
a `Progress`: solved or not, and how far off the learner is, as numbers the interface words in
either language (`tasks.<id>.progress`). A snapshot that does not fit the task (too few keys,
another score function) is `Progress(False, reason=...)`, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from attention_core import (
    AttentionInputError,
    attention,
    fmt,
    gradient_search,
    lookup,
    query_gradient,
    squeeze_excitation,
)

Snapshot = Mapping[str, Any]


@dataclass(frozen=True)
class Progress:
    """solved; params for the catalog's progress sentence; reason: a catalog key saying why
    the task cannot be checked in the current state (None when it can)."""

    solved: bool
    params: Mapping[str, str] = field(default_factory=dict)
    reason: str | None = None


@dataclass(frozen=True)
class Task:
    id: str
    page: str
    hints: int  # how many hints the catalog has: tasks.<id>.hint1 … hint<n>
    check: Callable[[Snapshot], Progress]


def _unfit(reason: str) -> Progress:
    return Progress(False, reason=f"tasks.reason.{reason}")


# --- Luong ----------------------------------------------------------------------------------


def _luong_result(s: Snapshot):
    return attention(
        s["Q"],
        s["K"],
        s["V"],
        s["score"],
        W=s.get("W"),
        Wa=s.get("Wa"),
        va=s.get("va"),
        temperature=s["tau"],
    )


def luong_focus(s: Snapshot) -> Progress:
    """General score: q₂ puts at least 0.9 of its weight on k₃."""
    if s.get("mask", "none") != "none":
        return _unfit("needs_no_mask")
    if s["score"] != "general":
        return _unfit("needs_general")
    if s["Q"].shape[1] < 2 or s["K"].shape[1] < 3:
        return _unfit("needs_two_queries_three_keys")
    weight = float(_luong_result(s).weights[2, 1])
    return Progress(weight >= 0.9, {"weight": fmt(weight)})


def luong_mean(s: Snapshot) -> Progress:
    """Every query's output is the mean of the values (within 0.01 in each entry)."""
    if s.get("mask", "none") != "none":
        return _unfit("needs_no_mask")
    result = _luong_result(s)
    mean = s["V"].mean(axis=1, keepdims=True)
    gap = float(np.abs(result.output - mean).max())
    return Progress(gap <= 0.01, {"gap": fmt(gap)})


# --- Database -------------------------------------------------------------------------------


def database_lipton(s: Snapshot) -> Progress:
    """Query "Li" with no record "Li": Lipton gets at least 0.9 of the weight."""
    keys = [record[0] for record in s["records"]]
    if s["query"] != "Li":
        return _unfit("needs_query_li")
    if "Li" in keys:
        return _unfit("needs_no_li")
    if "Lipton" not in keys:
        return _unfit("needs_lipton")
    result = lookup(s["records"], "Li", s["similarity"], temperature=s["tau"])
    weight = float(result.weights[keys.index("Lipton")])
    return Progress(weight >= 0.9, {"weight": fmt(weight)})


def database_uniform(s: Snapshot) -> Progress:
    """Every record gets the same weight 1/m (within 0.01): average pooling."""
    result = lookup(s["records"], s["query"], s["similarity"], temperature=s["tau"])
    m = len(result.weights)
    gap = float(np.abs(result.weights - 1 / m).max())
    return Progress(gap <= 0.01, {"gap": fmt(gap), "m": str(m)})


# --- Gallery --------------------------------------------------------------------------------


def _gallery_result(s: Snapshot):
    values = s["values"]
    return attention(
        np.array(s["q"])[:, None],
        values.T,
        values.T,
        "dot",
        temperature=s["tau"],
        normalization=s["normalization"],
    )


def gallery_one_hot(s: Snapshot) -> Progress:
    """One value gets at least 0.99 of the weight (d2l's case 3, approximately)."""
    weight = float(_gallery_result(s).weights.max())
    return Progress(weight >= 0.99, {"weight": fmt(weight)})


def gallery_mean(s: Snapshot) -> Progress:
    """The output lies within 0.05 of the values' mean (case 4, average pooling)."""
    output = _gallery_result(s).output[:, 0]
    gap = float(np.linalg.norm(output - s["values"].mean(axis=0)))
    return Progress(gap <= 0.05, {"gap": fmt(gap)})


# --- Exercises ------------------------------------------------------------------------------


def exercise_small_gradient(s: Snapshot) -> Progress:
    """Move q (and τ) so that ‖∂o/∂q‖ < 0.01."""
    points = s["points"]
    norm = query_gradient(s["q"], points.T, points.T, temperature=s["tau"]).norm
    return Progress(norm < 0.01, {"norm": fmt(norm)})


def exercise_open_gates(s: Snapshot) -> Progress:
    """Every SE sigmoid gate is at least 0.9."""
    gates = squeeze_excitation(s["X"], s["W1"], s["W2"]).gates
    low = float(gates.min())
    return Progress(low >= 0.9, {"low": fmt(low)})


def exercise_quick_search(s: Snapshot) -> Progress:
    """In at most 20 steps, the search gives the target at least 0.99 of the weight."""
    if s["steps"] > 20:
        return _unfit("needs_few_steps")
    path = gradient_search(
        s["start"], s["keys"], s["target"], learning_rate=s["rate"], steps=s["steps"]
    )
    weight = float(path.weights[-1, path.target])
    return Progress(weight >= 0.99, {"weight": fmt(weight), "steps": str(path.steps)})


TASKS: tuple[Task, ...] = (
    Task("luong_focus", "luong", 2, luong_focus),
    Task("luong_mean", "luong", 2, luong_mean),
    Task("database_lipton", "database", 2, database_lipton),
    Task("database_uniform", "database", 2, database_uniform),
    Task("gallery_one_hot", "gallery", 2, gallery_one_hot),
    Task("gallery_mean", "gallery", 2, gallery_mean),
    Task("exercise_small_gradient", "exercises", 2, exercise_small_gradient),
    Task("exercise_open_gates", "exercises", 2, exercise_open_gates),
    Task("exercise_quick_search", "exercises", 2, exercise_quick_search),
)


def tasks_of(page: str) -> tuple[Task, ...]:
    return tuple(task for task in TASKS if task.page == page)


def check(task: Task, snapshot: Snapshot | None) -> Progress:
    """The task's verdict on a snapshot; None (the page's inputs are not usable) or input the
    engine refuses is 'cannot be checked now', with the reason."""
    if snapshot is None:
        return _unfit("no_inputs")
    try:
        return task.check(snapshot)
    except AttentionInputError:
        return _unfit("engine_refuses")
