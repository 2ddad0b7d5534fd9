"""The transformer page's numbers from its inputs: one pure function that the heads' grid, the
steps, the export and the claim walk all call, so each reads the same engine run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from attention_core import MultiHeadResult, multi_head


@dataclass(frozen=True)
class Inputs:
    """What the page computes from: X (one row per token), the W's by name (W_Q, W_K, W_V,
    W_O), the number of heads, the causal mask and the positions."""

    X: np.ndarray
    weights: Mapping[str, np.ndarray]
    heads: int
    causal: bool = False
    positions: bool = False


def compute(inputs: Inputs) -> MultiHeadResult:
    """`attention_core.multi_head` on the page's inputs; raises its AttentionInputError."""
    w = inputs.weights
    return multi_head(
        inputs.X,
        w["W_Q"],
        w["W_K"],
        w["W_V"],
        w["W_O"],
        inputs.heads,
        causal=inputs.causal,
        positions=inputs.positions,
    )
