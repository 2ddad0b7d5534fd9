"""The gallery plane's numbers from its inputs: one pure function that the plane, the cases,
the export, the tasks and the claim walk all call, so each reads the same engine run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attention_core import AttentionResult, attention

# τ along the output's path in the plane, from nearly argmax to nearly the mean.
PATH_TEMPERATURES = np.geomspace(0.01, 100.0, 61)


@dataclass(frozen=True)
class Inputs:
    """What the plane computes from: the values (m × 2, one per row; the keys are the
    values), the query q, τ and the normalization."""

    values: np.ndarray
    query: Sequence[float]
    temperature: float = 1.0
    normalization: str = "softmax"


def compute(inputs: Inputs, temperature: float | None = None) -> AttentionResult:
    """`attention_core.attention` with keys = values and the dot score, at the page's τ (or at
    `temperature`); raises its AttentionInputError."""
    values = np.asarray(inputs.values, dtype=float)
    return attention(
        np.asarray(inputs.query, dtype=float)[:, None],
        values.T,
        values.T,
        "dot",
        temperature=inputs.temperature if temperature is None else temperature,
        normalization=inputs.normalization,
    )


def output_path(inputs: Inputs) -> np.ndarray:
    """The output at each of PATH_TEMPERATURES (one row per τ); raises AttentionInputError."""
    return np.array([compute(inputs, tau).output[:, 0] for tau in PATH_TEMPERATURES])
