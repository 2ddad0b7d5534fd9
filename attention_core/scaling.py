"""Why scaled dot divides by √d_k, measured: random queries and keys of size d_k.

If the entries of q and k are independent with mean 0 and variance 1, k·q = Σₐ kₐ qₐ is a sum
of d_k products of variance 1, so Var(k·q) = d_k and its spread grows like √d_k; k·q / √d_k has
variance 1 whatever d_k. `scaling_demo` draws such vectors (a seeded generator, so the learner
can reproduce and change the draw) and reports the spread of the scores and the largest
softmax weight, with and without the division, and the size of the gradient ‖∂o/∂q‖ of a
pooled output o = vᵀ softmax(s) (values v drawn the same way, one number per key): Vaswani et
al. scale because large dot products push the softmax "into regions where it has extremely
small gradients", and this is that gradient (`query_gradient`'s Jacobian, written here for all
queries at once; the tests compare the two).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import AttentionInputError
from .normalize import softmax

MAX_DEMO_SIZE = 4096
SMALL_GRADIENT = 1e-3  # a query whose ‖∂o/∂q‖ is below this barely moves its output


@dataclass(frozen=True)
class ScalingDemo:
    d_k: int
    seed: int
    keys: int  # m keys per query
    queries: int  # how many queries were drawn
    std_unscaled: float  # standard deviation of k·q over every (key, query) pair
    std_scaled: float  # … of k·q / √d_k
    top_weight_unscaled: float  # mean over the queries of the largest softmax weight
    top_weight_scaled: float
    gradient_unscaled: float  # median over the queries of ‖∂o/∂q‖ with the dot score
    gradient_scaled: float  # … with the scaled dot score
    small_unscaled: float  # share of the queries whose ‖∂o/∂q‖ < SMALL_GRADIENT, dot score
    small_scaled: float  # … scaled dot score


def scaling_demo(d_k: int, seed: int, *, keys: int = 8, queries: int = 200) -> ScalingDemo:
    """Draw `queries` queries and `keys` keys with standard normal entries of size d_k.

    Parameters
    ----------
    d_k : int, 1 … MAX_DEMO_SIZE, the size of q and k
    seed : int ≥ 0, the seed of NumPy's default generator
    keys, queries : ints ≥ 1
    """
    for name, value, low, high in (
        ("d_k", d_k, 1, MAX_DEMO_SIZE),
        ("seed", seed, 0, 2**32 - 1),
        ("keys", keys, 1, MAX_DEMO_SIZE),
        ("queries", queries, 1, MAX_DEMO_SIZE),
    ):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | np.integer)
            or not low <= value <= high
        ):
            raise AttentionInputError(
                "bad_demo_size", parameter=name, value=value, low=low, high=high
            )
    rng = np.random.default_rng(int(seed))
    q = rng.standard_normal((d_k, queries))  # d_k × n
    k = rng.standard_normal((d_k, keys))  # d_k × m
    scores = k.T @ q  # m × n, each entry of variance d_k
    scaled = scores / np.sqrt(d_k)  # m × n, variance 1
    v = rng.standard_normal((1, keys))  # 1 × m: drawn last, so q and k are as before
    unscaled, scaled_norms = _gradient_norms(scores, k, v, 1.0), _gradient_norms(scaled, k, v, d_k)
    return ScalingDemo(
        d_k=int(d_k),
        seed=int(seed),
        keys=int(keys),
        queries=int(queries),
        std_unscaled=float(scores.std()),
        std_scaled=float(scaled.std()),
        top_weight_unscaled=float(softmax(scores, axis=0).max(axis=0).mean()),
        top_weight_scaled=float(softmax(scaled, axis=0).max(axis=0).mean()),
        gradient_unscaled=float(np.median(unscaled)),
        gradient_scaled=float(np.median(scaled_norms)),
        small_unscaled=float((unscaled < SMALL_GRADIENT).mean()),
        small_scaled=float((scaled_norms < SMALL_GRADIENT).mean()),
    )


def _gradient_norms(scores: np.ndarray, k: np.ndarray, v: np.ndarray, d: float) -> np.ndarray:
    """‖∂o/∂q‖ for every query (one per column of the scores), o = v softmax(s), s = Kᵀq/√d.

    Centred as in `query_gradient`: ∂o/∂q_j = Σᵢ p_ij (vᵢ − o_j)(gᵢ − ḡ_j)ᵀ with gᵢ = kᵢ/√d;
    since Σᵢ p_ij (vᵢ − o_j) = 0 the ḡ term drops, leaving K W / √d with W = (v − o) ∘ P.
    """
    p = softmax(scores, axis=0)  # m × n
    weighted = (v.T - v @ p) * p  # m × n: p_ij (v_i − o_j)
    return np.linalg.norm(k @ weighted, axis=0) / np.sqrt(d)  # n
