"""What a student and a projecting teacher see: the notice at the top that leads to the class
question, the page's own puzzle controls hidden from students meanwhile, the class's language
in the join address, plural forms, an empty histogram's whole-number axis, and present mode
(the key out of the address, a large join panel)."""

from __future__ import annotations

import json

from attention_ui.kit.classroom import follow
from attention_ui.kit.text.i18n import catalog
from tests.plotly_json import charts as live_charts
from tests.support.classroom import button, by_address, led_class, param, teacher_page

EN, JA = catalog("en"), catalog("ja")


def asked():
    teacher, code = teacher_page()
    student = by_address(**{"class": code})
    teacher.toggle(key="luong.predict").set_value(True).run()
    button(teacher, "classroom.ask").click().run()
    student.run()
    return teacher, student, code


def test_a_student_sees_a_notice_at_the_top_and_not_the_pages_own_puzzle_controls():
    teacher, student, _ = asked()
    notice = student.main.info[0].value  # the page's first notice, above its title
    assert notice == EN["classroom.q.notice"].format(round=1)
    assert "(#class-question)" in notice
    keys = {b.key for b in student.button}
    assert "luong.predict.new" not in keys and "classroom.send" in keys
    assert "luong.predict.new" in {b.key for b in teacher.button}, "the teacher keeps them"
    assert not any(EN["classroom.q.notice"][:20] in i.value for i in teacher.info)


def test_plural_forms_and_an_empty_histograms_axis():
    teacher, _, _ = asked()
    teacher.run()
    shown = "\n".join(str(m.value) for m in [*teacher.markdown, *teacher.sidebar.markdown])
    assert "**1** student connected" in shown and "1 students" not in shown
    assert "**0** of 1 connected student has answered." in shown
    charts = [json.loads(c.proto.spec) for c in live_charts(teacher)]
    histogram = [c for c in charts if c["data"] and c["data"][0]["type"] == "bar"]
    assert histogram, "the live histogram"
    axis = histogram[0]["layout"]["yaxis"]
    assert axis["tickformat"] == "d" and axis["range"] == [0, 1] and axis["dtick"] == 1
    assert JA["predict.missing_one"] != JA["predict.missing"]
    assert "(s)" not in EN["predict.missing"] + EN["predict.missing_one"]


def test_the_join_address_carries_the_class_language():
    teacher, code = teacher_page()
    teacher.sidebar.radio(key="lang.switch").set_value("ja").run()
    address = next(c.value for c in teacher.sidebar.code if f"class={code}" in c.value)
    assert "lang=ja" in address
    student = by_address(**{"class": code, "lang": "ja"})
    assert param(student, "lang") == "ja" and param(student, "seat")


def test_present_mode_keeps_the_key_out_of_the_address_and_shows_a_large_join_panel():
    teacher, code = teacher_page()
    key = led_class(teacher)[1]
    teacher.sidebar.toggle(key=follow.PRESENT).set_value(True).run()
    assert param(teacher, "teacher") is None and param(teacher, "class") is None
    assert key not in str(dict(teacher.query_params))
    assert f"# {code}" in [m.value for m in teacher.main.markdown]
    assert any(f"class={code}" in c.value for c in teacher.main.code), "the join address"
    assert teacher.main.get("imgs") or teacher.main.get("image"), "the QR code"
    assert any(key in c.value for c in teacher.sidebar.code), "behind the teacher's button"
    teacher.sidebar.toggle(key=follow.PRESENT).set_value(False).run()
    assert key not in str(dict(teacher.query_params)), "nor out of present mode"


def test_task_hints_and_solutions_are_hidden_from_students_while_a_question_is_open():
    teacher, student, _ = asked()

    def task_controls(at) -> set[str]:
        keys = {w.key for w in [*at.button, *at.toggle]}
        return {k for k in keys if str(k).startswith("tasks.")}

    assert task_controls(teacher), "the teacher's page keeps its tasks' hints"
    assert not task_controls(student)
    assert any(EN["classroom.q.tasks_hidden"] == c.value for c in student.caption)
    button(teacher, "classroom.reveal").click().run()
    student.run()
    assert task_controls(student), "back after the reveal"
