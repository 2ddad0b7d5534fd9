"""Opening a lesson file with the "Write a lesson" box's uploader (attention_ui/kit/lessons/
authoring.py): a teacher's file opens at its first step on its page and becomes the draft; a
hostile file (oversized, nested too deeply, from a newer version, half valid) opens what it can
and says in one sentence what it left out or why nothing opened; and a teacher who leads a
class takes their own file with the class: the students follow its steps and vote on its
question."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.classroom import follow
from attention_ui.kit.lessons.authoring import DRAFT
from attention_ui.kit.lessons.format import FILE_LIMIT, FORMAT
from attention_ui.kit.text.i18n import catalog
from tests.pages.lessons.test_bar import session
from tests.support.classroom import button, led_class, param
from tests.support.pages import shown

EN = catalog("en")

QUESTION = {
    "kind": "choice",
    "text": {"en": "Which record wins for Hu?"},
    "options": [
        {"text": {"en": "Lipton"}, "right": False, "feedback": {"en": "Look at Lipton's weight."}},
        {"text": {"en": "Hu"}, "right": True, "feedback": {"en": "The key equals the query."}},
    ],
}


def lesson(*steps: dict, version: int = 1) -> bytes:
    document = {"format": FORMAT, "version": version, "title": {"en": "Mine"}, "steps": steps}
    return json.dumps(document).encode("utf-8")


GOOD = lesson(
    {"page": "database", "state": {"q": "Hu", "predict": "1"}, "prompt": {"en": "Look up Hu."},
     "question": QUESTION},
    {"page": "luong", "state": {"score": "general"}, "prompt": {"en": "Now general."}},
)  # fmt: skip


def upload(at: AppTest, data: bytes) -> AppTest:
    """The "Write a lesson" box opened and `data` picked in its uploader (a click's rerun)."""
    at.session_state["lessons.author"] = True
    at.run()
    uploaders = at.sidebar.get("file_uploader")
    assert len(uploaders) == 1, "the box shows one uploader"
    uploaders[0].upload("lesson.json", data, "application/json")
    at.run()
    at.run()  # the first step's page, opened at the next run's top
    assert not at.exception, [e.value for e in at.exception]
    return at


def bar_step(at: AppTest) -> str:
    return next(c.value for c in at.caption if c.value.startswith("Step"))


def test_a_lesson_file_opens_at_its_first_step_and_becomes_the_draft():
    at = upload(session(), GOOD)
    assert bar_step(at) == "Step 1 of 2" and at.session_state["database.query"] == "Hu"
    assert at.query_params["lesson"].startswith("~") and at.query_params["step"] == "1"
    assert "Look up Hu" in shown(at) and not at.warning
    assert [s["page"] for s in at.session_state[DRAFT]["steps"]] == ["database", "luong"]


NESTED: dict = {"en": "deep"}
for _ in range(20):
    NESTED = {"x": [NESTED]}

HOSTILE = {
    "oversized": (GOOD + b" " * FILE_LIMIT, EN["lessons.problem.too_big"]),
    "nested": (
        lesson({"page": "database", "state": {}, "prompt": NESTED}),
        EN["lessons.problem.too_deep"],
    ),
    "newer version": (
        lesson({"page": "database", "state": {"q": "Hu"}}, version=2),
        EN["lessons.problem.newer_version"],
    ),
    "not a lesson": (b'{"format": "other", "steps": []}', EN["lessons.problem.not_a_lesson"]),
    "no step opens": (
        lesson({"page": "nowhere"}, {"page": "luong", "state": []}),
        EN["lessons.problem.no_steps"],
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", HOSTILE)
def test_a_file_that_opens_nothing_says_why_in_one_sentence(name):
    data, sentence = HOSTILE[name]
    at = upload(session(), data)
    assert [w.value for w in at.warning] == [sentence]
    assert "lesson" not in at.query_params and not any(
        c.value.startswith("Step") for c in at.caption
    )


def test_a_half_valid_file_opens_what_it_can_and_names_the_rest_in_one_sentence():
    bad_question = {**QUESTION, "options": QUESTION["options"][:1]}  # one option: no question
    data = lesson(
        {"page": "database", "state": {"q": "Hu", "tau": "hot", "zzz": "1"},
         "question": bad_question},
        {"page": "nowhere", "state": {}},
        {"page": "luong", "state": {"score": "general"}, "prompt": {"fr": "Bonjour"}},
        "not a step",
    )  # fmt: skip
    at = upload(session(), data)
    assert bar_step(at) == "Step 1 of 2" and at.session_state["database.query"] == "Hu"
    (said,) = [w.value for w in at.warning]
    assert said.startswith("Parts of this lesson could not be opened and were left out: ")
    for part in (
        "the setting “tau” of step 1",
        "the setting “zzz” of step 1",
        "the question of step 1",
        "step 2 (“nowhere” is not a page of the app)",
        "the prompt of step 3",
        "step 4 (it is not a step)",
    ):
        assert part in said, part
    assert said.count(".") == 1 + said.count("\\.") and said.endswith(".")  # one sentence
    at.button(key="lessons.next").click().run()
    at.run()
    assert bar_step(at) == "Step 2 of 2" and at.session_state["luong.score"] == "general"


def test_a_teacher_takes_their_own_lesson_file_with_the_class():
    teacher = session()
    button(teacher, "classroom.start").click().run()
    code, _ = led_class(teacher)
    students = [session(**{"class": code}) for _ in range(2)]
    upload(teacher, GOOD)
    teacher.run()
    assert bar_step(teacher) == "Step 1 of 2"
    for student in students:
        student.run()
        student.run()  # the poll's rerun takes the teacher's page, state and step
        assert not student.exception, [e.value for e in student.exception]
        assert bar_step(student) == "Step 1 of 2" and param(student, "lesson").startswith("~")
        assert student.session_state["database.query"] == "Hu"
        assert "Your teacher will ask this question" in shown(student)
    button(teacher, "lessonclass.ask").click().run()
    number = follow.store.view(follow.engine(), code).status.question_no
    for student, choice in zip(students, (0, 1), strict=True):
        student.run()
        student.radio(key=f"lessonclass.vote.{number}.1").set_value(choice)
        button(student, "lessonclass.send").click().run()
    teacher.run()
    button(teacher, "classroom.reveal").click().run()
    teacher.run()
    assert "Look at Lipton's weight" in shown(teacher)
    assert "The key equals the query" in shown(teacher)
    wrong, right = students
    for student in students:
        student.run()
    assert "Look at Lipton's weight" in shown(wrong), "their own option's feedback"
    assert "The key equals the query" in shown(wrong), "and the right option's"
    assert "The key equals the query" in shown(right)
    assert "Look at Lipton's weight" not in shown(right)
    teacher.button(key="lessons.next").click().run()
    teacher.run()
    for student in students:
        student.run()
        student.run()
        assert bar_step(student) == "Step 2 of 2" and "Now general" in shown(student)
        assert student.session_state["luong.score"] == "general"
