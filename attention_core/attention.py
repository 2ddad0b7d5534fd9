"""Attention(Q, K, V) = V · Softmax(f(Q, K)), step by step.

Implements the Luong score functions (dot, general, concat, location) and the Transformer's
scaled dot product, as defined in the Luong attention article (one query per column: Q is
d_q × n, K is d_k × m, V is d_v × m, the weights are m × n and the softmax runs down each
column) and in d2l / PyTorch (one query per row: every matrix transposed).

The computation is always carried out in column layout; row layout transposes the inputs on
the way in and every result on the way out (S_row = S_colᵀ), so the two cannot disagree.
Each intermediate matrix is kept as a `Step` with the formula that made it, because the
steps are what the app shows a learner.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import AttentionInputError
from .formatting import fmt, operand, product_sum, subscript
from .normalize import check_divisible_by_sum
from .validation import as_mask, as_matrix, as_temperature, as_vector, shape_text

SCORES = ("dot", "scaled_dot", "general", "concat", "location")
LAYOUTS = ("column", "row")
NORMALIZATIONS = ("softmax", "sum")

# LaTeX symbols used inside f-strings (Python 3.11 allows no backslash there)
_A = r"\mathbf{A}"
_K_WK_T = r"\mathbf{K}\mathbf{W}_k^{\mathsf{T}}"
_O = r"\mathbf{O}"
_Q_WQ_T = r"\mathbf{Q}\mathbf{W}_q^{\mathsf{T}}"
_Q_W_T = r"\mathbf{Q}\mathbf{W}^{\mathsf{T}}"
_V = r"\mathbf{V}"
_W = r"\mathbf{W}"
_WK_K = r"\mathbf{W}_k\mathbf{K}"
_WQ_Q = r"\mathbf{W}_q\mathbf{Q}"
_W_A = r"\mathbf{W}_a"
_W_A_T = r"\mathbf{W}_a^{\mathsf{T}}"
_W_K = r"\mathbf{W}_k"
_W_K_T = r"\mathbf{W}_k^{\mathsf{T}}"
_W_Q = r"\mathbf{W}_q"
_W_Q_T = r"\mathbf{W}_q^{\mathsf{T}}"
_W_T = r"\mathbf{W}^{\mathsf{T}}"

# The steps `attention` records, in the order they can occur; the interface words each by
# its key (attention_ui/locales/<lang>/engine.toml, `step.<key>.title` and `.sentence`).
STEP_KEYS: tuple[str, ...] = (
    "keys_transposed",
    "queries_transformed",
    "queries_projected",
    "keys_projected",
    "scores_dot",
    "scores_general",
    "scores_concat",
    "scores_location",
    "scaled",
    "temperature_softmax",
    "temperature_sum",
    "masked",
    "shifted",
    "exponentials",
    "sums",
    "weights_softmax",
    "weights_sum",
    "output",
)


@dataclass(frozen=True)
class Step:
    """One intermediate matrix of the computation, as a teacher would write it on the board.

    `key` names the step (one of STEP_KEYS); `params` are the numbers its explanation quotes
    (the interface words it). `value` is in the caller's layout. `entry(r, c)` spells out the
    arithmetic of one entry in symbols and numbers, e.g. 's₂₁ = k₂·q₁ = 0.5×1 + (−1)×2 = −1.5'.
    """

    key: str
    latex: str
    value: np.ndarray
    params: Mapping[str, Any] = field(default_factory=dict)
    explain: Callable[[int, int], str] | None = field(default=None, repr=False, compare=False)

    def entry(self, row: int, col: int) -> str:
        """The arithmetic behind `value[row, col]` (0-based) as plain text."""
        if self.explain is None:
            return fmt(self.value[row, col])
        return self.explain(row, col)


@dataclass(frozen=True)
class AttentionResult:
    """Scores, weights, output and the ordered steps, all in the caller's layout.

    `scores` are f(Q, K) as the score function defines them (scaled for scaled_dot), before
    temperature and mask; `weights` are what the normalization makes of them.
    """

    scores: np.ndarray  # m × n (column layout) or n × m (row layout)
    weights: np.ndarray  # same shape; each query's weights sum to 1
    output: np.ndarray  # d_v × n (column layout) or n × d_v (row layout)
    steps: tuple[Step, ...]
    score: str
    layout: str
    normalization: str
    temperature: float

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
    col_mask = None
    if mask is not None:
        user_shape = (sizes["m"], sizes["n"]) if layout == "column" else (sizes["n"], sizes["m"])
        col_mask = as_mask(mask, user_shape)
        if layout == "row":
            col_mask = col_mask.T
        empty = np.flatnonzero(~col_mask.any(axis=0))
        if empty.size:
            raise AttentionInputError("all_masked", query=int(empty[0]) + 1)

    builder = _StepBuilder(layout)
    # Overflow is reported as an AttentionInputError by the _check_finite calls, so NumPy's
    # RuntimeWarning for it would only repeat that in the server log.
    with np.errstate(over="ignore", invalid="ignore"):
        scores = _score_steps(builder, score, q, k, params, sizes)
        _check_finite(scores, "S", layout)
        weights = _normalization_steps(builder, scores, tau, col_mask, normalization)
        output = v @ weights  # d_v × n
    _check_finite(output, "O", layout)
    _output_step(builder, v, weights, output)

    def user(a: np.ndarray) -> np.ndarray:
        return a if layout == "column" else a.T

    return AttentionResult(
        scores=user(scores),
        weights=user(weights),
        output=user(output),
        steps=tuple(builder.steps),
        score=score,
        layout=layout,
        normalization=normalization,
        temperature=tau,
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


def _check_finite(a: np.ndarray, name: str, layout: str) -> None:
    if np.isfinite(a).all():  # the usual case: one cheap pass, no index array
        return
    bad = np.argwhere(~np.isfinite(a))
    if bad.size:
        i, j = (int(x) for x in bad[0])
        cell = (i, j) if layout == "column" else (j, i)
        raise AttentionInputError("overflow", matrix=name, cell=cell, value=float(a[i, j]))


# ---------------------------------------------------------------------------------------------
# The steps. Every explainer takes column-layout indices: i = key, j = query, a = a dimension.


class _StepBuilder:
    """Collects steps, converting column-layout values and indices to the caller's layout."""

    def __init__(self, layout: str) -> None:
        self.layout = layout
        self.steps: list[Step] = []

    def add(
        self,
        key: str,
        latex_col: str,
        latex_row: str,
        value: np.ndarray,
        explain: Callable[[int, int], str] | None = None,
        **params: Any,
    ) -> None:
        if self.layout == "column":
            self.steps.append(Step(key, latex_col, value, params, explain))
        else:
            swapped = None if explain is None else (lambda r, c: explain(c, r))
            self.steps.append(Step(key, latex_row, value.T, params, swapped))

    def s(self, i: int, j: int, name: str = "s") -> str:
        """'s₂₁' for key 2, query 1: indices in the order of the caller's matrix."""
        first, second = (i, j) if self.layout == "column" else (j, i)
        return f"{name}{subscript(first + 1)}{subscript(second + 1)}"

    def column_sum(self, name: str, j: int) -> str:
        """'Σᵢ eᵢ₁' (column layout) or 'Σᵢ e₁ᵢ' (row layout): query j's sum over the keys."""
        q = subscript(j + 1)
        return f"Σᵢ {name}ᵢ{q}" if self.layout == "column" else f"Σᵢ {name}{q}ᵢ"

    def sized(self, symbol: str, rows: int, cols: int) -> str:
        """\\underbrace{symbol}_{rows × cols}, with the sizes swapped in row layout."""
        if self.layout == "row":
            rows, cols = cols, rows
        return rf"\underbrace{{{symbol}}}_{{{rows} \times {cols}}}"


def _vec(name: str, index: int) -> str:
    return f"{name}{subscript(index + 1)}"


def _score_steps(
    b: _StepBuilder,
    score: str,
    q: np.ndarray,
    k: np.ndarray,
    params: dict[str, np.ndarray],
    sizes: dict[str, int],
) -> np.ndarray:
    d_q, d_k, n, m = sizes["d_q"], sizes["d_k"], sizes["n"], sizes["m"]
    Q, K, S = r"\mathbf{Q}", r"\mathbf{K}", r"\mathbf{S}"
    KT = r"\mathbf{K}^{\mathsf{T}}"

    def transpose_keys() -> None:
        b.add(
            "keys_transposed",
            rf"{b.sized(KT, m, d_k)} = \left({b.sized(K, d_k, m)}\right)^{{\mathsf{{T}}}}",
            rf"{b.sized(KT, m, d_k)} = \left({b.sized(K, d_k, m)}\right)^{{\mathsf{{T}}}}",
            k.T,
            lambda i, a: f"{b.s(i, a, '(Kᵀ)')} = {b.s(a, i, 'K')} = {fmt(k[a, i])}",
        )

    if score in ("dot", "scaled_dot"):
        transpose_keys()
        dots = k.T @ q  # m × n
        b.add(
            "scores_dot",
            rf"{b.sized(S, m, n)} = {b.sized(KT, m, d_k)}\,{b.sized(Q, d_k, n)}",
            rf"{b.sized(S, m, n)} = {b.sized(Q, d_k, n)}\,{b.sized(KT, m, d_k)}",
            dots,
            lambda i, j: (
                f"{b.s(i, j)} = {_vec('k', i)}·{_vec('q', j)} = "
                f"{product_sum(k[:, i], q[:, j])} = {fmt(dots[i, j])}"
            ),
        )
        if score == "scaled_dot":
            root = math.sqrt(d_k)
            scaled = dots / root
            b.add(
                "scaled",
                rf"\frac{{{S}}}{{\sqrt{{d_k}}}} = \frac{{{S}}}{{\sqrt{{{d_k}}}}}",
                rf"\frac{{{S}}}{{\sqrt{{d_k}}}} = \frac{{{S}}}{{\sqrt{{{d_k}}}}}",
                scaled,
                lambda i, j: (
                    f"{b.s(i, j)} / √{d_k} = {operand(dots[i, j])} / "
                    f"{fmt(root)} = {fmt(scaled[i, j])}"
                ),
                d_k=d_k,
                sqrt_d_k=root,
            )
            return scaled
        return dots

    if score == "general":
        w = params["W"]
        WQ = r"\mathbf{W}\mathbf{Q}"
        transformed = w @ q  # d_k × n
        b.add(
            "queries_transformed",
            rf"{b.sized(WQ, d_k, n)} = {b.sized(_W, d_k, d_q)}\,{b.sized(Q, d_q, n)}",
            rf"{b.sized(_Q_W_T, d_k, n)} = "
            rf"{b.sized(Q, d_q, n)}\,{b.sized(_W_T, d_k, d_q)}",
            transformed,
            lambda a, j: (
                f"(W·{_vec('q', j)})_{a + 1} = "
                f"{_vec('w', a)}·{_vec('q', j)} "
                f"= {product_sum(w[a], q[:, j])} = "
                f"{fmt(transformed[a, j])}"
            ),
            d_q=d_q,
            d_k=d_k,
        )
        transpose_keys()
        scores = k.T @ transformed  # m × n
        b.add(
            "scores_general",
            rf"{b.sized(S, m, n)} = {b.sized(KT, m, d_k)}\,{b.sized(_W, d_k, d_q)}"
            rf"\,{b.sized(Q, d_q, n)}",
            rf"{b.sized(S, m, n)} = {b.sized(Q, d_q, n)}\,"
            rf"{b.sized(_W_T, d_k, d_q)}\,{b.sized(KT, m, d_k)}",
            scores,
            lambda i, j: (
                f"{b.s(i, j)} = {_vec('k', i)}·(W·{_vec('q', j)}) = "
                f"{product_sum(k[:, i], transformed[:, j])} = "
                f"{fmt(scores[i, j])}"
            ),
        )
        return scores

    if score == "concat":
        wa, va = params["Wa"], params["va"]
        h = wa.shape[0]
        w_q, w_k = wa[:, :d_q], wa[:, d_q:]
        projected_q = w_q @ q  # h × n
        projected_k = w_k @ k  # h × m
        b.add(
            "queries_projected",
            rf"{b.sized(_WQ_Q, h, n)} = "
            rf"{b.sized(_W_Q, h, d_q)}\,{b.sized(Q, d_q, n)}",
            rf"{b.sized(_Q_WQ_T, h, n)} = "
            rf"{b.sized(Q, d_q, n)}\,{b.sized(_W_Q_T, h, d_q)}",
            projected_q,
            lambda a, j: (
                f"(W_q·{_vec('q', j)})_{a + 1} = "
                f"{product_sum(w_q[a], q[:, j])} = "
                f"{fmt(projected_q[a, j])}"
            ),
            d_q=d_q,
            h=h,
        )
        b.add(
            "keys_projected",
            rf"{b.sized(_WK_K, h, m)} = "
            rf"{b.sized(_W_K, h, d_k)}\,{b.sized(K, d_k, m)}",
            rf"{b.sized(_K_WK_T, h, m)} = "
            rf"{b.sized(K, d_k, m)}\,{b.sized(_W_K_T, h, d_k)}",
            projected_k,
            lambda a, i: (
                f"(W_k·{_vec('k', i)})_{a + 1} = "
                f"{product_sum(w_k[a], k[:, i])} = "
                f"{fmt(projected_k[a, i])}"
            ),
            d_k=d_k,
            h=h,
        )
        hidden = np.tanh(projected_k[:, :, None] + projected_q[:, None, :])  # h × m × n
        scores = np.einsum("h,hmn->mn", va, hidden)  # m × n

        def explain_concat(i: int, j: int) -> str:
            terms = " + ".join(
                f"{operand(va[a])}×tanh({fmt(projected_q[a, j])} + {operand(projected_k[a, i])})"
                for a in range(h)
            )
            return (
                f"{b.s(i, j)} = v_a·tanh(W_q·{_vec('q', j)} + W_k·{_vec('k', i)}) = {terms} = "
                f"{fmt(scores[i, j])}"
            )

        b.add(
            "scores_concat",
            rf"s_{{ij}} = \mathbf{{v}}_a^{{\mathsf{{T}}}} \tanh\!\left(\mathbf{{W}}_a "
            rf"\begin{{bmatrix}}\mathbf{{q}}_j \\ \mathbf{{k}}_i\end{{bmatrix}}\right),\quad "
            rf"{b.sized(S, m, n)}",
            rf"s_{{ji}} = \mathbf{{v}}_a^{{\mathsf{{T}}}} \tanh\!\left(\mathbf{{W}}_a "
            rf"\begin{{bmatrix}}\mathbf{{q}}_j \\ \mathbf{{k}}_i\end{{bmatrix}}\right),\quad "
            rf"{b.sized(S, m, n)}",
            scores,
            explain_concat,
        )
        return scores

    # location: the keys are not used at all
    wa = params["Wa"]
    scores = wa @ q  # m × n
    b.add(
        "scores_location",
        rf"{b.sized(S, m, n)} = {b.sized(_W_A, m, d_q)}\,{b.sized(Q, d_q, n)}",
        rf"{b.sized(S, m, n)} = {b.sized(Q, d_q, n)}\,"
        rf"{b.sized(_W_A_T, m, d_q)}",
        scores,
        lambda i, j: (
            f"{b.s(i, j)} = (W_a·{_vec('q', j)})_{i + 1} = "
            f"{product_sum(wa[i], q[:, j])} = {fmt(scores[i, j])}"
        ),
    )
    return scores


def _normalization_steps(
    b: _StepBuilder, scores: np.ndarray, tau: float, mask: np.ndarray | None, normalization: str
) -> np.ndarray:
    """Scores → weights, one step per operation. Each helper owns the arrays its explainer
    reads, so a later step can never change what an earlier step's arithmetic says."""
    if normalization == "softmax":
        if tau != 1.0:
            scores = _divide_by_temperature(b, scores, tau)
        if mask is not None:
            scores = _apply_mask(b, scores, mask, -np.inf, r"-\infty")
        shifted = _subtract_max(b, scores)
        numerators = _exponentiate(b, shifted)
        weights_key, numerator_name = "weights_softmax", "e"
    else:
        if mask is not None:
            scores = _apply_mask(b, scores, mask, 0.0, "0")
        check_divisible_by_sum(scores, axis=0)
        numerators = scores if tau == 1.0 else _power_of_temperature(b, scores, tau)
        weights_key, numerator_name = "weights_sum", "s"
    sums = _sum_over_keys(b, numerators, numerator_name)
    return _divide_by_sums(b, numerators, sums, numerator_name, weights_key)


def _divide_by_temperature(b: _StepBuilder, scores: np.ndarray, tau: float) -> np.ndarray:
    tempered = scores / tau
    _check_finite(tempered, "S/τ", b.layout)
    b.add(
        "temperature_softmax",
        rf"\mathbf{{S}} / \tau = \mathbf{{S}} / {fmt(tau)}",
        rf"\mathbf{{S}} / \tau = \mathbf{{S}} / {fmt(tau)}",
        tempered,
        lambda i, j: (
            f"{b.s(i, j)}/τ = {operand(scores[i, j])} / {fmt(tau)} = {fmt(tempered[i, j])}"
        ),
        tau=tau,
    )
    return tempered


def _apply_mask(
    b: _StepBuilder, scores: np.ndarray, mask: np.ndarray, fill: float, fill_tex: str
) -> np.ndarray:
    masked = np.where(mask, scores, fill)

    def explain(i: int, j: int) -> str:
        if mask[i, j]:
            return f"{b.s(i, j)} = {fmt(masked[i, j])}"
        return f"{b.s(i, j)} → {fmt(masked[i, j])}  ⇒  {b.s(i, j, 'a')} = 0"

    b.add(
        "masked",
        rf"s_{{ij}} \leftarrow {fill_tex}\ \text{{where masked}}",
        rf"s_{{ji}} \leftarrow {fill_tex}\ \text{{where masked}}",
        masked,
        explain,
    )
    return masked


def _subtract_max(b: _StepBuilder, scores: np.ndarray) -> np.ndarray:
    peak = scores.max(axis=0)  # each query's best key → 0
    shifted = scores - peak
    b.add(
        "shifted",
        r"\mathbf{S} - \max_i s_{ij}",
        r"\mathbf{S} - \max_i s_{ji}",
        shifted,
        lambda i, j: (
            f"{b.s(i, j)} − max = {fmt(scores[i, j])} − {operand(peak[j])} = {fmt(shifted[i, j])}"
        ),
    )
    return shifted


def _exponentiate(b: _StepBuilder, shifted: np.ndarray) -> np.ndarray:
    exponentials = np.exp(shifted)  # masked entries: exp(−∞) = 0 exactly
    b.add(
        "exponentials",
        r"\mathbf{E} = \exp(\mathbf{S} - \max)",
        r"\mathbf{E} = \exp(\mathbf{S} - \max)",
        exponentials,
        lambda i, j: f"{b.s(i, j, 'e')} = exp({fmt(shifted[i, j])}) = {fmt(exponentials[i, j])}",
    )
    return exponentials


def _power_of_temperature(b: _StepBuilder, scores: np.ndarray, tau: float) -> np.ndarray:
    column_max = scores.max(axis=0)
    peak = np.where(column_max == 0, 1.0, column_max)  # an all-zero query was rejected above
    with np.errstate(under="ignore"):
        powered = (scores / peak) ** (1.0 / tau)
    b.add(
        "temperature_sum",
        r"\left(s_{ij} / \max_i s_{ij}\right)^{1/\tau}",
        r"\left(s_{ji} / \max_i s_{ji}\right)^{1/\tau}",
        powered,
        lambda i, j: (
            f"({fmt(scores[i, j])} / {fmt(peak[j])})^(1/{fmt(tau)}) = {fmt(powered[i, j])}"
        ),
        tau=tau,
    )
    return powered


def _sum_over_keys(b: _StepBuilder, numerators: np.ndarray, name: str) -> np.ndarray:
    m, n = numerators.shape
    sums = numerators.sum(axis=0, keepdims=True)  # 1 × n
    total = r"\sum_{i=1}^{" + str(m) + "}"
    b.add(
        "sums",
        rf"\left[{total} {name}_{{ij}}\right]_{{j=1..{n}}}",
        rf"\left[{total} {name}_{{ji}}\right]_{{j=1..{n}}}",
        sums,
        lambda _, j: (
            f"{b.column_sum(name, j)} = "
            f"{' + '.join(fmt(x) for x in numerators[:, j])} = {fmt(sums[0, j])}"
        ),
    )
    return sums


def _divide_by_sums(
    b: _StepBuilder, numerators: np.ndarray, sums: np.ndarray, name: str, key: str
) -> np.ndarray:
    m, n = numerators.shape
    weights = numerators / sums  # m × n, each column sums to 1
    b.add(
        key,
        rf"{b.sized(_A, m, n)},\quad a_{{ij}} = \frac{{{name}_{{ij}}}}"
        rf"{{\sum_{{i'}} {name}_{{i'j}}}}",
        rf"{b.sized(_A, m, n)},\quad a_{{ji}} = \frac{{{name}_{{ji}}}}"
        rf"{{\sum_{{i'}} {name}_{{ji'}}}}",
        weights,
        lambda i, j: (
            f"{b.s(i, j, 'a')} = {b.s(i, j, name)} / Σ = "
            f"{fmt(numerators[i, j])} / {fmt(sums[0, j])} = "
            f"{fmt(weights[i, j])}"
        ),
    )
    return weights


def _output_step(b: _StepBuilder, v: np.ndarray, weights: np.ndarray, output: np.ndarray) -> None:
    d_v, m = v.shape
    n = weights.shape[1]

    def explain(c: int, j: int) -> str:
        # Weight × value in both layouts; only the index order follows the caller's matrices.
        if b.layout == "column":  # o_cj = Σᵢ a_ij v_ci
            formula = f"Σᵢ aᵢ{subscript(j + 1)}·v{subscript(c + 1)}ᵢ"
        else:  # o_jc = Σᵢ a_ji v_ic
            formula = f"Σᵢ a{subscript(j + 1)}ᵢ·vᵢ{subscript(c + 1)}"
        products = product_sum(weights[:, j], v[c])
        return f"{b.s(c, j, 'o')} = {formula} = {products} = {fmt(output[c, j])}"

    b.add(
        "output",
        rf"{b.sized(_O, d_v, n)} = {b.sized(_V, d_v, m)}\,"
        rf"{b.sized(_A, m, n)}",
        rf"{b.sized(_O, d_v, n)} = {b.sized(_A, m, n)}\,"
        rf"{b.sized(_V, d_v, m)}",
        output,
        explain,
    )
