"""Each built-in lesson taken end to end in AppTest, in English and Japanese: every step opens its
page in its state with no error, and every question answered wrong, then right, shows the
feedback of the option chosen."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.lessons.builtin import IDS, builtin
from attention_ui.kit.share.codec import decode
from attention_ui.kit.text.markdown import escape_markdown
from attention_ui.page_list import SCHEMAS
from tests.conftest import APP

STEP_WORDS = {"en": "Step {n} of {count}", "ja": "ステップ {n} / {count}"}
FEEDBACK = {"en": ("Right.", "Not quite."), "ja": ("正解です。", "惜しいです。")}


def check(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def assert_in_state(at: AppTest, step) -> None:
    """The step's widget settings are the page's now (grids and tables: their own tests)."""
    schema = SCHEMAS[step.page]
    for key, value in decode(schema, step.params).values.items():
        field = next(f for f in schema.fields if f.key == key)
        if field.store == "widget":
            assert at.session_state[key] == value, key


def answer(at: AppTest, option: int) -> None:
    at.radio(
        key=next(r.key for r in at.radio if r.key and r.key.startswith("lessons.answer"))
    ).set_value(option).run()
    at.button(key="lessons.check").click().run()
    check(at)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("lesson_id", IDS)
def test_a_built_in_lesson_taken_end_to_end(lesson_id, lang):
    lesson = builtin(lesson_id, SCHEMAS).lesson
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params.update({"lang": lang, "lesson": lesson_id, "step": "1"})
    at.run()
    for number, step in enumerate(lesson.steps, start=1):
        check(at)
        captions = [c.value for c in at.caption]
        assert STEP_WORDS[lang].format(n=number, count=len(lesson.steps)) in captions
        assert at.query_params["step"] == str(number) and at.query_params["lesson"] == lesson_id
        assert_in_state(at, step)
        at.run()  # the page's next run: still the step's state, not said to be left
        assert at.session_state["lessons.left"] is False
        prompt = escape_markdown(step.prompt.get(lang), 800)
        assert prompt in [m.value for m in at.markdown]
        if step.question is not None and step.question.kind == "choice":
            options = step.question.options
            wrong = next(i for i, o in enumerate(options) if not o.right)
            right = next(i for i, o in enumerate(options) if o.right)
            answer(at, wrong)
            said = escape_markdown(options[wrong].feedback.get(lang), 800)
            assert at.error[0].value == f"{FEEDBACK[lang][1]} {said}"
            answer(at, right)
            said = escape_markdown(options[right].feedback.get(lang), 800)
            assert at.success[0].value == f"{FEEDBACK[lang][0]} {said}"
        if number < len(lesson.steps):
            at.button(key="lessons.next").click().run()
    assert at.button(key="lessons.next").disabled


def test_home_offers_the_built_in_lessons_and_a_click_opens_the_first_step():
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    check(at)
    labels = [b.label for b in at.button if b.key and b.key.startswith("lessons.offer.")]
    assert labels == [builtin(i, SCHEMAS).lesson.title.get("en") for i in IDS]
    at.button(key="lessons.offer.luong").click().run()
    check(at)
    assert "Step 1 of 7" in [c.value for c in at.caption]
    assert dict(at.query_params) == {"lang": "en", "lesson": "luong", "step": "1"}
    assert at.session_state["luong.predict"] is True
