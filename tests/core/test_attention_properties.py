"""Invariants of attention() that must hold for every input, checked with Hypothesis.

Each property is something a learner is told on screen: weights sum to 1, the row layout is
the transpose of the column layout, masked keys get exactly zero, huge scores do not break
the softmax, temperature interpolates between argmax and average, and the order of the keys
does not matter.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import attention

SCORES = ("dot", "scaled_dot", "general", "concat", "location")
LAYOUTS = ("column", "row")

# modest example counts keep the file fast; deadline off for slow CI machines
PROPERTY = settings(max_examples=50, deadline=None)

entries = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


def matrix(rows: int, cols: int, elements=entries):
    return arrays(np.float64, (rows, cols), elements=elements)


@st.composite
def problems(draw, scores=SCORES):
    """A column-layout problem: Q (d_q × n), K (d_k × m), V (d_v × m) and the parameters."""
    score = draw(st.sampled_from(scores))
    d_q, d_k, d_v = (draw(st.integers(1, 4)) for _ in range(3))
    n, m = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    if score in ("dot", "scaled_dot"):
        d_k = d_q
    params = {}
    if score == "general":
        params["W"] = draw(matrix(d_k, d_q, st.floats(-2, 2)))
    elif score == "concat":
        h = draw(st.integers(1, 3))
        params["Wa"] = draw(matrix(h, d_q + d_k, st.floats(-2, 2)))
        params["va"] = draw(arrays(np.float64, h, elements=st.floats(-2, 2)))
    elif score == "location":
        params["Wa"] = draw(matrix(m, d_q, st.floats(-2, 2)))
    return score, draw(matrix(d_q, n)), draw(matrix(d_k, m)), draw(matrix(d_v, m)), params


@st.composite
def masks(draw, m: int, n: int):
    """An m × n boolean mask (column layout) that leaves every query at least one key."""
    mask = draw(arrays(np.bool_, (m, n)))
    for j in range(n):
        if not mask[:, j].any():
            mask[draw(st.integers(0, m - 1)), j] = True
    return mask


def query_axis(layout: str) -> int:
    """The axis that runs over the keys: weights of one query lie along it."""
    return 0 if layout == "column" else 1


def in_layout(layout: str, *matrices):
    return matrices if layout == "column" else tuple(a.T for a in matrices)


@PROPERTY
@given(problems(), st.sampled_from(LAYOUTS), st.floats(0.05, 20))
def test_each_querys_weights_are_non_negative_and_sum_to_one(problem, layout, temperature):
    score, Q, K, V, params = problem
    r = attention(
        *in_layout(layout, Q, K, V), score, layout=layout, temperature=temperature, **params
    )
    assert (r.weights >= 0).all()
    np.testing.assert_allclose(r.weights.sum(axis=query_axis(layout)), 1.0, rtol=0, atol=1e-12)


@PROPERTY
@given(problems(), st.data())
def test_row_layout_is_the_transpose_of_column_layout(problem, data):
    score, Q, K, V, params = problem
    mask = data.draw(masks(K.shape[1], Q.shape[1]))
    column = attention(Q, K, V, score, mask=mask, **params)
    row = attention(Q.T, K.T, V.T, score, mask=mask.T, layout="row", **params)
    for name in ("scores", "weights", "output"):
        np.testing.assert_allclose(
            getattr(row, name), getattr(column, name).T, rtol=1e-12, atol=1e-12, err_msg=name
        )
    assert [s.key for s in row.steps] == [s.key for s in column.steps]
    for row_step, column_step in zip(row.steps, column.steps, strict=True):
        np.testing.assert_allclose(
            row_step.value, column_step.value.T, rtol=1e-12, atol=1e-12, err_msg=row_step.key
        )


@PROPERTY
@given(problems(), st.sampled_from(LAYOUTS), st.sampled_from([1.0, 0.3, 5.0]), st.data())
def test_masked_weights_are_exactly_zero(problem, layout, temperature, data):
    score, Q, K, V, params = problem
    mask = data.draw(masks(K.shape[1], Q.shape[1]))
    (user_mask,) = in_layout(layout, mask)
    r = attention(
        *in_layout(layout, Q, K, V),
        score,
        layout=layout,
        mask=user_mask,
        temperature=temperature,
        **params,
    )
    assert (r.weights[~user_mask] == 0.0).all()
    np.testing.assert_allclose(r.weights.sum(axis=query_axis(layout)), 1.0, atol=1e-12)


huge = st.one_of(
    st.sampled_from([-1e6, -1000.0, 0.0, 1000.0, 1e6]), st.floats(-1e6, 1e6, allow_nan=False)
)


@PROPERTY
@given(st.lists(huge, min_size=1, max_size=8), st.sampled_from(LAYOUTS))
def test_huge_scores_give_finite_weights_that_favour_the_largest(values, layout):
    # d = 1 and q = 1, so the scores are exactly the key entries
    m = len(values)
    K = np.array([values])
    V = np.arange(1.0, m + 1)[None, :]
    r = attention(*in_layout(layout, np.ones((1, 1)), K, V), "dot", layout=layout)
    weights = r.weights.reshape(-1)
    assert np.isfinite(weights).all() and np.isfinite(r.output).all()
    assert abs(weights.sum() - 1.0) <= 1e-12
    assert weights[int(np.argmax(values))] == weights.max()
    assert weights.max() >= 1.0 / m


def distinct_scores(min_size=2, max_size=6):
    """Scores at least 0.5 apart, so the best key is unambiguous."""
    return st.lists(st.integers(-20, 20), min_size=min_size, max_size=max_size, unique=True).map(
        lambda xs: [0.5 * x for x in xs]
    )


@PROPERTY
@given(distinct_scores(), st.sampled_from(LAYOUTS))
def test_temperature_near_zero_gives_one_hot_at_the_argmax(scores, layout):
    K = np.array([scores])
    V = np.arange(len(scores), dtype=float)[None, :]
    r = attention(*in_layout(layout, np.ones((1, 1)), K, V), "dot", layout=layout, temperature=1e-3)
    expected = np.zeros(len(scores))
    expected[int(np.argmax(scores))] = 1.0
    np.testing.assert_allclose(r.weights.reshape(-1), expected, rtol=0, atol=1e-12)
    # a classic lookup: the output is the best key's value (others weigh at most e^-500)
    assert abs(r.output.item() - np.argmax(scores)) <= 1e-12


@PROPERTY
@given(problems(), st.sampled_from(LAYOUTS))
def test_huge_temperature_gives_uniform_weights(problem, layout):
    score, Q, K, V, params = problem
    tau = 1e6
    r = attention(*in_layout(layout, Q, K, V), score, layout=layout, temperature=tau, **params)
    m = K.shape[1]
    # m·a_ij = exp(s_ij/τ) / mean_i' exp(s_i'j/τ) lies within exp(±spread/τ) of 1
    spread = 2 * np.abs(r.scores).max() / tau
    tolerance = 1.01 * spread + 1e-12
    assert tolerance < 1e-2  # the scores here are small next to τ, so "uniform" means something
    np.testing.assert_allclose(r.weights * m, 1.0, rtol=0, atol=tolerance)
    mean_value = V.mean(axis=1, keepdims=True)  # average pooling
    (expected,) = in_layout(layout, np.broadcast_to(mean_value, (V.shape[0], Q.shape[1])))
    np.testing.assert_allclose(r.output, expected, rtol=0, atol=tolerance * np.abs(V).max() + 1e-12)


@PROPERTY
@given(problems(), st.sampled_from(LAYOUTS), st.data())
def test_permuting_keys_and_values_permutes_weights_and_keeps_output(problem, layout, data):
    score, Q, K, V, params = problem
    m = K.shape[1]
    order = np.array(data.draw(st.permutations(range(m))))
    mask = data.draw(masks(m, Q.shape[1]))
    shuffled = dict(params)
    if score == "location":  # W_a's rows belong to key positions: they move with the keys
        shuffled["Wa"] = params["Wa"][order]
    before = attention(
        *in_layout(layout, Q, K, V), score, layout=layout, mask=in_layout(layout, mask)[0], **params
    )
    after = attention(
        *in_layout(layout, Q, K[:, order], V[:, order]),
        score,
        layout=layout,
        mask=in_layout(layout, mask[order])[0],
        **shuffled,
    )
    axis = query_axis(layout)  # the keys' axis moves with the permutation
    expected_weights = np.take(before.weights, order, axis=axis)
    np.testing.assert_allclose(after.weights, expected_weights, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(after.output, before.output, rtol=1e-9, atol=1e-9)
