"""The transformer page's pure helpers: splitting a sentence, seeding, labels, figures."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import multi_head
from attention_ui.transformer.figures import head_figures, step_figure
from attention_ui.transformer.model import (
    MAX_TOKEN_LENGTH,
    MAX_TOKENS,
    divisors,
    embeddings,
    projections,
    split_sentence,
    token_labels,
)

TITLES = {"query": "token (query)", "key": "token (key)", "dim": "entry", "sum": "sum"}


@pytest.mark.parametrize(
    ("text", "tokens", "split"),
    [
        ("the cat sat", ["the", "cat", "sat"], "spaces"),
        ("  the\tcat \n sat  ", ["the", "cat", "sat"], "spaces"),
        ("猫が座る", ["猫", "が", "座る"], "words"),
        ("猫 が 座る", ["猫", "が", "座る"], "words"),  # spaces typed: still the same words
        ("吾輩は猫である。", ["吾輩", "は", "猫", "で", "ある", "。"], "words"),
    ],
)
def test_split_on_spaces_or_japanese_into_words(text, tokens, split):
    result = split_sentence(text)
    assert (result.tokens, result.split, result.ok) == (tokens, split, True)


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "no_tokens", {"low": 2, "high": MAX_TOKENS}),
        ("   ", "no_tokens", {"low": 2, "high": MAX_TOKENS}),
        (None, "no_tokens", {"low": 2, "high": MAX_TOKENS}),
        ("hello", "too_few", {"count": 1, "low": 2}),
        (" ".join(["w"] * 50), "too_many", {"count": 50, "high": MAX_TOKENS}),
        ("猫と" * 10, "too_many", {"count": 20, "high": MAX_TOKENS}),
        (
            "a " + "x" * 20,
            "token_too_long",
            {"index": 2, "token": "x" * 20, "length": 20, "limit": MAX_TOKEN_LENGTH},
        ),
    ],
)
def test_a_sentence_outside_the_limits_is_a_problem_with_its_numbers(text, code, params):
    result = split_sentence(text)
    assert not result.ok
    first = result.problems[0]
    assert (first.code, first.params) == (code, params)


def test_a_12_character_token_is_fine_and_a_13_character_one_is_not():
    assert split_sentence("a " + "x" * MAX_TOKEN_LENGTH).ok
    assert not split_sentence("a " + "x" * (MAX_TOKEN_LENGTH + 1)).ok


def test_labels_number_the_tokens_so_repeated_words_stay_apart():
    assert token_labels(["the", "cat", "the"]) == ["1 · the", "2 · cat", "3 · the"]


def test_embeddings_depend_on_seed_and_word_not_on_position():
    X = embeddings(["the", "cat", "the"], 4, seed=3)
    assert X.shape == (3, 4)
    np.testing.assert_array_equal(X[0], X[2])
    assert not np.array_equal(X[0], X[1])
    np.testing.assert_array_equal(X, embeddings(["the", "cat", "the"], 4, seed=3))
    assert not np.array_equal(X, embeddings(["the", "cat", "the"], 4, seed=4))
    np.testing.assert_array_equal(X, np.round(X, 1))


def test_projections_are_seeded_square_and_reproducible():
    W = projections(6, 1)
    assert set(W) == {"W_Q", "W_K", "W_V", "W_O"}
    assert all(w.shape == (6, 6) for w in W.values())
    np.testing.assert_array_equal(W["W_Q"], projections(6, 1)["W_Q"])
    assert not np.array_equal(W["W_Q"], W["W_K"])


def test_divisors_are_the_head_counts_that_split_d_model():
    assert divisors(8) == [1, 2, 4, 8]
    assert divisors(6) == [1, 2, 3, 6]
    assert divisors(7) == [1, 7]


def test_one_figure_per_head_with_its_title_tokens_and_hover():
    rng = np.random.default_rng(0)
    mh = multi_head(rng.normal(size=(3, 4)), *(rng.normal(size=(4, 4)) for _ in range(4)), 2)
    labels = token_labels(["<b>a</b>", "b", "c"])
    figures = head_figures(
        mh, labels, TITLES, ["head 1", "head 2"], lambda h, i, j: f"h{h} q{i} k{j}"
    )
    figures = [figure.figure for figure in figures]
    assert [f.layout.title.text for f in figures] == ["head 1", "head 2"]
    np.testing.assert_array_equal(figures[1].data[0].z, mh.weights[1])
    assert figures[0].data[0].x[0] == "1 · &lt;b&gt;a&lt;/b&gt;"
    assert figures[1].data[0].customdata[2][0] == "h1 q2 k0"
    assert (figures[0].data[0].zmin, figures[0].data[0].zmax) == (0, 1)  # one scale for all


def test_step_figures_label_tokens_and_entries():
    mh = multi_head([[1.0, 0.0], [0.0, 1.0]], *[np.eye(2)] * 4, 1)

    def texts(shape, explain):
        return [[explain(i, j) for j in range(shape[1])] for i in range(shape[0])]

    q = step_figure(mh.step("queries_from_x"), ["1 · a", "2 · b"], TITLES, texts).figure
    assert list(q.data[0].y) == ["1 · a", "2 · b"] and list(q.data[0].x) == ["1", "2"]
    assert q.layout.yaxis.title.text == "token (query)"
    weights = step_figure(
        mh.heads[0].step("weights_softmax"), ["1 · a", "2 · b"], TITLES, texts
    ).figure
    assert list(weights.data[0].x) == ["1 · a", "2 · b"]
    assert weights.layout.xaxis.title.text == "token (key)"
    assert weights.data[0].zmin == 0 and weights.data[0].zmax == 1


def test_a_steps_long_numbers_cut_its_columns_into_narrower_blocks():
    """Plotly sizes a chart's cell text to fit its longest number: one head's exp() step, six
    columns printing "0.000856", was 6 px high on a phone. A step prints its numbers at 11 px
    and its columns go in blocks narrow enough for them (six columns of 8 characters: two
    blocks of 3); short numbers and weights (at most "0.0116" with the "<0.01" rule) keep six
    columns in one chart, and four columns of "−0.0275" stay one chart."""
    from types import SimpleNamespace

    from attention_ui.transformer.figures import step_key_blocks

    long = SimpleNamespace(key="exp", value=np.full((6, 6), 0.000856))
    assert step_key_blocks(long) == [range(0, 3), range(3, 6)]
    short = SimpleNamespace(key="exp", value=np.full((6, 6), 0.5))
    assert step_key_blocks(short) == [range(0, 6)]
    weights = SimpleNamespace(key="weights_softmax", value=np.full((6, 6), 0.000856))
    assert step_key_blocks(weights) == [range(0, 6)]  # printed "<0.01"
    projected = SimpleNamespace(key="queries_projected", value=np.full((10, 4), -0.0275))
    assert step_key_blocks(projected) == [range(0, 4)]
