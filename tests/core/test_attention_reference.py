"""attention() against an independent reference written with plain Python loops.

The reference below never calls NumPy's matrix product: it works on lists of query, key and
value vectors and applies each score function's definition pair by pair, exactly as the
Luong article and d2l write them. If the engine's matrix forms (Kᵀ Q, Kᵀ W Q, W_a Q, …) or its
row/column bookkeeping were wrong, the two would disagree.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_core import attention
from tests.support.reference import reference_score

SCORES = ("dot", "scaled_dot", "general", "concat", "location")
LAYOUTS = ("column", "row")


# ------------------------------------------------------------------------------------------
# The reference: one query at a time, one key at a time.


def columns(matrix: list[list[float]]) -> list[list[float]]:
    """The columns of a list-of-rows matrix, each as a list."""
    return [[row[c] for row in matrix] for c in range(len(matrix[0]))]


def reference_attention(
    queries, keys, values, score, params, temperature=1.0, mask=None, normalization="softmax"
):
    """Scores, weights and outputs indexed [query][key] and [query][value entry].

    `mask[j][i]` is True when query j may attend to key i.
    """
    scores, weights, outputs = [], [], []
    for j, q in enumerate(queries):
        row = [reference_score(score, q, k, i, params) for i, k in enumerate(keys)]
        visible = [True] * len(keys) if mask is None else list(mask[j])
        if normalization == "softmax":
            tempered = [s / temperature for s in row]
            best = max(t for t, keep in zip(tempered, visible, strict=True) if keep)
            numerators = [
                math.exp(t - best) if keep else 0.0
                for t, keep in zip(tempered, visible, strict=True)
            ]
        else:  # d2l's divide-by-sum; τ acts as the power 1/τ
            numerators = [
                s ** (1.0 / temperature) if keep else 0.0
                for s, keep in zip(row, visible, strict=True)
            ]
        total = 0.0
        for x in numerators:
            total += x
        alpha = [x / total for x in numerators]
        out = [0.0] * len(values[0])
        for a, v in zip(alpha, values, strict=True):
            for c, x in enumerate(v):
                out[c] += a * x
        scores.append(row)
        weights.append(alpha)
        outputs.append(out)
    return scores, weights, outputs


# ------------------------------------------------------------------------------------------
# Problems in column layout (d × count), with the parameters each score needs.


def make_problem(
    score: str, seed: int, *, d_q=3, d_k=3, d_v=2, n=4, m=5, h=3, low=-2.0, high=2.0
) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    if score in ("dot", "scaled_dot"):
        d_k = d_q
    Q = rng.uniform(low, high, size=(d_q, n)).tolist()
    K = rng.uniform(low, high, size=(d_k, m)).tolist()
    V = rng.uniform(-2, 2, size=(d_v, m)).tolist()
    params: dict = {}
    if score == "general":
        params["W"] = rng.uniform(-1, 1, size=(d_k, d_q)).tolist()
    elif score == "concat":
        params["Wa"] = rng.uniform(-1, 1, size=(h, d_q + d_k)).tolist()
        params["va"] = rng.uniform(-1, 1, size=h).tolist()
    elif score == "location":
        params["Wa"] = rng.uniform(low, high, size=(m, d_q)).tolist()
    return {"Q": Q, "K": K, "V": V}, params


def run_both(score, mats, params, layout, **options):
    """Engine result (in `layout`) and the reference (query-major lists) for one problem."""
    Q, K, V = mats["Q"], mats["K"], mats["V"]
    queries, keys, values = columns(Q), columns(K), columns(V)
    col_mask = options.get("mask")
    ref_mask = None if col_mask is None else columns(col_mask)  # [query][key]
    if layout == "row":  # one query per row: hand the engine the transposes
        Q, K, V = queries, keys, values
        if col_mask is not None:
            options = {**options, "mask": ref_mask}
    result = attention(Q, K, V, score, layout=layout, **params, **options)
    reference = reference_attention(
        queries,
        keys,
        values,
        score,
        params,
        temperature=options.get("temperature", 1.0),
        mask=ref_mask,
        normalization=options.get("normalization", "softmax"),
    )
    return result, reference


def assert_matches(result, reference, layout: str) -> None:
    """Compare engine arrays with [query][·] lists, reading the engine in its own layout."""
    ref_scores, ref_weights, ref_outputs = (np.array(x) for x in reference)
    if layout == "column":  # engine: m × n and d_v × n
        ref_scores, ref_weights, ref_outputs = ref_scores.T, ref_weights.T, ref_outputs.T
    assert result.scores.shape == ref_scores.shape
    assert result.weights.shape == ref_weights.shape
    assert result.output.shape == ref_outputs.shape
    np.testing.assert_allclose(result.scores, ref_scores, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(result.weights, ref_weights, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(result.output, ref_outputs, rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("score", SCORES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_scores_weights_and_output_match_loop_reference(score, layout, seed):
    mats, params = make_problem(score, seed)
    result, reference = run_both(score, mats, params, layout)
    assert_matches(result, reference, layout)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("score", ["general", "concat", "location"])
def test_scores_allow_query_size_different_from_key_size(score, layout):
    mats, params = make_problem(score, 7, d_q=2, d_k=4, d_v=3, n=3, m=2, h=5)
    result, reference = run_both(score, mats, params, layout)
    assert_matches(result, reference, layout)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("score", SCORES)
def test_single_query_single_key_gets_all_the_weight(score, layout):
    mats, params = make_problem(score, 3, d_q=1, d_k=1, d_v=1, n=1, m=1, h=1)
    result, reference = run_both(score, mats, params, layout)
    assert_matches(result, reference, layout)
    assert result.weights.tolist() == [[1.0]]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("score", SCORES)
@pytest.mark.parametrize("temperature", [0.25, 0.5, 3.0, 10.0])
def test_temperature_matches_loop_reference(score, layout, temperature):
    mats, params = make_problem(score, 11)
    result, reference = run_both(score, mats, params, layout, temperature=temperature)
    assert_matches(result, reference, layout)
    assert result.temperature == temperature


MASK = [  # m = 5 keys × n = 4 queries, column layout; every query keeps at least one key
    [True, False, True, False],
    [False, False, True, True],
    [True, True, False, False],
    [True, False, False, False],
    [False, False, True, True],
]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("score", SCORES)
@pytest.mark.parametrize("temperature", [1.0, 0.5])
def test_mask_matches_loop_reference(score, layout, temperature):
    mats, params = make_problem(score, 5)
    result, reference = run_both(score, mats, params, layout, mask=MASK, temperature=temperature)
    assert_matches(result, reference, layout)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("score", ["dot", "scaled_dot", "general", "location"])
@pytest.mark.parametrize("temperature", [1.0, 0.5, 4.0])
@pytest.mark.parametrize("masked", [False, True], ids=["unmasked", "masked"])
def test_divide_by_sum_matches_loop_reference(score, layout, temperature, masked):
    # non-negative inputs and parameters, so every score is ≥ 0 as divide-by-sum requires
    mats, params = make_problem(score, 13, low=0.1, high=2.0)
    if score == "general":
        params["W"] = np.abs(np.array(params["W"])).tolist()
    options = {"normalization": "sum", "temperature": temperature}
    if masked:
        options["mask"] = MASK
    result, reference = run_both(score, mats, params, layout, **options)
    assert_matches(result, reference, layout)
    assert result.normalization == "sum"


def test_divide_by_sum_is_plain_ratio_on_a_hand_example():
    # one query, three keys with scores 1, 2, 5 (d = 1, q = 1): weights 1/8, 2/8, 5/8
    result = attention([[1.0]], [[1.0, 2.0, 5.0]], [[10.0, 20.0, 50.0]], "dot", normalization="sum")
    assert result.weights[:, 0].tolist() == pytest.approx([1 / 8, 2 / 8, 5 / 8], abs=1e-15)
    assert result.output[0, 0] == pytest.approx((10 + 40 + 250) / 8)


def test_softmax_on_a_hand_example():
    # scores 0 and ln 3 for one query: weights 1/4 and 3/4
    result = attention([[1.0]], [[0.0, math.log(3.0)]], [[4.0, 8.0]], "dot")
    assert result.weights[:, 0].tolist() == pytest.approx([0.25, 0.75], abs=1e-15)
    assert result.output[0, 0] == pytest.approx(0.25 * 4 + 0.75 * 8)


def test_inputs_may_be_arrays_lists_or_text_numbers():
    mats, _ = make_problem("dot", 21)
    as_lists = attention(mats["Q"], mats["K"], mats["V"], "dot")
    as_arrays = attention(*(np.array(mats[x]) for x in "QKV"), "dot")
    as_text = attention([[str(x) for x in row] for row in mats["Q"]], mats["K"], mats["V"], "dot")
    np.testing.assert_array_equal(as_lists.output, as_arrays.output)
    np.testing.assert_array_equal(as_lists.output, as_text.output)


def test_text_with_a_true_minus_sign_is_read_as_negative():
    result = attention([["−2"]], [[1.0]], [[1.0]], "dot")
    assert result.scores.tolist() == [[-2.0]]


def test_engine_does_not_modify_the_callers_arrays():
    mats, params = make_problem("concat", 4)
    arrays = {k: np.array(v) for k, v in {**mats, **params}.items()}
    copies = {k: v.copy() for k, v in arrays.items()}
    attention(
        arrays["Q"],
        arrays["K"],
        arrays["V"],
        "concat",
        Wa=arrays["Wa"],
        va=arrays["va"],
        mask=np.ones((5, 4), dtype=bool),
        temperature=0.5,
    )
    for name, array in arrays.items():
        np.testing.assert_array_equal(array, copies[name], err_msg=name)
