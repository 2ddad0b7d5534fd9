"""What a trained model learned, in tokens and positions (attention_core/learned.py): the
tables give back the model's own first-layer scores exactly, location's have no key-token
part, concat's table is its exact score at two positions; the induction scores are the mean
weights they say; and the task's rule answers any row it can (attention_core/task_rule.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import toy_task, train_attention
from attention_core.learned import (
    concat_table,
    prefix_matching_scores,
    previous_token_scores,
    score_of,
    score_parts,
    token_rows,
)
from attention_core.task_rule import rule_answer
from attention_core.tiny_model import Architecture, forward, init_params

TASKS = ("lookup", "reverse", "previous", "induction")


def model_of(task_name, score, heads=2, d_model=8, seed=0):
    task = toy_task(task_name, size=16, seed=seed)
    model = Architecture(score, heads, task.causal, task.features)
    rng = np.random.default_rng(seed)
    params = init_params(rng, model, task.vocab, task.length, d_model, task.layers)
    return task, model, params


def first_layer_scores(task, model, params):
    """S of the first layer through the model: H × B × L(keys) × T(queries), and the
    position of each query."""
    outputs = task.length if task.layers == 2 else task.outputs
    passed = forward(params, model, task.inputs, None, outputs)
    layer = passed.layers[0]
    return layer.parts["S"], np.arange(task.length)[layer.read]


@pytest.mark.parametrize("task_name", TASKS)
@pytest.mark.parametrize("score", ["dot", "scaled_dot", "general", "location"])
def test_every_first_layer_score_is_the_sum_of_its_token_and_position_parts(task_name, score):
    task, model, params = model_of(task_name, score)
    S, query_positions = first_layer_scores(task, model, params)
    rows = token_rows(task, task.inputs)  # B × L × R
    for head in range(model.heads):
        parts = score_parts(params, score, model.heads, head)
        for b in range(4):
            for t, i in enumerate(query_positions):
                for j in range(task.length):
                    read = score_of(parts, rows[b, i], i, rows[b, j], j)
                    assert read == pytest.approx(S[head, b, j, t], abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(TASKS),
    st.sampled_from(["dot", "scaled_dot", "general", "location"]),
    st.sampled_from([(4, 1), (4, 2), (8, 4), (16, 1)]),
    st.integers(0, 2**16),
)
def test_the_parts_sum_to_the_score_for_any_parameters(task_name, score, sizes, seed):
    d_model, heads = sizes
    task, model, params = model_of(task_name, score, heads, d_model, seed)
    S, query_positions = first_layer_scores(task, model, params)
    rows = token_rows(task, task.inputs)
    rng = np.random.default_rng(seed)
    b, head = int(rng.integers(len(task.inputs))), int(rng.integers(heads))
    parts = score_parts(params, score, heads, head)
    t = int(rng.integers(len(query_positions)))
    i, j = int(query_positions[t]), int(rng.integers(task.length))
    read = score_of(parts, rows[b, i], i, rows[b, j], j)
    assert read == pytest.approx(S[head, b, j, t], rel=1e-9, abs=1e-12)


def test_the_tables_reproduce_a_trained_models_scores_on_key_lookup():
    task = toy_task("lookup", seed=0)
    run = train_attention(task, steps=60, record_every=60)
    model = Architecture(run.score, run.heads, task.causal, task.features)
    S, query_positions = first_layer_scores(task, model, run.params)
    parts = score_parts(run.params, run.score, run.heads, 0)
    rows = token_rows(task, task.inputs)
    i = int(query_positions[0])
    for b in range(8):
        by_parts = [score_of(parts, rows[b, i], i, rows[b, j], j) for j in range(task.length)]
        np.testing.assert_allclose(by_parts, S[0, b, :, 0], rtol=0, atol=1e-12)


def test_location_scores_have_no_key_token_part():
    _, model, params = model_of("reverse", "location")
    parts = score_parts(params, "location", model.heads, 0)
    assert parts.kind == "location"
    assert parts.token_token is None and parts.position_token is None


@pytest.mark.parametrize("task_name", TASKS)
def test_concat_is_not_split_into_parts_but_its_table_is_its_exact_score(task_name):
    task, model, params = model_of(task_name, "concat")
    with pytest.raises(ValueError):
        score_parts(params, "concat", model.heads, 0)
    S, query_positions = first_layer_scores(task, model, params)
    for head in range(model.heads):
        for t, i in enumerate(query_positions):
            for j in range(task.length):
                table = concat_table(params, model.heads, head, (i, j), task.features)
                for b in range(4):
                    a, k = task.inputs[b, i], task.inputs[b, j]
                    assert table[a, k] == pytest.approx(S[head, b, j, t], abs=1e-12)


def test_the_reverse_tasks_trained_position_table_peaks_on_the_anti_diagonal():
    task = toy_task("reverse", seed=0)
    run = train_attention(task, seed=0, record_every=600)
    parts = score_parts(run.params, run.score, run.heads, 0)
    L = task.length
    assert list(parts.position_position.argmax(axis=1)) == list(range(L - 1, -1, -1))


def test_key_lookups_trained_token_table_peaks_on_the_matching_key_letter():
    task = toy_task("lookup", seed=0)
    run = train_attention(task, seed=0, record_every=600)
    table = score_parts(run.params, run.score, run.heads, 0).token_token
    names = task.feature_names
    queries = [names.index(f"{k}?") for k in "ABCDEF"]
    letters = [names.index(k) for k in "ABCDEF"]
    assert list(table[np.ix_(queries, letters)].argmax(axis=1)) == list(range(6))


# ---------------------------------------------------------------------------------------------
# Induction's two scores


def test_the_previous_token_score_is_the_mean_weight_one_position_back():
    weights = np.zeros((2, 1, 4, 4))
    weights[:, 0, np.arange(4), np.maximum(np.arange(4) - 1, 0)] = 1.0  # all on the previous
    weights[1, 0, 3] = [0, 0, 0.5, 0.5]  # half back at the last position of one example
    assert previous_token_scores(weights)[0] == pytest.approx((3 + 2.5) / 6)
    assert previous_token_scores(weights, np.array([1, 2]))[0] == 1.0


def test_the_prefix_matching_score_is_the_weight_just_after_the_earlier_occurrence():
    inputs = np.array([[5, 7, 9, 7]])  # token 7 at 1 occurred before; the position after it: 2
    weights = np.zeros((1, 2, 1, 4))
    weights[0, 0, 0, 2] = 1.0  # head 1 on position 2
    weights[0, 1, 0, 1] = 1.0  # head 2 on the earlier occurrence itself
    np.testing.assert_array_equal(prefix_matching_scores(weights, inputs, np.array([3])), [1, 0])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**16))
def test_both_induction_scores_lie_between_0_and_1(seed):
    rng = np.random.default_rng(seed)
    w = rng.random((3, 2, 6, 6))
    w /= w.sum(axis=-1, keepdims=True)
    inputs = rng.integers(0, 3, (3, 6))
    for scores in (previous_token_scores(w), prefix_matching_scores(w, inputs, np.arange(6))):
        assert np.all((scores >= 0) & (scores <= 1 + 1e-12))


# ---------------------------------------------------------------------------------------------
# The task's rule on any row


@pytest.mark.parametrize("task_name", TASKS)
def test_the_rule_gives_the_tasks_own_answers_on_every_row_it_drew(task_name):
    task = toy_task(task_name, size=64, seed=5)
    for row, targets, attend in zip(task.inputs, task.targets, task.attend, strict=True):
        answer = rule_answer(task, row)
        assert answer.problem is None
        np.testing.assert_array_equal(answer.targets, targets)
        np.testing.assert_array_equal(answer.attend, attend)


def test_the_rule_answers_a_key_lookup_row_the_dataset_does_not_hold():
    task = toy_task("lookup", size=16, seed=0)
    row = np.array([0 * 6 + 5, 1 * 6 + 4, 2 * 6 + 3, 3 * 6 + 2, 36 + 2])  # A→5 B→4 C→3 D→2 C?
    assert not (task.inputs == row).all(axis=1).any()
    answer = rule_answer(task, row)
    assert task.tokens[int(answer.targets[0])] == "3" and int(answer.attend[0]) == 2


@pytest.mark.parametrize(
    ("row", "code", "numbers"),
    [
        ([0, 6, 12, 18, 36 + 5], "absent", {"position": 4, "token": 41}),  # F? with no F
        ([0, 1, 12, 18, 36], "duplicate", {"positions": (0, 1), "token": 0}),  # A twice
        ([0, 36, 12, 18, 36], "misplaced", {"position": 1, "token": 36, "place": "pair"}),
        ([0, 6, 12, 18, 42], "misplaced", {"position": 4, "token": 42, "place": "query"}),
    ],
)
def test_the_rule_names_what_keeps_a_key_lookup_row_from_an_answer(row, code, numbers):
    task = toy_task("lookup", size=16, seed=0)
    assert rule_answer(task, np.array(row)).problem == (code, numbers)


def test_the_rule_names_induction_rows_it_cannot_answer():
    task = toy_task("induction", size=16, seed=0)
    repeated = np.array([0, 1, 2, 3, 4, 0, 0, 1, 2, 3, 4, 0])
    assert rule_answer(task, repeated).problem == ("duplicate", {"positions": (0, 5), "token": 0})
    new = np.array([0, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 9])
    assert rule_answer(task, new).problem == ("absent", {"position": 11, "token": 9})


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=6, max_size=6))
def test_reversal_is_answered_for_any_row_of_digits(digits):
    task = toy_task("reverse", size=16, seed=0)
    answer = rule_answer(task, np.array(digits))
    assert list(answer.targets) == digits[::-1]
