"""Nadaraya–Watson regression: against a plain loop, its invariants (Hypothesis), its steps,
leave-one-out, and a table of invalid inputs with their codes."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import AttentionInputError, nadaraya_watson
from attention_core.errors import ERROR_CODES
from attention_core.regression import (
    KERNELS,
    bandwidth_range,
    leave_one_out,
)
from attention_core.regression_steps import KERNEL_LATEX, NW_STEP_KEYS
from attention_ui.kit.text.i18n import error_text, step_sentence

PROPERTY = settings(max_examples=60, deadline=None)
NAN, INF = math.nan, math.inf


def kernel_reference(kernel: str, u: float) -> float:
    """d2l's kernels, written out one number at a time."""
    if kernel == "gaussian":
        return math.exp(-u * u / 2)
    if kernel == "boxcar":
        return 1.0 if abs(u) < 1 else 0.0
    if kernel == "constant":
        return 1.0
    if kernel == "triangular":
        return max(0.0, 1.0 - abs(u))
    return 0.75 * max(0.0, 1.0 - u * u)  # Epanechnikov


def loop_reference(x_query, x_train, y_train, kernel, sigma):
    """Weights and predictions by the textbook formula, with plain loops and no NumPy."""
    weights, predictions = [], []
    for q in x_query:
        kappas = [kernel_reference(kernel, (q - x) / sigma) for x in x_train]
        total = sum(kappas)
        if total == 0:
            weights.append([0.0] * len(x_train))
            predictions.append(math.nan)
            continue
        row = [k / total for k in kappas]
        weights.append(row)
        predictions.append(sum(a * y for a, y in zip(row, y_train, strict=True)))
    return np.array(weights), np.array(predictions)


coordinates = st.floats(-10, 10, allow_nan=False, allow_infinity=False)
bandwidths = st.floats(0.05, 20, allow_nan=False, allow_infinity=False)


@st.composite
def data(draw, min_points: int = 1):
    m = draw(st.integers(min_points, 7))
    n = draw(st.integers(1, 6))
    x = draw(arrays(np.float64, m, elements=coordinates))
    y = draw(arrays(np.float64, m, elements=coordinates))
    queries = draw(arrays(np.float64, n, elements=coordinates))
    return queries, x, y


# --- Against the loop -----------------------------------------------------------------------


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("sigma", [0.3, 1.0, 2.5])
def test_weights_and_predictions_match_a_plain_loop(kernel, sigma):
    queries = [-1.0, 0.0, 0.4, 1.7, 3.0, 9.0]
    x = [0.0, 0.5, 1.0, 1.0, 2.5]  # a repeated x on purpose
    y = [1.0, -2.0, 0.5, 3.0, 4.0]
    result = nadaraya_watson(queries, x, y, kernel, sigma)
    weights, predictions = loop_reference(queries, x, y, kernel, sigma)
    np.testing.assert_allclose(result.weights, weights, rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(np.isnan(result.prediction), np.isnan(predictions))
    np.testing.assert_allclose(result.prediction, predictions, rtol=1e-12, equal_nan=True)
    assert result.weights.shape == (6, 5) and result.prediction.shape == (6,)


@PROPERTY
@given(data(), st.sampled_from(KERNELS), bandwidths)
def test_random_problems_match_the_loop(problem, kernel, sigma):
    queries, x, y = problem
    result = nadaraya_watson(queries, x, y, kernel, sigma)
    weights, predictions = loop_reference(queries, x, y, kernel, sigma)
    # The loop's Gaussian underflows to 0/0 far from every point; the engine's softmax does not.
    defined = ~np.isnan(predictions)
    np.testing.assert_allclose(result.weights[defined], weights[defined], atol=1e-9)
    np.testing.assert_allclose(result.prediction[defined], predictions[defined], atol=1e-7)


def test_a_query_no_point_reaches_has_weights_zero_and_no_prediction():
    result = nadaraya_watson([0.0, 5.0], [0.0, 1.0], [2.0, 4.0], "boxcar", 0.5)
    assert result.weights[1].tolist() == [0.0, 0.0]
    assert math.isnan(result.prediction[1]) and result.prediction[0] == 2.0
    assert result.reached.tolist() == [True, False]


def test_no_warning_when_no_point_is_reached(recwarn):
    nadaraya_watson([10.0], [0.0, 1.0], [2.0, 4.0], "epanechnikov", 0.1)
    assert not recwarn.list


def test_boxcar_excludes_a_point_exactly_one_bandwidth_away():
    # d2l's boxcar is 1 for |u| < 1: at |u| = 1 the point no longer counts.
    result = nadaraya_watson([1.0], [0.0, 1.0], [5.0, 7.0], "boxcar", 1.0)
    assert result.weights[0].tolist() == [0.0, 1.0]


def test_constant_kernel_is_the_mean_whatever_the_bandwidth():
    y = [1.0, 2.0, 6.0]
    for sigma in (0.01, 1.0, 100.0):
        result = nadaraya_watson([-50.0, 0.3], [0.0, 1.0, 2.0], y, "constant", sigma)
        np.testing.assert_allclose(result.prediction, [3.0, 3.0])


# --- Invariants -------------------------------------------------------------------------------


@PROPERTY
@given(data(), st.sampled_from(KERNELS), bandwidths)
def test_rows_sum_to_one_where_defined_and_zero_elsewhere(problem, kernel, sigma):
    result = nadaraya_watson(*problem, kernel, sigma)
    sums = result.weights.sum(axis=1)
    np.testing.assert_allclose(sums[result.reached], 1.0)
    assert (result.weights[~result.reached] == 0).all()
    assert (result.weights >= 0).all()
    assert np.isnan(result.prediction[~result.reached]).all()
    assert np.isfinite(result.prediction[result.reached]).all()


@PROPERTY
@given(data(), st.sampled_from(KERNELS), bandwidths, st.randoms(use_true_random=False))
def test_permuting_the_training_points_permutes_the_weights(problem, kernel, sigma, random):
    queries, x, y = problem
    order = list(range(x.size))
    random.shuffle(order)
    plain = nadaraya_watson(queries, x, y, kernel, sigma)
    shuffled = nadaraya_watson(queries, x[order], y[order], kernel, sigma)
    np.testing.assert_allclose(shuffled.weights, plain.weights[:, order], atol=1e-12)
    np.testing.assert_allclose(shuffled.prediction, plain.prediction, atol=1e-9, equal_nan=True)


@PROPERTY
@given(data(), st.sampled_from(KERNELS), bandwidths)
def test_prediction_lies_between_the_smallest_and_largest_y(problem, kernel, sigma):
    queries, x, y = problem
    result = nadaraya_watson(queries, x, y, kernel, sigma)
    defined = result.prediction[result.reached]
    assert (defined >= y.min() - 1e-9).all() and (defined <= y.max() + 1e-9).all()


@PROPERTY
@given(data())
def test_a_tiny_gaussian_bandwidth_is_a_nearest_neighbour_lookup(problem):
    queries, x, y = problem
    distances = np.abs(queries[:, None] - x[None, :])
    nearest = distances.argmin(axis=1)
    second = np.sort(distances, axis=1)[:, 1] if x.size > 1 else np.full(queries.size, np.inf)
    # a unique nearest point, clearly nearer than the next one
    assume((second - distances.min(axis=1) > 1e-3).all())
    result = nadaraya_watson(queries, x, y, "gaussian", 1e-6)
    expected = np.zeros_like(result.weights)
    expected[np.arange(queries.size), nearest] = 1.0
    np.testing.assert_array_equal(result.weights, expected)
    np.testing.assert_array_equal(result.prediction, y[nearest])


@PROPERTY
@given(data(), st.sampled_from(KERNELS))
def test_a_huge_bandwidth_predicts_the_mean_of_all_y(problem, kernel):
    queries, x, y = problem
    result = nadaraya_watson(queries, x, y, kernel, 1e7)
    np.testing.assert_allclose(result.weights, 1.0 / x.size, rtol=1e-5)
    np.testing.assert_allclose(result.prediction, y.mean(), atol=1e-5)


def test_duplicate_x_share_the_weight_of_their_position():
    result = nadaraya_watson([1.0], [0.0, 1.0, 1.0], [0.0, 2.0, 4.0], "gaussian", 1e-3)
    np.testing.assert_allclose(result.weights, [[0.0, 0.5, 0.5]])
    assert result.prediction[0] == pytest.approx(3.0)


def test_far_from_every_point_the_gaussian_still_predicts():
    # exp(−u²/2) underflows to 0 for u = 1000, yet the weights are a softmax: still defined.
    result = nadaraya_watson([1000.0], [0.0, 1.0], [2.0, 4.0], "gaussian", 1.0)
    np.testing.assert_allclose(result.weights, [[0.0, 1.0]])
    assert result.prediction[0] == 4.0


# --- Steps --------------------------------------------------------------------------------


@pytest.mark.parametrize("kernel", KERNELS)
def test_steps_have_text_formulas_with_sizes_and_end_in_the_prediction(kernel):
    result = nadaraya_watson([0.0, 0.5, 9.0], [0.0, 1.0], [2.0, 4.0], kernel, 0.7)
    keys = [step.key for step in result.steps]
    assert keys[:2] == ["nw_differences", "nw_scaled"]
    assert keys[-3:] == ["nw_sums", "nw_weights", "nw_prediction"]
    if kernel == "gaussian":
        assert keys[2:5] == ["nw_scores", "nw_shifted", "nw_exponentials"]
    else:
        assert keys[2] == "nw_kernel"
    for step in result.steps:
        assert step.key in NW_STEP_KEYS
        assert "{" not in step_sentence(step, "en")
    assert r"{3 \times 2}" in result.step("nw_weights").latex
    np.testing.assert_array_equal(result.step("nw_weights").value, result.weights)
    np.testing.assert_array_equal(result.step("nw_prediction").value[:, 0], result.prediction)
    assert result.step("nw_scaled").entry(1, 0) == "u₂₁ = d₂₁ / σ = 0.5 / 0.7 = 0.714"


def test_step_arithmetic_spells_out_each_weight_and_prediction():
    result = nadaraya_watson([0.25, 5.0], [0.0, 1.0], [2.0, 4.0], "triangular", 1.0)
    assert result.step("nw_kernel").entry(0, 1) == "κ(u₁₂) = max(0, 1 − |−0.75|) = 0.25"
    assert result.step("nw_weights").entry(0, 0) == "α₁₁ = κ₁₁ / Σ = 0.75 / 1 = 0.75"
    assert result.step("nw_prediction").entry(0, 0) == "ŷ₁ = Σᵢ αᵢ·yᵢ = 0.75×2 + 0.25×4 = 2.5"
    assert result.step("nw_prediction").entry(1, 0) == "ŷ₂ = —  (Σᵢ κ₂ᵢ = 0)"
    assert "NaN" not in result.step("nw_prediction").entry(1, 0)
    assert result.step("nw_sums").entry(1, 0) == "Σᵢ κ₂ᵢ = 0 + 0 = 0"


def test_gaussian_steps_are_a_softmax_of_minus_half_u_squared():
    result = nadaraya_watson([0.0], [0.0, 2.0], [0.0, 1.0], "gaussian", 1.0)
    np.testing.assert_allclose(result.step("nw_scores").value, [[0.0, -2.0]])
    expected = np.exp([0.0, -2.0]) / np.exp([0.0, -2.0]).sum()
    np.testing.assert_allclose(result.weights[0], expected)


def test_the_step_runs_cover_every_step_text():
    keys = {
        step.key
        for kernel in KERNELS
        for step in nadaraya_watson([0.0], [0.0, 1.0], [1.0, 2.0], kernel).steps
    }
    assert keys == set(NW_STEP_KEYS)


# --- Leave-one-out --------------------------------------------------------------------------


def loo_reference(x, y, kernel, sigma):
    squared, predicted = [], 0
    for i in range(len(x)):
        rest = [j for j in range(len(x)) if j != i]
        _, p = loop_reference([x[i]], [x[j] for j in rest], [y[j] for j in rest], kernel, sigma)
        if not math.isnan(p[0]):
            squared.append((p[0] - y[i]) ** 2)
            predicted += 1
    return (sum(squared) / len(squared) if squared else math.nan), predicted


@pytest.mark.parametrize("kernel", KERNELS)
def test_leave_one_out_matches_a_loop(kernel):
    x = [0.0, 0.4, 1.1, 1.5, 2.0, 3.2]
    y = [0.1, 0.5, 0.8, 1.1, 0.7, -0.3]
    sigmas = [0.2, 0.5, 1.0, 3.0]
    result = leave_one_out(x, y, kernel, sigmas)
    for index, sigma in enumerate(sigmas):
        error, predicted = loo_reference(x, y, kernel, sigma)
        assert result.predicted[index] == predicted
        if math.isnan(error):
            assert math.isnan(result.errors[index])
        else:
            assert result.errors[index] == pytest.approx(error, rel=1e-9)


def test_leave_one_out_marks_the_smallest_error_among_bandwidths_that_predict_every_point():
    x = np.linspace(0, 6, 25)
    y = np.sin(x)
    result = leave_one_out(x, y, "boxcar", bandwidth_range(x, 30))
    assert result.best is not None
    complete = result.predicted == x.size
    assert complete[result.best]
    assert result.errors[result.best] == np.min(result.errors[complete])
    assert not complete[0]  # a quarter of the gap reaches no other point
    assert result.best_bandwidth == result.bandwidths[result.best]


def test_leave_one_out_has_no_best_when_no_bandwidth_predicts_every_point():
    result = leave_one_out([0.0, 10.0], [1.0, 2.0], "boxcar", [0.5, 1.0])
    assert result.best is None and result.best_bandwidth is None
    assert np.isnan(result.errors).all()


def test_bandwidth_range_spans_the_gap_to_the_spread():
    sigmas = bandwidth_range([0.0, 1.0, 1.0, 3.0], 5)
    assert sigmas[0] == pytest.approx(0.25) and sigmas[-1] == pytest.approx(12.0)
    assert len(bandwidth_range([2.0, 2.0], 7)) == 7


# --- Invalid input ----------------------------------------------------------------------------

X, Y = [0.0, 1.0], [2.0, 4.0]


def case(case_id, call, code, *in_message):
    return pytest.param(call, code, in_message, id=case_id)


CASES = [
    case(
        "no-training-points",
        lambda: nadaraya_watson([0.0], [], []),
        "empty_data",
        "x_train is empty",
    ),
    case("no-queries", lambda: nadaraya_watson([], X, Y), "empty_data", "x_query is empty"),
    case(
        "nan-x",
        lambda: nadaraya_watson([0.0], [0.0, NAN], Y),
        "data_not_finite",
        "x_train, entry 2",
        "NaN",
    ),
    case(
        "inf-y",
        lambda: nadaraya_watson([0.0], X, [2.0, -INF]),
        "data_not_finite",
        "y_train, entry 2",
        "−∞",
    ),
    case("inf-query", lambda: nadaraya_watson([INF], X, Y), "data_not_finite", "x_query, entry 1"),
    case(
        "text-y",
        lambda: nadaraya_watson([0.0], X, [2.0, "abc"]),
        "data_not_numeric",
        "y_train, entry 2",
        "'abc'",
    ),
    case(
        "none-x",
        lambda: nadaraya_watson([0.0], [None, 1.0], Y),
        "data_not_numeric",
        "x_train, entry 1",
        "None",
    ),
    case(
        "matrix-x",
        lambda: nadaraya_watson([0.0], [[0.0, 1.0]], Y),
        "data_ndim",
        "x_train must be a list of numbers",
        "2 dimension",
    ),
    case("scalar-query", lambda: nadaraya_watson(0.5, X, Y), "data_ndim", "x_query"),
    case(
        "lengths",
        lambda: nadaraya_watson([0.0], [0.0, 1.0, 2.0], Y),
        "data_length_mismatch",
        "x_train has 3",
        "y_train has 2",
    ),
    case(
        "kernel",
        lambda: nadaraya_watson([0.0], X, Y, "triangle"),
        "unknown_kernel",
        "'triangle'",
        "gaussian, boxcar, constant, triangular, epanechnikov",
    ),
    case(
        "sigma-zero",
        lambda: nadaraya_watson([0.0], X, Y, bandwidth=0.0),
        "bad_bandwidth",
        "not 0",
    ),
    case(
        "sigma-negative",
        lambda: nadaraya_watson([0.0], X, Y, bandwidth=-1),
        "bad_bandwidth",
        "not -1",
    ),
    case("sigma-nan", lambda: nadaraya_watson([0.0], X, Y, bandwidth=NAN), "bad_bandwidth"),
    case("sigma-inf", lambda: nadaraya_watson([0.0], X, Y, bandwidth=INF), "bad_bandwidth"),
    case("sigma-text", lambda: nadaraya_watson([0.0], X, Y, bandwidth="1"), "bad_bandwidth"),
    case("sigma-bool", lambda: nadaraya_watson([0.0], X, Y, bandwidth=True), "bad_bandwidth"),
    case(
        "overflow",
        lambda: nadaraya_watson([1e300], [-1e300, 0.0], Y, bandwidth=1e-10),
        "overflow",
        "u²",
    ),
    case(
        "loo-one-point",
        lambda: leave_one_out([1.0], [2.0], "gaussian", [1.0]),
        "loo_too_few",
        "at least 2",
        "there are 1",
    ),
    case("loo-sigma", lambda: leave_one_out(X, Y, "gaussian", [1.0, 0.0]), "bad_bandwidth"),
    case("loo-no-sigmas", lambda: leave_one_out(X, Y, "gaussian", []), "empty_data", "bandwidths"),
    case("loo-kernel", lambda: leave_one_out(X, Y, "box"), "unknown_kernel"),
    case("loo-lengths", lambda: leave_one_out(X, [1.0], "gaussian"), "data_length_mismatch"),
]
REGRESSION_CODES = {
    "empty_data",
    "data_not_numeric",
    "data_not_finite",
    "data_ndim",
    "data_length_mismatch",
    "unknown_kernel",
    "bad_bandwidth",
    "loo_too_few",
}


@pytest.mark.parametrize(("call", "code", "in_message"), CASES)
def test_invalid_input_raises_a_clear_error(call, code, in_message):
    with pytest.raises(AttentionInputError) as caught:
        call()
    error = caught.value
    assert error.code == code
    assert isinstance(error, ValueError)
    message = re.sub(r"\\(.)", r"\1", error_text(error, "en"))  # as the app words it
    for fragment in in_message:
        assert fragment in message, f"{fragment!r} not in {message!r}"


def test_every_regression_error_code_is_reached_by_the_table():
    raised = set()
    for param in CASES:
        try:
            param.values[0]()
        except AttentionInputError as error:
            raised.add(error.code)
    assert raised >= REGRESSION_CODES
    assert set(ERROR_CODES) >= REGRESSION_CODES


def test_no_kernels_formula_carries_a_word():
    """The boxcar's formula said "otherwise" in English on the Japanese page; the interface
    owns every word, so the engine's formulas have none (it now reads |u| ≥ 1)."""
    for kernel, latex in KERNEL_LATEX.items():
        assert not re.search(r"\\text\{[^}]*[A-Za-z]{2,}", latex), kernel
