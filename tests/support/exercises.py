"""Opening the exercises page in AppTest, shared by its page and sentence tests."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from attention_ui.exercises import state
from tests.support.pages import open_page


def open_exercise(lang: str = "en", section: str = "match") -> AppTest:
    """The page in `lang`, showing one exercise (the page draws one at a time), checked."""
    at = open_page("exercises", lang)
    if section != "match":
        at.radio(key=state.SECTION.key).set_value(section).run()
    assert not at.exception
    return at
