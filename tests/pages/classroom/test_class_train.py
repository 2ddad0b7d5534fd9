"""The class question on the training page ("Watch attention learn"): a teacher asks "which
cells light up at the end?" or "which score learns first?", students who follow see the same
run (runs are shared by settings) and answer with the page's hints hidden, two rounds, the
reveal; the answer is the engine's, computed here by hand from the runs. The teacher's side
keeps the question, named by place, after the settings change."""

from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

from attention_core.training import TRAINING_SCORES
from attention_ui.kit.classroom import follow
from attention_ui.kit.text.i18n import catalog
from attention_ui.train import compute, state
from tests.conftest import open_app_page
from tests.support.classroom import button, by_address, led_class, param
from tests.support.train import (
    SETTINGS,
    charts,
    engine_run,
    giveaways,
    keys,
    players,
    press_train,
)

EN, JA = catalog("en"), catalog("ja")


def no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def texts(at: AppTest) -> str:
    parts = [*at.markdown, *at.caption, *at.success, *at.info, *at.warning, *at.header]
    return "\n".join(str(e.value) for e in parts)


def class_on_train(compare: bool = False) -> tuple[AppTest, str]:
    """A teacher who started a class on the training page, trained SETTINGS with "Predict,
    then reveal" on (and every score function, if `compare`)."""
    teacher = open_app_page("train")
    button(teacher, "classroom.start").click().run()
    for key, value in SETTINGS.items():
        teacher.session_state[key] = value
    teacher.toggle(key="train.predict").set_value(True).run()
    press_train(teacher, SETTINGS)
    if compare:
        teacher.button(key=state.COMPARE_BUTTON).click().run()
    no_exception(teacher)
    return teacher, led_class(teacher)[0]


def vote(student: AppTest, number: int, round_: int, answer: list[int]) -> None:
    for part, choice in enumerate(answer):
        student.radio(key=f"classroom.vote.{number}.{round_}.{part}").set_value(choice)
    button(student, "classroom.send").click().run()
    no_exception(student)


def test_which_cells_light_up_asked_in_two_rounds_then_revealed():
    teacher, code = class_on_train()
    button(teacher, "classroom.ask").click().run()
    no_exception(teacher)
    assert "Class question, round 1" in texts(teacher)
    question = follow.store.view(follow.engine(), code).question
    final = engine_run().snapshots[-1].weights[0].mean(axis=0)  # outputs × inputs, heads' mean
    assert question.page == "train"
    assert list(question.winners) == [tuple(np.flatnonzero(row == row.max())) for row in final]
    assert question.options == tuple(tuple(range(final.shape[1])) for _ in final)

    first, second = (by_address(**{"class": code}) for _ in range(2))
    for student in (first, second):
        student.run()
        no_exception(student)
        assert student.main.info[0].value == EN["classroom.q.notice"].format(round=1)
        assert "Class question, round 1" in texts(student)
        assert "train.predict" not in keys(student), "the class question replaces the switch"
        # The answer stays hidden: the weights, the sentences about them, the typed input's
        # steps (the first example by default), the export and the task hints.
        assert not giveaways(student), giveaways(student)
        assert "weight on the right position" not in texts(student)
        assert "train.chart.loss" in charts(student), "the same run's curves are shown"
    winners = [w[0] for w in question.winners]
    wrong = [(w + 1) % len(question.options[0]) for w in winners]
    vote(first, 1, 1, wrong)
    vote(second, 1, 1, winners)
    teacher.run()
    assert "**2** of 2 connected students have answered." in texts(teacher)
    assert "Right:" not in texts(teacher), "no right answer before the reveal"

    button(teacher, "classroom.vote_again").click().run()
    for student in (first, second):
        student.run()
    vote(first, 1, 2, winners)
    vote(second, 1, 2, winners)
    button(teacher, "classroom.reveal").click().run()
    no_exception(teacher)
    shown = texts(teacher)
    assert "Round 1: 1 of 2 students got every query right (50 %)." in shown
    assert "Round 2: 2 of 2 students got every query right (100 %)." in shown
    assert "train.player" in players(teacher)
    first.run()
    no_exception(first)
    assert "is right" in texts(first) and "train.player" in players(first)
    assert "weight on the right position" in texts(first)


def test_which_score_learns_first_asked_and_revealed_to_a_japanese_student():
    teacher, code = class_on_train(compare=True)
    assert {"classroom.ask", "classroom.ask.compare"} <= keys(teacher), "one Ask per puzzle"
    button(teacher, "classroom.ask.compare").click().run()
    no_exception(teacher)
    question = follow.store.view(follow.engine(), code).question
    first = {s: compute.first_step_reaching(engine_run(s), 0.9) for s in TRAINING_SCORES}
    earliest = min(step for step in first.values() if step is not None)
    by_hand = tuple(i for i, s in enumerate(TRAINING_SCORES) if first[s] == earliest)
    assert question.page == "train.compare" and question.winners == (by_hand,)
    assert "classroom.ask.compare" not in keys(teacher), "the question took its place"

    student = by_address(**{"class": code})  # the class's language, English ...
    student.sidebar.radio(key="lang.switch").set_value("ja").run()  # ... until they pick theirs
    no_exception(student)
    assert student.main.info[0].value == JA["classroom.q.notice"].format(round=1)
    assert not any(k.startswith("train.chart.compare") for k in charts(student))
    vote(student, 1, 1, [by_hand[0]])
    button(teacher, "classroom.reveal").click().run()
    student.run()
    no_exception(student)
    chosen = JA[f"engine.value.score.{TRAINING_SCORES[by_hand[0]]}"]
    assert f"{chosen} で正解です" in texts(student)
    assert f"ステップ {earliest} " in texts(student)
    assert "train.chart.compare.accuracy" in charts(student)


def test_the_teacher_keeps_the_question_after_the_settings_change():
    teacher, code = class_on_train()
    button(teacher, "classroom.ask").click().run()
    student = by_address(**{"class": code})
    teacher.selectbox(key="train.task").set_value("lookup").run()  # 5 inputs, 1 output
    no_exception(teacher)
    assert "Class question, round 1" in texts(teacher), "still there, untrained"
    assert any("numbers have changed" in w.value for w in teacher.warning)
    assert "option 6: 0" in texts(teacher), "options named by place"
    student.run()
    no_exception(student)
    assert "Class question, round 1" in texts(student), "the notice's link leads to it"

    press_train(teacher, {**SETTINGS, "train.task": "lookup"})  # another run, another puzzle
    teacher.run()  # and the next poll
    no_exception(teacher)
    assert any("numbers have changed" in w.value for w in teacher.warning)
    assert "option 6: 0" in texts(teacher)
    button(teacher, "classroom.reveal").click().run()
    no_exception(teacher)
    assert "classroom.ask" in keys(teacher), "revealed: the new run may be asked (as on Luong)"


def test_the_hint_names_the_training_page_among_those_that_ask():
    for words in (EN, JA):
        assert words["train.menu"] in words["classroom.ask_hint"]


def test_the_teacher_asks_before_training_and_students_predict_on_step_0():
    """The Ask button is there before Train: the question's answer is the run of the page's
    settings, trained for it; students following see predict mode (in the address) and the
    step-0 cells with no right position framed, never the trained weights."""
    teacher = open_app_page("train")
    button(teacher, "classroom.start").click().run()
    for key, value in SETTINGS.items():
        teacher.session_state[key] = value
    teacher.toggle(key="train.predict").set_value(True).run()
    for _ in range(20):  # the question's run trains in the shared line
        if "classroom.ask" in keys(teacher):
            break
        teacher.run()
    assert "classroom.ask" in keys(teacher), "Ask before training"
    assert "train.player" not in players(teacher), "nothing trained is shown"
    button(teacher, "classroom.ask").click().run()
    no_exception(teacher)
    code = led_class(teacher)[0]  # the teacher's session holds it, their address does not
    assert param(teacher, "class") is None
    question = follow.store.view(follow.engine(), code).question
    final = engine_run().snapshots[-1].weights[0].mean(axis=0)
    assert list(question.winners) == [tuple(np.flatnonzero(row == row.max())) for row in final]
    student = by_address(**{"class": code})
    student.run()
    no_exception(student)
    assert "Class question, round 1" in texts(student)
    start = players(student)["train.player.start"]
    assert start["panels"][0]["rings"] == [] and not giveaways(student)
