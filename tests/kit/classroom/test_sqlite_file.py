"""The classroom's SQLite file deleted or replaced under the process (kit/classroom/sqlite_file),
on one engine as the app makes it: nothing the process counted is lost, and no connection of
the engine makes a new empty file in its place."""

from __future__ import annotations

import os
import sqlite3
import threading

import pytest
import sqlalchemy as sa

from attention_ui.kit.classroom import follow, sqlite_file, store


@pytest.fixture
def counted(tmp_path, question):
    """An engine on a fresh file with a guard, a class asked `question`, and one vote."""
    path = tmp_path / "classroom.sqlite"
    eng = sa.create_engine(f"sqlite:///{path}")
    sa.event.listen(eng, "connect", follow._sqlite_pragmas)  # WAL, as the app's engine
    sqlite_file.attach(eng)
    code, key = store.create_class(eng, "luong", {"score": "dot"})
    store.ask(eng, code, key, question)
    seat = store.join(eng, code)
    ballot = store.Ballot(question, 1, 1)
    assert store.vote(eng, code, seat, ballot, (1, 0))
    yield eng, path, code, key, ballot
    sqlite_file.guard_of(eng).close()
    eng.dispose()


def votes_in(path, code, question) -> int:
    other = sa.create_engine(f"sqlite:///{path}")
    try:
        return len(store.answers(other, code, question, 1)[1])
    finally:
        other.dispose()


def remove(path) -> None:
    for found in path.parent.glob(path.name + "*"):
        found.unlink()


def test_a_deleted_file_is_rebuilt_with_a_vote_written_after_the_deletion(counted, question):
    eng, path, code, _, ballot = counted
    remove(path)
    # The pool's connections still write to the deleted file, which the process holds.
    assert store.vote(eng, code, store.join(eng, code), ballot, (0, 0))
    assert sqlite_file.guard_of(eng).check()
    assert votes_in(path, code, question) == 2


def test_no_connection_makes_a_new_empty_file_in_place_of_a_deleted_one(counted):
    eng, path, *_ = counted
    remove(path)
    eng.dispose()  # the next use has to open a connection
    with pytest.raises(sa.exc.OperationalError), eng.connect() as conn:
        conn.execute(sa.text("SELECT 1"))
    assert not path.exists(), "nothing was made at the path"


def test_a_replaced_file_takes_in_what_the_process_holds_and_keeps_its_own(counted, question):
    eng, path, code, key, _ = counted
    other = path.with_name("other.sqlite")
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x)")
        conn.execute("INSERT INTO notes VALUES ('kept')")
    os.replace(other, path)
    assert sqlite_file.guard_of(eng).check()
    assert votes_in(path, code, question) == 1
    assert store.is_teacher(eng, code, key), "the class goes on in the file at the path"
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT x FROM notes").fetchall() == [("kept",)]


def test_a_file_that_is_not_a_database_is_moved_aside(counted, question):
    eng, path, code, *_ = counted
    garbage = path.with_name("garbage")
    garbage.write_bytes(b"not a database at all" * 100)
    os.replace(garbage, path)
    assert sqlite_file.guard_of(eng).check()
    assert votes_in(path, code, question) == 1
    assert list(path.parent.glob(path.name + ".replaced-*"))


def test_a_restore_waits_for_a_write_in_progress_and_keeps_it(counted, question):
    eng, path, code, _, _ = counted
    seat = store.join(eng, code)
    inside, go_on = threading.Event(), threading.Event()

    def vote_slowly() -> None:
        with eng.begin() as conn:
            inside.set()
            go_on.wait(10)
            row = {"code": code, "question_no": 1, "round": 1, "seat": seat, "answer": "[0, 0]"}
            conn.execute(store.votes.insert().values(**row))

    writer = threading.Thread(target=vote_slowly)
    writer.start()
    assert inside.wait(10)
    remove(path)
    restorer = threading.Thread(target=sqlite_file.guard_of(eng).check)
    restorer.start()
    restorer.join(0.3)
    assert restorer.is_alive(), "the restore waits for the write in progress"
    go_on.set()
    writer.join(10)
    restorer.join(10)
    assert votes_in(path, code, question) == 2
    assert store.seat_count(eng, code) == 2, "the engine works on the restored file"
