"""The address writer keeps every character a learner typed that the reader reads back (the
joiners in 👩‍💻 and می‌خواهم, a soft hyphen, variation selectors), and the page says what it
cannot keep (a right-to-left override, a control character), in a sentence computed from the
characters and shown only then."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from attention_ui.kit.share import codec
from attention_ui.kit.share.codec import PageSchema as Schema
from attention_ui.kit.share.codec import Text, decode, encode
from attention_ui.kit.text.i18n import catalog
from tests.conftest import APP
from tests.plotly_json import charts

TYPED = [
    "👩\u200d💻 codes",  # zero-width joiner
    "می\u200cخواهم",  # zero-width non-joiner (Persian)
    "co\u00adoperate",  # soft hyphen
    "葛\U000e0100城",  # an ideographic variation selector
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # tag characters
    "\u2060word\ufeff",  # word joiner, zero-width no-break space
]
SCHEMA = Schema("t", (Text("text", "t.text"),))


@pytest.mark.parametrize("text", TYPED, ids=repr)
def test_format_characters_a_learner_types_come_back_from_the_address(text):
    params = encode(SCHEMA, {"t.text": text})
    assert decode(SCHEMA, params).values == {"t.text": text}
    assert codec.not_kept(SCHEMA, {"t.text": text}) == []


@pytest.mark.parametrize(
    ("text", "dropped"),
    [("a\u202eb", "\u202e"), ("x\x07y\x07", "\x07\x07"), ("\u2066ab\u2069", "\u2066\u2069")],
)
def test_what_the_reader_drops_is_named(text, dropped):
    assert codec.not_kept(SCHEMA, {"t.text": text}) == [codec.NotKept("text", dropped)]


def test_a_value_the_reader_would_refuse_is_named_as_a_whole():
    schema = Schema("t", (Text("text", "t.text", max_length=3),))
    assert codec.not_kept(schema, {"t.text": "abcd"}) == [codec.NotKept("text", "")]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_any_text_either_comes_back_or_is_said_not_to(text):
    back = decode(SCHEMA, encode(SCHEMA, {"t.text": text})).values["t.text"]
    lost = codec.not_kept(SCHEMA, {"t.text": text})
    assert (back == text) == (lost == [])
    if lost:
        assert "".join(c for c in text if c not in lost[0].dropped) == back


def transformer(params: dict[str, str] | None = None, lang: str = "en") -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.query_params["lang"] = lang
    for name, value in (params or {}).items():
        at.query_params[name] = value
    at.switch_page("pages/transformer.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def screen(at: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in charts(at)]


@pytest.mark.parametrize("sentence", ["👩\u200d💻 writes code", "من می\u200cخواهم بروم"])
def test_a_sentence_with_joiners_reopens_from_its_address_as_it_was(sentence):
    at = transformer()
    at.text_input(key="transformer.sentence").set_value(sentence).run()
    assert not at.exception
    reopened = transformer(dict(at.query_params))
    assert reopened.text_input(key="transformer.sentence").value == sentence
    assert screen(reopened) == screen(at)  # the same tokens, the same seeded X and weights
    assert not at.sidebar.warning and not reopened.sidebar.warning


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_page_says_which_characters_its_address_cannot_carry_and_only_then(lang):
    at = transformer(lang=lang)
    assert not at.sidebar.warning
    at.text_input(key="transformer.sentence").set_value("abc \u202edef").run()
    said = catalog(lang)["share.not_kept_chars"].format(chars="U+202E")
    assert [w.value for w in at.sidebar.warning] == [said]
    at.text_input(key="transformer.sentence").set_value("abc def").run()
    assert not at.sidebar.warning
