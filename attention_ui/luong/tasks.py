"""The Luong page's checked tasks: a focused query, and outputs that are the values' mean.

Each rule recomputes with `attention_core` from the plain snapshot of the page's inputs that
`snapshot()` reads through the page's state; attention_ui.kit.teaching.task_panel draws them.
"""

from __future__ import annotations

import numpy as np

from attention_core import AttentionResult
from attention_core.formatting import fmt
from attention_ui.kit.teaching.tasks import Progress, Snapshot, Task, finite, unfit
from attention_ui.luong import state as luong
from attention_ui.luong.compute import Inputs, compute, in_columns


def _numbers(s: Snapshot) -> tuple[np.ndarray, np.ndarray]:
    """(weights, output) in column layout: the page's own run of these inputs when the
    snapshot carries it (the page computes attention once per rerun), else computed here."""
    if s.get("result") is not None:
        return in_columns(s["result"])
    values = {"Q": s["Q"], "K": s["K"], "V": s["V"], "W": s.get("W"), "va": s.get("va")}
    values |= {"Wa_concat": s.get("Wa"), "Wa_location": s.get("Wa")}
    return in_columns(compute(Inputs(values, s["score"], temperature=s["tau"])))


def luong_focus(s: Snapshot) -> Progress:
    """General score: q₂ puts at least 0.9 of its weight on k₃."""
    if s.get("mask", "none") != "none":
        return unfit("needs_no_mask")
    if s["score"] != "general":
        return unfit("needs_general")
    if s["Q"].shape[1] < 2 or s["K"].shape[1] < 3:
        return unfit("needs_two_queries_three_keys")
    weight = float(_numbers(s)[0][2, 1])
    return Progress(weight >= 0.9, {"weight": fmt(weight)})


def luong_mean(s: Snapshot) -> Progress:
    """Every query's output is the mean of the values (within 0.01 in each entry)."""
    if s.get("mask", "none") != "none":
        return unfit("needs_no_mask")
    output = _numbers(s)[1]
    mean = s["V"].mean(axis=1, keepdims=True)
    gap = float(np.abs(output - mean).max())
    return Progress(gap <= 0.01, {"gap": fmt(gap)})


def snapshot(result: AttentionResult | None = None) -> dict | None:
    """The page's inputs as the rules read them, or None while they are not usable; `result`
    is the page's run of these very inputs, when it has one."""
    layout = luong.LAYOUT.value()
    q, k, v = luong.latest("Q"), luong.latest("K"), luong.latest("V")
    if not finite(q, k, v):
        return None
    if layout == "row":
        q, k, v = q.T, k.T, v.T
    score = luong.SCORE.value()
    params = {"W": "W", "Wa": "Wa_concat" if score == "concat" else "Wa_location", "va": "va"}
    found = {
        "Q": q,
        "K": k,
        "V": v,
        "score": score,
        "tau": luong.TEMPERATURE.value(),
        "mask": luong.MASK_KIND.value(),
        "result": result,
    }
    for name, matrix in params.items():
        values = luong.latest(matrix)
        found[name] = values if finite(values) else None
    return found


TASKS: tuple[Task, ...] = (
    Task("luong_focus", "luong", 2, luong_focus),
    Task("luong_mean", "luong", 2, luong_mean),
)
