"""The regression page's numbers from its inputs: one pure function that the chart, the
heatmap, the steps, the export and the claim walk all call, so each reads the same engine run."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention_core import NadarayaWatsonResult, nadaraya_watson
from attention_ui.regression import data


@dataclass(frozen=True)
class Inputs:
    """What the page computes from: the training points, the kernel, σ and how many queries."""

    x: np.ndarray
    y: np.ndarray
    kernel: str
    sigma: float
    queries: int


@dataclass(frozen=True)
class Runs:
    queries: NadarayaWatsonResult  # at the learner's queries (heatmap, steps)
    curve: NadarayaWatsonResult  # at many queries (the prediction curve)


def compute(inputs: Inputs) -> Runs:
    """`attention_core.nadaraya_watson` at the queries and along the curve; raises its
    AttentionInputError."""
    x_query = data.queries_along(inputs.x, inputs.queries)
    low, high = data.axis_range(inputs.x)
    curve_x = np.linspace(low, high, data.CURVE_POINTS)
    return Runs(
        nadaraya_watson(x_query, inputs.x, inputs.y, inputs.kernel, inputs.sigma),
        nadaraya_watson(curve_x, inputs.x, inputs.y, inputs.kernel, inputs.sigma),
    )
