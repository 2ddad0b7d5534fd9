"""A whole class in AppTest on the SQLite default: a teacher and two students.

Start, join by address and by code, follow the teacher's every change, leave by an own edit and
follow again, the class question with the answers hidden, a live count without the right
answer, "discuss, then vote again", the reveal with both rounds, and a reload that keeps the
seat and the vote.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from streamlit.testing.v1 import AppTest

from attention_ui.kit.classroom import follow
from attention_ui.kit.grids.matrix_editor import matrix_values
from tests.conftest import APP
from tests.plotly_json import charts
from tests.support.classroom import button, open_class_box, param, teacher_page
from tests.support.classroom import by_address as student_by_address


def texts(at: AppTest) -> str:
    parts = [*at.markdown, *at.caption, *at.success, *at.info, *at.warning, *at.header]
    parts += [*at.sidebar.markdown, *at.sidebar.caption, *at.sidebar.warning]
    return "\n".join(str(e.value) for e in parts)


def follows(student: AppTest, teacher: AppTest) -> bool:
    keys = ("score", "tau", "preset", "predict", "n", "m")
    return all(param(student, k) == param(teacher, k) for k in keys)


def test_students_join_follow_and_leave_follow_with_their_own_edit():
    teacher, code = teacher_page()
    assert "Class code: **" + code in texts(teacher)
    assert teacher.sidebar.get("image"), "the join address QR code"
    first = student_by_address(**{"class": code})  # the join address opens the home page
    assert not first.exception and first.title[0].value == teacher.title[0].value
    second = open_class_box(AppTest.from_file(str(APP), default_timeout=30).run())
    second.sidebar.text_input(key="classroom.join_code").input(code.lower())
    button(second, "classroom.join").click().run()
    second.run()
    assert follow.SEAT_PARAM in second.query_params and param(second, "class") == code
    for score in ("scaled_dot", "general"):
        teacher.selectbox(key="luong.score").set_value(score).run()
        for student in (first, second):
            student.run()
            assert param(student, "score") == score and follows(student, teacher)
    teacher.run()
    assert "**2** students connected, **2** following" in texts(teacher)

    second.select_slider(key="luong.tau").set_value(5.0).run()  # an own edit ...
    second.run()  # ... is said at the next poll
    assert "no longer follow" in texts(second)
    teacher.selectbox(key="luong.score").set_value("dot").run()
    second.run()
    assert param(second, "score") == "general" and param(second, "tau") == "5"
    teacher.run()
    assert "**2** students connected, **1** following" in texts(teacher)
    button(second, "classroom.follow_again").click().run()
    second.run()
    assert follows(second, teacher) and param(second, "score") == "dot"


def winners_by_hand(at: AppTest) -> list[tuple[int, ...]]:
    """Each query's most-weighted key from the teacher's own Q and K (dot score, column
    layout: the softmax keeps the order of the scores kᵀq)."""
    Q, K = (np.asarray(matrix_values(f"luong.{m}", at.session_state), dtype=float) for m in "QK")
    scores = K.T @ Q
    return [tuple(np.flatnonzero(np.isclose(s, s.max()))) for s in scores.T]


def vote(student: AppTest, number: int, round_: int, answer: list[int]) -> None:
    for part, choice in enumerate(answer):
        student.radio(key=f"classroom.vote.{number}.{round_}.{part}").set_value(choice)
    button(student, "classroom.send").click().run()


def test_a_question_in_two_rounds_then_the_reveal():
    teacher, code = teacher_page()
    first = student_by_address(**{"class": code})
    second = student_by_address(**{"class": code})
    teacher.toggle(key="luong.predict").set_value(True).run()
    for student in (first, second):
        student.run()
    button(teacher, "classroom.ask").click().run()
    assert "Class question, round 1" in texts(teacher)
    view = follow.store.view(follow.engine(), code)
    assert list(view.question.winners) == winners_by_hand(teacher)
    winners = [w[0] for w in view.question.winners]
    wrong = [(w + 1) % len(view.question.options[0]) for w in winners]
    for student in (first, second):
        student.run()
        assert "Class question, round 1" in texts(student)
        assert not charts(student), "answer charts hidden"
    vote(first, 1, 1, wrong)
    vote(second, 1, 1, winners)
    assert "answer for round 1 is in" in texts(first)
    teacher.run()
    shown = texts(teacher)
    assert "**2** of 2 connected students have answered." in shown
    assert "Right:" not in shown, "no right answer before the reveal"

    button(teacher, "classroom.vote_again").click().run()
    for student in (first, second):
        student.run()
        assert "round 2" in texts(student)
    vote(first, 1, 2, winners)  # changed their mind after the discussion
    vote(second, 1, 2, winners)
    button(teacher, "classroom.reveal").click().run()
    shown = texts(teacher)
    assert "Round 1: 1 of 2 students got every query right (50 %)." in shown
    assert "Round 2: 2 of 2 students got every query right (100 %)." in shown
    assert "1 student changed their answer in round 2." in shown
    assert "Share right (Round 1 / Round 2): 50 % / 100 %" in shown
    assert charts(teacher), "the page's answers after the reveal"
    for student in (first, second):
        student.run()
        assert "is right" in texts(student) and charts(student)

    # A reload keeps the seat and the vote; a student who never picked a language is shown
    # the class's, whatever the address says (test_class_language.py).
    reloaded = student_by_address(**{"class": code, "seat": param(first, "seat"), "lang": "ja"})
    assert param(reloaded, "seat") == param(first, "seat") and param(reloaded, "lang") == "en"
    assert "Round 2: 2 of 2 students got every query right" in texts(reloaded)


def test_a_question_revealed_after_one_round_names_that_round_alone():
    teacher, code = teacher_page()
    student = student_by_address(**{"class": code})
    teacher.toggle(key="luong.predict").set_value(True).run()
    student.run()
    button(teacher, "classroom.ask").click().run()
    view = follow.store.view(follow.engine(), code)
    student.run()
    vote(student, 1, 1, [w[0] for w in view.question.winners])
    button(teacher, "classroom.reveal").click().run()
    shown = texts(teacher)
    assert "Share right (Round 1): 100 %" in shown
    assert "Round 1: 1 of 1 student got every query right (100 %)." in shown
    assert "Round 2" not in shown


def test_a_rerun_the_browser_sent_before_the_teachers_change_reached_it_is_not_an_own_edit():
    """A browser's rerun sent before the teacher's state reached it (its poll's timer) brings
    back the widgets' old values and the address from before, whose change count is not the
    one taken: the student keeps following and takes the teacher's state again, however late
    the run comes. From an address that holds the count, a value never shown is an own edit."""
    teacher, code = teacher_page()
    student = student_by_address(**{"class": code})
    teacher.selectbox(key="luong.score").set_value("scaled_dot").run()
    student.run()
    assert param(student, "score") == "scaled_dot"
    before = param(student, follow.REV_PARAM)
    teacher.selectbox(key="luong.score").set_value("general").run()
    student.run()
    taken = param(student, follow.REV_PARAM)
    assert param(student, "score") == "general" and taken != before

    taking = student.session_state["classroom.taken"]  # as if the take were a minute ago
    student.session_state["classroom.taken"] = replace(taking, at=taking.at - 60)
    student.query_params[follow.REV_PARAM] = before  # the browser's address from before
    student.selectbox(key="luong.score").set_value("scaled_dot").run()  # the old value, echoed
    assert "no longer follow" not in texts(student)
    student.run()  # the poll takes the teacher's state again
    assert param(student, "score") == "general" and follows(student, teacher)
    assert param(student, follow.REV_PARAM) == taken

    student.selectbox(key="luong.score").set_value("concat").run()  # sent with the new count
    student.run()
    assert "no longer follow" in texts(student) and param(student, "score") == "concat"
    assert param(student, follow.REV_PARAM) is None, "a student who left has no count"


def test_the_old_value_from_the_new_address_is_taken_over_just_after_a_change_only():
    """Even from an address that holds the count, the state from before can come back just
    after the take (a toggle's old value, on a loaded machine): within follow.RETAKE_WITHIN
    the teacher's state is taken again; after it, the same value is the student's own edit."""
    teacher, code = teacher_page()
    student = student_by_address(**{"class": code})
    for late, score in ((5.0, "general"), (follow.RETAKE_WITHIN + 1, "dot")):
        teacher.selectbox(key="luong.score").set_value("scaled_dot").run()
        student.run()
        teacher.selectbox(key="luong.score").set_value(score).run()
        student.run()
        assert param(student, "score") == score
        taken = student.session_state["classroom.taken"]
        student.session_state["classroom.taken"] = replace(taken, at=taken.at - late)
        student.selectbox(key="luong.score").set_value("scaled_dot").run()  # the old value
        student.run()
        if late < follow.RETAKE_WITHIN:
            assert param(student, "score") == score and follows(student, teacher)
    assert "no longer follow" in texts(student) and param(student, "score") == "scaled_dot"


def test_a_click_that_ended_the_taking_run_early_is_not_what_the_teachers_state_looks_like():
    """A click the browser sent while the teacher's state was still arriving ends the run that
    took it before that run's end (Streamlit stops a run for a newer one), so the first run to
    end after the take is the click's: the widgets' old values, from the address before. That
    is not what the teacher's state looks like (the student would have left at the next run):
    the state is taken again, and the student goes on following."""
    teacher, code = teacher_page()
    student = student_by_address(**{"class": code})
    teacher.selectbox(key="luong.score").set_value("general").run()
    student.run()
    before = param(student, follow.REV_PARAM)
    teacher.selectbox(key="luong.score").set_value("concat").run()
    student.run()  # takes the teacher's state
    student.session_state["classroom.baseline"] = None  # as if that run had not reached its end
    student.query_params[follow.REV_PARAM] = before
    student.selectbox(key="luong.score").set_value("general").run()  # the click's run
    student.run()  # the poll takes the teacher's state again
    assert param(student, "score") == "concat" and follows(student, teacher)
    student.run()
    assert "no longer follow" not in texts(student) and follows(student, teacher)
