"""Predict, then reveal: the right answer comes from the weights, ties are honest."""

from __future__ import annotations

import numpy as np

from attention_core import attention
from attention_ui.kit.teaching.predict import (
    NO_WINNER,
    grade,
    puzzle_id,
    query_weights,
    typo_queries,
    winners_of,
)


def test_the_winner_is_the_key_with_the_most_weight():
    assert winners_of([0.2, 0.7, 0.1]) == (1,)


def test_keys_that_tie_all_win_and_any_of_them_is_right():
    r = attention(np.eye(3), np.eye(3), np.eye(3), "dot", mask=np.ones((3, 3), bool))
    same = attention([[1.0], [1.0]], [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]], [[1, 2, 3]], "dot")
    assert winners_of(same.weights[:, 0]) == (0, 1)
    verdicts = grade([1, 2], [same.weights[:, 0], same.weights[:, 0]])
    assert [v.right for v in verdicts] == [True, False]
    assert winners_of(r.weights[:, 0]) == (0,)


def test_no_winner_when_every_weight_is_zero_and_only_that_guess_is_right():
    assert winners_of([0.0, 0.0]) == ()
    verdicts = grade([NO_WINNER, 0, None], [[0.0, 0.0]] * 3)
    assert [v.right for v in verdicts] == [True, False, False]


def test_each_query_in_either_layout():
    Q, K = np.array([[2.0, 0.0], [0.0, 2.0]]), np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    col = attention(Q, K, K, "dot")
    row = attention(Q.T, K.T, K.T, "dot", layout="row")
    for result in (col, row):
        per_query = query_weights(result.weights, result.layout)
        assert [winners_of(w) for w in per_query] == [(1,), (0,)]
        assert [v.right for v in grade([1, 1], per_query)] == [True, False]
        assert [v.right for v in grade([None, 0], per_query)] == [False, True]


def test_a_puzzle_id_changes_with_the_numbers_only():
    a = np.array([[0.5, 0.5]])
    assert puzzle_id(a) == puzzle_id(a.copy())
    assert puzzle_id(a) != puzzle_id(a.T) != puzzle_id(np.array([[0.5, 0.6]]))


def test_a_seed_gives_the_same_typos_on_every_screen():
    keys = ["Zhang", "Lipton", "Li", "Smola", "Hu", "Werness"]
    assert typo_queries(keys, 42) == typo_queries(keys, 42)
    assert len(typo_queries(keys, 42)) == 3
    assert len({tuple(typo_queries(keys, seed)) for seed in range(5)}) > 1
    assert typo_queries(["X"], 0, count=5) and typo_queries([" ", ""], 0) == []
    for typo in typo_queries(keys, 7, count=20):
        assert typo and any(abs(len(typo) - len(k)) <= 1 for k in keys)
