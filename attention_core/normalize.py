"""Turning scores into weights that sum to 1 along one axis: softmax, or divide by the sum.

These are the two normalizations of the d2l section "Queries, Keys, and Values":
softmax exp(a_i) / Σ_j exp(a_j), for any real scores, and α_i / Σ_j α_j, for non-negative ones.
"""

from __future__ import annotations

import numpy as np

from .errors import AttentionInputError


def softmax(scores: np.ndarray, axis: int = 0, mask: np.ndarray | None = None) -> np.ndarray:
    """Numerically stable softmax of `scores` along `axis`; masked-out entries get exactly 0.

    Subtracting the maximum first changes nothing mathematically (the factor exp(−max) cancels)
    but keeps exp() from overflowing: scores of ±1000 still give finite weights.
    `mask` (same shape, True = may be attended) must leave at least one entry per slice.
    """
    exponentials = softmax_numerators(scores, axis, mask)
    return exponentials / exponentials.sum(axis=axis, keepdims=True)


def softmax_numerators(
    scores: np.ndarray, axis: int = 0, mask: np.ndarray | None = None
) -> np.ndarray:
    """exp(s − max s) along `axis`, with exact zeros where `mask` is False."""
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    shifted = scores - scores.max(axis=axis, keepdims=True)  # largest entry becomes 0
    return np.exp(shifted)


def normalize_by_sum(
    scores: np.ndarray, axis: int = 0, mask: np.ndarray | None = None, temperature: float = 1.0
) -> np.ndarray:
    """α_i^(1/τ) / Σ_j α_j^(1/τ) along `axis`, for non-negative α (τ = 1: plain divide by sum).

    The power 1/τ plays the role the temperature plays in softmax: τ → 0 picks the largest α,
    τ → ∞ makes the weights uniform over the positive α. A negative score or a zero sum has no
    meaningful normalization, so it is an error rather than a NaN.
    """
    if mask is not None:
        scores = np.where(mask, scores, 0.0)
    check_divisible_by_sum(scores, axis)
    powered = scores if temperature == 1.0 else _safe_power(scores, 1.0 / temperature, axis)
    return powered / powered.sum(axis=axis, keepdims=True)


def check_divisible_by_sum(scores: np.ndarray, axis: int = 0) -> None:
    """Raise unless every score is ≥ 0 and every slice along `axis` has a positive sum.

    Raising α to 1/τ keeps zeros zero and positives positive, so this check also holds after
    the temperature's power.
    """
    negative = np.argwhere(scores < 0)
    if negative.size:
        i, j = (int(x) for x in negative[0])
        key, query = (i, j) if axis == 0 else (j, i)
        raise AttentionInputError(
            "negative_score", key=key + 1, query=query + 1, value=float(scores[i, j])
        )
    zero = np.flatnonzero(scores.sum(axis=axis) == 0)
    if zero.size:
        raise AttentionInputError("zero_sum", query=int(zero[0]) + 1)


def _safe_power(scores: np.ndarray, exponent: float, axis: int) -> np.ndarray:
    """(α / max α)^(1/τ) per slice: the rescaling cancels in the ratio and stops overflow."""
    peak = scores.max(axis=axis, keepdims=True)
    peak = np.where(peak == 0, 1.0, peak)  # an all-zero slice stays zero (and is reported)
    with np.errstate(under="ignore"):
        return (scores / peak) ** exponent
