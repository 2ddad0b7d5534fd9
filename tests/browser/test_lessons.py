"""Lessons in Chromium (attention_ui/kit/lessons), on one app process of this module with its own
SQLite class store:

- a teacher writes a two-step lesson on the app's pages (the database page with a question
  whose answers the page hides, then the Luong page), downloads it as a JSON file, and a fresh
  browser opens that file and takes it: each step opens its page in its state, a wrong answer
  shows that option's feedback and the right one its own;
- a class (a teacher, two students) goes through the built-in `lookup` lesson: Next moves the
  students to the step, the step's question is a class vote in two rounds, the reveal shows
  the feedback, and the last step's summary is on screen and downloads as a CSV file with the
  votes counted.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re

import pytest

from attention_ui.kit.lessons.builtin import builtin
from attention_ui.kit.lessons.format import FORMAT
from attention_ui.kit.text.i18n import catalog
from attention_ui.page_list import SCHEMAS
from tests.app_server import start_app, stop_app
from tests.browser.conftest import (
    ARTIFACTS,
    assert_no_exception,
    class_code,
    class_of_three,
    collect_errors,
    new_context,
    open_page,
    pick_option,
    wait_idle,
)

EN = catalog("en")
WAIT_MS = 60_000  # a student's screen follows within the follow target; the machine is shared
VIEWPORT = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def lesson_server(tmp_path_factory):
    """One app process for this module, on a class store of its own (classes started here do
    not count against the shared server's store)."""
    store_file = tmp_path_factory.mktemp("db") / "lessons.db"
    process, url = start_app(env={**os.environ, "ATTENTION_CLASSROOM_DB": str(store_file)})
    yield url
    stop_app(process)


def sidebar(page):
    return page.locator("[data-testid=stSidebar]")


def main(page):
    return page.locator("[data-testid=stMain]")


def open_author_box(page) -> None:
    box = (
        sidebar(page)
        .locator("[data-testid=stExpander]")
        .filter(has_text=EN["lessons.author.title"])
    )
    if not box.get_by_role("button", name=EN["lessons.author.add"]).is_visible():
        box.locator("summary").first.click()
        wait_idle(page)


def author_form(page):
    return sidebar(page).locator("[data-testid=stForm]")


def click(page, where, name: str) -> None:
    where.get_by_role("button", name=name).click()
    wait_idle(page)


def write_question(page) -> None:
    """In the open step editor: a choice question whose first option is wrong and second right,
    each with its feedback, the page's answers hidden until it is answered."""
    form = author_form(page)
    form.get_by_text(EN["lessons.author.kinds.choice"], exact=True).click()
    form.get_by_text(EN["lessons.author.hide"], exact=True).click()
    form.get_by_label(EN["lessons.author.question"], exact=True).fill("Which record wins for Hu?")
    options = (
        ("Lipton", False, "Lipton starts with L: look at its weight, about 0."),
        ("Hu", True, "The key Hu equals the query: its weight is 1."),
    )
    for slot, (text, right, feedback) in enumerate(options):
        form.get_by_label(EN["lessons.author.option"].format(n=slot + 1), exact=True).fill(text)
        if right:
            form.get_by_text(EN["lessons.author.right"]).nth(slot).click()
        label = EN["lessons.author.feedback"].format(n=slot + 1)
        form.get_by_label(label, exact=True).fill(feedback)


def write_the_lesson(page, server: str, path) -> dict:
    """The teacher's two steps, written on the pages; the file downloaded to `path`."""
    open_page(page, server, "database")
    query = main(page).get_by_label(EN["database.query.label"], exact=True)
    query.fill("Hu")
    query.press("Enter")
    wait_idle(page)
    open_author_box(page)
    sidebar(page).get_by_label(EN["lessons.author.lesson_title"], exact=True).fill("Hu's lookup")
    sidebar(page).get_by_label(EN["lessons.author.lesson_title"], exact=True).press("Enter")
    wait_idle(page)
    click(page, sidebar(page), EN["lessons.author.add"])
    form = author_form(page)
    form.get_by_label(EN["lessons.author.prompt"], exact=True).fill("Look up Hu.")
    write_question(page)
    click(page, form, EN["lessons.author.save"])

    sidebar(page).get_by_role("link", name=EN["luong.menu"]).click()
    page.wait_for_url(re.compile(r"/luong"))
    wait_idle(page)
    pick_option(page, EN["luong.score.label"], EN["luong.score_name.general"])
    open_author_box(page)  # kept open across the pages
    click(page, sidebar(page), EN["lessons.author.add"])
    author_form(page).get_by_label(EN["lessons.author.prompt"], exact=True).fill("Now general.")
    click(page, author_form(page), EN["lessons.author.save"])
    with page.expect_download() as download:
        sidebar(page).get_by_role("button", name=EN["lessons.author.download"]).click()
    download.value.save_as(path)
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_teacher_writes_a_lesson_downloads_it_and_a_fresh_browser_takes_it(
    browser, lesson_server, tmp_path
):
    teacher_context = new_context(browser, viewport=VIEWPORT)
    teacher = teacher_context.new_page()
    errors = collect_errors(teacher)
    learner_context = None
    try:
        document = write_the_lesson(teacher, lesson_server, tmp_path / "lesson.json")
        assert document["format"] == FORMAT and document["title"] == {"en": "Hu's lookup"}
        assert [s["page"] for s in document["steps"]] == ["database", "luong"]
        assert document["steps"][0]["state"]["q"] == "Hu"
        assert document["steps"][0]["state"]["predict"] == "1"
        assert document["steps"][1]["state"]["score"] == "general"
        options = document["steps"][0]["question"]["options"]
        assert [o["right"] for o in options] == [False, True]

        learner_context = new_context(browser, viewport=VIEWPORT)  # no cookie, no session
        learner = learner_context.new_page()
        errors += collect_errors(learner)
        open_page(learner, lesson_server)
        open_author_box(learner)
        sidebar(learner).locator("input[type=file]").set_input_files(tmp_path / "lesson.json")
        learner.wait_for_url(re.compile(r"/database\?.*lesson=~"), timeout=WAIT_MS)
        wait_idle(learner)
        bar = main(learner).locator(".st-key-lessons-bar")
        bar.get_by_text(EN["lessons.step_of"].format(n=1, count=2)).wait_for(timeout=WAIT_MS)
        assert "Hu's lookup" in bar.inner_text() and "Look up Hu." in bar.inner_text()
        query = main(learner).get_by_label(EN["database.query.label"], exact=True)
        assert query.input_value() == "Hu"
        assert EN["lessons.hidden"] in bar.inner_text()
        question = bar.get_by_role("radiogroup", name="Which record wins for Hu?")
        for option in options:  # wrong first, then right: each option's own feedback
            question.get_by_text(option["text"]["en"], exact=True).click()
            wait_idle(learner)
            click(learner, bar, EN["lessons.check"])
            verdict = EN["lessons.right" if option["right"] else "lessons.wrong"]
            said = bar.locator("[data-testid=stAlert] [data-testid=stMarkdownContainer]")
            said = said.inner_text()
            assert said.startswith(verdict) and option["feedback"]["en"] in said, said
        click(learner, bar, EN["lessons.next"])
        learner.wait_for_url(re.compile(r"/luong\?.*step=2"), timeout=WAIT_MS)
        wait_idle(learner)
        bar.get_by_text(EN["lessons.step_of"].format(n=2, count=2)).wait_for(timeout=WAIT_MS)
        assert "Now general." in bar.inner_text()
        score = main(learner).get_by_label(EN["luong.score.label"], exact=True)
        assert score.input_value() == EN["luong.score_name.general"]
        assert_no_exception(learner)
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        teacher.screenshot(path=str(ARTIFACTS / "lesson-author.png"), full_page=True)
        if learner_context is not None:
            for number, page in enumerate(learner_context.pages):
                page.screenshot(path=str(ARTIFACTS / f"lesson-learner-{number}.png"))
        raise
    finally:
        teacher_context.close()
        if learner_context is not None:
            learner_context.close()
    assert not errors, errors


# -- a class through the built-in lesson ---------------------------------------------------------

LOOKUP = builtin("lookup", SCHEMAS).lesson
FIRST = LOOKUP.steps[0].question  # its first option is the right one


def start_class(page, server: str) -> str:
    """The teacher starts a class on the database page: its join address."""
    open_page(page, server, "database")
    box = sidebar(page).locator("[data-testid=stExpander]").filter(has_text=EN["classroom.title"])
    if not box.get_by_role("button", name=EN["classroom.start"]).is_visible():
        box.locator("summary").first.click()
    click(page, box, EN["classroom.start"])
    code = class_code(page, timeout=WAIT_MS)
    wait_idle(page)
    return f"{server}/database?class={code}&lang=en"


def bar_says(page, text: str) -> None:
    main(page).locator(".st-key-lessons-bar").get_by_text(text).first.wait_for(timeout=WAIT_MS)


def vote(student, option: int, round_: int) -> None:
    bar_says(student, EN["lessonclass.round"].format(round=round_))
    wait_idle(student)
    answer = main(student).get_by_role("radiogroup", name=EN["lessonclass.your_answer"])
    answer.get_by_text(FIRST.options[option].text.get("en"), exact=True).click()
    wait_idle(student)
    main(student).get_by_role("button", name=EN["classroom.q.send"]).click()
    bar_says(student, EN["classroom.q.sent"].format(round=round_))
    wait_idle(student)  # the vote's run over before the teacher moves on


def test_a_class_takes_a_builtin_lesson_with_a_vote_a_revote_and_the_summary(
    browser, lesson_server, tmp_path
):
    errors: list[str] = []
    with class_of_three(browser, VIEWPORT, "lesson-class") as pages:
        teacher, *students = pages
        for page in pages:
            errors += collect_errors(page)
        address = start_class(teacher, lesson_server)
        for student in students:
            student.goto(address)
            student.get_by_text(EN["classroom.following"]).wait_for(timeout=WAIT_MS)
        box = (
            sidebar(teacher)
            .locator("[data-testid=stExpander]")
            .filter(has_text=EN["lessonclass.box"])
        )
        box.locator("summary").first.click()
        click(teacher, box, EN["lessonclass.open"])  # the first lesson offered: lookup
        step_one = EN["lessons.step_of"].format(n=1, count=len(LOOKUP.steps))
        bar_says(teacher, step_one)
        for student in students:
            bar_says(student, step_one)
            bar_says(student, EN["lessonclass.wait"])
            assert main(student).get_by_role("button", name=EN["lessons.check"]).count() == 0

        click(teacher, main(teacher), EN["lessonclass.ask"])
        vote(students[0], 1, 1)  # a wrong answer (Lipton) in round 1
        vote(students[1], 0, 1)
        said = main(students[0]).inner_text()
        assert EN["lessons.right"] not in said and EN["lessons.wrong"] not in said
        teacher.get_by_text("2 of 2 connected students have answered").wait_for(timeout=WAIT_MS)
        click(teacher, main(teacher), EN["classroom.q.vote_again"])
        for student in students:  # both right after the discussion
            vote(student, 0, 2)
        teacher.get_by_text("2 of 2 connected students have answered").wait_for(timeout=WAIT_MS)
        click(teacher, main(teacher), EN["classroom.q.reveal"])
        right = FIRST.options[0].feedback.get("en")
        for page in (teacher, *students):
            main(page).get_by_text(right[:60]).first.wait_for(timeout=WAIT_MS)
        for student in students:
            bar_says(
                student,
                EN["lessonclass.round_right"].format(round=2, right=2, answered=2, share=100),
            )

        for n in range(2, len(LOOKUP.steps) + 1):  # each click once the last step's run is over
            click(teacher, main(teacher), EN["lessons.next"])
            for page in (teacher, *students):  # the students follow to the last step
                bar_says(page, EN["lessons.step_of"].format(n=n, count=len(LOOKUP.steps)))
            wait_idle(teacher)
        bar_says(teacher, EN["lessonclass.summary"])
        for number, right, share in ((1, 1, 50), (2, 2, 100)):  # each round's line, on screen
            line = EN["lessonclass.round_right"]
            bar_says(teacher, line.format(round=number, right=right, answered=2, share=share))
        table = main(teacher).locator("[data-testid=stDataFrame]")
        table.wait_for(timeout=WAIT_MS)
        with teacher.expect_download() as download:
            main(teacher).get_by_role("button", name=EN["lessonclass.download"]).click()
        rows = list(csv.reader(io.StringIO(download.value.path().read_text(encoding="utf-8"))))
        assert rows[0][:3] == [
            EN["lessonclass.column.step"],
            EN["lessonclass.column.question"],
            EN["lessonclass.column.round"],
        ]
        counts = {(r[2], r[3]): (r[4], r[5], r[6], r[7]) for r in rows[1:]}
        right_text, wrong_text = (FIRST.options[i].text.get("en") for i in (0, 1))
        assert counts[("1", right_text)] == ("yes", "1", "2", "50")
        assert counts[("1", wrong_text)] == ("no", "1", "2", "50")
        assert counts[("2", right_text)] == ("yes", "2", "2", "100")
        assert counts[("2", wrong_text)] == ("no", "0", "2", "100")
        for page in pages:
            assert_no_exception(page)
    assert not errors, errors
