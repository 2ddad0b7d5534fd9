"""The five score functions of attention_core/scores.py, each against its definition.

attention() calls these and records its steps from what they return, so each must give
S[i, j] = score(q_j, k_i) exactly as the Luong article defines it (the plain-loop reference of
test_attention_reference.py), and the intermediate matrices the step view shows, in their shapes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core.attention import SCORES
from attention_core.scores import SCORE_FUNCTIONS
from tests.support.reference import reference_score

entries = st.floats(-5, 5, allow_nan=False, allow_infinity=False)


@st.composite
def score_problems(draw):
    """(score, Q d_q × n, K d_k × m, parameters) in column layout."""
    score = draw(st.sampled_from(SCORES))
    d_q, d_k, n, m, h = (draw(st.integers(1, 4)) for _ in range(5))
    if score in ("dot", "scaled_dot"):
        d_k = d_q
    Q = draw(arrays(np.float64, (d_q, n), elements=entries))
    K = draw(arrays(np.float64, (d_k, m), elements=entries))
    params = {
        "general": lambda: {"W": draw(arrays(np.float64, (d_k, d_q), elements=entries))},
        "concat": lambda: {
            "Wa": draw(arrays(np.float64, (h, d_q + d_k), elements=entries)),
            "va": draw(arrays(np.float64, (h,), elements=entries)),
        },
        "location": lambda: {"Wa": draw(arrays(np.float64, (m, d_q), elements=entries))},
    }.get(score, dict)()
    return score, Q, K, params


def test_there_is_one_score_function_per_score_name_in_the_article_order():
    assert (
        tuple(SCORE_FUNCTIONS)
        == SCORES
        == (
            "dot",
            "scaled_dot",
            "general",
            "concat",
            "location",
        )
    )


@settings(max_examples=80, deadline=None)
@given(score_problems())
def test_each_score_function_gives_every_entry_its_definition(problem):
    score, Q, K, params = problem
    S = SCORE_FUNCTIONS[score](Q, K, **params)["S"]
    m, n = K.shape[1], Q.shape[1]
    assert S.shape == (m, n)
    listed = {name: value.tolist() for name, value in params.items()}
    for i in range(m):
        for j in range(n):
            expected = reference_score(score, Q[:, j].tolist(), K[:, i].tolist(), i, listed)
            assert S[i, j] == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_scaled_dot_keeps_the_dot_products_it_divides_by_root_d_k():
    Q, K = np.array([[1.0, 0.0], [2.0, 1.0]]), np.array([[3.0], [4.0]])  # d_k = 2
    parts = SCORE_FUNCTIONS["scaled_dot"](Q, K)
    assert parts["dots"].tolist() == [[11.0, 4.0]]
    np.testing.assert_array_equal(parts["S"], parts["dots"] / math.sqrt(2))


def test_general_keeps_the_transformed_queries_w_q():
    Q, K, W = np.array([[1.0], [2.0]]), np.array([[1.0, 0.0, 2.0]]), np.array([[3.0, -1.0]])
    parts = SCORE_FUNCTIONS["general"](Q, K, W)
    assert parts["WQ"].tolist() == [[1.0]]  # d_k × n
    assert parts["S"].tolist() == [[1.0], [0.0], [2.0]]  # m × n: k_i · (W q)


def test_concat_projects_each_query_and_each_key_once_with_the_halves_of_w_a():
    Q, K = np.array([[1.0, 2.0]]), np.array([[1.0, -1.0, 0.0]])  # d_q = d_k = 1, n = 2, m = 3
    Wa, va = np.array([[1.0, 10.0], [2.0, 0.0]]), np.array([1.0, -1.0])  # h = 2
    parts = SCORE_FUNCTIONS["concat"](Q, K, Wa, va)
    assert parts["WqQ"].tolist() == [[1.0, 2.0], [2.0, 4.0]]  # h × n
    assert parts["WkK"].tolist() == [[10.0, -10.0, 0.0], [0.0, 0.0, 0.0]]  # h × m
    assert parts["S"][1, 0] == pytest.approx(math.tanh(1.0 - 10.0) - math.tanh(2.0))


def test_location_never_reads_the_keys():
    Q, Wa = np.array([[1.0, 2.0]]), np.array([[3.0], [-1.0]])  # m = 2 keys
    S = SCORE_FUNCTIONS["location"](Q, np.full((5, 2), np.nan), Wa)["S"]
    assert S.tolist() == [[3.0, 6.0], [-1.0, -2.0]]
