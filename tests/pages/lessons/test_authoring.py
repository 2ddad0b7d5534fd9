"""Writing a lesson in the sidebar's "Write a lesson" box (attention_ui/kit/lessons/authoring.py):
a page's view added as a step, its prompt and question written, steps reordered and removed,
the lesson downloaded as a file the reader opens whole, and taken."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from attention_ui.kit.lessons.authoring import DRAFT, _document
from attention_ui.kit.lessons.format import read_lesson
from attention_ui.page_list import SCHEMAS
from tests.conftest import APP
from tests.support.pages import shown


def open_page(page: str) -> AppTest:
    """A fresh session of the app on pages/<page>.py (a long timeout: the machine is shared)."""
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_box(at: AppTest) -> AppTest:
    at.session_state["lessons.author"] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def form_key(at: AppTest) -> str:
    return f"lessons.author.form.{at.session_state['lessons.draft.version']}"


def write_step(at: AppTest, prompt: str, question: str | None = None) -> None:
    key = form_key(at)
    at.text_area(key=f"{key}.prompt").set_value(prompt)
    if question is not None:
        at.radio(key=f"{key}.kind").set_value("choice")
        at.text_input(key=f"{key}.question").set_value(question)
        at.text_input(key=f"{key}.option.0").set_value("Lipton")
        at.checkbox(key=f"{key}.right.0").check()
        at.text_input(key=f"{key}.feedback.0").set_value("Its weight is the largest.")
        at.text_input(key=f"{key}.option.1").set_value("Hu")
        at.text_input(key=f"{key}.feedback.1").set_value("Hu's weight is small.")
        at.checkbox(key=f"{key}.hide").check()
    next(b for b in at.button if b.key is None or b.key.startswith("FormSubmitter")).click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_a_teacher_writes_a_two_page_lesson_and_takes_it():
    at = open_box(open_page("database"))
    at.session_state["database.similarity"] = "ngram"
    at.run()
    at.button(key="lessons.author.add").click().run()
    write_step(at, "Which record wins?", "Which record gets the most weight?")
    at.switch_page("pages/luong.py").run()
    at.button(key="lessons.author.add").click().run()
    write_step(at, "Now the Luong page.")
    draft = at.session_state[DRAFT]
    assert [s["page"] for s in draft["steps"]] == ["database", "luong"]
    first = draft["steps"][0]
    assert first["state"]["sim"] == "ngram" and first["state"]["predict"] == "1"
    assert first["question"]["options"][0] == {
        "text": {"en": "Lipton"},
        "right": True,
        "feedback": {"en": "Its weight is the largest."},
    }
    opened = read_lesson(_document(draft), SCHEMAS)
    assert opened.left_out == [] and len(opened.lesson.steps) == 2
    assert at.get("download_button")  # the lesson as a file
    at.button(key="lessons.author.take").click().run()
    assert not at.exception
    assert "Step 1 of 2" in [c.value for c in at.caption]
    assert at.session_state["database.similarity"] == "ngram"
    assert at.query_params["lesson"].startswith("~") and at.query_params["step"] == "1"
    assert "Which record gets the most weight?" in [r.label for r in at.radio]


def test_steps_move_up_and_down_and_are_removed():
    at = open_box(open_page("database"))
    for query in ("A", "B", "C"):
        at.session_state["database.query"] = query
        at.run()
        at.button(key="lessons.author.add").click().run()
    steps = lambda: [s["state"]["q"] for s in at.session_state[DRAFT]["steps"]]  # noqa: E731
    assert steps() == ["A", "B", "C"]
    at.button(key="lessons.author.up.2").click().run()
    assert steps() == ["A", "C", "B"]
    at.button(key="lessons.author.down.0").click().run()
    assert steps() == ["C", "A", "B"]
    at.button(key="lessons.author.remove.1").click().run()
    assert steps() == ["C", "B"]


def test_a_question_without_a_right_option_is_named_before_download():
    at = open_box(open_page("database"))
    at.button(key="lessons.author.add").click().run()
    key = form_key(at)
    at.radio(key=f"{key}.kind").set_value("choice")
    at.text_input(key=f"{key}.question").set_value("Which?")
    at.text_input(key=f"{key}.option.0").set_value("a")
    at.text_input(key=f"{key}.feedback.0").set_value("no")
    next(b for b in at.button if b.key is None or b.key.startswith("FormSubmitter")).click().run()
    assert "the question of step 1" in shown(at)


def test_the_pages_own_predict_question_turns_its_switch_on():
    at = open_box(open_page("luong"))
    at.button(key="lessons.author.add").click().run()
    key = form_key(at)
    at.radio(key=f"{key}.kind").set_value("page")
    next(b for b in at.button if b.key is None or b.key.startswith("FormSubmitter")).click().run()
    step = at.session_state[DRAFT]["steps"][0]
    assert step["question"] == {"kind": "page"} and step["state"]["predict"] == "1"
    at.button(key="lessons.author.take").click().run()
    assert at.session_state["luong.predict"] is True
    assert "This step's question is the page's own" in shown(at)
