"""The class question's options after the teacher changed the numbers, and record names as
options: the stored options are named safely, and a name is shown as text, never run."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import open_app_page
from tests.support.classroom import button, by_address, led_class
from tests.support.grids import table_edit

IMAGE_NAME = "![t](http://127.0.0.1:9/px.png)"


def ask_on(page: str) -> tuple[AppTest, str]:
    teacher = open_app_page(page)
    button(teacher, "classroom.start").click().run()
    teacher.toggle(key=f"{page}.predict").set_value(True).run()
    button(teacher, "classroom.ask").click().run()
    assert not teacher.exception
    return teacher, led_class(teacher)[0]


def test_the_teacher_sees_the_question_after_m_shrinks():
    teacher, _ = ask_on("luong")
    teacher.number_input(key="luong.size.m").set_value(2).run()
    teacher.run()  # and at the next poll
    assert not teacher.exception, teacher.exception
    shown = "\n".join(str(c.value) for c in teacher.caption)
    assert "option 3: 0" in shown, "the option that no longer exists is named by place"
    assert any("numbers have changed" in w.value for w in teacher.warning)


def test_the_teacher_sees_the_question_after_records_are_deleted():
    teacher, _ = ask_on("database")
    table_edit(teacher, "database.records", deleted=[0, 1, 2])
    teacher.run()
    teacher.run()
    assert not teacher.exception, teacher.exception
    assert any("numbers have changed" in w.value for w in teacher.warning)


def test_a_record_name_is_an_inert_option_for_students():
    teacher = open_app_page("database")
    table_edit(teacher, "database.records", edited={0: {"key": IMAGE_NAME}})
    teacher.run()
    button(teacher, "classroom.start").click().run()
    teacher.toggle(key="database.predict").set_value(True).run()
    button(teacher, "classroom.ask").click().run()
    student = by_address(**{"class": led_class(teacher)[0]})
    assert not student.exception
    radios = [r for r in student.radio if str(r.key).startswith("classroom.vote.")]
    assert radios, "the class question is drawn"
    shown = [str(option) for r in radios for option in r.options]
    first = next(option for option in shown if "px" in option)
    assert "![" not in first and "](" not in first, first
    assert "\\!\\[t\\]\\(http" in first
