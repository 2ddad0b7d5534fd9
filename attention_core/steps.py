"""The step-by-step record of an attention run: what the app shows a learner, matrix by matrix.

`attention` computes (scores.py, normalize.py); this module only describes what it computed.
Each step is a key (the interface words it in every language: attention_ui/locales/<lang>/
engine.toml, `step.<key>.title` and `.sentence`), its formula in LaTeX with the actual sizes,
its matrix, the numbers its sentence quotes, and an explainer that spells out the arithmetic of
one entry in symbols and numbers ('s₂₁ = k₂·q₁ = 0.5×1 + (−1)×2 = −1.5').

The matrices arrive in column layout (i = key, j = query, a = a dimension); the recorder turns
values, indices and formulas into the caller's layout.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .formatting import fmt, operand, product_sum, subscript
from .normalize import SoftmaxStages, SumStages

# The steps `attention` records, in the order they can occur.
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

# LaTeX symbols used inside f-strings (Python 3.11 allows no backslash there)
_A = r"\mathbf{A}"
_K = r"\mathbf{K}"
_KT = r"\mathbf{K}^{\mathsf{T}}"
_K_WK_T = r"\mathbf{K}\mathbf{W}_k^{\mathsf{T}}"
_O = r"\mathbf{O}"
_Q = r"\mathbf{Q}"
_Q_WQ_T = r"\mathbf{Q}\mathbf{W}_q^{\mathsf{T}}"
_Q_W_T = r"\mathbf{Q}\mathbf{W}^{\mathsf{T}}"
_S = r"\mathbf{S}"
_V = r"\mathbf{V}"
_W = r"\mathbf{W}"
_WK_K = r"\mathbf{W}_k\mathbf{K}"
_WQ = r"\mathbf{W}\mathbf{Q}"
_WQ_Q = r"\mathbf{W}_q\mathbf{Q}"
_W_A = r"\mathbf{W}_a"
_W_A_T = r"\mathbf{W}_a^{\mathsf{T}}"
_W_K = r"\mathbf{W}_k"
_W_K_T = r"\mathbf{W}_k^{\mathsf{T}}"
_W_Q = r"\mathbf{W}_q"
_W_Q_T = r"\mathbf{W}_q^{\mathsf{T}}"
_W_T = r"\mathbf{W}^{\mathsf{T}}"
_CONCAT = (
    r"\mathbf{v}_a^{\mathsf{T}} \tanh\!\left(\mathbf{W}_a "
    r"\begin{bmatrix}\mathbf{q}_j \\ \mathbf{k}_i\end{bmatrix}\right)"
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
class AttentionRun:
    """What one `attention` run computed, all in column layout: the recorder's one input.

    q, k, v are d_q × n, d_k × m, d_v × m; `params` the checked W, Wa, va the score function
    took and `parts` what it returned (S and its intermediates); `tau` and `mask` the
    temperature and the m × n mask (or None); `tempered` S/τ (softmax with τ ≠ 1, else None);
    `normalized` the stages of the softmax or of divide-by-the-sum; `output` d_v × n.
    """

    layout: str
    score: str
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    params: Mapping[str, np.ndarray]
    parts: Mapping[str, np.ndarray]
    tau: float
    mask: np.ndarray | None
    tempered: np.ndarray | None
    normalized: SoftmaxStages | SumStages
    output: np.ndarray


def attention_steps(run: AttentionRun) -> tuple[Step, ...]:
    """The steps of one `attention` run, from the matrices it computed."""
    record = _Recorder(run.layout)
    _SCORE_STEPS[run.score](record, run.q, run.k, run.params, run.parts)
    if isinstance(run.normalized, SoftmaxStages):
        _softmax_steps(record, run, run.normalized)
    else:
        _sum_steps(record, run, run.normalized)
    _output_step(record, run.v, run.normalized.weights, run.output)
    return tuple(record.steps)


class _Recorder:
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


# ---------------------------------------------------------------------------------------------
# Scores: one recorder per score function (scores.py), same order as the article's formulas


def _dot_steps(b: _Recorder, q: np.ndarray, k: np.ndarray, params: Any, parts: Any) -> None:
    _keys_transposed(b, k)
    _dot_products(b, q, k, parts["S"])


def _scaled_dot_steps(b: _Recorder, q: np.ndarray, k: np.ndarray, params: Any, parts: Any) -> None:
    _keys_transposed(b, k)
    dots, scaled = parts["dots"], parts["S"]
    _dot_products(b, q, k, dots)
    d_k = k.shape[0]
    root = math.sqrt(d_k)
    b.add(
        "scaled",
        rf"\frac{{{_S}}}{{\sqrt{{d_k}}}} = \frac{{{_S}}}{{\sqrt{{{d_k}}}}}",
        rf"\frac{{{_S}}}{{\sqrt{{d_k}}}} = \frac{{{_S}}}{{\sqrt{{{d_k}}}}}",
        scaled,
        lambda i, j: (
            f"{b.s(i, j)} / √{d_k} = {operand(dots[i, j])} / {fmt(root)} = {fmt(scaled[i, j])}"
        ),
        d_k=d_k,
        sqrt_d_k=root,
    )


def _general_steps(b: _Recorder, q: np.ndarray, k: np.ndarray, params: Any, parts: Any) -> None:
    (d_q, n), (d_k, m) = q.shape, k.shape
    w, transformed, scores = params["W"], parts["WQ"], parts["S"]
    b.add(
        "queries_transformed",
        rf"{b.sized(_WQ, d_k, n)} = {b.sized(_W, d_k, d_q)}\,{b.sized(_Q, d_q, n)}",
        rf"{b.sized(_Q_W_T, d_k, n)} = {b.sized(_Q, d_q, n)}\,{b.sized(_W_T, d_k, d_q)}",
        transformed,
        lambda a, j: (
            f"(W·{_vec('q', j)})_{a + 1} = {_vec('w', a)}·{_vec('q', j)} "
            f"= {product_sum(w[a], q[:, j])} = {fmt(transformed[a, j])}"
        ),
        d_q=d_q,
        d_k=d_k,
    )
    _keys_transposed(b, k)
    b.add(
        "scores_general",
        rf"{b.sized(_S, m, n)} = {b.sized(_KT, m, d_k)}\,{b.sized(_W, d_k, d_q)}"
        rf"\,{b.sized(_Q, d_q, n)}",
        rf"{b.sized(_S, m, n)} = {b.sized(_Q, d_q, n)}\,"
        rf"{b.sized(_W_T, d_k, d_q)}\,{b.sized(_KT, m, d_k)}",
        scores,
        lambda i, j: (
            f"{b.s(i, j)} = {_vec('k', i)}·(W·{_vec('q', j)}) = "
            f"{product_sum(k[:, i], transformed[:, j])} = {fmt(scores[i, j])}"
        ),
    )


def _concat_steps(b: _Recorder, q: np.ndarray, k: np.ndarray, params: Any, parts: Any) -> None:
    (d_q, n), (d_k, m) = q.shape, k.shape
    wa, va = params["Wa"], params["va"]
    h = wa.shape[0]
    w_q, w_k = wa[:, :d_q], wa[:, d_q:]
    projected_q, projected_k, scores = parts["WqQ"], parts["WkK"], parts["S"]
    b.add(
        "queries_projected",
        rf"{b.sized(_WQ_Q, h, n)} = {b.sized(_W_Q, h, d_q)}\,{b.sized(_Q, d_q, n)}",
        rf"{b.sized(_Q_WQ_T, h, n)} = {b.sized(_Q, d_q, n)}\,{b.sized(_W_Q_T, h, d_q)}",
        projected_q,
        lambda a, j: (
            f"(W_q·{_vec('q', j)})_{a + 1} = "
            f"{product_sum(w_q[a], q[:, j])} = {fmt(projected_q[a, j])}"
        ),
        d_q=d_q,
        h=h,
    )
    b.add(
        "keys_projected",
        rf"{b.sized(_WK_K, h, m)} = {b.sized(_W_K, h, d_k)}\,{b.sized(_K, d_k, m)}",
        rf"{b.sized(_K_WK_T, h, m)} = {b.sized(_K, d_k, m)}\,{b.sized(_W_K_T, h, d_k)}",
        projected_k,
        lambda a, i: (
            f"(W_k·{_vec('k', i)})_{a + 1} = "
            f"{product_sum(w_k[a], k[:, i])} = {fmt(projected_k[a, i])}"
        ),
        d_k=d_k,
        h=h,
    )

    def explain(i: int, j: int) -> str:
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
        rf"s_{{ij}} = {_CONCAT},\quad {b.sized(_S, m, n)}",
        rf"s_{{ji}} = {_CONCAT},\quad {b.sized(_S, m, n)}",
        scores,
        explain,
    )


def _location_steps(b: _Recorder, q: np.ndarray, k: np.ndarray, params: Any, parts: Any) -> None:
    d_q, n = q.shape
    wa, scores = params["Wa"], parts["S"]
    m = wa.shape[0]
    b.add(
        "scores_location",
        rf"{b.sized(_S, m, n)} = {b.sized(_W_A, m, d_q)}\,{b.sized(_Q, d_q, n)}",
        rf"{b.sized(_S, m, n)} = {b.sized(_Q, d_q, n)}\,{b.sized(_W_A_T, m, d_q)}",
        scores,
        lambda i, j: (
            f"{b.s(i, j)} = (W_a·{_vec('q', j)})_{i + 1} = "
            f"{product_sum(wa[i], q[:, j])} = {fmt(scores[i, j])}"
        ),
    )


_SCORE_STEPS: dict[str, Callable[..., None]] = {
    "dot": _dot_steps,
    "scaled_dot": _scaled_dot_steps,
    "general": _general_steps,
    "concat": _concat_steps,
    "location": _location_steps,
}


def _keys_transposed(b: _Recorder, k: np.ndarray) -> None:
    d_k, m = k.shape
    formula = rf"{b.sized(_KT, m, d_k)} = \left({b.sized(_K, d_k, m)}\right)^{{\mathsf{{T}}}}"
    b.add(
        "keys_transposed",
        formula,
        formula,
        k.T,
        lambda i, a: f"{b.s(i, a, '(Kᵀ)')} = {b.s(a, i, 'K')} = {fmt(k[a, i])}",
    )


def _dot_products(b: _Recorder, q: np.ndarray, k: np.ndarray, dots: np.ndarray) -> None:
    (d_k, n), m = q.shape, k.shape[1]
    b.add(
        "scores_dot",
        rf"{b.sized(_S, m, n)} = {b.sized(_KT, m, d_k)}\,{b.sized(_Q, d_k, n)}",
        rf"{b.sized(_S, m, n)} = {b.sized(_Q, d_k, n)}\,{b.sized(_KT, m, d_k)}",
        dots,
        lambda i, j: (
            f"{b.s(i, j)} = {_vec('k', i)}·{_vec('q', j)} = "
            f"{product_sum(k[:, i], q[:, j])} = {fmt(dots[i, j])}"
        ),
    )


# ---------------------------------------------------------------------------------------------
# Scores → weights → output. Each explainer reads only the arrays of its own stage, so a later
# step can never change what an earlier step's arithmetic says.


def _softmax_steps(b: _Recorder, run: AttentionRun, stages: SoftmaxStages) -> None:
    scores, tau, mask, tempered = run.parts["S"], run.tau, run.mask, run.tempered
    if tempered is not None:
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
    if mask is not None:
        _masked(b, mask, stages.masked, r"-\infty")
    masked, peaks, shifted, exponentials = (
        stages.masked,
        stages.peaks,
        stages.shifted,
        stages.exponentials,
    )
    b.add(
        "shifted",
        r"\mathbf{S} - \max_i s_{ij}",
        r"\mathbf{S} - \max_i s_{ji}",
        shifted,
        lambda i, j: (
            f"{b.s(i, j)} − max = {fmt(masked[i, j])} − {operand(peaks[0, j])} = "
            f"{fmt(shifted[i, j])}"
        ),
    )
    b.add(
        "exponentials",
        r"\mathbf{E} = \exp(\mathbf{S} - \max)",
        r"\mathbf{E} = \exp(\mathbf{S} - \max)",
        exponentials,
        lambda i, j: f"{b.s(i, j, 'e')} = exp({fmt(shifted[i, j])}) = {fmt(exponentials[i, j])}",
    )
    _sums_and_weights(b, exponentials, stages.sums, stages.weights, "e", "weights_softmax")


def _sum_steps(b: _Recorder, run: AttentionRun, stages: SumStages) -> None:
    tau, mask = run.tau, run.mask
    masked, peaks, powered = stages.masked, stages.peaks, stages.powered
    if mask is not None:
        _masked(b, mask, masked, "0")
    if peaks is not None:
        b.add(
            "temperature_sum",
            r"\left(s_{ij} / \max_i s_{ij}\right)^{1/\tau}",
            r"\left(s_{ji} / \max_i s_{ji}\right)^{1/\tau}",
            powered,
            lambda i, j: (
                f"({fmt(masked[i, j])} / {fmt(peaks[0, j])})^(1/{fmt(tau)}) = {fmt(powered[i, j])}"
            ),
            tau=tau,
        )
    _sums_and_weights(b, powered, stages.sums, stages.weights, "s", "weights_sum")


def _masked(b: _Recorder, mask: np.ndarray, masked: np.ndarray, fill_tex: str) -> None:
    def explain(i: int, j: int) -> str:
        if mask[i, j]:
            return f"{b.s(i, j)} = {fmt(masked[i, j])}"
        return f"{b.s(i, j)} → {fmt(masked[i, j])}  ⇒  {b.s(i, j, 'a')} = 0"

    b.add(
        "masked",
        # no words in a formula: the interface owns them (the mask's entry m is 1 where kept)
        rf"s_{{ij}} \leftarrow \begin{{cases}} s_{{ij}} & m_{{ij}} = 1 \\ {fill_tex} & m_{{ij}} = 0"
        r" \end{cases}",
        rf"s_{{ji}} \leftarrow \begin{{cases}} s_{{ji}} & m_{{ji}} = 1 \\ {fill_tex} & m_{{ji}} = 0"
        r" \end{cases}",
        masked,
        explain,
    )


def _sums_and_weights(
    b: _Recorder,
    numerators: np.ndarray,
    sums: np.ndarray,
    weights: np.ndarray,
    name: str,
    key: str,
) -> None:
    m, n = numerators.shape
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
    b.add(
        key,
        rf"{b.sized(_A, m, n)},\quad a_{{ij}} = \frac{{{name}_{{ij}}}}"
        rf"{{\sum_{{i'}} {name}_{{i'j}}}}",
        rf"{b.sized(_A, m, n)},\quad a_{{ji}} = \frac{{{name}_{{ji}}}}"
        rf"{{\sum_{{i'}} {name}_{{ji'}}}}",
        weights,
        lambda i, j: (
            f"{b.s(i, j, 'a')} = {b.s(i, j, name)} / Σ = "
            f"{fmt(numerators[i, j])} / {fmt(sums[0, j])} = {fmt(weights[i, j])}"
        ),
    )


def _output_step(b: _Recorder, v: np.ndarray, weights: np.ndarray, output: np.ndarray) -> None:
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
        rf"{b.sized(_O, d_v, n)} = {b.sized(_V, d_v, m)}\,{b.sized(_A, m, n)}",
        rf"{b.sized(_O, d_v, n)} = {b.sized(_A, m, n)}\,{b.sized(_V, d_v, m)}",
        output,
        explain,
    )
