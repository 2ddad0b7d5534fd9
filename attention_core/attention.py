"""Attention(Q, K, V) = V · Softmax(f(Q, K)), as the Luong attention article writes it.

One query per column, as in the article: Q is d_q × n, K is d_k × m, V is d_v × m, the scores
and weights are m × n and the softmax runs down each column. d2l and PyTorch keep one query per
row (row layout): every matrix is transposed. The computation is always carried out in column
layout; row layout transposes the inputs on the way in and every result on the way out
(S_row = S_colᵀ), so the two cannot disagree.

    S = f(Q, K)          scores.py: dot, scaled_dot, general, concat, location
    A = Softmax(S / τ)   normalize.py (or d2l's divide-by-the-sum, with this app's power 1/τ)
    O = V A

Every intermediate matrix is kept as a `Step` (steps.py), because the steps are what the app
shows a learner; recording them is kept apart from the algorithm below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from .errors import AttentionInputError
from .normalize import normalize_by_sum, softmax, softmax_stages, sum_stages
from .scores import SCORE_FUNCTIONS
from .steps import STEP_KEYS, AttentionRun, Step, attention_steps
from .validation import (
    as_mask,
    as_matrix,
    as_temperature,
    as_vector,
    check_finite,
    shape_text,
)

__all__ = [
    "LAYOUTS",
    "NORMALIZATIONS",
    "SCORES",
    "STEP_KEYS",
    "AttentionResult",
    "Step",
    "attention",
]

SCORES = tuple(SCORE_FUNCTIONS)  # dot, scaled_dot, general, concat, location
LAYOUTS = ("column", "row")
NORMALIZATIONS = ("softmax", "sum")


@dataclass(frozen=True)
class AttentionResult:
    """Scores, weights, output and the ordered steps, all in the caller's layout.

    `scores` are f(Q, K) as the score function defines them (scaled for scaled_dot), before
    temperature and mask; `weights` are what the normalization makes of them.
    """

    scores: np.ndarray  # m × n (column layout) or n × m (row layout)
    weights: np.ndarray  # same shape; each query's weights sum to 1
    output: np.ndarray  # d_v × n (column layout) or n × d_v (row layout)
    score: str
    layout: str
    normalization: str
    temperature: float
    _record_steps: Callable[[], tuple[Step, ...]] = field(repr=False, compare=False)

    @cached_property
    def steps(self) -> tuple[Step, ...]:
        """The ordered steps, recorded on first use and kept.

        Several callers read only the output (multi-head, the gallery's grids, bench/core.py);
        recording at once would keep every intermediate m × n matrix alive for them.
        """
        return self._record_steps()

    def step(self, key: str) -> Step:
        """The step called `key` (e.g. 'weights_softmax'); KeyError if this run has none."""
        for step in self.steps:
            if step.key == key:
                return step
        raise KeyError(key)


def attention(
    Q: Any,
    K: Any,
    V: Any,
    score: str = "dot",
    *,
    W: Any = None,
    Wa: Any = None,
    va: Any = None,
    temperature: float = 1.0,
    mask: Any = None,
    layout: str = "column",
    normalization: str = "softmax",
) -> AttentionResult:
    """Compute attention and every intermediate step.

    Parameters
    ----------
    Q : array_like, d_q × n (column layout) or n × d_q (row layout)
    K : array_like, d_k × m (column) or m × d_k (row)
    V : array_like, d_v × m (column) or m × d_v (row)
    score : {'dot', 'scaled_dot', 'general', 'concat', 'location'}
    W : array_like, d_k × d_q, for 'general' (score kᵀ W q, in both layouts)
    Wa : array_like, h × (d_q + d_k) for 'concat'; m × d_q for 'location'
    va : array_like, h entries, for 'concat' (score v_aᵀ tanh(W_a [q; k]))
    temperature : float > 0, divides the scores before the softmax
    mask : array_like of bool shaped like the scores; False gives that weight exactly 0
    layout : {'column', 'row'}, one query per column (Luong article) or per row (d2l, PyTorch)
    normalization : {'softmax', 'sum'}, softmax, or d2l's divide-by-sum for non-negative scores

    Raises
    ------
    AttentionInputError (a ValueError) naming the matrix, the shapes and the cell at fault.
    """
    if layout not in LAYOUTS:
        raise AttentionInputError("unknown_layout", layout=layout)
    if score not in SCORES:
        raise AttentionInputError("unknown_score", score=score, choices=", ".join(SCORES))
    if normalization not in NORMALIZATIONS:
        raise AttentionInputError("unknown_normalization", normalization=normalization)
    tau = as_temperature(temperature)
    q, k, v = as_matrix("Q", Q), as_matrix("K", K), as_matrix("V", V)
    if layout == "row":  # compute in column layout; transpose back at the end
        q, k, v = q.T, k.T, v.T
    sizes = _check_sizes(score, q, k, v, layout)
    params = _check_parameters(score, sizes, W, Wa, va)
    col_mask = None if mask is None else _check_mask(mask, sizes, layout)  # m × n

    # Overflow is reported as an AttentionInputError by the check_finite calls, so NumPy's
    # RuntimeWarning for it would only repeat that in the server log.
    with np.errstate(over="ignore", invalid="ignore"):
        scores = SCORE_FUNCTIONS[score](q, k, **params)["S"]  # S = f(Q, K): m × n
        check_finite("S", scores, swap=layout == "row")
        tempered = None
        if normalization == "softmax":  # A = Softmax(S / τ), down each column
            if tau != 1.0:
                tempered = scores / tau
                check_finite("S/τ", tempered, swap=layout == "row")
            weights = softmax(scores if tempered is None else tempered, 0, col_mask)
        else:  # A = S^(1/τ) / Σ S^(1/τ): d2l's divide-by-the-sum (τ = 1), this app's power
            weights = normalize_by_sum(scores, 0, col_mask, tau)
        # A: m × n, each column sums to 1
        output = v @ weights  # O = V A: d_v × n
    check_finite("O", output, swap=layout == "row")

    def record_steps() -> tuple[Step, ...]:
        # What S and A are made of, again: the same functions on the same checked matrices give
        # the same numbers (an overflow inside them was reported or harmless the first time)
        with np.errstate(over="ignore", invalid="ignore"):
            parts = SCORE_FUNCTIONS[score](q, k, **params)
            if normalization == "softmax":
                normalized = softmax_stages(scores if tempered is None else tempered, 0, col_mask)
            else:
                normalized = sum_stages(scores, 0, col_mask, tau)
        run = AttentionRun(
            layout, score, q, k, v, params, parts, tau, col_mask, tempered, normalized, output
        )
        return attention_steps(run)

    def user(a: np.ndarray) -> np.ndarray:
        return a if layout == "column" else a.T

    return AttentionResult(
        scores=user(scores),
        weights=user(weights),
        output=user(output),
        score=score,
        layout=layout,
        normalization=normalization,
        temperature=tau,
        _record_steps=record_steps,
    )


# ---------------------------------------------------------------------------------------------
# Checking sizes and parameters (in the words of the caller's layout)


def _check_sizes(
    score: str, q: np.ndarray, k: np.ndarray, v: np.ndarray, layout: str
) -> dict[str, int]:
    (d_q, n), (d_k, m), (d_v, m_v) = q.shape, k.shape, v.shape
    if m != m_v:
        raise AttentionInputError(
            "key_value_count",
            m_keys=m,
            m_values=m_v,
            K_shape=shape_text(_user_shape(k, layout)),
            V_shape=shape_text(_user_shape(v, layout)),
        )
    if score in ("dot", "scaled_dot") and d_q != d_k:
        raise AttentionInputError(
            "query_key_size",
            score=score,
            axis="rows" if layout == "column" else "columns",  # where d_q and d_k are counted
            Q_shape=shape_text(_user_shape(q, layout)),
            K_shape=shape_text(_user_shape(k, layout)),
            d_q=d_q,
            d_k=d_k,
        )
    return {"d_q": d_q, "d_k": d_k, "d_v": d_v, "n": n, "m": m}


def _user_shape(a: np.ndarray, layout: str) -> tuple[int, int]:
    return a.shape if layout == "column" else a.shape[::-1]


def _check_parameters(
    score: str, sizes: dict[str, int], W: Any, Wa: Any, va: Any
) -> dict[str, np.ndarray]:
    d_q, d_k, m = sizes["d_q"], sizes["d_k"], sizes["m"]
    if score == "general":
        w = _required(score, "W", W)
        _expect_shape(
            score,
            "W",
            w,
            (d_k, d_q),
            reason="W_general",
            d_q=d_q,
            d_k=d_k,
        )
        return {"W": w}
    if score == "concat":
        wa = _required(score, "W_a", Wa)
        h = wa.shape[0]
        _expect_shape(
            score,
            "W_a",
            wa,
            (h, d_q + d_k),
            reason="Wa_concat",
            d_q_plus_d_k=d_q + d_k,
        )
        if va is None:
            raise AttentionInputError("missing_parameter", score=score, parameter="v_a")
        va_vec = as_vector("v_a", va)
        if va_vec.shape != (h,):
            raise AttentionInputError(
                "parameter_shape",
                score=score,
                parameter="v_a",
                shape=shape_text(va_vec.shape),
                expected=shape_text((h,)),
                reason="va_concat",
                h=h,
            )
        return {"Wa": wa, "va": va_vec}
    if score == "location":
        wa = _required(score, "W_a", Wa)
        _expect_shape(
            score,
            "W_a",
            wa,
            (m, d_q),
            reason="Wa_location",
            d_q=d_q,
            m=m,
        )
        return {"Wa": wa}
    return {}


def _check_mask(mask: Any, sizes: dict[str, int], layout: str) -> np.ndarray:
    """The mask in column layout (m × n), after checking every query keeps a key."""
    user_shape = (sizes["m"], sizes["n"]) if layout == "column" else (sizes["n"], sizes["m"])
    col_mask = as_mask(mask, user_shape)
    if layout == "row":
        col_mask = col_mask.T
    empty = np.flatnonzero(~col_mask.any(axis=0))
    if empty.size:
        raise AttentionInputError("all_masked", query=int(empty[0]) + 1)
    return col_mask


def _required(score: str, name: str, data: Any) -> np.ndarray:
    if data is None:
        raise AttentionInputError("missing_parameter", score=score, parameter=name)
    return as_matrix(name, data)


def _expect_shape(
    score: str, name: str, a: np.ndarray, expected: tuple[int, int], **reason: Any
) -> None:
    """`reason` is the code of why the shape is needed (the UI words it) and its numbers."""
    if a.shape != expected:
        raise AttentionInputError(
            "parameter_shape",
            matrix=name,
            score=score,
            parameter=name,
            shape=shape_text(a.shape),
            expected=shape_text(expected),
            **reason,
        )
