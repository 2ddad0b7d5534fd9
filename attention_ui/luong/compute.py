"""The Luong page's numbers from its inputs: one pure function that the view, the tasks, the
comparison, the sentences and the claim walks all call, so each reads the same engine run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from attention_core import AttentionResult, attention
from attention_ui.luong.model import engine_parameters


@dataclass(frozen=True)
class Inputs:
    """What the page computes from: its matrices by name (Q, K, V in `layout`; W, Wa_concat,
    va, Wa_location in column form, None where the learner has no valid one), the score, the
    layout, τ and the mask (in `layout`, True where a query may attend)."""

    values: Mapping[str, np.ndarray | None]
    score: str
    layout: str = "column"
    temperature: float = 1.0
    mask: np.ndarray | None = None


def compute(inputs: Inputs) -> AttentionResult:
    """`attention_core.attention` on the page's inputs; raises its AttentionInputError."""
    values = inputs.values
    return attention(
        values["Q"],
        values["K"],
        values["V"],
        inputs.score,
        temperature=inputs.temperature,
        mask=inputs.mask,
        layout=inputs.layout,
        **engine_parameters(inputs.score, values),
    )


def in_columns(result: AttentionResult) -> tuple[np.ndarray, np.ndarray]:
    """(weights, output) in column layout (keys × queries, d_v × queries), whatever the
    result's layout."""
    if result.layout == "column":
        return result.weights, result.output
    return result.weights.T, result.output.T
