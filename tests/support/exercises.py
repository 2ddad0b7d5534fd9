"""Opening the exercises page in AppTest, shared by its page and sentence tests."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from attention_ui.exercises import state
from tests.conftest import APP


def open_exercise(lang: str = "en", section: str = "match") -> AppTest:
    """The page in `lang`, showing one exercise (the page draws one at a time), checked."""
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("pages/exercises.py").run()
    if section != "match":
        at.radio(key=state.SECTION).set_value(section).run()
    assert not at.exception
    return at
