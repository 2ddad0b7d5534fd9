"""The lesson file is user input: read like an address (bounded, validated, never evaluated).

Each hostile file below, and what it gets: nothing opened with a code saying why, or the lesson
with the parts left out named (kit/lessons/format.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_ui.kit.lessons import format as lf
from attention_ui.kit.share.codec import pack
from attention_ui.page_list import SCHEMAS


def text(en: str, ja: str | None = None) -> dict:
    return {"en": en, **({"ja": ja} if ja else {})}


def option(right: bool, words: str = "a") -> dict:
    return {"text": text(words), "right": right, "feedback": text(f"because {words}")}


def choice(*options: dict) -> dict:
    return {"kind": "choice", "text": text("Which?"), "options": list(options)}


STATES = {"database": {"q": "Li", "tau": "1"}, "luong": {"score": "general", "tau": "2"}}


def step(page: str = "database", **extra) -> dict:
    return {"page": page, "state": STATES.get(page, {}), "prompt": text("Look."), **extra}


def lesson(*steps: dict, **extra) -> dict:
    return {
        "format": lf.FORMAT,
        "version": 1,
        "title": text("T", "テ"),
        "steps": list(steps),
        **extra,
    }


def read(document) -> lf.Opened:
    data = document if isinstance(document, bytes | str) else json.dumps(document)
    return lf.read_lesson(data, SCHEMAS)


def test_a_valid_lesson_opens_whole_and_writes_back_the_same():
    doc = lesson(step(question=choice(option(True), option(False, "b"))), step("luong"))
    opened = read(doc)
    assert opened.problem is None and opened.left_out == []
    assert read(lf.document(opened.lesson)).lesson == opened.lesson
    assert lf.read_lesson(lf.lesson_json(opened.lesson), SCHEMAS).lesson == opened.lesson


def test_a_step_state_is_kept_as_the_address_writes_it_and_numbers_become_text():
    opened = read(lesson({"page": "database", "state": {"q": "Li", "tau": 10, "topk": 3}}))
    assert opened.lesson.steps[0].params == {"q": "Li", "tau": "10", "topk": "3"}


def test_one_language_is_enough_and_shows_in_the_other():
    opened = read(lesson(step(prompt={"ja": "見て"})))
    assert opened.lesson.steps[0].prompt.get("en") == "見て"


HOSTILE_WHOLE = [
    ("not JSON", b"\x89PNG\r\n\x1a\n", lf.NOT_A_LESSON),
    ("invalid UTF-8", b'{"format": "\xff"}', lf.NOT_A_LESSON),
    ("a JSON list", b"[1, 2]", lf.NOT_A_LESSON),
    ("another app's JSON", json.dumps({"app": "x"}), lf.NOT_A_LESSON),
    ("version as text", json.dumps({**lesson(step()), "version": "1"}), lf.NOT_A_LESSON),
    ("version true", json.dumps({**lesson(step()), "version": True}), lf.NOT_A_LESSON),
    ("a newer version", json.dumps({**lesson(step()), "version": 2}), lf.NEWER_VERSION),
    ("NaN in JSON", '{"format": "attention-explorer-lesson", "version": NaN}', lf.NOT_A_LESSON),
    ("oversized", b" " * (lf.FILE_LIMIT + 1), lf.TOO_BIG),
    ("nested 100 000 deep", b"[" * 100_000, lf.TOO_DEEP),
    ("nested 12 deep", json.dumps(lesson(step(prompt={"en": [[[[[[[["x"]]]]]]]]}))), lf.TOO_DEEP),
    ("steps not a list", json.dumps({**lesson(), "steps": {"1": step()}}), lf.NO_STEPS),
    ("no step a page of the app", json.dumps(lesson(step("admin"), step(""))), lf.NO_STEPS),
]


@pytest.mark.parametrize(
    ("name", "data", "problem"), HOSTILE_WHOLE, ids=[h[0] for h in HOSTILE_WHOLE]
)
def test_a_file_that_is_no_lesson_opens_nothing_and_says_why(name, data, problem):
    opened = read(data)
    assert opened.lesson is None and opened.problem == problem


HALF_VALID = [
    ("an unknown page", lesson(step(), step("admin")), [(2, "step", lf.UNKNOWN_PAGE, "admin")]),
    ("a step that is a string", lesson(step(), "step"), [(2, "step", lf.NOT_A_TABLE, "")]),
    (
        "settings the page refuses",
        lesson({"page": "database", "state": {"q": "Li", "tau": "7", "evil": "x", "sim": ["a"]}}),
        [
            (1, "setting", lf.SETTING, "sim"),
            (1, "setting", lf.SETTING, "tau"),
            (1, "setting", lf.SETTING, "evil"),
        ],
    ),
    (
        "a question with one option",
        lesson(step(question=choice(option(True)))),
        [(1, "question", lf.BAD_QUESTION, "")],
    ),
    (
        "a question with no right option",
        lesson(step(question=choice(option(False), option(False)))),
        [(1, "question", lf.BAD_QUESTION, "")],
    ),
    (
        "an option without feedback",
        lesson(step(question=choice(option(True), {"text": text("b"), "right": False}))),
        [(1, "question", lf.BAD_TEXT, "")],
    ),
    (
        "an unknown question kind",
        lesson(step(question={"kind": "eval"})),
        [(1, "question", lf.BAD_QUESTION, "")],
    ),
    ("a prompt too long", lesson(step(prompt=text("x" * 5000))), [(1, "prompt", lf.TOO_LONG, "")]),
    (
        "a prompt in French only",
        lesson(step(prompt={"fr": "Regardez"})),
        [(1, "prompt", lf.BAD_TEXT, "")],
    ),
    ("a lone surrogate", lesson(step(prompt=text("a\ud800b"))), [(1, "prompt", lf.BAD_TEXT, "")]),
    (
        "a title that is a number",
        {**lesson(step()), "title": 3},
        [(None, "title", lf.BAD_TEXT, "")],
    ),
    ("31 steps", lesson(*[step()] * 31), [(None, "step", lf.TOO_MANY_STEPS, "31")]),
]


@pytest.mark.parametrize(("name", "doc", "left"), HALF_VALID, ids=[h[0] for h in HALF_VALID])
def test_a_half_valid_file_opens_what_it_can_and_names_what_it_left_out(name, doc, left):
    opened = read(doc)
    assert opened.lesson is not None
    assert sorted((i.step or 0, i.part, i.why, i.name) for i in opened.left_out) == sorted(
        (s or 0, p, w, n) for s, p, w, n in left
    )


def test_text_is_kept_as_text_without_controls_or_direction_overrides():
    opened = read(lesson(step(prompt=text("<b>bold</b>\u202e\x00 **x** $y$\nz"))))
    assert opened.lesson.steps[0].prompt.get("en") == "<b>bold</b> **x** $y$ z"


def test_a_step_state_is_checked_by_its_pages_schema_like_an_address():
    crafted = {"page": "luong", "state": {"Q": "1_2~3", "score": "dot", "n": "999"}}
    opened = read(lesson(crafted))
    assert dict(opened.lesson.steps[0].state) == {"score": "dot"}
    assert {i.name for i in opened.left_out} == {"Q", "n"}


def test_the_address_form_round_trips_and_refuses_what_is_not_one():
    opened = read(lesson(step(question=choice(option(True), option(False)))))
    form = lf.address_form(opened.lesson)
    assert form.startswith("~") and len(form) <= lf.ADDRESS_LIMIT
    assert lf.read_address_form(form, SCHEMAS).lesson == opened.lesson
    for crafted in ("lookup", "~!!", "~" + pack("x" * 10), "~AAAA", "~" + "A" * 7000):
        assert lf.read_address_form(crafted, SCHEMAS).lesson is None


def test_a_lesson_too_long_for_the_address_has_no_address_form():
    words = [f"{n * 7919 % 100_003:x}" for n in range(3000)]  # text deflate cannot squeeze
    long = lesson(*[step(prompt=text(" ".join(words[i * 100 : i * 100 + 100]))) for i in range(30)])
    assert lf.address_form(read(long).lesson) is None


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)


@given(st.fixed_dictionaries({"steps": st.lists(JSON, max_size=4)}, optional={"title": JSON}), JSON)
def test_no_document_raises(doc, noise):
    for data in ({**lesson(), **doc}, noise, {**lesson(), "steps": [noise]}):
        opened = lf.read_lesson(data, SCHEMAS)
        assert (opened.lesson is None) == (opened.problem is not None)
