"""multi_head(): an independent loop reference, Hypothesis properties and the error table.

The reference below is written from SPEC's formulas with plain Python loops (no attention(),
no matrix products), so an indexing slip in the engine (a head taking the wrong columns, a
transposed product, the wrong √d) shows up as a different number.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import AttentionInputError, attention, multi_head
from attention_core.errors import ERROR_CODES
from attention_core.multi_head import (
    MULTI_HEAD_STEP_KEYS,
    causal_mask,
    positional_encoding,
    positional_encoding_entry,
)

PROPERTY = settings(max_examples=60, deadline=None)


def matmul_loop(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    return [
        [sum(a[i][t] * b[t][j] for t in range(len(b))) for j in range(len(b[0]))]
        for i in range(len(a))
    ]


def reference(X, Wq, Wk, Wv, Wo, heads, allowed=None):
    """SPEC's multi-head self-attention, one number at a time."""
    X = np.asarray(X, dtype=float).tolist()
    n, d_model = len(X), len(X[0])
    d_h = d_model // heads
    Q, K, V = (matmul_loop(X, np.asarray(w, dtype=float).tolist()) for w in (Wq, Wk, Wv))
    weights = []
    concat = [[0.0] * d_model for _ in range(n)]
    for head in range(heads):
        cols = range(head * d_h, (head + 1) * d_h)
        A = []
        for i in range(n):
            scores = []
            for j in range(n):
                if allowed is not None and not allowed[i][j]:
                    scores.append(None)
                else:
                    scores.append(sum(Q[i][c] * K[j][c] for c in cols) / math.sqrt(d_h))
            top = max(s for s in scores if s is not None)
            exps = [0.0 if s is None else math.exp(s - top) for s in scores]
            total = sum(exps)
            A.append([e / total for e in exps])
        weights.append(A)
        for i in range(n):
            for c in cols:
                concat[i][c] = sum(A[i][j] * V[j][c] for j in range(n))
    output = matmul_loop(concat, np.asarray(Wo, dtype=float).tolist())
    return np.array(weights), np.array(output)


RNG = np.random.default_rng(11)


def random_problem(n: int, d_model: int):
    return (RNG.normal(size=(n, d_model)), *(RNG.normal(size=(d_model, d_model)) for _ in range(4)))


@pytest.mark.parametrize(
    ("n", "d_model", "heads"), [(1, 1, 1), (3, 4, 2), (5, 6, 3), (4, 8, 4), (2, 8, 8), (8, 6, 1)]
)
@pytest.mark.parametrize("causal", [False, True])
def test_multi_head_matches_the_loop_reference(n, d_model, heads, causal):
    X, Wq, Wk, Wv, Wo = random_problem(n, d_model)
    allowed = causal_mask(n) if causal else None
    mh = multi_head(X, Wq, Wk, Wv, Wo, heads, causal=causal)
    weights, output = reference(X, Wq, Wk, Wv, Wo, heads, allowed)
    assert mh.weights.shape == (heads, n, n) and mh.output.shape == (n, d_model)
    np.testing.assert_allclose(mh.weights, weights, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(mh.output, output, rtol=1e-9, atol=1e-12)


def test_a_given_mask_and_causal_are_combined_with_and():
    X, Wq, Wk, Wv, Wo = random_problem(4, 4)
    mask = np.ones((4, 4), dtype=bool)
    mask[3, 0] = mask[2, 1] = False
    mh = multi_head(X, Wq, Wk, Wv, Wo, 2, mask=mask, causal=True)
    allowed = mask & np.tril(np.ones((4, 4), dtype=bool))
    np.testing.assert_array_equal(mh.mask, allowed)
    weights, output = reference(X, Wq, Wk, Wv, Wo, 2, allowed.tolist())
    np.testing.assert_allclose(mh.weights, weights, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(mh.output, output, rtol=1e-9, atol=1e-12)
    assert (mh.weights[:, ~allowed] == 0.0).all()


def test_each_head_is_attention_on_its_own_columns():
    X, Wq, Wk, Wv, Wo = random_problem(3, 6)
    mh = multi_head(X, Wq, Wk, Wv, Wo, 3)
    for head in range(3):
        q, k, v = mh.head_inputs(head)
        np.testing.assert_array_equal(q, (X @ Wq)[:, 2 * head : 2 * head + 2])
        run = attention(q, k, v, "scaled_dot", layout="row")
        np.testing.assert_array_equal(mh.weights[head], run.weights)
        np.testing.assert_array_equal(mh.concatenated[:, mh.head_columns(head)], run.output)
    np.testing.assert_array_equal(mh.output, mh.concatenated @ Wo)


def test_positions_add_the_sinusoidal_table_before_the_projections():
    X, Wq, Wk, Wv, Wo = random_problem(4, 6)
    with_positions = multi_head(X, Wq, Wk, Wv, Wo, 2, positions=True)
    by_hand = multi_head(X + positional_encoding(4, 6), Wq, Wk, Wv, Wo, 2)
    np.testing.assert_array_equal(with_positions.output, by_hand.output)
    assert with_positions.steps[0].key == "positions_added"
    np.testing.assert_array_equal(with_positions.inputs, X + positional_encoding(4, 6))


def test_positional_encoding_is_the_papers_table():
    P = positional_encoding(5, 5)
    for pos in range(5):
        for c in range(5):
            angle = pos / 10000 ** (2 * (c // 2) / 5)
            assert P[pos, c] == pytest.approx(math.sin(angle) if c % 2 == 0 else math.cos(angle))
    np.testing.assert_array_equal(P[0], [0, 1, 0, 1, 0])  # position 0: sin 0, cos 0
    assert positional_encoding_entry(1, 0, 4) == "p₂₁ = sin(1 / 10000^(0/4)) = 0.841"
    assert positional_encoding_entry(2, 3, 4) == (
        "p₃₄ = cos(2 / 10000^(2/4)) = 1.00"  # 0.9998: '1.00', never '1', which reads as exact
    )


def test_steps_are_in_order_and_explain_their_entries():
    X = [[1.0, 2.0], [0.0, -1.0]]
    W = [[1.0, 0.5], [0.0, 2.0]]
    mh = multi_head(X, W, W, W, W, 1, positions=True)
    assert [s.key for s in mh.steps] == [
        "positions_added",
        "queries_from_x",
        "keys_from_x",
        "values_from_x",
        "heads_concatenated",
        "output_projected",
    ]
    q = mh.step("queries_from_x")
    # q₁₂ = x₁·W_Q[:, 2] with x = X + P, P's row 1 = (0, 1): x₁ = (1, 3)
    assert q.entry(0, 1) == "q₁₂ = x₁·W_Q[:, 2] = 1×0.5 + 3×2 = 6.5"
    assert mh.step("positions_added").entry(0, 1) == "x₁₂ + p₁₂ = 2 + 1 = 3"
    assert mh.step("output_projected").entry(1, 0).startswith("y₂₁ = c₂·W_O[:, 1] = ")
    for step in mh.steps:
        assert step.key in MULTI_HEAD_STEP_KEYS and step.value.ndim == 2
        assert step.latex


# ---------------------------------------------------------------------------------------------
# Properties


@st.composite
def problems(draw):
    heads = draw(st.integers(1, 4))
    d_model = heads * draw(st.integers(1, 3))
    n = draw(st.integers(1, 6))
    entries = st.floats(-5, 5, allow_nan=False, allow_infinity=False)
    X = draw(arrays(np.float64, (n, d_model), elements=entries))
    Ws = [draw(arrays(np.float64, (d_model, d_model), elements=st.floats(-2, 2))) for _ in range(4)]
    return X, Ws, heads


@PROPERTY
@given(problems(), st.booleans())
def test_every_heads_weights_rows_sum_to_one(problem, causal):
    X, Ws, heads = problem
    mh = multi_head(X, *Ws, heads, causal=causal)
    np.testing.assert_allclose(mh.weights.sum(axis=2), 1.0, rtol=1e-12)
    assert (mh.weights >= 0).all()


@PROPERTY
@given(problems())
def test_causal_gives_exact_zeros_above_the_diagonal(problem):
    X, Ws, heads = problem
    mh = multi_head(X, *Ws, heads, causal=True)
    n = X.shape[0]
    above = np.triu(np.ones((n, n), dtype=bool), k=1)
    assert (mh.weights[:, above] == 0.0).all()
    assert (mh.weights[:, 0, 0] == 1.0).all()  # the first token sees only itself


@PROPERTY
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 6), st.integers(1, 6)),
        elements=st.floats(-5, 5, allow_nan=False, allow_infinity=False),
    ),
    st.booleans(),
)
def test_one_head_with_identity_weights_is_scaled_dot_attention_of_x(X, causal):
    identity = np.eye(X.shape[1])
    mh = multi_head(X, identity, identity, identity, identity, 1, causal=causal)
    plain = attention(
        X, X, X, "scaled_dot", layout="row", mask=causal_mask(X.shape[0]) if causal else None
    )
    np.testing.assert_array_equal(mh.weights[0], plain.weights)
    np.testing.assert_array_equal(mh.output, plain.output)


@PROPERTY
@given(problems(), st.data())
def test_permuting_the_tokens_permutes_weights_and_output(problem, data):
    X, Ws, heads = problem
    order = np.array(data.draw(st.permutations(range(X.shape[0]))))
    mh, moved = multi_head(X, *Ws, heads), multi_head(X[order], *Ws, heads)
    np.testing.assert_allclose(moved.weights, mh.weights[:, order][:, :, order], atol=1e-12)
    np.testing.assert_allclose(moved.output, mh.output[order], rtol=1e-9, atol=1e-9)


# ---------------------------------------------------------------------------------------------
# Errors: codes and the numbers the interface needs to say what is wrong

I2, I4, I8 = np.eye(2), np.eye(4), np.eye(8)
X2 = [[1.0, 0.0], [0.0, 1.0]]
X8 = np.ones((3, 8))

ERRORS = [
    ("heads_not_dividing", lambda: multi_head(X8, I8, I8, I8, I8, 3), {"heads": 3, "d_model": 8}),
    ("bad_heads", lambda: multi_head(X2, I2, I2, I2, I2, 0), {"value": 0}),
    ("bad_heads", lambda: multi_head(X2, I2, I2, I2, I2, 1.5), {"value": 1.5}),
    ("bad_heads", lambda: multi_head(X2, I2, I2, I2, I2, True), {"value": True}),
    (
        "projection_shape",
        lambda: multi_head(X2, I4, I2, I2, I2, 1),
        {"matrix": "W_Q", "shape": "4 × 4", "expected": "2 × 2", "d_model": 2},
    ),
    (
        "projection_shape",
        lambda: multi_head(X2, I2, I2, I2, [[1.0, 0.0]], 1),
        {"matrix": "W_O", "shape": "1 × 2"},
    ),
    ("empty", lambda: multi_head(np.zeros((0, 2)), I2, I2, I2, I2, 1), {"matrix": "X"}),
    ("empty", lambda: multi_head(X2, [], I2, I2, I2, 1), {"matrix": "W_Q"}),
    (
        "not_finite",
        lambda: multi_head([[1.0, np.nan]], I2, I2, I2, I2, 1),
        {"matrix": "X", "row": 1, "col": 2},
    ),
    (
        "not_finite",
        lambda: multi_head(X2, I2, I2, [[1.0, 0.0], [np.inf, 1.0]], I2, 1),
        {"matrix": "W_V", "row": 2, "col": 1},
    ),
    ("not_numeric", lambda: multi_head([["a", 1.0]], I2, I2, I2, I2, 1), {"matrix": "X"}),
    ("bad_ndim", lambda: multi_head([1.0, 2.0], I2, I2, I2, I2, 1), {"matrix": "X"}),
    (
        "mask_shape",
        lambda: multi_head(X2, I2, I2, I2, I2, 1, mask=np.ones((3, 3), bool)),
        {"shape": "3 × 3", "expected": "2 × 2"},
    ),
    (
        "mask_not_boolean",
        lambda: multi_head(X2, I2, I2, I2, I2, 1, mask=[[1, "x"], [1, 1]]),
        {"row": 1, "col": 2},
    ),
    (
        "all_masked",
        lambda: multi_head(X2, I2, I2, I2, I2, 1, mask=[[True, True], [False, False]]),
        {"query": 2},
    ),
    (
        "all_masked",
        lambda: multi_head(X2, I2, I2, I2, I2, 1, causal=True, mask=[[False, True], [True, True]]),
        {"query": 1},
    ),
    (
        "overflow",
        lambda: multi_head([[1e300, 1e300]], np.full((2, 2), 1e300), I2, I2, I2, 1),
        {"matrix": "Q", "row": 1, "col": 1, "value": math.inf},  # a number the UI formats
    ),
    ("bad_count", lambda: positional_encoding(0, 4), {"parameter": "n", "value": 0}),
    ("bad_count", lambda: causal_mask(-1), {"parameter": "n"}),
]


@pytest.mark.parametrize(
    ("code", "call", "params"), ERRORS, ids=[f"{code}-{i}" for i, (code, _, _) in enumerate(ERRORS)]
)
def test_bad_input_raises_a_code_with_its_numbers(code, call, params):
    with pytest.raises(AttentionInputError) as info:
        call()
    error = info.value
    assert isinstance(error, ValueError) and error.code == code
    for name, value in params.items():
        assert error.params[name] == value, (name, error.params)
    assert code in ERROR_CODES and str(error).startswith(f"{code}(")  # a code, no sentence
