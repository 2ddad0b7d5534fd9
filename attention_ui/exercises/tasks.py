"""The exercises page's checked tasks: a small gradient, open gates, a quick search.

Each rule recomputes with its exercise's function in attention_ui/exercises/compute.py from the
plain snapshot of the page's inputs that `snapshot()` reads through the page's state;
attention_ui.kit.teaching.task_panel draws them.
"""

from __future__ import annotations

import numpy as np

from attention_core.formatting import fmt
from attention_core.search import letter_pair_vectors
from attention_ui.exercises import compute
from attention_ui.exercises import state as ex
from attention_ui.kit.grids.matrix_editor import matrix_values
from attention_ui.kit.teaching.tasks import Progress, Snapshot, Task, finite, unfit


def exercise_small_gradient(s: Snapshot) -> Progress:
    """Move q (and τ) so that ‖∂o/∂q‖ < 0.01."""
    points = s["points"]
    norm = compute.gradient(compute.GradientInputs(points, s["q"], s["tau"])).result.norm
    return Progress(norm < 0.01, {"norm": fmt(norm)})


def exercise_open_gates(s: Snapshot) -> Progress:
    """Every SE sigmoid gate is at least 0.9."""
    gates = compute.squeeze(compute.SqueezeInputs(s["X"], s["W1"], s["W2"])).sigmoid.gates
    low = float(gates.min())
    return Progress(low >= 0.9, {"low": fmt(low)})


def exercise_quick_search(s: Snapshot) -> Progress:
    """In at most 20 steps, the search gives the target at least 0.99 of the weight."""
    if s["steps"] > 20:
        return unfit("needs_few_steps")
    inputs = compute.SearchInputs(s["keys"], s["start"], s["target"], s["rate"], s["steps"])
    path = compute.search(inputs).path
    weight = float(path.weights[-1, path.target])
    return Progress(weight >= 0.99, {"weight": fmt(weight), "steps": str(path.steps)})


def snapshot() -> dict | None:
    """The page's inputs as the rules read them, or None while they are not usable."""

    points = ex.HUGE_POINTS if ex.GRAD_POINTS.value() == "huge" else ex.gallery_values()[0]
    matrices = {key: matrix_values(key) for key in (ex.SE_X, ex.SE_W1, ex.SE_W2)}
    matrices = {
        key: ex.MATRICES[key] if values is None else values for key, values in matrices.items()
    }
    if ex.SEARCH_SOURCE.value() == "names":
        keys, _pairs = letter_pair_vectors([r[0] for r in ex.database_records()[0]])
        start = np.zeros(keys.shape[0])
    else:
        table = matrix_values(ex.SEARCH_KEYS)
        keys = (ex.MATRICES[ex.SEARCH_KEYS] if table is None else table).T
        start = np.array([ex.SEARCH_Q1.value(), ex.SEARCH_Q2.value()])
    if not finite(*matrices.values(), keys):
        return None
    return {
        "points": points,
        "q": [ex.GRAD_Q1.value(), ex.GRAD_Q2.value()],
        "tau": ex.GRAD_TAU.value(),
        "X": matrices[ex.SE_X],
        "W1": matrices[ex.SE_W1],
        "W2": matrices[ex.SE_W2],
        "keys": keys,
        "start": start,
        "target": ex.SEARCH_TARGET.value(),
        "rate": ex.SEARCH_RATE.value(),
        "steps": ex.SEARCH_STEPS.value(),
    }


TASKS: tuple[Task, ...] = (
    Task("exercise_small_gradient", "exercises", 2, exercise_small_gradient),
    Task("exercise_open_gates", "exercises", 2, exercise_open_gates),
    Task("exercise_quick_search", "exercises", 2, exercise_quick_search),
)
