"""Under predict-then-reveal the database page says no answer before the reveal: not in the
story's notice (step 1's says "the answer is “Mu”"), not in the lessons (which quote the
story's answers); both come back with the answers."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.text.i18n import catalog, t
from tests.conftest import APP


def open_page(lang: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("pages/database.py").run()
    assert not at.exception
    return at


def said(at: AppTest) -> str:
    kinds = (at.markdown, at.info, at.success, at.caption)
    return "\n".join(str(e.value) for kind in kinds for e in kind)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_story_and_the_lessons_keep_the_answer_until_the_reveal(lang):
    words = catalog(lang)
    at = open_page(lang)
    at.session_state["database.lessons"] = True  # the lessons open (built only then)
    at.button(key="database.story.1").click().run()
    notice = words["database.story.step1.notice"]
    assert notice in said(at)  # predict off: the step says what it shows
    at.toggle(key="database.predict").set_value(True).run()
    assert not at.exception
    before = said(at)
    assert notice not in before
    assert t("database.story.after_reveal", lang, step=1) in before
    lesson = words["database.lessons.contents"].split("{")[0]
    assert lesson not in before
    at.button(key="database.predict.reveal").click().run()
    after = said(at)
    assert notice in after and lesson in after
