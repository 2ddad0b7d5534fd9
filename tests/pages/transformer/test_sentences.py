"""The self-attention page says what the engine computed and what Vaswani et al. say, in the
page's own indices; Japanese is split into words by janome."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import multi_head
from attention_core.multi_head import positional_encoding
from attention_ui.kit.text.i18n import LANGUAGES, catalog, t
from attention_ui.transformer import model, state
from attention_ui.transformer.model import EXAMPLES, embeddings, projections, split_sentence
from attention_ui.transformer.view import (
    POSITION_FORMULA,
    concat_parts,
    identity_sentence,
    repeated_word_note,
)
from tests.conftest import APP, open_app_page

EN, JA = catalog("en"), catalog("ja")
TOKENS = EXAMPLES["en"].split()
REQUIREMENTS = Path(__file__).parents[3] / "requirements.txt"


def run(d: int = 4, heads: int = 2, **options):
    X, W = embeddings(TOKENS, d, 0), projections(d, 0)
    return X, multi_head(X, W["W_Q"], W["W_K"], W["W_V"], W["W_O"], heads, **options)


# --- 22: the positional encodings with the grid's own indices ---------------------------------


@pytest.mark.parametrize("d", [2, 4, 5, 8])
def test_the_position_formula_read_with_the_grids_labels_gives_the_engines_table(d):
    # column 2c + 1 (as the grid labels it, from 1) is a sine, column 2c + 2 a cosine
    assert r"p_{i,\,2c+1} = \sin" in POSITION_FORMULA
    assert r"p_{i,\,2c+2} = \cos" in POSITION_FORMULA
    table = positional_encoding(6, d)
    for i in range(1, 7):
        for column in range(1, d + 1):
            c = (column - 1) // 2
            function = math.sin if column % 2 == 1 else math.cos
            assert table[i - 1, column - 1] == pytest.approx(
                function((i - 1) / 10000 ** (2 * c / d))
            )
    _, mh = run(positions=True)
    assert "p_{i,2c+1} = \\sin" in mh.step("positions_added").latex


# --- 23: under the causal mask the positions are not what makes the rows differ ---------------


def test_positions_under_the_mask_are_not_credited_with_the_difference():
    X, mh = run(positions=True, causal=True)
    for lang in LANGUAGES:
        note = repeated_word_note(mh, TOKENS, X, lang)
        assert note == t(
            "transformer.repeat.positions_masked", lang, token="the", first=1, second=5
        )
    assert "X + P" in EN["transformer.repeat.positions"]
    X, mh = run(positions=True)
    assert repeated_word_note(mh, TOKENS, X, "en") == t(
        "transformer.repeat.positions", "en", token="the", first=1, second=5
    )


# --- 24: the call the identity check makes; every token attends to every token ----------------


@pytest.mark.parametrize(("positions", "causal"), [(False, False), (True, False), (True, True)])
def test_the_identity_sentence_quotes_the_call_that_was_checked(positions, causal):
    identity = np.eye(4)
    X = embeddings(TOKENS, 4, 0)
    mh = multi_head(
        X, identity, identity, identity, identity, 1, positions=positions, causal=causal
    )
    for lang in LANGUAGES:
        text = identity_sentence(mh, lang)
        assert ("X + P" in text) == positions
        assert ("mask=causal_mask(6)" in text) == causal
        assert "attention(X, X, X" in text or positions


def test_the_intro_says_every_token_attends_to_itself_too():
    assert "every other token" not in EN["transformer.intro"]
    assert (
        "itself included" in EN["transformer.intro"] and "自分自身を含む" in JA["transformer.intro"]
    )


# --- 25: random (seeded) weights, not trained ------------------------------------------------


def test_the_heads_are_said_to_come_from_random_not_trained_weights():
    at = open_app_page("transformer")
    assert not at.exception
    captions = " ".join(c.value for c in at.caption)
    assert t("transformer.heads_grid.random", "en", seed=0) in captions
    assert "not trained" in EN["transformer.heads_grid.random"]
    assert "clearly learn to perform different tasks" in EN["transformer.heads_grid.random"]


# --- 30: one head, concat at h = 2, step numbers, exact zeros ---------------------------------


def test_one_head_is_not_called_head_s_and_concat_names_each_head():
    assert not [key for key, text in EN.items() if "(s)" in text and key.startswith("transformer")]
    assert r"\ldots" not in concat_parts(2) and concat_parts(2).count(r"\mathbf{O}") == 2
    at = open_app_page("transformer")
    at.button(key=state.IDENTITY).click().run()
    assert EN["transformer.heads_grid.title_one"] in [h.value for h in at.header]
    output_latex = [x.value for x in at.latex if "concat" in x.value and "W}_O" in x.value]
    assert output_latex and all(r"\ldots, \mathbf{O}_{1}" not in x for x in output_latex)


def test_step_numbers_count_on_after_the_one_head_detail():
    at = open_app_page("transformer")
    at.toggle(key=state.DETAIL.key).set_value(True).run()
    assert not at.exception
    numbers = [
        int(m.group(1))
        for m in (re.match(r"\*\*(\d+)\. ", md.value) for md in at.markdown)
        if m is not None
    ]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > 8


def test_a_projection_that_is_zero_in_the_typed_decimals_is_exactly_zero():
    X, W = embeddings(TOKENS, 3, 0), projections(3, 0)
    float_product = X @ W["W_K"]
    tiny = (float_product != 0) & (np.abs(float_product) < 1e-12)
    assert tiny.any()  # a float matmul leaves a residue here
    mh = multi_head(X, W["W_Q"], W["W_K"], W["W_V"], W["W_O"], 1)
    assert (mh.step("keys_from_x").value[tiny] == 0).all()
    np.testing.assert_allclose(mh.step("keys_from_x").value, float_product, atol=1e-15)


# --- 31: the Japanese page opens in Japanese and splits Japanese into words --------------------


def test_the_japanese_page_opens_with_a_japanese_sentence_split_into_words():
    page = AppTest.from_file(str(APP), default_timeout=30)
    page.session_state["lang"] = "ja"
    page.run()
    page.switch_page("pages/transformer.py").run()
    assert not page.exception
    assert page.text_input(key=state.SENTENCE.key).value == EXAMPLES["ja"]
    words = split_sentence(EXAMPLES["ja"])
    assert words.split == "words" and words.ok and "マット" in words.tokens
    said = JA["transformer.sentence.split_words"].split("{")[0]
    assert any(c.value.startswith(said) for c in page.caption)


def test_a_normal_japanese_sentence_fits_and_janome_is_pinned():
    sentence = split_sentence("吾輩は猫である。名前はまだ無い。")
    assert sentence.ok and len(sentence.tokens) == 11
    assert re.search(r"^janome==\d+\.\d+\.\d+$", REQUIREMENTS.read_text(), re.MULTILINE)


def test_janome_reads_at_most_the_sentence_limit(monkeypatch):
    seen = []
    original = model.japanese_words
    monkeypatch.setattr(
        model, "japanese_words", lambda text: seen.append(len(text)) or original(text)
    )
    result = split_sentence("猫と" * 5000)
    assert seen == [model.MAX_SENTENCE_LENGTH]
    assert [p.code for p in result.problems][:1] == ["too_many"]
