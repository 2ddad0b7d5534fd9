"""A seat per student, not per tab: a tab that took a new seat takes the one its browser keeps
(reported by the keeper piece) and gives the new one back; a kept seat the store refuses is
replaced, and one vote per seat per round stays the rule."""

from __future__ import annotations

from attention_ui.kit.classroom import keeper, store
from attention_ui.kit.classroom.follow import engine
from tests.support.classroom import button, by_address, param, teacher_page


def report_kept(at, code: str, seat: str) -> None:
    """What the piece's script sends after reading localStorage."""
    at.session_state[keeper.KEY] = {"kept": {"code": code, "seat": seat}}
    at.run()


def test_a_second_tab_takes_the_browsers_seat_and_gives_its_own_back():
    _, code = teacher_page()
    first = by_address(**{"class": code})
    kept = param(first, "seat")
    second = by_address(**{"class": code})  # before its piece answered: a new seat
    assert param(second, "seat") not in (None, kept)
    assert store.seat_count(engine(), code) == 2
    report_kept(second, code, kept)
    assert param(second, "seat") == kept
    assert store.seat_count(engine(), code) == 1, "one seat for one browser"
    assert not second.exception


def test_a_kept_seat_of_another_class_or_refused_is_not_taken():
    _, code = teacher_page()
    _, other = teacher_page()
    student = by_address(**{"class": code})
    mine = param(student, "seat")
    report_kept(student, other, mine)  # another class: nothing to take
    assert param(student, "seat") == mine
    report_kept(student, code, "x" * 32)  # not a seat of this class
    assert param(student, "seat") == mine and param(student, "class") == code
    assert store.seat_count(engine(), code) == 1


def test_both_tabs_on_one_seat_vote_once():
    teacher, code = teacher_page()
    first = by_address(**{"class": code})
    second = by_address(**{"class": code})
    report_kept(second, code, param(first, "seat"))
    teacher.toggle(key="luong.predict").set_value(True).run()
    button(teacher, "classroom.ask").click().run()
    first.run()
    for radio in first.radio:
        if str(radio.key).startswith("classroom.vote.1.1."):
            radio.set_value(radio.options and 0)
    button(first, "classroom.send").click().run()
    second.run()  # the other tab of the same browser: its vote is in
    assert "classroom.send" not in {b.key for b in second.button}
    assert any("round 1 is in" in s.value for s in second.success)
    view = store.view(engine(), code)
    assert len(store.answers(engine(), code, view.question, 1)[1]) == 1
