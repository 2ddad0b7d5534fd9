"""While a page hides its answers (predict, then reveal: a lesson's step asks first), its task
panel gives none of them away: the database task's verdict ("Lipton's weight for “Li” is now
0.753") and the Luong tasks' (an output's distance to the mean) wait for the answers, and come
back once they show."""

from __future__ import annotations

import pytest

from attention_ui.kit.text.i18n import catalog
from tests.pages.lessons.test_bar import session
from tests.support.pages import shown


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_database_tasks_verdict_waits_for_the_lessons_answer(lang):
    words = catalog(lang)
    at = session(lang, lesson="lookup", step="3")  # "Li" without its record, letter pairs
    assert at.session_state["database.predict"] is True
    said = shown(at)
    assert "0.753" not in said and "0.75" not in said
    assert words["tasks.database_lipton.progress"].format(weight="0.753") not in said
    assert words["tasks.while_hidden.verdict"] in said
    right = next(b for b in at.radio if b.key and b.key.startswith("lessons.answer"))
    right.set_value(0).run()  # "(Lipton, Zachary)": the step's right answer
    at.button(key="lessons.check").click().run()
    assert not at.exception
    said = shown(at)
    assert words["tasks.database_lipton.progress"].format(weight="0.753") in said
    assert words["tasks.while_hidden.verdict"] not in said


def test_the_luong_tasks_verdict_waits_for_the_reveal():
    words = catalog("en")
    at = session("en", page="luong")
    at.session_state["luong.predict"] = True
    at.run()
    assert words["tasks.while_hidden.verdict"] in shown(at)
    assert "The largest difference between an output" not in shown(at)
    at.session_state["luong.predict"] = False
    at.run()
    assert "The largest difference between an output" in shown(at)
    assert words["tasks.while_hidden.verdict"] not in shown(at)
