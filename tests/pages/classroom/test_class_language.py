"""Students get the class's language unless they switch it (issue 35): by whatever route they
join (the join address, the code typed into the Class box, a reload of their seat), and when
the teacher switches language; a student's own pick is kept (a reload too) and is not an own
edit: they go on following the teacher's page."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import APP
from tests.support.classroom import button, by_address, open_class_box, param, teacher_page

OTHER = {"en": "ja", "ja": "en"}


def language(at: AppTest) -> str:
    """The language the student's screen is in: the switch, the address and the session."""
    shown = at.sidebar.radio(key="lang.switch").value
    assert param(at, "lang") == shown == at.session_state["lang"]
    return shown


def class_in(lang: str) -> tuple[AppTest, str]:
    teacher, code = teacher_page()
    if lang != "en":
        teacher.sidebar.radio(key="lang.switch").set_value(lang).run()
    assert language(teacher) == lang
    return teacher, code


def typed(code: str, browser: str) -> AppTest:
    """A student whose browser asks for `browser`, who types the code into the Class box."""
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.context["locale"] = {"en": "en-US", "ja": "ja-JP"}[browser]
    at.run()
    assert language(at) == browser
    open_class_box(at).sidebar.text_input(key="classroom.join_code").input(code)
    button(at, "classroom.join").click().run()
    at.run()
    assert param(at, "class") == code and param(at, "seat")
    return at


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_student_who_types_the_code_gets_the_class_language(lang):
    _, code = class_in(lang)
    student = typed(code, browser=OTHER[lang])
    assert language(student) == lang
    assert not student.exception


def test_a_join_address_without_lang_gets_the_class_language():
    _, code = class_in("ja")
    student = by_address(**{"class": code})
    assert language(student) == "ja"


def test_students_who_did_not_pick_follow_the_teachers_language_and_a_pick_is_kept():
    teacher, code = class_in("en")
    by_link = by_address(**{"class": code, "lang": "en"})
    by_code = typed(code, browser="ja")
    picker = typed(code, browser="en")
    picker.sidebar.radio(key="lang.switch").set_value("ja").run()  # the student's own pick
    picker.run()
    assert language(picker) == "ja"
    assert "no longer follow" not in str([*picker.sidebar.info, *picker.sidebar.caption])

    teacher.sidebar.radio(key="lang.switch").set_value("ja").run()
    for student in (by_link, by_code, picker):
        student.run()  # the poll sees the class's language ...
        student.run()  # ... and the page is drawn in it
        assert language(student) == "ja"
    teacher.sidebar.radio(key="lang.switch").set_value("en").run()
    for student in (by_link, by_code, picker):
        student.run()
        student.run()
    assert language(by_link) == language(by_code) == "en"
    assert language(picker) == "ja", "the student's own pick is kept"

    # The pick was not an own edit: the picker still follows the teacher's page.
    teacher.selectbox(key="luong.score").set_value("general").run()
    for student in (by_link, by_code, picker):
        student.run()
        assert param(student, "score") == "general"
        assert student.session_state["classroom.member"].following

    # A reload of the picker's seat (a new session, the address it had) keeps the pick.
    reloaded = by_address(**{"class": code, "seat": param(picker, "seat"), "lang": "ja"})
    reloaded.run()
    assert language(reloaded) == "ja"
    # ... and a reload of a student who did not pick takes the class's language.
    again = by_address(**{"class": code, "seat": param(by_code, "seat"), "lang": "ja"})
    again.run()
    assert language(again) == "en"


def test_a_student_who_picks_the_class_language_again_follows_it_again():
    teacher, code = class_in("en")
    student = typed(code, browser="en")
    student.sidebar.radio(key="lang.switch").set_value("ja").run()
    student.sidebar.radio(key="lang.switch").set_value("en").run()  # back to the class's
    teacher.sidebar.radio(key="lang.switch").set_value("ja").run()
    student.run()
    student.run()
    assert language(student) == "ja"
