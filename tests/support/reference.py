"""The score functions straight from their definitions, on plain lists, pair by pair: the
independent reference the engine's matrix forms are checked against."""

from __future__ import annotations

import math


def dot(u: list[float], v: list[float]) -> float:
    total = 0.0
    for a, b in zip(u, v, strict=True):
        total += a * b
    return total


def mat_vec(matrix: list[list[float]], vector: list[float]) -> list[float]:
    return [dot(row, vector) for row in matrix]


def reference_score(score: str, q: list[float], k: list[float], i: int, params: dict) -> float:
    """score(q, k_i) straight from the definitions in the spec's table."""
    if score == "dot":
        return dot(k, q)
    if score == "scaled_dot":
        return dot(k, q) / math.sqrt(len(k))
    if score == "general":  # kᵀ W q
        return dot(k, mat_vec(params["W"], q))
    if score == "concat":  # v_aᵀ tanh(W_a [q; k])
        hidden = [math.tanh(x) for x in mat_vec(params["Wa"], q + k)]
        return dot(params["va"], hidden)
    if score == "location":  # (W_a q)_i: the key itself is not used
        return mat_vec(params["Wa"], q)[i]
    raise AssertionError(score)
