"""d2l's four special cases of the attention weights, for values v₁…v_m in the plane.

Pure NumPy (no Streamlit), so the claims the page prints can be tested directly: each case's
weights, the output Σ wᵢ vᵢ they give, and whether that output is where the case puts it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention_core.geometry import combine, in_cone, in_hull, weight_cases

CASES = ("nonneg", "convex", "one_hot", "uniform")


@dataclass(frozen=True)
class Case:
    """One case: its name (a catalog key part), its weights and the output they give."""

    name: str
    weights: np.ndarray
    output: np.ndarray


def special_cases(
    values: np.ndarray, alpha: np.ndarray, cone_weights: np.ndarray, best: int
) -> list[Case]:
    """The learner's non-negative weights, the engine's α, one-hot on the best score, uniform.

    `values` is (m, 2); `best` is the index of the highest score.
    """
    m = values.shape[0]
    weights = {
        "nonneg": np.asarray(cone_weights, dtype=float),
        "convex": np.asarray(alpha),
        "one_hot": np.eye(m)[best],
        "uniform": np.full(m, 1.0 / m),
    }
    return [Case(name, weights[name], combine(values, weights[name])) for name in CASES]


def outside_hull_but_in_cone(case: Case, values: np.ndarray) -> bool:
    """Whether case 1's note "left the hull, but not the cone" is true: weights that are all
    non-negative (so the output stays in the cone) but do not sum to 1, and an output that is
    in the cone and outside the hull. Negative weights can leave the cone too: no note then."""
    found = weight_cases(case.weights)
    return bool(
        case.name == "nonneg"
        and found.non_negative
        and in_cone(case.output, values)
        and not in_hull(case.output, values)
    )


def holds(case: Case, values: np.ndarray, best: int) -> bool:
    """Whether the output is where the case says: in the cone, in the hull, on v_best, at the
    mean. The weights are checked too, except for the cone (the page warns about those)."""
    found = weight_cases(case.weights)
    if case.name == "nonneg":
        return bool(in_cone(case.output, values))
    if case.name == "convex":
        return bool(found.convex and in_hull(case.output, values))
    if case.name == "one_hot":
        return bool(found.one_hot is not None and np.allclose(case.output, values[best]))
    return bool(found.uniform and np.allclose(case.output, values.mean(axis=0)))
