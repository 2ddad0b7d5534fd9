"""The table of invalid inputs to the engine: one row per mistake a person can make, and every
place the engine raises each code (tests/core/test_errors.py checks the code, the English
message, the matrix and the cell; tests/kit/text/test_i18n.py that the Japanese reads)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_core import (
    attention,
    lookup,
    model_loss,
    multi_head,
    nadaraya_watson,
    toy_task,
    train_attention,
)
from attention_core.lookup import lookup_many, similarity_score
from attention_core.multi_head import positional_encoding
from attention_core.regression import leave_one_out
from attention_core.scaling import scaling_demo
from attention_core.search import gradient_search
from attention_core.squeeze_excitation import squeeze_excitation

NAN, INF = math.nan, math.inf

Q = [[1.0, 2.0], [3.0, 4.0]]  # d_q = 2, n = 2 queries (column layout)
K = [[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]]  # d_k = 2, m = 3 keys
V = [[1.0, 2.0, 3.0]]  # d_v = 1, m = 3 values
K3 = [[1.0, 0.0, 2.0], [0.0, 1.0, 1.0], [1.0, 1.0, 1.0]]  # d_k = 3
W = [[1.0, 0.0], [0.0, 1.0]]  # d_k × d_q
WA_CONCAT = [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]]  # h = 3 × 4
VA = [1.0, -1.0, 0.5]
WA_LOCATION = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]  # m × d_q
NAMES = [("Zhang", "Aston"), ("Lipton", "Zachary"), ("Li", "Mu")]
# a trained model's shapes: vocab 3, L = 2 positions, d_model = 4 (the values do not matter)
TINY = {
    "E": np.zeros((3, 4)),
    "P": np.zeros((2, 4)),
    **{name: np.eye(4) for name in ("W_Q", "W_K", "W_V", "W_O")},
    "W_U": np.zeros((4, 3)),
}


def reverse_task():
    return toy_task("reverse", size=16)


def tr(matrix):
    """The transpose of a list-of-rows matrix, for the row-layout cases."""
    return [list(col) for col in zip(*matrix, strict=True)]


def case(case_id, call, code, *in_message, matrix=None, cell=None):
    return pytest.param(call, code, in_message, matrix, cell, id=case_id)


ERROR_CASES = [
    # entries
    case(
        "nan-in-Q",
        lambda: attention([[1.0, NAN], [3.0, 4.0]], K, V),
        "not_finite",
        "Q, row 1, column 2",
        "NaN",
        matrix="Q",
        cell=(0, 1),
    ),
    case(
        "inf-in-K",
        lambda: attention(Q, [[1.0, 0.0, 2.0], [0.0, INF, 1.0]], V),
        "not_finite",
        "K, row 2, column 2",
        "inf",
        matrix="K",
        cell=(1, 1),
    ),
    case(
        "minus-inf-in-V",
        lambda: attention(Q, K, [[1.0, 2.0, -INF]]),
        "not_finite",
        "V, row 1, column 3",
        "−∞",
        matrix="V",
        cell=(0, 2),
    ),
    case(
        "nan-in-array",
        lambda: attention(np.array([[1.0, 2.0], [NAN, 4.0]]), K, V),
        "not_finite",
        "Q, row 2, column 1",
        matrix="Q",
        cell=(1, 0),
    ),
    case(
        "text-in-Q",
        lambda: attention([[1.0, 2.0], ["abc", 4.0]], K, V),
        "not_numeric",
        "Q, row 2, column 1",
        "'abc'",
        "not a number",
        matrix="Q",
        cell=(1, 0),
    ),
    case(
        "none-in-K",
        lambda: attention(Q, [[1.0, 0.0, 2.0], [0.0, 1.0, None]], V),
        "not_numeric",
        "K, row 2, column 3",
        "None",
        matrix="K",
        cell=(1, 2),
    ),
    case(
        "text-in-W",
        lambda: attention(Q, K, V, "general", W=[[1.0, "x"], [0.0, 1.0]]),
        "not_numeric",
        "W, row 1, column 2",
        "'x'",
        matrix="W",
        cell=(0, 1),
    ),
    case(
        "nan-in-va",
        lambda: attention(Q, K, V, "concat", Wa=WA_CONCAT, va=[1.0, NAN, 0.5]),
        "not_finite",
        "v_a, row 1, column 2",
        matrix="v_a",
        cell=(0, 1),
    ),
    # shapes of one matrix
    case(
        "ragged-Q",
        lambda: attention([[1.0, 2.0], [3.0]], K, V),
        "ragged",
        "Q has rows of different lengths",
        matrix="Q",
    ),
    case(
        "1d-Q",
        lambda: attention([1.0, 2.0], K, V),
        "bad_ndim",
        "Q must be a 2-D matrix",
        "1 dimension",
        matrix="Q",
    ),
    case(
        "3d-K",
        lambda: attention(Q, [[[1.0, 2.0]], [[3.0, 4.0]]], V),
        "bad_ndim",
        "K must be a 2-D matrix",
        "3 dimension",
        matrix="K",
    ),
    case(
        "3d-array-V",
        lambda: attention(Q, K, np.ones((1, 3, 1))),
        "bad_ndim",
        "V must be a 2-D matrix",
        "3 dimension",
        matrix="V",
    ),
    case(
        "scalar-Q",
        lambda: attention(5.0, K, V),
        "bad_ndim",
        "Q must be a 2-D matrix",
        "0 dimension",
        matrix="Q",
    ),
    case(
        "va-matrix",
        lambda: attention(Q, K, V, "concat", Wa=WA_CONCAT, va=np.ones((3, 2))),
        "bad_ndim",
        "v_a must be a vector",
        matrix="v_a",
    ),
    case("empty-V", lambda: attention(Q, K, []), "empty", "V is empty", "shape 0", matrix="V"),
    case("empty-rows-Q", lambda: attention([[]], K, V), "empty", "Q is empty", "1 × 0", matrix="Q"),
    # sizes that must agree
    case(
        "dot-dq-dk-column",
        lambda: attention(Q, K3, V, "dot"),
        "query_key_size",
        "Q has 2 rows (d_q = 2, shape 2 × 2)",
        "K has 3 rows (d_k = 3, shape 3 × 3)",
        "in dot attention",
    ),
    case(
        "dot-dq-dk-row",
        lambda: attention(tr(Q), tr(K3), tr(V), "dot", layout="row"),
        "query_key_size",
        "Q has 2 columns (d_q = 2, shape 2 × 2)",
        "K has 3 columns (d_k = 3, shape 3 × 3)",
    ),
    case(
        "scaled-dq-dk-column",
        lambda: attention(Q, K3, V, "scaled_dot"),
        "query_key_size",
        "Q has 2 rows",
        "K has 3 rows",
        "in scaled dot attention",
    ),
    case(
        "scaled-dq-dk-row",
        lambda: attention(tr(Q), tr(K3), tr(V), "scaled_dot", layout="row"),
        "query_key_size",
        "Q has 2 columns",
        "K has 3 columns",
        "in scaled dot attention",
    ),
    case(
        "keys-vs-values",
        lambda: attention(Q, K, [[1.0, 2.0]]),
        "key_value_count",
        "K holds 3 key(s)",
        "V holds 2 value(s)",
    ),
    case(
        "keys-vs-values-row",
        lambda: attention(tr(Q), tr(K), [[1.0], [2.0]], layout="row"),
        "key_value_count",
        "K holds 3 key(s)",
        "V holds 2 value(s)",
    ),
    # parameters of the score functions
    case(
        "general-without-W",
        lambda: attention(Q, K, V, "general"),
        "missing_parameter",
        "general attention needs W",
    ),
    case(
        "concat-without-Wa",
        lambda: attention(Q, K, V, "concat", va=VA),
        "missing_parameter",
        "concat attention needs W_a",
    ),
    case(
        "concat-without-va",
        lambda: attention(Q, K, V, "concat", Wa=WA_CONCAT),
        "missing_parameter",
        "concat attention needs v_a",
    ),
    case(
        "location-without-Wa",
        lambda: attention(Q, K, V, "location"),
        "missing_parameter",
        "location attention needs W_a",
    ),
    case(
        "general-W-shape",
        lambda: attention(Q, K3, V, "general", W=W),
        "parameter_shape",
        "W has shape 2 × 2",
        "needs shape 3 × 2",
        "d_q = 2",
        "d_k = 3",
        matrix="W",
    ),
    case(
        "concat-Wa-shape",
        lambda: attention(Q, K, V, "concat", Wa=W, va=[1.0, 1.0]),
        "parameter_shape",
        "W_a has shape 2 × 2",
        "needs shape 2 × 4",
        "d_q + d_k = 4",
        matrix="W_a",
    ),
    case(
        "location-Wa-shape",
        lambda: attention(Q, K, V, "location", Wa=W),
        "parameter_shape",
        "W_a has shape 2 × 2",
        "needs shape 3 × 2",
        "m = 3",
        matrix="W_a",
    ),
    case(
        "concat-va-length",
        lambda: attention(Q, K, V, "concat", Wa=WA_CONCAT, va=[1.0, 2.0]),
        "parameter_shape",
        "v_a has shape 2",
        "needs shape 3",
        "h = 3",
    ),
    # names and options
    case(
        "unknown-score",
        lambda: attention(Q, K, V, "cosine"),
        "unknown_score",
        "'cosine'",
        "dot, scaled_dot, general, concat, location",
    ),
    case(
        "unknown-layout",
        lambda: attention(Q, K, V, layout="diagonal"),
        "unknown_layout",
        "'diagonal'",
    ),
    case(
        "unknown-normalization",
        lambda: attention(Q, K, V, normalization="max"),
        "unknown_normalization",
        "'max'",
        "'softmax' or 'sum'",
    ),
    case(
        "temperature-zero",
        lambda: attention(Q, K, V, temperature=0),
        "bad_temperature",
        "positive finite number, not 0",
    ),
    case(
        "temperature-negative",
        lambda: attention(Q, K, V, temperature=-1.5),
        "bad_temperature",
        "not −1.5",
    ),
    case(
        "temperature-nan", lambda: attention(Q, K, V, temperature=NAN), "bad_temperature", "not NaN"
    ),
    case(
        "temperature-inf", lambda: attention(Q, K, V, temperature=INF), "bad_temperature", "not ∞"
    ),
    case(
        "temperature-text",
        lambda: attention(Q, K, V, temperature="hot"),
        "bad_temperature",
        "not hot",
    ),
    case(
        "temperature-bool",
        lambda: attention(Q, K, V, temperature=True),
        "bad_temperature",
        "not True",
    ),
    # masks
    case(
        "mask-shape",
        lambda: attention(Q, K, V, mask=[[True, True], [True, True]]),
        "mask_shape",
        "mask has shape 2 × 2",
        "scores have shape 3 × 2",
    ),
    case(
        "mask-shape-row",
        lambda: attention(tr(Q), tr(K), tr(V), layout="row", mask=[[True] * 2] * 3),
        "mask_shape",
        "mask has shape 3 × 2",
        "scores have shape 2 × 3",
    ),
    case(
        "mask-two",
        lambda: attention(Q, K, V, mask=[[1, 1], [1, 2], [1, 1]]),
        "mask_not_boolean",
        "row 2, column 2 is 2",
    ),
    case(
        "mask-text",
        lambda: attention(Q, K, V, mask=[[True, "x"], [True, True], [1, 1]]),
        "mask_not_boolean",
        "row 1, column 2 is 'x'",
    ),
    case(
        "mask-hides-query-2",
        lambda: attention(Q, K, V, mask=[[1, 0], [1, 0], [0, 0]]),
        "all_masked",
        "Query 2 has every key masked",
    ),
    case(
        "mask-hides-query-1-row",
        lambda: attention(tr(Q), tr(K), tr(V), layout="row", mask=[[0, 0, 0], [1, 1, 1]]),
        "all_masked",
        "Query 1 has every key masked",
    ),
    # divide-by-sum normalization
    case(
        "sum-negative-score",
        lambda: attention([[1.0]], [[2.0, -0.5]], [[1.0, 1.0]], normalization="sum"),
        "negative_score",
        "key 2 for query 1 is −0.5",
        "Use softmax",
    ),
    case(
        "sum-negative-score-row",
        lambda: attention(
            [[1.0, 0.0], [-2.0, 0.0]],
            [[1.0, 0.0], [0.0, 1.0]],
            [[1.0], [1.0]],
            normalization="sum",
            layout="row",
        ),
        "negative_score",
        "key 1 for query 2 is −2",
    ),
    case(
        "sum-zero-sum",
        lambda: attention([[1.0, 0.0]], [[2.0, 3.0]], [[1.0, 1.0]], normalization="sum"),
        "zero_sum",
        "every score of query 2 is 0",
    ),
    # numbers too large to compute with
    case(
        "overflow-scores",
        lambda: attention([[1e308], [1e308]], [[1e308], [1e308]], [[1.0]]),
        "overflow",
        "S, row 1, column 1",
        "∞",
        "too large",
        matrix="S",
        cell=(0, 0),
    ),
    case(
        "overflow-scores-row",
        lambda: attention([[1.0, 1e308]], [[1.0, 1e308]], [[1.0]], layout="row"),
        "overflow",
        "S, row 1, column 1",
        matrix="S",
        cell=(0, 0),
    ),
    case(
        "overflow-temperature",
        lambda: attention([[1.0, 2.0]], [[1e306]], [[1.0]], temperature=1e-3),
        "overflow",
        "S/τ, row 1, column 1",
        matrix="S/τ",
        cell=(0, 0),
    ),
    # the database lookup
    case("empty-database", lambda: lookup([], "Li"), "empty_database", "database is empty"),
    case("empty-query", lambda: lookup(NAMES, "   "), "empty_query", "query is empty"),
    case("query-not-text", lambda: lookup(NAMES, None), "empty_query", "query is empty"),
    case("no-queries", lambda: lookup_many(NAMES, []), "empty_query", "query is empty"),
    case(
        "bad-record-short",
        lambda: lookup([("Li", "Mu"), ("Smola",)], "Li"),
        "bad_record",
        "Record 2",
        "('Smola',)",
    ),
    case(
        "bad-record-number",
        lambda: lookup([("Li", "Mu", "three")], "Li"),
        "bad_record",
        "Record 1",
        "'three'",
    ),
    case(
        "bad-record-value", lambda: lookup([("Li", 3)], "Li"), "bad_record", "Record 1", "('Li', 3)"
    ),
    case(
        "empty-key",
        lambda: lookup([("Li", "Mu"), (" ", "Alex")], "Li"),
        "empty_key",
        "Record 2 has an empty key",
    ),
    case(
        "unknown-similarity-of-a-pair",
        lambda: similarity_score("Li", "Mu", "cosine"),
        "unknown_similarity",
        "'cosine'",
        "exact, ngram, edit",
    ),
    case(
        "unknown-similarity",
        lambda: lookup(NAMES, "Li", similarity="cosine"),
        "unknown_similarity",
        "'cosine'",
        "exact, ngram, edit",
    ),
    case(
        "lookup-temperature", lambda: lookup(NAMES, "Li", temperature=0), "bad_temperature", "not 0"
    ),
    case(
        "lookup-normalization",
        lambda: lookup(NAMES, "Li", normalization="max"),
        "unknown_normalization",
        "'max'",
    ),
    case(
        "lookup-sum-nothing-matches",
        lambda: lookup_many(NAMES, ["Li", "Qx"], normalization="sum"),
        "zero_sum",
        "query 2 (“Qx”)",
    ),
    # the exercises page: gradient-descent search and Squeeze-and-Excitation
    case(
        "target-out-of-range",
        lambda: gradient_search([0.0, 0.0], K, 3),
        "bad_target",
        "records 1 to 3",
        "3",
    ),
    case(
        "learning-rate-zero",
        lambda: gradient_search([0.0, 0.0], K, 0, learning_rate=0),
        "bad_learning_rate",
        "positive finite",
        "0",
    ),
    case(
        "learning-rate-huge",
        lambda: gradient_search([0.0, 0.0], K, 0, learning_rate=1e6),
        "learning_rate_too_large",
        "1×10⁶",
        "100",
    ),
    case(
        "steps-fraction",
        lambda: gradient_search([0.0, 0.0], K, 0, steps=2.5),
        "bad_steps",
        "whole number",
        "2.5",
    ),
    case(
        "se-W1-shape",
        lambda: squeeze_excitation([[1.0], [2.0]], [[1.0, 2.0, 3.0]], [[1.0]]),
        "weight_shape",
        "W1 has shape 1 × 3",
        "C = 2",
        "1 × 2",
        matrix="W1",
    ),
    case(
        "se-unknown-gate",
        lambda: squeeze_excitation([[1.0]], [[1.0]], [[1.0]], gate="relu"),
        "unknown_gate",
        "'relu'",
        "sigmoid, softmax",
    ),
    # Nadaraya–Watson regression (more in tests/core/test_regression.py)
    case("nw-empty", lambda: nadaraya_watson([0.0], [], []), "empty_data", "x_train is empty"),
    case(
        "nw-text",
        lambda: nadaraya_watson([0.0], [1.0], ["a"]),
        "data_not_numeric",
        "y_train, entry 1",
    ),
    case(
        "nw-nan",
        lambda: nadaraya_watson([NAN], [1.0], [2.0]),
        "data_not_finite",
        "x_query, entry 1",
    ),
    case(
        "nw-matrix",
        lambda: nadaraya_watson([[0.0]], [1.0], [2.0]),
        "data_ndim",
        "x_query must be a list of numbers",
    ),
    case(
        "nw-lengths",
        lambda: nadaraya_watson([0.0], [1.0], [2.0, 3.0]),
        "data_length_mismatch",
        "x_train has 1",
        "y_train has 2",
    ),
    case(
        "nw-kernel",
        lambda: nadaraya_watson([0.0], [1.0], [2.0], "cosine"),
        "unknown_kernel",
        "'cosine'",
    ),
    case(
        "nw-sigma",
        lambda: nadaraya_watson([0.0], [1.0], [2.0], bandwidth=0),
        "bad_bandwidth",
        "not 0",
    ),
    case(
        "nw-overflow",
        lambda: nadaraya_watson([1e300], [-1e300], [2.0], bandwidth=1e-10),
        "overflow",
        "u², row 1, column 1",
        matrix="u²",
        cell=(0, 0),
    ),
    case("nw-loo-one-point", lambda: leave_one_out([1.0], [2.0]), "loo_too_few", "there are 1"),
    case("demo-d_k-zero", lambda: scaling_demo(0, 1), "bad_demo_size", "d_k", "from 1 to 4096"),
    case("demo-seed-text", lambda: scaling_demo(8, "x"), "bad_demo_size", "seed", "'x'"),
    # multi-head self-attention (row layout: X is n × d_model)
    case(
        "heads-not-dividing",
        lambda: multi_head(np.ones((2, 8)), *[np.eye(8)] * 4, heads=3),
        "heads_not_dividing",
        "3 heads",
        "d_model = 8",
    ),
    case("heads-zero", lambda: multi_head(W, W, W, W, W, heads=0), "bad_heads", "not 0"),
    case(
        "projection-shape",
        lambda: multi_head(W, W, np.eye(3), W, W, heads=1),
        "projection_shape",
        "W_K has shape 3 × 3",
        "must be 2 × 2",
        matrix="W_K",
    ),
    case(
        "multi-head-nan",
        lambda: multi_head([[1.0, NAN]], W, W, W, W, heads=1),
        "not_finite",
        "X, row 1, column 2",
        matrix="X",
        cell=(0, 1),
    ),
    case(
        "multi-head-overflow",
        lambda: multi_head([[1e300, 1e300]], [[1e300, 0.0], [1e300, 0.0]], W, W, W, heads=1),
        "overflow",
        "Q, row 1, column 1",
        matrix="Q",
        cell=(0, 0),
    ),
    case(
        "multi-head-row-masked",
        lambda: multi_head(W, W, W, W, W, heads=1, mask=[[True, True], [False, False]]),
        "all_masked",
        "Query 2",
    ),
    case("positions-none", lambda: positional_encoding(0, 4), "bad_count", "n must be", "not 0"),
    case("task-unknown", lambda: toy_task("sort"), "unknown_task", "'sort'", "lookup, reverse"),
    case(
        "task-size-big",
        lambda: toy_task("lookup", size=10**6),
        "out_of_bounds",
        "must be a whole number from 16 to 2048",
    ),
    case(
        "train-steps-big",
        lambda: train_attention(reverse_task(), steps=5000),
        "out_of_bounds",
        "steps must be a whole number from 1 to 3000",
        "not 5000",
    ),
    case(
        "train-d_model-big",
        lambda: train_attention(reverse_task(), d_model=128),
        "out_of_bounds",
        "d_model must be a whole number from 4 to 64",
    ),
    case(
        "train-heads-not-dividing",
        lambda: train_attention(reverse_task(), heads=3, d_model=16),
        "heads_not_dividing",
        "3 heads do not divide d_model = 16",
    ),
    case(
        "train-heads-zero", lambda: train_attention(reverse_task(), heads=0), "bad_heads", "not 0"
    ),
    case(
        "train-score-unknown",
        lambda: train_attention(reverse_task(), score="cosine"),
        "unknown_score",
        "'cosine'",
    ),
    case(
        "train-rate-negative",
        lambda: train_attention(reverse_task(), learning_rate=-1.0),
        "bad_learning_rate",
        "−1",
    ),
    case(
        "train-rate-big",
        lambda: train_attention(reverse_task(), learning_rate=0.5),
        "training_rate_too_large",
        "0.5",
        "at most 0.1",
    ),
    case(
        "model-tokens-float",
        lambda: model_loss(TINY, [[0.5, 1.0]], [[0]]),
        "bad_tokens",
        "inputs must be whole-number token ids from 0 to 2",
        matrix="inputs",
    ),
    case(
        "model-tokens-length",
        lambda: model_loss(TINY, [[0, 1, 2]], [[0]]),
        "token_count",
        "3 token(s) per example",
        "reads 2",
        matrix="inputs",
    ),
    case(
        "model-token-out-of-range",
        lambda: model_loss(TINY, [[0, 7]], [[0]]),
        "token_out_of_range",
        "inputs, example 1, position 2: token id 7",
        "0 to 2",
        matrix="inputs",
        cell=(0, 1),
    ),
    case(
        "model-targets-rows",
        lambda: model_loss(TINY, [[0, 1]], [[0], [1]]),
        "targets_shape",
        "shape 2 × 1",
    ),
]
