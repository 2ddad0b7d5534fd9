"""The checked tasks on the pages: each panel checks the page's current inputs on every rerun,
says how far off the learner is, gives hints one at a time and a solution on request, and keeps
the session's solved list, in English and Japanese."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.text.i18n import catalog
from tests.support.pages import open_page


def shown(at: AppTest) -> str:
    kinds = (at.markdown, at.success, at.info, at.caption)
    return "\n".join(element.value for kind in kinds for element in kind)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_gallery_task_is_checked_live_and_listed_once_solved(lang):
    text = catalog(lang)
    at = open_page("gallery", lang)
    name = text["tasks.gallery_mean.name"]
    assert text["tasks.gallery_mean.goal"] in shown(at)
    assert text["tasks.solved"] not in "\n".join(s.value for s in at.success)
    at.slider(key="gallery.q1").set_value(0.0)
    at.slider(key="gallery.q2").set_value(0.0).run()
    assert not at.exception
    solved = [s.value for s in at.success if s.value.startswith(text["tasks.solved"])]
    assert solved and text["tasks.gallery_mean.progress"].split("{gap}")[0] in solved[0]
    assert text["tasks.solved_list"].format(tasks=name) in shown(at)


def test_hints_come_one_at_a_time_and_the_solution_on_request():
    text = catalog("en")
    at = open_page("gallery")
    hint1, hint2 = text["tasks.gallery_one_hot.hint1"], text["tasks.gallery_one_hot.hint2"]
    assert hint1 not in shown(at)
    at.button(key="tasks.gallery_one_hot.hint").click().run()
    assert hint1 in shown(at) and hint2 not in shown(at)
    at.button(key="tasks.gallery_one_hot.hint").click().run()
    assert hint2 in shown(at)
    assert not [b for b in at.button if b.key == "tasks.gallery_one_hot.hint"]  # no more hints
    assert text["tasks.gallery_one_hot.solution"] not in shown(at)
    at.toggle(key="tasks.gallery_one_hot.solution").set_value(True).run()
    assert text["tasks.gallery_one_hot.solution"] in shown(at)


def test_the_exercises_gradient_task_is_solved_by_moving_q_far():
    text = catalog("en")
    at = open_page("exercises")
    at.radio(key="exercises.section").set_value("grad").run()
    assert "‖∂o/∂q‖ is now 0.434" in shown(at)
    at.slider(key="exercises.grad.q1").set_value(10.0)
    at.slider(key="exercises.grad.q2").set_value(0.0).run()
    assert any(s.value.startswith(text["tasks.solved"]) for s in at.success)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_database_task_says_why_it_cannot_be_checked_and_is_solved_by_the_story(lang):
    text = catalog(lang)
    at = open_page("database", lang)
    assert text["tasks.reason.needs_no_li"] in shown(at)
    at.button(key="database.story.3").click().run()  # without "Li", letter pairs, τ = 0.1
    assert text["tasks.database_lipton.progress"].format(weight="0.753") in shown(at)
    at.select_slider(key="database.temperature").set_value(0.05).run()
    assert not at.exception
    assert any(s.value.startswith(text["tasks.solved"]) for s in at.success)


def test_luong_tasks_are_on_the_page_and_check_the_grids():
    text = catalog("en")
    at = open_page("luong")
    assert text["tasks.luong_mean.goal"] in shown(at)
    assert text["tasks.reason.needs_general"] in shown(at)  # the first preset uses dot
