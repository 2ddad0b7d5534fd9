"""The Luong page's checked tasks: a focused query, and outputs that are the values' mean.

Each rule recomputes with `attention_core` from the plain snapshot of the page's inputs that
`snapshot()` reads through the page's state; attention_ui.kit.teaching.task_panel draws them.
"""

from __future__ import annotations

import numpy as np

from attention_core import attention, fmt
from attention_ui.kit.state.page_state import widget_value
from attention_ui.kit.teaching.tasks import Progress, Snapshot, Task, finite, unfit
from attention_ui.luong import state as luong


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
        return unfit("needs_no_mask")
    if s["score"] != "general":
        return unfit("needs_general")
    if s["Q"].shape[1] < 2 or s["K"].shape[1] < 3:
        return unfit("needs_two_queries_three_keys")
    weight = float(_luong_result(s).weights[2, 1])
    return Progress(weight >= 0.9, {"weight": fmt(weight, 3)})


def luong_mean(s: Snapshot) -> Progress:
    """Every query's output is the mean of the values (within 0.01 in each entry)."""
    if s.get("mask", "none") != "none":
        return unfit("needs_no_mask")
    result = _luong_result(s)
    mean = s["V"].mean(axis=1, keepdims=True)
    gap = float(np.abs(result.output - mean).max())
    return Progress(gap <= 0.01, {"gap": fmt(gap, 3)})


def snapshot() -> dict | None:
    """The page's inputs as the rules read them, or None while they are not usable."""
    layout = widget_value(luong.LAYOUT, "column")
    q, k, v = luong.latest("Q"), luong.latest("K"), luong.latest("V")
    if not finite(q, k, v):
        return None
    if layout == "row":
        q, k, v = q.T, k.T, v.T
    score = widget_value(luong.SCORE, "dot")
    params = {"W": "W", "Wa": "Wa_concat" if score == "concat" else "Wa_location", "va": "va"}
    found = {
        "Q": q,
        "K": k,
        "V": v,
        "score": score,
        "tau": widget_value(luong.TEMPERATURE, 1.0),
        "mask": widget_value(luong.MASK_KIND, "none"),
    }
    for name, matrix in params.items():
        values = luong.latest(matrix)
        found[name] = values if finite(values) else None
    return found


TASKS: tuple[Task, ...] = (
    Task("luong_focus", "luong", 2, luong_focus),
    Task("luong_mean", "luong", 2, luong_mean),
)
