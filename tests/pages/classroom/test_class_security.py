"""Nobody where they don't belong, through the app's own doors (AppTest, SQLite default)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from attention_ui.kit.classroom import follow, store
from attention_ui.kit.classroom.follow import engine
from attention_ui.train import state as train_state
from tests.conftest import APP, open_app_page
from tests.support.classroom import by_address, led_class, open_class_box, param
from tests.support.train import SETTINGS

TEACHER_WIDGETS = {
    "classroom.ask",
    "classroom.ask.compare",  # the training page's second puzzle
    "classroom.vote_again",
    "classroom.reveal",
    "classroom.close",
    "classroom.end",
}


def everything_shown(at: AppTest) -> str:
    elements = [*at.markdown, *at.caption, *at.code, *at.warning, *at.info, *at.success]
    elements += [*at.sidebar.markdown, *at.sidebar.caption, *at.sidebar.code]
    elements += [*at.sidebar.warning, *at.sidebar.info]
    return "\n".join(str(e.value) for e in elements)


def start_class() -> tuple[AppTest, str, str]:
    teacher = open_class_box(open_app_page("luong"))
    next(b for b in teacher.sidebar.button if b.key == "classroom.start").click().run()
    teacher.toggle(key="luong.predict").set_value(True).run()
    next(b for b in teacher.button if b.key == "classroom.ask").click().run()
    return teacher, *led_class(teacher)


def test_a_student_has_no_teacher_control_and_never_sees_the_key():
    _, code, key = start_class()
    student = by_address(**{"class": code})
    student.run()
    keys = {w.key for w in [*student.button, *student.sidebar.button]}
    assert not keys & TEACHER_WIDGETS
    assert "classroom.send" in keys  # the student answers instead
    assert key not in everything_shown(student) and key not in str(dict(student.query_params))
    # The student's seat in the teacher's place of the address does not make a teacher.
    crafted = by_address(**{"class": code, "teacher": param(student, "seat")})
    assert param(crafted, "teacher") is None
    assert not {w.key for w in [*crafted.button, *crafted.sidebar.button]} & TEACHER_WIDGETS
    assert "No class has this code" in everything_shown(crafted)


def test_a_student_on_the_training_page_has_no_teacher_control():
    """The training page has two puzzles, each with its own Ask button for the teacher; a
    student following the teacher there gets neither, nor any other teacher control."""
    teacher = open_class_box(open_app_page("train"))
    next(b for b in teacher.sidebar.button if b.key == "classroom.start").click().run()
    for key, value in SETTINGS.items():
        teacher.session_state[key] = value
    teacher.toggle(key="train.predict").set_value(True).run()
    teacher.button(key=train_state.TRAIN_BUTTON).click().run()
    teacher.button(key=train_state.COMPARE_BUTTON).click().run()
    assert {"classroom.ask", "classroom.ask.compare"} <= {b.key for b in teacher.button}
    student = by_address(**{"class": led_class(teacher)[0]})
    assert student.button(key=train_state.COMPARE_BUTTON), "the student follows the teacher"
    assert not {w.key for w in [*student.button, *student.sidebar.button]} & TEACHER_WIDGETS
    next(b for b in teacher.button if b.key == "classroom.ask.compare").click().run()
    student.run()
    keys = {w.key for w in [*student.button, *student.sidebar.button]}
    assert not keys & TEACHER_WIDGETS and "classroom.send" in keys


def test_a_wrong_teacher_key_in_the_address_is_refused():
    _, code, key = start_class()
    wrong = key[:-1] + ("A" if key[-1] != "A" else "B")
    at = by_address(**{"class": code, "teacher": wrong})
    assert "No class has this code" in everything_shown(at)
    assert param(at, "class") is None and param(at, "teacher") is None
    assert not {w.key for w in [*at.button, *at.sidebar.button]} & TEACHER_WIDGETS


def test_wrong_codes_in_the_join_box_are_rate_limited():
    _, code, _ = start_class()
    at = open_class_box(AppTest.from_file(str(APP), default_timeout=30).run())
    guesses = ("ACDEFG", "HJKMNP", "QRTUVW", "XY3467", "9ACDEF")
    for number in range(store.MAX_FAILURES):
        at.sidebar.text_input(key="classroom.join_code").input(guesses[number % 5])
        next(b for b in at.sidebar.button if b.key == "classroom.join").click().run()
    assert "No class has this code" in everything_shown(at)
    at.sidebar.text_input(key="classroom.join_code").input(code)
    next(b for b in at.sidebar.button if b.key == "classroom.join").click().run()
    assert "Too many wrong class codes" in everything_shown(at)
    assert param(at, "class") is None


def test_a_seat_of_one_class_cannot_sit_in_another():
    _, first_code, _ = start_class()
    _, other_code, _ = start_class()
    student = by_address(**{"class": first_code})
    seat = param(student, "seat")
    crafted = by_address(**{"class": other_code, "seat": seat})
    assert param(crafted, "class") is None
    assert other_code not in everything_shown(crafted)
    view = store.view(engine(), other_code)
    assert store.answers(engine(), other_code, view.question, 1) == {1: {}, 2: {}}


def limit_this_machine() -> None:
    """AppTest's browsers are all "local": as behind one NAT."""
    store.fail(engine(), *["local"] * store.MAX_FAILURES)
    assert store.limited(engine(), "local")


def test_a_limited_connection_keeps_the_teacher_and_the_address():
    _, code, key = start_class()
    student = by_address(**{"class": code})
    seat = param(student, "seat")
    limit_this_machine()
    reloaded = by_address(**{"class": code, "teacher": key})
    assert led_class(reloaded) == (code, key)
    assert param(reloaded, "teacher") is None, "the key leaves the address once taken"
    assert {b.key for b in [*reloaded.button, *reloaded.sidebar.button]} & TEACHER_WIDGETS
    seated = by_address(**{"class": code, "seat": seat})
    assert param(seated, "seat") == seat
    newcomer = by_address(**{"class": code})
    assert "Too many wrong class codes" in everything_shown(newcomer)
    assert param(newcomer, "class") == code, "the join address stays, to try again later"


def test_one_session_cannot_take_seat_after_seat():
    _, code, _ = start_class()
    at = open_class_box(AppTest.from_file(str(APP), default_timeout=30).run())
    seats = []
    for _ in range(5):
        at.sidebar.text_input(key="classroom.join_code").input(code)
        next(b for b in at.sidebar.button if b.key == "classroom.join").click().run()
        if param(at, "seat"):
            seats.append(param(at, "seat"))
            next(b for b in at.sidebar.button if b.key == "classroom.leave").click().run()
            open_class_box(at)
    assert len(seats) == follow.SESSION_JOINS
    assert "Too many students have joined" in everything_shown(at)
    assert store.seat_count(engine(), code) == follow.SESSION_JOINS


def test_classes_per_connection_are_bounded(monkeypatch):
    monkeypatch.setattr(store, "MAX_CLASSES", 1)
    start_class()
    at = open_class_box(AppTest.from_file(str(APP), default_timeout=30).run())
    next(b for b in at.sidebar.button if b.key == "classroom.start").click().run()
    assert param(at, "class") is None
    assert "the most it may" in everything_shown(at)


def kept_by_the_tab(code: str, key: str) -> AppTest:
    """A new session of a tab whose piece keeps this teacher key (a reload of the teacher's
    tab: its address holds neither the class nor the key)."""
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.session_state["classroom.keeper"] = {"kept": None, "teacher": {"code": code, "key": key}}
    return at.run()


def test_a_reloaded_teacher_tab_resumes_from_the_key_it_keeps_and_a_wrong_one_is_dropped():
    _, code, key = start_class()
    resumed = kept_by_the_tab(code, key)
    assert led_class(resumed) == (code, key)
    assert key not in str(dict(resumed.query_params))
    wrong = key[:-1] + ("A" if key[-1] != "A" else "B")
    refused = kept_by_the_tab(code, wrong)
    assert "classroom.member" not in refused.session_state
    assert refused.session_state["classroom.drop_teacher"], "the tab is told to forget it"
    assert not {w.key for w in [*refused.button, *refused.sidebar.button]} & TEACHER_WIDGETS
