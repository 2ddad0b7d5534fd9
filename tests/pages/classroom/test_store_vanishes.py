"""The store goes read-only, or its SQLite file is deleted, under the running process: it is
detected there, every role is told, a vote is counted or the student is told it was not (and
can send it again), and what was counted is kept."""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa

from attention_ui.kit.classroom import follow, sqlite_file, store
from attention_ui.kit.text.i18n import catalog
from tests.support.classroom import button, by_address, param, teacher_page

EN = catalog("en")


def asked() -> tuple:
    teacher, code = teacher_page()
    student = by_address(**{"class": code})
    teacher.toggle(key="luong.predict").set_value(True).run()
    button(teacher, "classroom.ask").click().run()
    student.run()
    return teacher, student, code


def choose(student) -> None:
    for radio in student.radio:
        if str(radio.key).startswith("classroom.vote.1.1."):
            radio.set_value(0)


def counted(code: str, url: str | None = None) -> int:
    eng = sa.create_engine(url) if url else follow.engine()
    view = store.view(eng, code)
    return len(store.answers(eng, code, view.question, 1)[1])


def shown(at) -> str:
    parts = [*at.error, *at.warning, *at.info, *at.sidebar.warning, *at.sidebar.info]
    return "\n".join(str(e.value) for e in parts)


@pytest.mark.parametrize("shared_for", [follow.VIEW_TTL, 0.0])
def test_a_read_only_store_says_the_vote_was_not_sent_and_it_can_be_sent_again(
    monkeypatch, classroom_db, shared_for
):
    """Also with no class read shared between calls (`shared_for` 0): every way in that reads
    the class (the page's own puzzle asks whether a class question is open) reaches the store,
    and none of them shows an exception."""
    monkeypatch.setattr(follow, "VIEW_TTL", shared_for)
    teacher, student, code = asked()
    choose(student)
    with monkeypatch.context() as read_only:
        url = f"sqlite:///file:{classroom_db}?mode=ro&uri=true"
        read_only.setattr(follow, "default_url", lambda: url)
        follow._health.clear()
        button(student, "classroom.send").click().run()
        assert not student.exception
        assert EN["classroom.notice.store_down"] in shown(student) or EN[
            "classroom.q.not_sent"
        ] in shown(student)
        teacher.run()
        assert EN["classroom.notice.store_down"] in shown(teacher), "the teacher is told too"
    follow._health.clear()
    assert counted(code) == 0
    student.run()
    choose(student)
    button(student, "classroom.send").click().run()
    assert counted(code) == 1


def test_a_vote_the_store_refuses_is_said_not_sent(monkeypatch):
    _, student, code = asked()
    choose(student)

    def refuse(*args, **kwargs):
        raise sa.exc.OperationalError("INSERT", {}, Exception("attempt to write a readonly"))

    with monkeypatch.context() as broken:
        broken.setattr(store, "vote", refuse)
        button(student, "classroom.send").click().run()
        assert EN["classroom.q.not_sent"] in shown(student)
        assert "classroom.send" in {b.key for b in student.button}, "to send again"
    button(student, "classroom.send").click().run()
    assert counted(code) == 1


def test_a_deleted_store_file_is_restored_with_what_was_counted(classroom_db):
    teacher, student, code = asked()
    choose(student)
    button(student, "classroom.send").click().run()
    assert counted(code) == 1
    for path in classroom_db.parent.glob(classroom_db.name + "*"):
        path.unlink()
    follow._health.clear()
    teacher.run()
    student.run()
    assert classroom_db.exists()
    for at in (teacher, student):
        assert not at.exception
        assert EN["classroom.notice.restored"] in shown(at)
    url = f"sqlite:///{classroom_db}"
    assert counted(code, url) == 1, "a new process finds the vote in the file"
    teacher.selectbox(key="luong.score").set_value("dot").run()
    assert store.view(sa.create_engine(url), code).state.get("score") == "dot", "writes land"
    assert param(student, "seat")


def test_a_store_file_made_read_only_is_announced_to_the_teacher_and_every_student(
    monkeypatch, classroom_db
):
    """chmod a-w on the file (the tests run as root, whom no mode stops: the file's mode is
    what the guard asks about, so it is answered here). The pool's connections, opened before,
    could still write; the check, on a connection of its own, pauses the class for every role."""
    teacher, student, code = asked()
    follower = by_address(**{"class": code})
    real_access = sqlite_file.os.access

    def read_only(path, mode):
        return (
            False if str(path) == str(classroom_db) and mode == os.W_OK else real_access(path, mode)
        )

    with monkeypatch.context() as patched:
        patched.setattr(sqlite_file.os, "access", read_only)
        follow._health.clear()
        for at in (teacher, student, follower):
            at.run()
            assert not at.exception
            assert EN["classroom.notice.store_down"] in shown(at), "every role is told"
        assert "classroom.send" not in {b.key for b in student.button}, "no vote to lose"
    follow._health.clear()
    student.run()
    choose(student)
    button(student, "classroom.send").click().run()
    assert counted(code) == 1
