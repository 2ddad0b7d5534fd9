"""A lesson in class (attention_ui/kit/lessons/in_class.py): the teacher opens the built-in
`lookup` lesson from the sidebar, the two following students are moved to its step, its
choice question is a class vote in two rounds with no right answer on a student's screen
before the reveal, the reveal shows each option's feedback, and the summary counts every
answer on screen and in the CSV file."""

from __future__ import annotations

import csv
import io

from streamlit.testing.v1 import AppTest

from attention_ui.kit.classroom import follow
from attention_ui.kit.export.csv_writer import rows_csv
from attention_ui.kit.lessons import in_class
from attention_ui.kit.lessons.builtin import builtin
from attention_ui.kit.text.markdown import escape_markdown
from attention_ui.page_list import SCHEMAS
from tests.conftest import APP
from tests.support.classroom import button, led_class, param
from tests.support.pages import shown

LOOKUP = builtin("lookup", SCHEMAS).lesson
FIRST = LOOKUP.steps[0].question  # options: 0 right, 1 and 2 wrong


def everything(at: AppTest) -> str:
    parts = [*at.markdown, *at.caption, *at.success, *at.info, *at.warning, *at.error]
    parts += [*at.header, *at.radio]
    text = "\n".join(str(getattr(e, "value", "")) for e in parts)
    return text + "\n" + "\n".join("\n".join([*r.options, r.label]) for r in at.radio)


def bar_step(at: AppTest) -> str:
    return next(c.value for c in at.caption if c.value.startswith("Step"))


def vote(student: AppTest, number: int, round_: int, choice: int) -> None:
    student.radio(key=f"lessonclass.vote.{number}.{round_}").set_value(choice)
    button(student, "lessonclass.send").click().run()
    assert not student.exception


def browser(**params: str) -> AppTest:
    """A new browser at the app's root with these address parameters (a loaded machine's
    runs are slow: a generous timeout)."""
    at = AppTest.from_file(str(APP), default_timeout=120)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def class_with_the_lookup_lesson() -> tuple[AppTest, list[AppTest], str]:
    teacher = browser()
    button(teacher, "classroom.start").click().run()
    code, _ = led_class(teacher)
    students = [browser(**{"class": code}) for _ in range(2)]
    teacher.sidebar.selectbox(key="lessonclass.chosen").set_value("lookup")
    button(teacher, "lessonclass.open").click().run()
    teacher.run()
    assert not teacher.exception, [e.value for e in teacher.exception]
    assert bar_step(teacher) == "Step 1 of 8"
    assert param(teacher, "lesson") == "lookup" and param(teacher, "step") == "1"
    for student in students:
        student.run()
        student.run()  # the poll's rerun takes the teacher's page and step
        assert not student.exception, [e.value for e in student.exception]
        assert bar_step(student) == "Step 1 of 8"
        assert student.session_state["database.query"] == "Li"
    return teacher, students, code


def test_next_moves_every_following_student_to_the_step():
    teacher, students, _ = class_with_the_lookup_lesson()
    teacher.button(key="lessons.next").click().run()
    teacher.run()
    assert bar_step(teacher) == "Step 2 of 8"
    for student in students:
        student.run()
        student.run()
        assert bar_step(student) == "Step 2 of 8" and param(student, "step") == "2"
        assert "You changed this step's page" not in shown(student)


def test_the_first_question_voted_twice_revealed_with_feedback_and_summed_up(monkeypatch):
    files: list[str] = []  # the text the summary's download button is given

    def kept(header, rows):
        files.append(rows_csv(header, rows))
        return files[-1]

    monkeypatch.setattr(in_class, "rows_csv", kept)
    teacher, (first, second), code = class_with_the_lookup_lesson()
    right = FIRST.options[0].text.get("en")
    shown_right = escape_markdown(right, 200)  # lesson text is shown as text, escaped
    for student in (first, second):
        assert "Your teacher will ask this question" in everything(student)
        assert not any(b.key == "lessons.check" for b in student.button), "no own check"
    button(teacher, "lessonclass.ask").click().run()
    view = follow.store.view(follow.engine(), code)
    assert view.question.page == "lesson" and view.question.winners == ((0,),)
    number = view.status.question_no
    for student in (first, second):
        student.run()
        said = everything(student)
        assert shown_right in said, "the options are shown"
        assert "Right." not in said and "Not quite." not in said, "no verdict before the reveal"
        assert not student.success and not student.error
    vote(first, number, 1, 1)  # Lipton: wrong
    vote(second, number, 1, 0)
    assert "answer for round 1 is in" in everything(first)
    teacher.run()
    assert "**2** of 2 connected students have answered." in everything(teacher)
    assert "Right:" not in everything(teacher)
    button(teacher, "classroom.vote_again").click().run()
    for student in (first, second):
        student.run()
        assert "Round 2 of the class vote." in everything(student)
    vote(first, number, 2, 0)  # changed their mind after the discussion
    vote(second, number, 2, 0)
    button(teacher, "classroom.reveal").click().run()
    teacher.run()
    said = everything(teacher)
    assert "Share right (Round 1 / Round 2): 50 % / 100 %" in said
    # a lesson's question is one question, not a page's queries
    assert "Round 1: 1 of 2 students answered right (50 %)." in said
    assert "every query" not in said
    for option in FIRST.options:  # every option's feedback, at the reveal
        assert escape_markdown(option.feedback.get("en"), 2000) in said
    assert teacher.session_state["database.predict"] is False, "the page's result shows"
    for student in (first, second):
        student.run()
        student.run()
        said = everything(student)
        assert escape_markdown(FIRST.options[0].feedback.get("en"), 2000) in said
        assert "Round 1: 1 of 2 right (50 %)." in said
        assert "Round 2: 2 of 2 right (100 %)." in said

    teacher.button(key="lessons.next").click().run()
    teacher.run()
    for student in (first, second):  # after a reveal too, Next moves every follower
        student.run()
        student.run()
        assert bar_step(student) == "Step 2 of 8" and param(student, "step") == "2"
    for _ in range(6):  # to the last step, where the summary is
        teacher.button(key="lessons.next").click().run()
    teacher.run()
    assert bar_step(teacher) == "Step 8 of 8"
    table = teacher.dataframe[0].value
    assert len(table) == 2 * len(FIRST.options)  # two rounds, three options
    assert [b.key for b in teacher.get("download_button")] == ["lessonclass.download"]
    rows = list(csv.reader(io.StringIO(files[-1])))
    assert rows[0][:3] == ["Step", "Question", "Round"]
    by_round = {(r[2], r[3]): (r[4], r[5], r[6], r[7]) for r in rows[1:]}
    lipton = FIRST.options[1].text.get("en")
    assert by_round[("1", right)] == ("yes", "1", "2", "50")
    assert by_round[("1", lipton)] == ("no", "1", "2", "50")
    assert by_round[("2", right)] == ("yes", "2", "2", "100")
    assert by_round[("2", lipton)] == ("no", "0", "2", "100")
