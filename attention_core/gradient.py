"""∂o/∂q: how one query's pooled output moves when the query moves (d2l's exercise 2).

For one query q, the scores are s = score(q, K) (one per key), the weights p = softmax(s/τ)
and the output o = V p. The chain rule gives

    ∂o/∂q = (1/τ) V (diag(p) − p pᵀ) ∂s/∂q,

with ∂s/∂q = Kᵀ (dot), Kᵀ/√d_k (scaled dot) or Kᵀ W (general). With the dot score and
kᵢ = vᵢ this is Cov_p(k)/τ, the covariance of the keys under the softmax distribution: the
claim of d2l's exercise 2, which the tests check against an independent covariance.

The product V (diag(p) − p pᵀ) G is computed in its centred form
Σᵢ pᵢ (vᵢ − ō)(gᵢ − ḡ)ᵀ (ō = Σ pᵢ vᵢ, ḡ = Σ pᵢ gᵢ, gᵢ = row i of ∂s/∂q): the two are equal,
but when one weight is within 10⁻¹⁶ of 1 the uncentred form subtracts nearly equal numbers and
returns rounding noise, while the centred one still gives the tiny true gradient.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .errors import AttentionInputError
from .normalize import softmax
from .steps import Step
from .validation import as_matrix, as_temperature, as_vector, check_finite, shape_text

GRADIENT_SCORES = ("dot", "scaled_dot", "general")


def frobenius_norm(matrix: np.ndarray) -> float:
    """‖M‖ = √(Σ mᵢⱼ²), without the squares underflowing.

    Entries below about 1e-154 square to exactly 0, so np.linalg.norm calls a Jacobian of
    1e-312 entries 0 while the gradient is not; scaled by its largest entry first, the norm is
    0 only when every entry is.
    """
    largest = float(np.abs(matrix).max(initial=0.0))
    return 0.0 if largest == 0 else largest * float(np.linalg.norm(matrix / largest))


@dataclass(frozen=True)
class QueryGradient:
    """One query's scores, weights, output and the Jacobian of the output.

    query : (d_q,); scores : (m,) = score(q, K) before τ; weights : (m,), sum 1
    output : (d_v,) = V p; score_jacobian : (m, d_q) = ∂s/∂q; jacobian : (d_v, d_q) = ∂o/∂q
    """

    query: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    score_jacobian: np.ndarray
    jacobian: np.ndarray
    score: str
    temperature: float
    steps: tuple[Step, ...]

    @property
    def norm(self) -> float:
        """The Frobenius norm of ∂o/∂q: how strongly the output still reacts to q."""
        return frobenius_norm(self.jacobian)

    def step(self, key: str) -> Step:
        for step in self.steps:
            if step.key == key:
                return step
        raise KeyError(key)


def query_gradient(
    q: Any, K: Any, V: Any, score: str = "dot", *, W: Any = None, temperature: float = 1.0
) -> QueryGradient:
    """The Jacobian ∂o/∂q of o = V softmax(score(q, K)/τ), derived analytically.

    Parameters
    ----------
    q : array_like, d_q entries (one query)
    K : array_like, d_k × m (one key per column)
    V : array_like, d_v × m (one value per column)
    score : {'dot', 'scaled_dot', 'general'}
    W : array_like, d_k × d_q, for 'general' (score kᵀ W q)
    temperature : float > 0

    Raises
    ------
    AttentionInputError with a code (shapes, non-finite entries, unknown score, τ ≤ 0).
    """
    if score not in GRADIENT_SCORES:
        raise AttentionInputError("unknown_score", score=score, choices=", ".join(GRADIENT_SCORES))
    tau = as_temperature(temperature)
    query, keys, values = as_vector("q", q), as_matrix("K", K), as_matrix("V", V)
    G = score_jacobian(query, keys, score, W)  # m × d_q
    _check_key_values(keys, values)
    # Overflow is reported below as an AttentionInputError; NumPy's warning would repeat it.
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        scores = G @ query  # every score here is linear in q: s = (∂s/∂q) q
        weights = softmax((scores / tau)[:, None], axis=0)[:, 0]  # m
        output = values @ weights  # d_v
        centred_values = values - output[:, None]  # d_v × m
        centred_grads = G - weights @ G  # m × d_q
        jacobian = (centred_values * weights) @ centred_grads / tau  # d_v × d_q
    check_finite("s", scores)
    check_finite("J", jacobian)
    result = QueryGradient(
        query=query,
        scores=scores,
        weights=weights,
        output=output,
        score_jacobian=G,
        jacobian=jacobian,
        score=score,
        temperature=tau,
        steps=(),
    )
    return replace(result, steps=query_gradient_steps(result))


def query_gradient_steps(g: QueryGradient) -> tuple[Step, ...]:
    """The steps of one `query_gradient` run, from the arrays it computed."""
    m, d_q, d_v = g.scores.size, g.query.size, g.output.size
    weights = g.weights
    return (
        Step("grad_scores", _SCORE_LATEX[g.score], g.scores[:, None], {"m": m}),
        Step(
            "grad_weights",
            r"\mathbf{p} = \operatorname{softmax}(\mathbf{s}/\tau)",
            weights[:, None],
            {"tau": g.temperature},
        ),
        Step("grad_output", r"\mathbf{o} = \mathbf{V}\mathbf{p}", g.output[:, None], {"d_v": d_v}),
        Step(
            "grad_softmax_jacobian",
            r"\operatorname{diag}(\mathbf{p}) - \mathbf{p}\mathbf{p}^{\mathsf{T}}",
            np.diag(weights) - np.outer(weights, weights),
            {"m": m},
        ),
        Step("grad_score_jacobian", _DS_DQ_LATEX[g.score], g.score_jacobian, {"m": m, "d_q": d_q}),
        Step(
            "grad_jacobian",
            r"\frac{\partial \mathbf{o}}{\partial \mathbf{q}} = \frac{1}{\tau}\,\mathbf{V}"
            r"\left(\operatorname{diag}(\mathbf{p}) - \mathbf{p}\mathbf{p}^{\mathsf{T}}\right)"
            r"\frac{\partial \mathbf{s}}{\partial \mathbf{q}}",
            g.jacobian,
            {"d_v": d_v, "d_q": d_q},
        ),
    )


_SCORE_LATEX = {
    "dot": r"s_i = \mathbf{k}_i^{\mathsf{T}}\mathbf{q}",
    "scaled_dot": r"s_i = \mathbf{k}_i^{\mathsf{T}}\mathbf{q} / \sqrt{d_k}",
    "general": r"s_i = \mathbf{k}_i^{\mathsf{T}}\mathbf{W}\mathbf{q}",
}
_DS_DQ_LATEX = {
    "dot": r"\frac{\partial \mathbf{s}}{\partial \mathbf{q}} = \mathbf{K}^{\mathsf{T}}",
    "scaled_dot": r"\frac{\partial \mathbf{s}}{\partial \mathbf{q}} = "
    r"\mathbf{K}^{\mathsf{T}} / \sqrt{d_k}",
    "general": r"\frac{\partial \mathbf{s}}{\partial \mathbf{q}} = "
    r"\mathbf{K}^{\mathsf{T}}\mathbf{W}",
}


def score_jacobian(query: np.ndarray, keys: np.ndarray, score: str, W: Any = None) -> np.ndarray:
    """∂s/∂q, m × d_q: row i is how key i's score changes with q (checked shapes)."""
    d_q, (d_k, _m) = query.size, keys.shape
    if score == "general":
        if W is None:
            raise AttentionInputError("missing_parameter", score=score, parameter="W")
        w = as_matrix("W", W)
        if w.shape != (d_k, d_q):
            raise AttentionInputError(
                "parameter_shape",
                matrix="W",
                score=score,
                parameter="W",
                shape=shape_text(w.shape),
                expected=shape_text((d_k, d_q)),
                reason="W_general",
                d_q=d_q,
                d_k=d_k,
            )
        return keys.T @ w  # m × d_q
    if d_q != d_k:
        raise AttentionInputError(
            "query_key_size",
            score=score,
            axis="rows",
            Q_shape=shape_text(query.shape),
            K_shape=shape_text(keys.shape),
            d_q=d_q,
            d_k=d_k,
        )
    return keys.T / math.sqrt(d_k) if score == "scaled_dot" else keys.T.copy()


def _check_key_values(keys: np.ndarray, values: np.ndarray) -> None:
    m, m_v = keys.shape[1], values.shape[1]
    if m != m_v:
        raise AttentionInputError(
            "key_value_count",
            m_keys=m,
            m_values=m_v,
            K_shape=shape_text(keys.shape),
            V_shape=shape_text(values.shape),
        )


def weighted_covariance(points: Any, weights: Any) -> np.ndarray:
    """Cov_p(x) = Σᵢ pᵢ (xᵢ − x̄)(xᵢ − x̄)ᵀ with x̄ = Σᵢ pᵢ xᵢ, for points as columns (d × m).

    The covariance of exercise 2's claim, computed directly from its definition (not from the
    Jacobian's formula), so that the page can show the two side by side.
    """
    x = as_matrix("K", points)
    p = as_vector("p", weights)
    if p.size != x.shape[1]:
        raise AttentionInputError(
            "key_value_count",
            m_keys=x.shape[1],
            m_values=p.size,
            K_shape=shape_text(x.shape),
            V_shape=shape_text(p.shape),
        )
    mean = x @ p
    centred = x - mean[:, None]
    with np.errstate(under="ignore"):
        return (centred * p) @ centred.T
