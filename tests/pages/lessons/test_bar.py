"""The lesson bar on every page: the address's lesson and step, the step's state set on its
page, Back and Next, a question checked before the page shows its answer, leaving the step
said and undone (attention_ui/kit/lessons/bar.py)."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from attention_ui.kit.lessons.format import address_form, read_lesson
from attention_ui.kit.share.codec import pack
from attention_ui.page_list import SCHEMAS
from tests.conftest import APP
from tests.support.pages import shown


def session(lang: str = "en", page: str | None = None, **params: str) -> AppTest:
    """A fresh session opened at the address `params` (the app's root unless `page`)."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = lang
    for name, value in params.items():
        at.query_params[name] = value
    if page is not None:
        at.switch_page(f"pages/{page}.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def bar_caption(at: AppTest) -> str:
    return next(c.value for c in at.caption if c.value.startswith(("Step", "ステップ")))


def test_the_address_opens_a_built_in_lesson_at_its_step_from_the_root():
    at = session(lesson="lookup", step="3")
    assert bar_caption(at) == "Step 3 of 8"
    assert at.session_state["database.similarity"] == "ngram"
    assert dict(at.query_params) == {"lang": "en", "lesson": "lookup", "step": "3"}
    at.run()  # the page's next run: still the step's state, not said to be left
    assert "You changed this step's page" not in shown(at)


def test_a_reload_of_the_address_keeps_the_place():
    first = session(lesson="lookup", step="2")
    first.button(key="lessons.next").click().run()
    address = dict(first.query_params)
    assert address["step"] == "3"
    again = session(page="database", **{k: v for k, v in address.items() if k != "lang"})
    assert bar_caption(again) == "Step 3 of 8"
    assert again.session_state["database.similarity"] == "ngram"


def test_next_and_back_set_each_steps_state():
    at = session(page="database", lesson="lookup", step="4")
    assert at.session_state["database.temperature"] == 0.1
    at.button(key="lessons.next").click().run()
    assert bar_caption(at) == "Step 5 of 8" and at.session_state["database.temperature"] == 10.0
    at.button(key="lessons.back").click().run()
    assert bar_caption(at) == "Step 4 of 8" and at.session_state["database.temperature"] == 0.1
    assert at.query_params["step"] == "4"


def test_the_answer_is_asked_first_then_checked_with_its_options_feedback():
    at = session(page="database", lesson="lookup", step="3")
    assert at.session_state["database.predict"] is True  # the page hides its answers
    assert "stay hidden until you check" in shown(at)
    at.radio[0].set_value(1).run()
    at.button(key="lessons.check").click().run()
    assert at.error[0].value.startswith("Not quite. Attention does not pick one record")
    assert at.session_state["database.predict"] is False  # the page shows its answers now
    at.radio[0].set_value(0).run()
    at.button(key="lessons.check").click().run()
    assert at.success[0].value.startswith("Right. As d2l says")  # the verdict once
    assert "You changed this step's page" not in shown(at)


def test_leaving_the_steps_state_is_said_and_back_to_the_step_restores_it():
    at = session(page="database", lesson="lookup", step="4")
    at.session_state["database.temperature"] = 2.0
    at.run()
    assert "You changed this step's page" in shown(at)
    assert at.query_params["step"] == "4"  # the address keeps the place
    at.button(key="lessons.back_to_step").click().run()
    assert at.session_state["database.temperature"] == 0.1
    assert "You changed this step's page" not in shown(at)


def test_an_unknown_lesson_or_step_gets_a_sentence():
    at = session(lesson="nope", step="1")
    assert "There is no built-in lesson “nope”" in shown(at)
    at = session(lesson="lookup", step="99")
    assert "This lesson has 8 steps, so there is no step 99" in shown(at)
    assert bar_caption(at) == "Step 1 of 8"


def test_a_teachers_lesson_in_the_address_goes_from_page_to_page():
    document = {
        "format": "attention-explorer-lesson",
        "version": 1,
        "title": {"en": "Two pages"},
        "steps": [
            {"page": "database", "state": {"q": "Hu"}, "prompt": {"en": "First."}},
            {"page": "luong", "state": {"score": "general"}, "prompt": {"en": "Second."}},
            {"page": "nowhere", "state": {}},
        ],
    }
    opened = read_lesson(json.dumps(document), SCHEMAS)
    at = session(lesson=address_form(opened.lesson), step="1")
    assert bar_caption(at) == "Step 1 of 2" and at.session_state["database.query"] == "Hu"
    at.button(key="lessons.next").click().run()
    assert not at.exception
    assert bar_caption(at) == "Step 2 of 2" and at.session_state["luong.score"] == "general"
    assert at.query_params["step"] == "2"


def test_a_lesson_address_left_out_part_is_named_in_one_sentence():
    document = {
        "format": "attention-explorer-lesson",
        "version": 1,
        "steps": [{"page": "database", "state": {"q": "Hu", "tau": "7"}}, {"page": "x"}],
    }
    at = session(lesson="~" + pack(document), step="1")  # a crafted address, not one we wrote
    warning = at.warning[0].value
    assert warning.startswith("Parts of this lesson could not be opened and were left out")
    assert "the setting “tau” of step 1" in warning and "step 2 (“x” is not a page" in warning


def test_the_bar_speaks_japanese():
    at = session("ja", lesson="lookup", step="2")
    assert bar_caption(at) == "ステップ 2 / 8"
    assert at.button(key="lessons.next").label == "次へ"


def test_closing_the_lesson_removes_the_bar_and_its_address():
    at = session(page="database", lesson="lookup", step="2")
    at.button(key="lessons.close").click().run()
    assert not [c for c in at.caption if c.value.startswith("Step")]
    assert "lesson" not in at.query_params
