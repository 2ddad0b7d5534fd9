"""Turning scores into weights that sum to 1 along one axis: softmax, or divide by the sum.

These are the two normalizations of the d2l section "Queries, Keys, and Values":
softmax exp(a_i) / Σ_j exp(a_j), for any real scores, and α_i / Σ_j α_j, for non-negative ones.

Every module of the engine normalizes through here (attention, lookup, regression, multi-head,
gradient, search, Squeeze-and-Excitation), so there is one softmax and one power of the
temperature. `softmax_stages` and `sum_stages` keep each intermediate matrix, because the
attention and regression steps show them; `softmax` and `normalize_by_sum` return the weights.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import AttentionInputError


@dataclass(frozen=True)
class SoftmaxStages:
    """exp(s − max s) / Σ exp(s − max s) along one axis, one array per operation.

    `peaks` and `sums` keep the reduced axis (length 1), so they broadcast against the others.
    """

    masked: np.ndarray  # the scores, −∞ where masked (the scores themselves without a mask)
    peaks: np.ndarray  # max s per slice
    shifted: np.ndarray  # s − max s: the largest entry of each slice becomes 0
    exponentials: np.ndarray  # exp(s − max s) ∈ (0, 1], exactly 0 where masked
    sums: np.ndarray  # Σ exp(s − max s) per slice, ≥ 1
    weights: np.ndarray  # exponentials / sums


@dataclass(frozen=True)
class SumStages:
    """α^(1/τ) / Σ α^(1/τ) along one axis, one array per operation (see `sum_stages`)."""

    masked: np.ndarray  # the scores α, 0 where masked
    peaks: np.ndarray | None  # max α per slice (1 for an all-zero slice); None when τ = 1
    powered: np.ndarray  # (α / max α)^(1/τ), or α itself when τ = 1
    sums: np.ndarray  # Σ powered per slice
    weights: np.ndarray  # powered / sums


def softmax(scores: np.ndarray, axis: int = 0, mask: np.ndarray | None = None) -> np.ndarray:
    """Numerically stable softmax of `scores` along `axis`; masked-out entries get exactly 0.

    Subtracting the maximum first changes nothing mathematically (the factor exp(−max) cancels)
    but keeps exp() from overflowing: scores of ±1000 still give finite weights.
    `mask` (same shape, True = may be attended) must leave at least one entry per slice.
    """
    return _softmax(scores, axis, mask, keep_stages=False).weights


def softmax_stages(
    scores: np.ndarray, axis: int = 0, mask: np.ndarray | None = None
) -> SoftmaxStages:
    """`softmax`, keeping every intermediate array (the steps a learner is shown)."""
    return _softmax(scores, axis, mask, keep_stages=True)


def _softmax(
    scores: np.ndarray, axis: int, mask: np.ndarray | None, *, keep_stages: bool
) -> SoftmaxStages:
    """The one softmax. Without `keep_stages`, exp and the division overwrite the shifted
    scores: the same operations give the same weights, in one array instead of three (large
    score matrices then stay in memory the allocator already has)."""
    masked = scores if mask is None else np.where(mask, scores, -np.inf)  # exp(−∞) = 0
    peaks = masked.max(axis=axis, keepdims=True)
    shifted = masked - peaks  # largest entry becomes 0, so exp() cannot overflow
    exponentials = np.exp(shifted, out=None if keep_stages else shifted)
    sums = exponentials.sum(axis=axis, keepdims=True)
    weights = np.divide(exponentials, sums, out=None if keep_stages else exponentials)
    return SoftmaxStages(masked, peaks, shifted, exponentials, sums, weights)


def normalize_by_sum(
    scores: np.ndarray, axis: int = 0, mask: np.ndarray | None = None, temperature: float = 1.0
) -> np.ndarray:
    """α_i^(1/τ) / Σ_j α_j^(1/τ) along `axis`, for non-negative α (τ = 1: plain divide by sum).

    The power 1/τ plays the role the temperature plays in softmax: τ → 0 picks the largest α,
    τ → ∞ makes the weights uniform over the positive α. A negative score or a zero sum has no
    meaningful normalization, so it is an error rather than a NaN.
    """
    return sum_stages(scores, axis, mask, temperature).weights


def sum_stages(
    scores: np.ndarray, axis: int = 0, mask: np.ndarray | None = None, temperature: float = 1.0
) -> SumStages:
    """`normalize_by_sum`, keeping every intermediate array (the steps a learner is shown)."""
    masked = scores if mask is None else np.where(mask, scores, 0.0)
    check_divisible_by_sum(masked, axis)
    peaks, powered = None, masked  # τ = 1 is d2l's own α / Σ α: no power at all
    if temperature != 1.0:
        peaks, powered = power_of_temperature(masked, temperature, axis)
    sums = powered.sum(axis=axis, keepdims=True)
    return SumStages(masked, peaks, powered, sums, powered / sums)


def power_of_temperature(
    alpha: np.ndarray, temperature: float, axis: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """(α / max α)^(1/τ) per slice along `axis`, and the max it divided by (keepdims).

    This app's extension of divide-by-the-sum (d2l's is τ = 1): normalizing the result gives
    α^(1/τ) / Σ α^(1/τ). Dividing by the slice's max first cancels in that ratio but keeps
    α^(1/τ) from overflowing for a small τ. An all-zero slice divides by 1 and stays zero.
    """
    peaks = alpha.max(axis=axis, keepdims=True)
    peaks = np.where(peaks == 0, 1.0, peaks)
    with np.errstate(under="ignore"):
        return peaks, (alpha / peaks) ** (1.0 / temperature)


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
