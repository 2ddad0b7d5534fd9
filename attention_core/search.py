"""A differentiable search engine (d2l's exercise 3): learn a query by gradient descent.

Records have small vector keys k₁…k_m (columns of K). Attention gives each record the weight
p = softmax(score(q, K)/τ); to make the search find record t, minimise the loss
L(q) = −log p_t. Its gradient is

    ∇_q L = −(1/τ) (g_t − Σⱼ pⱼ gⱼ),   gᵢ = ∂sᵢ/∂q (= kᵢ for the dot score),

so each step moves q towards the target's key and away from the weighted average key. A hard
argmax lookup (weight 1 on the best key) has gradient 0 almost everywhere: it cannot learn.

Names become keys as letter-pair count vectors (`letter_pair_vectors`), the bigrams the
database page's default similarity compares.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np

from .errors import AttentionInputError
from .gradient import GRADIENT_SCORES, score_jacobian
from .normalize import softmax_stages
from .validation import as_matrix, as_temperature, as_vector

# Bounded work: a learner asking for 10 000 steps gets this many, and is told so.
MAX_SEARCH_STEPS = 200
# A learning rate above this only makes q jump around (or overflow); it is refused.
MAX_LEARNING_RATE = 100.0


@dataclass(frozen=True)
class SearchPath:
    """Every iterate of gradient descent on L(q) = −log p_target.

    queries : (t + 1, d_q), queries[0] is the start; weights : (t + 1, m)
    losses : (t + 1,); gradients : (t + 1, d_q), ∇_q L at each iterate
    requested_steps : what was asked; steps : what was run (≤ MAX_SEARCH_STEPS);
    notices : codes for the UI, e.g. ('steps_capped',) or ('diverged',)
    """

    queries: np.ndarray
    weights: np.ndarray
    losses: np.ndarray
    gradients: np.ndarray
    target: int
    learning_rate: float
    requested_steps: int
    steps: int
    notices: tuple[str, ...]

    @property
    def capped(self) -> bool:
        return "steps_capped" in self.notices


@dataclass(frozen=True)
class HardLookup:
    """The classic lookup: weight 1 on the best-scoring key (the first if tied), 0 elsewhere.

    weights : (m,) one-hot; gradient : (d_q,) ∂(−log p_target)/∂q, which is 0 wherever the
    argmax does not change (almost everywhere), and undefined on the ties (reported as 0).
    """

    scores: np.ndarray
    weights: np.ndarray
    best: int
    gradient: np.ndarray

    @property
    def tied(self) -> tuple[int, ...]:
        """The keys whose score equals the largest exactly: more than one means q sits on a
        tie, where the argmax is arbitrary (the first is taken) and has no derivative."""
        return tuple(int(i) for i in np.flatnonzero(self.scores == self.scores.max()))


def search_loss(
    q: Any, K: Any, target: int, score: str = "dot", *, W: Any = None, temperature: float = 1.0
) -> tuple[float, np.ndarray, np.ndarray]:
    """(L, ∇_q L, p) for L(q) = −log p_target at one query; validates like `gradient_search`."""
    query, keys, tau, G = _checked(q, K, score, W, temperature)
    target = _checked_target(target, keys.shape[1])
    return _loss_and_gradient(query, G, target, tau)


def gradient_search(
    q0: Any,
    K: Any,
    target: int,
    score: str = "dot",
    *,
    W: Any = None,
    temperature: float = 1.0,
    learning_rate: float = 0.5,
    steps: int = 30,
) -> SearchPath:
    """Gradient descent q ← q − η ∇_q L from q0, recording every iterate.

    Parameters
    ----------
    q0 : array_like, d_q entries; K : array_like, d_k × m (keys as columns)
    target : 0-based index of the record the search should find
    learning_rate : η, 0 < η ≤ MAX_LEARNING_RATE
    steps : a whole number ≥ 1; more than MAX_SEARCH_STEPS are capped (notice 'steps_capped')

    A step that makes q or the loss overflow stops the descent (notice 'diverged').
    """
    query, keys, tau, G = _checked(q0, K, score, W, temperature)
    target = _checked_target(target, keys.shape[1])
    eta = _checked_learning_rate(learning_rate)
    requested = _checked_steps(steps)
    run = min(requested, MAX_SEARCH_STEPS)
    notices = ["steps_capped"] if requested > MAX_SEARCH_STEPS else []
    queries, weights, losses, gradients = [], [], [], []
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(run + 1):
            loss, gradient, p = _loss_and_gradient(query, G, target, tau)
            if not (
                math.isfinite(loss) and np.isfinite(gradient).all() and np.isfinite(query).all()
            ):
                notices.append("diverged")
                break
            queries.append(query)
            weights.append(p)
            losses.append(loss)
            gradients.append(gradient)
            query = query - eta * gradient
    return SearchPath(
        queries=np.array(queries),
        weights=np.array(weights),
        losses=np.array(losses),
        gradients=np.array(gradients),
        target=target,
        learning_rate=eta,
        requested_steps=requested,
        steps=len(queries) - 1,
        notices=tuple(notices),
    )


def hard_lookup(q: Any, K: Any, target: int, score: str = "dot", *, W: Any = None) -> HardLookup:
    """Argmax attention: a one-hot weight, whose loss has a zero gradient almost everywhere."""
    query, keys, _tau, G = _checked(q, K, score, W, 1.0)
    target = _checked_target(target, keys.shape[1])
    scores = G @ query
    best = int(np.argmax(scores))
    weights = np.zeros(keys.shape[1])
    weights[best] = 1.0
    # The one-hot weights are piecewise constant in q: their derivative is 0 off the ties.
    return HardLookup(scores=scores, weights=weights, best=best, gradient=np.zeros(query.size))


def outranking_mix(K: Any, target: int) -> np.ndarray | None:
    """Weights that rebuild the target's key from the other keys, if any: why it can never win.

    For the dot score, key t can score above every other key for some query q exactly when no
    convex combination of the other keys equals k_t (Gordan's alternative: either some q has
    q·(k_t − k_j) > 0 for every j ≠ t, or some λ ≥ 0, not all 0, has Σ λ_j (k_t − k_j) = 0).
    When k_t = Σ μ_j k_j with μ ≥ 0, Σ μ = 1, then q·k_t = Σ μ_j q·k_j ≤ max_j q·k_j for every
    q: some other key always scores at least as high, in any dimension.

    K : array_like, d × m (keys as columns). Returns μ, (m,), with μ_t = 0, μ ≥ 0, Σ μ = 1 and
    K μ = k_t within a tolerance relative to the keys' size; None when the target can come
    first alone (it is a corner of the keys' hull and no other key equals it).
    """
    keys = as_matrix("K", K)
    target = _checked_target(target, keys.shape[1])
    others = [j for j in range(keys.shape[1]) if j != target]
    if not others:
        return None
    scale = max(float(np.abs(keys).max()), 1.0)
    # k_t = Σ μ_j k_j and Σ μ_j = 1, μ ≥ 0: a non-negative least-squares problem whose residual
    # is 0 exactly when the target's key lies in the hull of the others.
    A = np.vstack([keys[:, others], np.full((1, len(others)), scale)])  # (d + 1) × (m − 1)
    b = np.append(keys[:, target], scale)  # d + 1
    mu = _non_negative_least_squares(A, b)
    mu[mu < 1e-12] = 0.0  # rounding's leftovers on keys the mix does not use
    if not mu.any() or np.linalg.norm(A @ mu - b) > 1e-9 * scale * math.sqrt(len(b)):
        return None
    mix = np.zeros(keys.shape[1])
    mix[others] = mu / mu.sum()
    return mix


def _non_negative_least_squares(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """argmin ‖A x − b‖ over x ≥ 0 (Lawson and Hanson's active-set method, finite steps)."""
    n = A.shape[1]
    x = np.zeros(n)
    free = np.zeros(n, dtype=bool)  # the passive set: entries allowed to be positive
    tolerance = 10 * np.finfo(float).eps * max(A.shape) * max(float(np.abs(A).sum(axis=0).max()), 1)
    for _ in range(3 * n + 10):
        slope = A.T @ (b - A @ x)  # minus the gradient of ½‖A x − b‖²
        if free.all() or slope[~free].max() <= tolerance:
            break
        free[int(np.argmax(np.where(free, -np.inf, slope)))] = True
        while True:
            trial = np.zeros(n)
            if not free.any():
                break
            trial[free] = np.linalg.lstsq(A[:, free], b, rcond=None)[0]
            if trial[free].min() > 0:
                break
            # Step from x towards the trial as far as x stays ≥ 0, then drop what hit 0.
            blocked = free & (trial <= 0)
            gap = x[blocked] - trial[blocked]  # ≥ 0; 0 only for an entry at 0 in both
            step = np.min(np.divide(x[blocked], gap, out=np.zeros_like(gap), where=gap > 0))
            x = x + step * (trial - x)
            free &= x > tolerance
            x[~free] = 0.0
        x = trial
    return x


def letter_pair_vectors(names: Sequence[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """Each name as counts of its letter pairs (lower case, padded with spaces at both ends).

    Returns (K, pairs): K is len(pairs) × len(names), one key per column; pairs are sorted.
    'Li' → {' l': 1, 'li': 1, 'i ': 1}. Works for any script (a pair is two characters).
    """
    counts: list[dict[str, int]] = []
    for index, name in enumerate(names):
        text = str(name).strip().lower()
        if not text:
            raise AttentionInputError("empty_key", index=index + 1)
        padded = f" {text} "
        pairs: dict[str, int] = {}
        for a, b in itertools.pairwise(padded):
            pairs[a + b] = pairs.get(a + b, 0) + 1
        counts.append(pairs)
    if not counts:
        raise AttentionInputError("empty_database")
    vocabulary = tuple(sorted(set().union(*counts)))
    K = np.array([[c.get(pair, 0) for c in counts] for pair in vocabulary], dtype=float)
    return K, vocabulary


def plane_projection(K: Any) -> tuple[np.ndarray, np.ndarray]:
    """(centre, axes): the keys' mean (d,) and their two main directions (d × 2, orthonormal).

    Project a point x with axesᵀ (x − centre) to draw high-dimensional keys and a query's path
    in the plane; with d ≤ 2 the axes are the coordinate axes (nothing is lost).
    """
    keys = as_matrix("K", K)
    d = keys.shape[0]
    if d <= 2:
        return np.zeros(d), np.eye(d, 2)
    centre = keys.mean(axis=1)
    u, _s, _vt = np.linalg.svd(keys - centre[:, None], full_matrices=False)
    axes = np.zeros((d, 2))
    axes[:, : min(2, u.shape[1])] = u[:, :2]
    return centre, axes


def _checked(q: Any, K: Any, score: str, W: Any, temperature: float):
    if score not in GRADIENT_SCORES:
        raise AttentionInputError("unknown_score", score=score, choices=", ".join(GRADIENT_SCORES))
    tau = as_temperature(temperature)
    query, keys = as_vector("q", q), as_matrix("K", K)
    return query, keys, tau, score_jacobian(query, keys, score, W)


def _checked_target(target: Any, m: int) -> int:
    if isinstance(target, bool) or not isinstance(target, Integral) or not 0 <= target < m:
        raise AttentionInputError("bad_target", value=target, m=m)
    return int(target)


def _checked_learning_rate(value: Any) -> float:
    is_real = isinstance(value, Real) and not isinstance(value, bool)
    if not is_real or not math.isfinite(value) or value <= 0:
        raise AttentionInputError("bad_learning_rate", value=value)
    if value > MAX_LEARNING_RATE:
        raise AttentionInputError("learning_rate_too_large", value=value, limit=MAX_LEARNING_RATE)
    return float(value)


def _checked_steps(value: Any) -> int:
    whole = isinstance(value, Integral) or (isinstance(value, Real) and float(value).is_integer())
    if isinstance(value, bool) or not whole or value < 1:
        raise AttentionInputError("bad_steps", value=value)
    return int(value)


def _loss_and_gradient(
    query: np.ndarray, G: np.ndarray, target: int, tau: float
) -> tuple[float, np.ndarray, np.ndarray]:
    z = (G @ query) / tau  # m
    softmax = softmax_stages(z[:, None], axis=0)  # over the m records
    top, total = float(softmax.peaks[0, 0]), float(softmax.sums[0, 0])
    log_normaliser = top + math.log(total)  # log Σ exp z = max z + log Σ exp(z − max z), stably
    loss = float(log_normaliser - z[target])
    p = softmax.weights[:, 0]
    gradient = -(G[target] - p @ G) / tau  # d_q
    return loss, gradient, p
