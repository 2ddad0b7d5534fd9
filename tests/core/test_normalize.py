"""The one softmax and the one divide-by-the-sum every module of the engine normalizes with.

attention, lookup, regression, multi-head, the gradient, the search and Squeeze-and-Excitation
all call `attention_core.normalize`, so these properties hold for every weight the app shows:
each slice sums to 1, masked entries are exactly 0, huge scores stay finite, and the power of
the temperature (this app's extension of d2l's α / Σ α) is the identity at τ = 1.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import AttentionInputError
from attention_core.normalize import (
    normalize_by_sum,
    power_of_temperature,
    softmax,
    softmax_stages,
    sum_stages,
)

PROPERTY = settings(max_examples=60, deadline=None)

shapes = st.tuples(st.integers(1, 5), st.integers(1, 5))
axes = st.sampled_from([0, 1])
temperatures = st.floats(0.05, 20, allow_nan=False, allow_infinity=False)


def scores_of(elements):
    return shapes.flatmap(lambda shape: arrays(np.float64, shape, elements=elements))


moderate = scores_of(st.floats(-30, 30, allow_nan=False, allow_infinity=False))
huge = scores_of(st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False))
non_negative = scores_of(st.floats(0, 50, allow_nan=False, allow_infinity=False))
# zero, or far enough from it that a plain α^(1/τ) (τ ≥ 0.05) neither underflows nor overflows
powerable = scores_of(st.one_of(st.just(0.0), st.floats(0.01, 50)))


def slices(a: np.ndarray, axis: int) -> list[np.ndarray]:
    """Each slice the normalization runs along: columns for axis 0, rows for axis 1."""
    return [a[:, j] for j in range(a.shape[1])] if axis == 0 else list(a)


def reference_softmax(scores: np.ndarray, axis: int) -> np.ndarray:
    """exp(s_i) / Σ_j exp(s_j), a plain loop over each slice (no max subtracted)."""
    out = np.zeros_like(scores)
    for index, line in enumerate(slices(scores, axis)):
        total = sum(math.exp(s) for s in line)
        weights = [math.exp(s) / total for s in line]
        if axis == 0:
            out[:, index] = weights
        else:
            out[index] = weights
    return out


def reference_power_sum(alpha: np.ndarray, tau: float, axis: int) -> np.ndarray:
    """α_i^(1/τ) / Σ_j α_j^(1/τ), a plain loop over each slice (no rescaling)."""
    out = np.zeros_like(alpha)
    for index, line in enumerate(slices(alpha, axis)):
        powered = [a ** (1 / tau) for a in line]
        weights = [p / sum(powered) for p in powered]
        if axis == 0:
            out[:, index] = weights
        else:
            out[index] = weights
    return out


@PROPERTY
@given(moderate, axes)
def test_softmax_matches_a_plain_loop_and_each_slice_sums_to_one(scores, axis):
    weights = softmax(scores, axis=axis)
    np.testing.assert_allclose(weights, reference_softmax(scores, axis), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(weights.sum(axis=axis), 1.0, rtol=1e-12)


@PROPERTY
@given(huge, axes)
def test_softmax_of_huge_scores_stays_finite_and_sums_to_one(scores, axis):
    weights = softmax(scores, axis=axis)
    assert np.isfinite(weights).all()
    assert (weights >= 0).all()
    np.testing.assert_allclose(weights.sum(axis=axis), 1.0, rtol=1e-12)


def test_softmax_of_scores_a_thousand_apart_is_one_hot_not_nan():
    weights = softmax(np.array([[1000.0], [-1000.0], [0.0]]), axis=0)
    assert weights[:, 0].tolist() == [1.0, 0.0, 0.0]


@PROPERTY
@given(moderate, axes, st.data())
def test_softmax_gives_masked_entries_exactly_zero_and_the_rest_sum_to_one(scores, axis, data):
    mask = data.draw(arrays(bool, scores.shape, elements=st.booleans()))
    assume(mask.any(axis=axis).all())  # every query keeps at least one key
    weights = softmax(scores, axis=axis, mask=mask)
    assert (weights[~mask] == 0.0).all()  # exactly zero, not merely tiny
    assert (weights[mask] > 0).all()  # scores within ±30: exp(−60) is small but positive
    np.testing.assert_allclose(weights.sum(axis=axis), 1.0, rtol=1e-12)


@PROPERTY
@given(moderate, axes, st.floats(-100, 100))
def test_softmax_ignores_a_constant_added_to_every_score(scores, axis, shift):
    np.testing.assert_allclose(
        softmax(scores + shift, axis=axis), softmax(scores, axis=axis), rtol=1e-9, atol=1e-15
    )


@PROPERTY
@given(moderate, axes)
def test_softmax_stages_are_the_steps_a_learner_is_shown(scores, axis):
    stages = softmax_stages(scores, axis=axis)
    assert (stages.shifted.max(axis=axis) == 0).all()  # each slice's largest score becomes 0
    assert (stages.exponentials <= 1).all() and (stages.exponentials > 0).all()
    assert (stages.sums >= 1).all()  # the largest entry contributes exp(0) = 1
    np.testing.assert_array_equal(stages.weights, stages.exponentials / stages.sums)
    np.testing.assert_array_equal(stages.weights, softmax(scores, axis=axis))


@PROPERTY
@given(moderate, axes, st.data())
def test_softmax_without_stages_gives_the_same_bits_and_leaves_the_scores_alone(scores, axis, data):
    mask = data.draw(arrays(bool, scores.shape, elements=st.booleans()))
    assume(mask.any(axis=axis).all())
    before = scores.copy()
    for given_mask in (None, mask):  # softmax() reuses one buffer; the stages keep three
        weights = softmax(scores, axis=axis, mask=given_mask)
        assert weights.tobytes() == softmax_stages(scores, axis, given_mask).weights.tobytes()
    np.testing.assert_array_equal(scores, before)


@PROPERTY
@given(non_negative, axes)
def test_divide_by_sum_at_temperature_one_is_exactly_alpha_over_its_sum(alpha, axis):
    assume((alpha.sum(axis=axis) > 0).all())
    expected = alpha / alpha.sum(axis=axis, keepdims=True)
    np.testing.assert_array_equal(normalize_by_sum(alpha, axis=axis), expected)
    stages = sum_stages(alpha, axis=axis)
    assert stages.peaks is None  # d2l's own formula: no power, no rescaling
    assert stages.powered is alpha


@PROPERTY
@given(non_negative, axes)
def test_power_of_temperature_one_normalizes_to_alpha_over_its_sum(alpha, axis):
    assume((alpha.sum(axis=axis) > 0).all())
    peaks, powered = power_of_temperature(alpha, 1.0, axis=axis)
    np.testing.assert_array_equal(powered, alpha / peaks)  # only the rescaling, no power
    normalized = powered / powered.sum(axis=axis, keepdims=True)
    # weights are in [0, 1]: the absolute tolerance covers denormal α (≈ 1e-314), whose quotients
    # round on fewer bits, so a relative one cannot hold there
    expected = alpha / alpha.sum(axis=axis, keepdims=True)
    np.testing.assert_allclose(normalized, expected, rtol=1e-12, atol=1e-15)


@PROPERTY
@given(powerable, axes, temperatures)
def test_divide_by_sum_with_temperature_is_alpha_to_the_one_over_tau_normalized(alpha, axis, tau):
    assume((alpha.sum(axis=axis) > 0).all())
    weights = normalize_by_sum(alpha, axis=axis, temperature=tau)
    np.testing.assert_allclose(weights, reference_power_sum(alpha, tau, axis), 1e-9, 1e-15)
    np.testing.assert_allclose(weights.sum(axis=axis), 1.0, rtol=1e-12)


def test_power_of_a_tiny_temperature_picks_the_largest_alpha_without_overflow():
    alpha = np.array([[10.0, 0.0], [20.0, 0.0], [19.0, 3.0]])
    peaks, powered = power_of_temperature(alpha, 1e-3, axis=0)
    assert peaks.tolist() == [[20.0, 3.0]]
    assert np.isfinite(powered).all()
    assert normalize_by_sum(alpha, axis=0, temperature=1e-3).round(12).tolist() == [
        [0.0, 0.0],
        [1.0, 0.0],
        [0.0, 1.0],
    ]


def test_power_of_temperature_keeps_an_all_zero_slice_zero():
    peaks, powered = power_of_temperature(np.array([[0.0, 1.0], [0.0, 2.0]]), 0.5, axis=0)
    assert peaks.tolist() == [[1.0, 2.0]]  # divides by 1, not by 0
    assert powered[:, 0].tolist() == [0.0, 0.0]


def test_divide_by_sum_masks_with_zero_before_it_checks_the_signs():
    alpha = np.array([[1.0, -5.0], [3.0, 2.0]])
    mask = np.array([[True, False], [True, True]])
    assert normalize_by_sum(alpha, axis=0, mask=mask).tolist() == [[0.25, 0.0], [0.75, 1.0]]


@pytest.mark.parametrize(
    ("alpha", "axis", "code", "params"),
    [
        ([[1.0, 2.0], [-0.5, 1.0]], 0, "negative_score", {"key": 2, "query": 1, "value": -0.5}),
        ([[1.0, 2.0], [-0.5, 1.0]], 1, "negative_score", {"key": 1, "query": 2, "value": -0.5}),
        ([[0.0, 2.0], [0.0, 1.0]], 0, "zero_sum", {"query": 1}),
        ([[1.0, 2.0], [0.0, 0.0]], 1, "zero_sum", {"query": 2}),
    ],
)
def test_divide_by_sum_names_the_score_that_cannot_be_normalized(alpha, axis, code, params):
    with pytest.raises(AttentionInputError) as caught:
        normalize_by_sum(np.array(alpha), axis=axis, temperature=0.5)
    assert caught.value.code == code
    assert dict(caught.value.params) == params
