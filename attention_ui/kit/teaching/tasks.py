"""Tasks the app checks: what a task is and how its verdict is reached (no Streamlit here).

Each page's package lists its tasks (`<page>/tasks.py`): a rule reads a plain snapshot of the
page's inputs (a dict the page's `snapshot()` builds), recomputes with `attention_core`, and
returns a `Progress`: solved or not, and how far off the learner is, as numbers the interface
words in either language (`tasks.<id>.progress`). A snapshot that does not fit the task (too
few keys, another score function) is `Progress(False, reason=...)`, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from attention_core import AttentionInputError

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


def unfit(reason: str) -> Progress:
    """The task cannot be checked in this state: `reason` names the catalog sentence saying why."""
    return Progress(False, reason=f"tasks.reason.{reason}")


def finite(*arrays: Any) -> bool:
    """Every array is there and holds only finite numbers (a half-edited grid does not)."""
    return all(a is not None and np.isfinite(np.asarray(a, dtype=float)).all() for a in arrays)


def check(task: Task, snapshot: Snapshot | None) -> Progress:
    """The task's verdict on a snapshot; None (the page's inputs are not usable) or input the
    engine refuses is 'cannot be checked now', with the reason."""
    if snapshot is None:
        return unfit("no_inputs")
    try:
        return task.check(snapshot)
    except AttentionInputError:
        return unfit("engine_refuses")
