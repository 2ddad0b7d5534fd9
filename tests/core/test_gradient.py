"""query_gradient: the analytic Jacobian ∂o/∂q against central finite differences, and d2l's
exercise 2 (dot score, kᵢ = vᵢ: the Jacobian is the keys' covariance under p, over τ)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import AttentionInputError, query_gradient
from attention_core.gradient import frobenius_norm, weighted_covariance


def output_of(q, K, V, score, W, tau):
    """o = V softmax(score(q, K)/τ), written out independently with plain loops."""
    d_k, m = K.shape
    scores = []
    for i in range(m):
        k = K[:, i]
        if score == "general":
            s = sum(k[a] * sum(W[a, b] * q[b] for b in range(len(q))) for a in range(d_k))
        else:
            s = sum(k[a] * q[a] for a in range(d_k))
            if score == "scaled_dot":
                s /= math.sqrt(d_k)
        scores.append(s / tau)
    top = max(scores)
    e = [math.exp(s - top) for s in scores]
    total = sum(e)
    return np.array([sum(V[r, i] * e[i] / total for i in range(m)) for r in range(V.shape[0])])


def finite_differences(q, K, V, score, W, tau, h=1e-6):
    columns = []
    for b in range(q.size):
        step = np.zeros_like(q)
        step[b] = h
        plus = output_of(q + step, K, V, score, W, tau)
        minus = output_of(q - step, K, V, score, W, tau)
        columns.append((plus - minus) / (2 * h))
    return np.array(columns).T  # d_v × d_q


entries = st.floats(-2.0, 2.0, allow_nan=False)


@st.composite
def problems(draw):
    score = draw(st.sampled_from(["dot", "scaled_dot", "general"]))
    d_q = draw(st.integers(1, 3))
    d_k = d_q if score != "general" else draw(st.integers(1, 3))
    m, d_v = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    q = draw(arrays(float, d_q, elements=entries))
    K = draw(arrays(float, (d_k, m), elements=entries))
    V = draw(arrays(float, (d_v, m), elements=entries))
    W = draw(arrays(float, (d_k, d_q), elements=entries)) if score == "general" else None
    tau = draw(st.sampled_from([0.5, 1.0, 2.0]))
    return q, K, V, score, W, tau


@settings(max_examples=60, deadline=None)
@given(problems())
def test_the_jacobian_matches_central_finite_differences(problem):
    q, K, V, score, W, tau = problem
    g = query_gradient(q, K, V, score, W=W, temperature=tau)
    assert g.jacobian.shape == (V.shape[0], q.size)
    np.testing.assert_allclose(
        g.jacobian, finite_differences(q, K, V, score, W, tau), atol=1e-6, rtol=1e-5
    )
    np.testing.assert_allclose(g.output, output_of(q, K, V, score, W, tau), atol=1e-12)
    assert g.weights.sum() == pytest.approx(1.0)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.integers(1, 5), st.data())
def test_with_dot_scores_and_keys_as_values_the_jacobian_is_the_covariance_over_tau(d, m, data):
    K = data.draw(arrays(float, (d, m), elements=entries))
    q = data.draw(arrays(float, d, elements=entries))
    tau = data.draw(st.sampled_from([0.25, 1.0, 3.0]))
    g = query_gradient(q, K, K, "dot", temperature=tau)
    # the covariance from its definition, with a loop: E[(k − μ)(k − μ)ᵀ] under p
    mean = sum(g.weights[i] * K[:, i] for i in range(m))
    covariance = sum(g.weights[i] * np.outer(K[:, i] - mean, K[:, i] - mean) for i in range(m))
    np.testing.assert_allclose(g.jacobian, covariance / tau, atol=1e-12)
    np.testing.assert_allclose(weighted_covariance(K, g.weights), covariance, atol=1e-12)


def test_one_huge_score_leaves_a_tiny_but_nonzero_gradient():
    # the Luong page's "One huge score": q = (10, 0) scores 50, 10 and 0 against these keys
    K = np.array([[5.0, 1.0, 0.0], [0.0, 1.0, 1.0]])
    g = query_gradient([10.0, 0.0], K, K)
    assert 0 < g.norm < 1e-15
    # exp(−40)·(k₂ − k₁)(k₂ − k₁)ᵀ dominates: its norm is 17·e⁻⁴⁰ ≈ 7.2e-17
    assert g.norm == pytest.approx(17 * math.exp(-40), rel=1e-6)


def test_equal_keys_give_a_zero_gradient_and_a_far_query_a_vanishing_one():
    assert query_gradient([1.0, 2.0], [[1.0, 1.0], [0.0, 0.0]], [[1.0, 5.0]]).norm == 0.0
    near = query_gradient([1.0, 0.0], [[1.0, -1.0], [0.0, 0.0]], [[1.0, -1.0]]).norm
    far = query_gradient([10.0, 0.0], [[1.0, -1.0], [0.0, 0.0]], [[1.0, -1.0]]).norm
    assert far < 1e-6 < near


def test_the_steps_name_every_matrix_of_the_chain_rule():
    g = query_gradient([1.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0]], "scaled_dot")
    assert [s.key for s in g.steps] == [
        "grad_scores",
        "grad_weights",
        "grad_output",
        "grad_softmax_jacobian",
        "grad_score_jacobian",
        "grad_jacobian",
    ]
    np.testing.assert_array_equal(g.step("grad_jacobian").value, g.jacobian)
    np.testing.assert_allclose(g.score_jacobian, np.eye(2) / math.sqrt(2))


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: query_gradient([1.0], [[1.0, 2.0], [0.0, 1.0]], [[1.0, 2.0]]), "query_key_size"),
        (lambda: query_gradient([1.0, 0.0], [[1.0], [0.0]], [[1.0, 2.0]]), "key_value_count"),
        (
            lambda: query_gradient([1.0, 0.0], [[1.0], [0.0]], [[1.0]], "general"),
            "missing_parameter",
        ),
        (
            lambda: query_gradient([1.0, 0.0], [[1.0], [0.0]], [[1.0]], "general", W=[[1.0]]),
            "parameter_shape",
        ),
        (lambda: query_gradient([1.0, 0.0], [[1.0], [0.0]], [[1.0]], "concat"), "unknown_score"),
        (lambda: query_gradient([math.nan, 0.0], [[1.0], [0.0]], [[1.0]]), "not_finite"),
        (lambda: query_gradient([], [[1.0], [0.0]], [[1.0]]), "empty"),
        (
            lambda: query_gradient([1.0, 0.0], [[1.0], [0.0]], [[1.0]], temperature=0),
            "bad_temperature",
        ),
        (lambda: query_gradient([1e300, 1e300], [[1e300], [1e300]], [[1.0]]), "overflow"),
    ],
)
def test_bad_input_raises_a_coded_error(call, code):
    with pytest.raises(AttentionInputError) as caught:
        call()
    assert caught.value.code == code


def test_an_overflowing_score_names_its_own_cell_not_the_first():
    # key 2's score k₂·q = 2×10^308 overflows; key 1's is 2 (not cell 1, 1)
    with pytest.raises(AttentionInputError) as caught:
        query_gradient([1.0, 1.0], [[1.0, 1e308], [1.0, 1e308]], [[1.0, 2.0]])
    assert caught.value.params == {"matrix": "s", "row": 2, "col": 1, "value": math.inf}


def test_norm_of_a_gradient_below_the_square_root_of_the_smallest_float_is_not_zero():
    # entries of 1e-312 square to exactly 0; the scaled norm keeps them (‖(a, a)‖ = √2·a)
    assert frobenius_norm(np.array([[1e-312, 0.0], [0.0, 1e-312]])) == pytest.approx(
        math.sqrt(2) * 1e-312, rel=1e-3
    )
    assert frobenius_norm(np.zeros((2, 2))) == 0.0
    assert frobenius_norm(np.array([[3.0, 4.0]])) == 5.0
