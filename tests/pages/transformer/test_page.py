"""The self-attention and multi-head page through AppTest: what the learner sees is what
`attention_core.multi_head` computes from what they typed, in English and Japanese."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import attention, multi_head
from attention_core.multi_head import causal_mask, positional_encoding
from attention_ui.kit.text.i18n import catalog
from attention_ui.transformer import state
from attention_ui.transformer.model import EXAMPLES, embeddings, projections, split_sentence
from tests.conftest import open_app_page
from tests.plotly_json import chart, charts
from tests.support.grids import type_cell

EN, JA = catalog("en"), catalog("ja")
TOKENS = EXAMPLES["en"].split()  # the default sentence


def head_blocks(at) -> dict[str, dict]:
    """Every chart of a head or of a block of a head's keys, by widget key, in page order."""
    ids = [e.proto.id for e in charts(at) if "-transformer.chart.head." in e.proto.id]
    keys = [i[i.index("transformer.chart.head.") :] for i in ids]
    return {key: chart(at, key) for key in keys}


def head_charts(at) -> list[dict]:
    """The heads as the page draws them, one per head, in order: a head drawn in blocks of
    keys ("transformer.chart.head.1", "….head.1.keys2") put back together, its columns side
    by side (the first block's title and layout)."""
    heads: dict[str, dict] = {}
    for key, figure in head_blocks(at).items():
        head = key.split(".keys")[0]
        if head not in heads:
            heads[head] = figure
            continue
        whole, part = heads[head]["data"][0], figure["data"][0]
        whole["z"] = np.hstack([np.asarray(whole["z"]), np.asarray(part["z"])])
        whole["x"] = [*whole["x"], *part["x"]]
    return list(heads.values())


def head_weights(at) -> np.ndarray:
    """The heads' weights as the page draws them: heads × n × n."""
    return np.array([np.asarray(c["data"][0]["z"], dtype=float) for c in head_charts(at)])


def no_exception(at) -> None:
    assert not at.exception, [e.value for e in at.exception]


def test_the_default_page_shows_the_engines_heads_and_output():
    at = open_app_page("transformer")
    X = embeddings(TOKENS, 4, 0)
    W = projections(4, 0)
    mh = multi_head(X, W["W_Q"], W["W_K"], W["W_V"], W["W_O"], 2)
    np.testing.assert_allclose(head_weights(at), mh.weights, rtol=1e-12)
    output = chart(at, "transformer.chart.output")["data"][0]
    np.testing.assert_allclose(np.asarray(output["z"], dtype=float), mh.output, rtol=1e-12)
    labels = head_charts(at)[0]["data"][0]["x"]
    assert list(labels) == [f"{i + 1} · {token}" for i, token in enumerate(TOKENS)]


def test_one_head_with_identity_weights_equals_plain_scaled_dot_attention():
    at = open_app_page("transformer")
    at.button(key=state.IDENTITY).click().run()
    no_exception(at)
    assert at.number_input(key=state.HEADS.key).value == 1
    X = embeddings(TOKENS, 4, 0)
    plain = attention(X, X, X, "scaled_dot", layout="row")
    page = head_weights(at)
    assert page.shape == (1, len(TOKENS), len(TOKENS))
    np.testing.assert_array_equal(page[0], plain.weights)
    said = EN["transformer.identity_holds"].split("{")[0]
    assert any(s.value.startswith(said) for s in at.success)
    # the sentence is computed, not assumed: one edited W and it is gone
    type_cell(at, "transformer.W_V", 0, "1", 2.0)
    at.run()
    assert not any(s.value.startswith(said) for s in at.success)


def test_causal_mask_gives_exact_zeros_above_the_diagonal_in_every_head():
    at = open_app_page("transformer")
    at.checkbox(key=state.CAUSAL.key).check().run()
    no_exception(at)
    weights = head_weights(at)
    above = ~causal_mask(len(TOKENS))
    assert (weights[:, above] == 0.0).all()
    np.testing.assert_allclose(weights.sum(axis=2), 1.0)


def test_positions_are_added_and_shown_as_their_own_matrix():
    at = open_app_page("transformer")
    at.checkbox(key=state.POSITIONS.key).check().run()
    no_exception(at)
    P = np.asarray(chart(at, "transformer.chart.P")["data"][0]["z"], dtype=float)
    np.testing.assert_allclose(P, positional_encoding(len(TOKENS), 4))
    X, W = embeddings(TOKENS, 4, 0), projections(4, 0)
    mh = multi_head(X, W["W_Q"], W["W_K"], W["W_V"], W["W_O"], 2, positions=True)
    np.testing.assert_allclose(head_weights(at), mh.weights, rtol=1e-12)


def test_an_edit_of_x_reaches_the_heads():
    at = open_app_page("transformer")
    type_cell(at, "transformer.X", 1, "2", 3.5)
    at.run()
    no_exception(at)
    X, W = embeddings(TOKENS, 4, 0), projections(4, 0)
    X[1, 1] = 3.5
    mh = multi_head(X, W["W_Q"], W["W_K"], W["W_V"], W["W_O"], 2)
    np.testing.assert_allclose(head_weights(at), mh.weights, rtol=1e-12)


def test_more_heads_more_panels_and_one_head_in_full_detail():
    at = open_app_page("transformer")
    at.number_input(key=state.HEADS.key).set_value(4).run()
    assert head_weights(at).shape[0] == 4
    at.toggle(key=state.DETAIL.key).set_value(True).run()
    at.radio(key=state.DETAIL_HEAD.key).set_value(2).run()
    no_exception(at)
    keys = {element.proto.id.rsplit("-", 1)[-1] for element in charts(at)}
    assert {
        "transformer.chart.head2.Q",
        "transformer.head2.weights_softmax",
        "transformer.head2.scaled",
    } <= keys
    at.number_input(key=state.HEADS.key).set_value(1).run()  # the chosen head no longer exists
    no_exception(at)
    assert at.radio(key=state.DETAIL_HEAD.key).value == 0


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_japanese_text_is_split_into_words(lang):
    at = open_app_page("transformer")
    if lang == "ja":
        at.sidebar.radio(key="lang.switch").set_value("ja").run()
    at.button(key=state.EXAMPLE_BUTTONS["ja"]).click().run()
    no_exception(at)
    characters = split_sentence(EXAMPLES["ja"]).tokens
    assert characters == ["猫", "が", "マット", "の", "上", "の", "箱", "に", "座っ", "た"]
    texts = catalog(lang)
    said = texts["transformer.sentence.split_words"].split("{")[0]
    assert any(c.value.startswith(said) for c in at.caption)
    assert head_weights(at).shape == (2, len(characters), len(characters))
    labels = chart(at, "transformer.chart.head.1")["data"][0]["y"]
    assert list(labels) == [f"{i + 1} · {c}" for i, c in enumerate(characters)]
    assert at.title[0].value == texts["transformer.title"]


def test_a_repeated_word_gets_identical_rows_without_positions_and_not_with_them():
    at = open_app_page("transformer")  # "the" at positions 1 and 5
    weights = head_weights(at)
    np.testing.assert_array_equal(weights[:, 0], weights[:, 4])
    said = EN["transformer.repeat.same"].format(token="the", first=1, second=5)
    assert any(said == c.value for c in at.caption)
    at.checkbox(key=state.POSITIONS.key).check().run()
    weights = head_weights(at)
    assert not np.array_equal(weights[:, 0], weights[:, 4])
    assert not any(said == c.value for c in at.caption)
    moved = EN["transformer.repeat.positions"].format(token="the", first=1, second=5)
    assert any(moved == c.value for c in at.caption)


def test_user_text_in_a_token_is_shown_as_text():
    at = open_app_page("transformer")
    at.text_input(key=state.SENTENCE.key).set_value("**x** <b>y</b> $z$").run()
    no_exception(at)
    split = next(c.value for c in at.caption if c.value.startswith("Split on spaces"))
    assert r"\*\*x\*\*" in split and r"\<b\>y" in split and r"\$z\$" in split
    labels = chart(at, "transformer.chart.head.1")["data"][0]["x"]
    assert labels[1] == "2 · &lt;b&gt;y&lt;/b&gt;"  # Plotly shows it as text


def test_each_head_is_its_own_chart_with_its_title_and_printed_numbers():
    """One chart per head (the page's columns stack them on a phone, where one grid of all
    heads left each panel a few pixels per cell), each titled on its own (two titles in one
    figure ran together in Japanese), every cell carrying its number, the Japanese row title
    written level."""
    at = open_app_page("transformer")
    at.sidebar.radio(key="lang.switch").set_value("ja").run()
    charts = head_charts(at)
    assert len(charts) == 2
    for number, figure in enumerate(charts, start=1):
        title = figure["layout"]["title"]["text"]
        assert title == JA["transformer.heads_grid.head"].format(number=number, d_head=2)
        assert figure["data"][0]["texttemplate"] == "%{text}"
        assert figure["layout"]["yaxis"]["title"]["text"] == ""  # level, as an annotation
        level = figure["layout"]["annotations"][0]["text"]  # on two short lines
        assert level.replace("<br>", " ") == JA["transformer.axis.query"] and "<br>" in level


def test_a_long_sentences_heads_are_drawn_in_blocks_of_keys_a_phone_can_print():
    """The Japanese default's 10 tokens: each head in two blocks of 5 keys (a 10-key head left
    a phone's cells about 18 px wide, too narrow for "0.0812"), titled with their keys, the
    colour bar once per head; put back together they are the engine's weights."""
    at = open_app_page("transformer")
    at.sidebar.radio(key="lang.switch").set_value("ja").run()
    at.text_input(key=state.SENTENCE.key).set_value(EXAMPLES["ja"]).run()
    blocks = head_blocks(at)
    assert list(blocks) == [
        "transformer.chart.head.1",
        "transformer.chart.head.1.keys2",
        "transformer.chart.head.2",
        "transformer.chart.head.2.keys2",
    ]
    for key, figure in blocks.items():
        trace = figure["data"][0]
        assert len(trace["x"]) == 5 and len(trace["y"]) == 10, key
        assert trace.get("showscale", True) == key.endswith("keys2"), key
    second = blocks["transformer.chart.head.2.keys2"]["layout"]["title"]["text"]
    head = JA["transformer.heads_grid.head"].format(number=2, d_head=2)
    assert second == JA["transformer.heads_grid.keys"].format(head=head, first=6, last=10)
    tokens = split_sentence(EXAMPLES["ja"]).tokens
    X, W = embeddings(tokens, 4, 0), projections(4, 0)
    mh = multi_head(X, W["W_Q"], W["W_K"], W["W_V"], W["W_O"], 2)
    np.testing.assert_allclose(head_weights(at), mh.weights, rtol=1e-12)


def test_a_long_sentences_wide_steps_are_drawn_in_blocks_a_phone_can_print():
    """The Japanese default's 10 tokens, one head in detail: Kᵀ (2 × 10), S and A (10 × 10) in
    blocks of at most 5 columns (10 columns left a phone's cells about 30 px wide), one colour
    range per matrix; put back together they are the engine's."""
    at = open_app_page("transformer")
    at.sidebar.radio(key="lang.switch").set_value("ja").run()
    at.text_input(key=state.SENTENCE.key).set_value(EXAMPLES["ja"]).run()
    at.toggle(key=state.DETAIL.key).set_value(True).run()
    tokens = split_sentence(EXAMPLES["ja"]).tokens
    X, W = embeddings(tokens, 4, 0), projections(4, 0)
    head = multi_head(X, W["W_Q"], W["W_K"], W["W_V"], W["W_O"], 2).heads[0]
    for key in ("keys_transposed", "scaled", "weights_softmax"):
        first = chart(at, f"transformer.head0.{key}")
        second = chart(at, f"transformer.head0.{key}.2")
        traces = [first["data"][0], second["data"][0]]
        assert [len(trace["x"]) for trace in traces] == [5, 5], key
        assert traces[0].get("zmin") == traces[1].get("zmin"), key  # one scale for the matrix
        shown = np.hstack([np.asarray(trace["z"], dtype=float) for trace in traces])
        np.testing.assert_allclose(shown, head.step(key).value, rtol=1e-12)
