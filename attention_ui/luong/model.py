"""Sizes, labels, shapes and masks of the Luong explorer: pure functions of the settings.

Everything is first worked out in the Luong article's column layout (one query per column:
Q is d_q × n, K is d_k × m, V is d_v × m, the scores are m × n); `in_layout` turns a
column-layout array into what the learner sees in the chosen layout. The score parameters
(W, W_a, v_a) mean the same thing in both layouts (score = kᵀ W q), so they never transpose.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention_core.attention import SCORES

MAX_SIZE = (
    16  # every size control runs from 1 to MAX_SIZE; 16: the training page's default model fits
)
DOT_SCORES = ("dot", "scaled_dot")  # the scores that need d_q = d_k
MASK_KINDS = ("none", "causal", "padding", "cells")
# Roughly log-spaced temperatures from 0.05 to 20, as round numbers a learner can read.
TEMPERATURES = (
    0.05,
    0.07,
    0.1,
    0.15,
    0.2,
    0.3,
    0.5,
    0.7,
    1.0,
    1.5,
    2.0,
    3.0,
    5.0,
    7.0,
    10.0,
    15.0,
    20.0,
)

# The matrices the learner edits: Q, K, V (which follow the layout) and the score parameters.
INPUTS = ("Q", "K", "V")
PARAMETERS = {
    "general": ("W",),
    "concat": ("Wa_concat", "va"),
    "location": ("Wa_location",),
    "dot": (),
    "scaled_dot": (),
}
ALL_PARAMETERS = ("W", "Wa_concat", "va", "Wa_location")
# How each matrix is named on screen and in the engine's messages.
DISPLAY_NAMES = {
    "Q": "Q",
    "K": "K",
    "V": "V",
    "W": "W",
    "Wa_concat": "W_a",
    "va": "v_a",
    "Wa_location": "W_a",
    "mask": "mask",
}


@dataclass(frozen=True)
class Sizes:
    """The sizes a learner chooses: vector sizes d_q, d_k, d_v, n queries, m keys, and the
    hidden size h of the concat score."""

    d_q: int = 2
    d_k: int = 2
    d_v: int = 2
    n: int = 2
    m: int = 3
    h: int = 2

    def fits_dot(self) -> bool:
        return self.d_q == self.d_k


def queries(n: int) -> list[str]:
    return [f"q{j}" for j in range(1, n + 1)]


def keys(m: int) -> list[str]:
    return [f"k{i}" for i in range(1, m + 1)]


def dimensions(d: int) -> list[str]:
    """Vector entries are labelled by their index, as the math writes (q_j)_1, (q_j)_2, …"""
    return [str(a) for a in range(1, d + 1)]


def column_shape(name: str, sizes: Sizes) -> tuple[int, int]:
    """The shape of `name` in column layout (W, W_a and v_a are the same in both layouts)."""
    s = sizes
    return {
        "Q": (s.d_q, s.n),
        "K": (s.d_k, s.m),
        "V": (s.d_v, s.m),
        "mask": (s.m, s.n),
        "W": (s.d_k, s.d_q),
        "Wa_concat": (s.h, s.d_q + s.d_k),
        "va": (1, s.h),
        "Wa_location": (s.m, s.d_q),
    }[name]


def column_labels(name: str, sizes: Sizes) -> tuple[list[str], list[str]]:
    """(row labels, column labels) of `name` in column layout."""
    s = sizes
    if name == "Q":
        return dimensions(s.d_q), queries(s.n)
    if name in ("K", "V"):
        return dimensions(s.d_k if name == "K" else s.d_v), keys(s.m)
    if name == "mask":
        return keys(s.m), queries(s.n)
    if name == "W":  # W maps a query (d_q entries) into the key space (d_k entries)
        return dimensions(s.d_k), dimensions(s.d_q)
    if name == "Wa_concat":  # W_a multiplies [q; k]: its first d_q columns meet q, the rest k
        return (
            dimensions(s.h),
            [f"q:{a}" for a in range(1, s.d_q + 1)] + [f"k:{a}" for a in range(1, s.d_k + 1)],
        )
    if name == "va":
        return ["v_a"], dimensions(s.h)
    if name == "Wa_location":  # row i of W_a turns a query into the score of key position i
        return keys(s.m), dimensions(s.d_q)
    raise KeyError(name)


def labels(name: str, sizes: Sizes, layout: str) -> tuple[list[str], list[str]]:
    """(row labels, column labels) of `name` as the learner sees it in `layout`."""
    rows, cols = column_labels(name, sizes)
    transposed = layout == "row" and name in (*INPUTS, "mask")  # not the score parameters
    return (cols, rows) if transposed else (rows, cols)


def in_layout(column_array: np.ndarray, layout: str) -> np.ndarray:
    return column_array if layout == "column" else column_array.T


def causal_mask(m: int, n: int) -> np.ndarray:
    """m × n, True where key i may be seen by query j: i ≤ j (a query sees itself and the
    keys before it). With m > n the last keys are seen by no query; with m < n the last
    queries see every key."""
    return np.arange(m)[:, None] <= np.arange(n)[None, :]


def padding_mask(m: int, n: int, length: int) -> np.ndarray:
    """m × n, True for the first `length` keys only (the rest are padding)."""
    return np.broadcast_to((np.arange(m) < length)[:, None], (m, n)).copy()


def default_parameters(sizes: Sizes) -> dict[str, np.ndarray]:
    """Simple, deterministic score parameters for when the learner has set none.

    W = I (general becomes dot when d_q = d_k); concat with W_q = I, W_k = I, v_a = 1, so the
    score is Σ tanh(q_a + k_a); location with W_a = I, so key i's score is the query's i-th entry.
    """
    s = sizes
    return {
        "W": np.eye(s.d_k, s.d_q),
        "Wa_concat": np.hstack([np.eye(s.h, s.d_q), np.eye(s.h, s.d_k)]),
        "va": np.ones((1, s.h)),
        "Wa_location": np.eye(s.m, s.d_q),
    }


def engine_parameters(score: str, params: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The keyword arguments `attention()` takes for `score`, from the page's matrices."""
    if score == "general":
        return {"W": params["W"]}
    if score == "concat":
        va = params["va"]  # None where the learner has no valid v_a: the engine says so
        return {"Wa": params["Wa_concat"], "va": None if va is None else va.reshape(-1)}
    if score == "location":
        return {"Wa": params["Wa_location"]}
    return {}


def applicable_scores(sizes: Sizes) -> tuple[str, ...]:
    """Every score that can be computed for these sizes: dot and scaled dot need d_q = d_k."""
    return tuple(s for s in SCORES if s not in DOT_SCORES or sizes.fits_dot())
