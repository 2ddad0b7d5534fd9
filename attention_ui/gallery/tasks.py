"""The gallery's checked tasks: one-hot weights, and an output at the values' mean.

Each rule recomputes with the page's `compute` from the plain snapshot of the page's inputs that
`snapshot()` reads through the page's state; attention_ui.kit.teaching.task_panel draws them.
"""

from __future__ import annotations

import numpy as np

from attention_core.formatting import fmt
from attention_ui.gallery import state as gallery
from attention_ui.gallery.compute import Inputs, compute
from attention_ui.kit.grids.matrix_editor import matrix_values
from attention_ui.kit.teaching.tasks import Progress, Snapshot, Task, finite


def _gallery_result(s: Snapshot):
    return compute(Inputs(s["values"], s["q"], s["tau"], s["normalization"]))


def gallery_one_hot(s: Snapshot) -> Progress:
    """One value gets at least 0.99 of the weight (d2l's case 3, approximately)."""
    weight = float(_gallery_result(s).weights.max())
    return Progress(weight >= 0.99, {"weight": fmt(weight)})


def gallery_mean(s: Snapshot) -> Progress:
    """The output lies within 0.05 of the values' mean (case 4, average pooling)."""
    output = _gallery_result(s).output[:, 0]
    gap = float(np.linalg.norm(output - s["values"].mean(axis=0)))
    return Progress(gap <= 0.05, {"gap": fmt(gap)})


def snapshot() -> dict | None:
    """The page's inputs as the rules read them, or None while they are not usable."""
    values = matrix_values(gallery.VALUES)
    m = gallery.M.value()
    if values is None or not isinstance(m, int) or not 1 <= m <= values.shape[0]:
        return None
    values = values[:m]
    if not finite(values):
        return None
    return {
        "values": values,
        "q": (gallery.Q1.value(), gallery.Q2.value()),
        "tau": gallery.TEMPERATURE.value(),
        "normalization": gallery.NORMALIZATION.value(),
    }


TASKS: tuple[Task, ...] = (
    Task("gallery_one_hot", "gallery", 2, gallery_one_hot),
    Task("gallery_mean", "gallery", 2, gallery_mean),
)
