"""The classroom's store on SQLite: classes, following, questions, votes, expiry, schema."""

from __future__ import annotations

import json

import sqlalchemy as sa

from attention_ui.kit.classroom import codes, store
from attention_ui.kit.classroom.rounds import Question, changed, question_from, tally


def test_codes_are_short_and_free_of_look_alikes():
    drawn = {codes.new_code() for _ in range(500)}
    assert len(drawn) > 490
    assert all(len(code) == codes.CODE_LENGTH for code in drawn)
    assert not set("".join(drawn)) & set("0O1IL2Z5S8B")
    assert codes.normal_code(" fu h-tt a ") == "FUHTTA"
    for bad in ("FUHTT0", "FUHTT", "FUHTTAA", 123, None, "Ｆ" * 6, "x" * 1000):
        assert codes.normal_code(bad) is None


def test_teacher_key_is_long_random_and_only_its_hash_is_stored(engine):
    code, key = store.create_class(engine, "luong", {"n": "3"})
    assert len(key) >= 32 and codes.is_token(key)
    with engine.connect() as conn:
        row = conn.execute(sa.select(store.classes)).one()
    assert key not in str(tuple(row)) and row.teacher_hash == codes.key_hash(key)
    assert store.is_teacher(engine, code, key)
    assert not store.is_teacher(engine, code, key[:-1] + ("A" if key[-1] != "A" else "B"))


def test_a_class_starts_with_the_teachers_page_and_follows_each_change(engine):
    code, key = store.create_class(engine, "luong", {"n": "3", "score": "dot"})
    view = store.view(engine, code)
    assert (view.page, view.state, view.status.rev) == ("luong", {"n": "3", "score": "dot"}, 1)
    assert store.publish(engine, code, key, "database", {"q": "x"})
    view = store.view(engine, code)
    assert (view.page, view.state, view.status.rev) == ("database", {"q": "x"}, 2)
    assert store.status(engine, code).rev == 2


def test_seats_presence_and_following(engine):
    code, _ = store.create_class(engine, "home", {})
    first, second = store.join(engine, code, now=1000.0), store.join(engine, code, now=1000.0)
    assert first != second and codes.is_token(first)
    assert store.join(engine, "ACDEFG") is None
    store.mark_seen(engine, code, first, True, now=1000.0)
    store.mark_seen(engine, code, second, False, now=1000.0)
    assert store.presence(engine, code, now=1005.0) == (2, 1)
    assert store.presence(engine, code, now=1000.0 + store.PRESENCE_SECONDS + 1) == (0, 0)
    assert store.seat_following(engine, code, second) is False
    assert store.seat_following(engine, code, "not-a-seat") is None


def test_many_seats_presence_is_written_in_one_go(engine):
    code, _ = store.create_class(engine, "home", {})
    other, _ = store.create_class(engine, "home", {})
    seats = [store.join(engine, code, now=1000.0) for _ in range(3)]
    stranger = store.join(engine, other, now=1000.0)
    store.mark_seen_many(
        engine,
        {
            (code, seats[0]): (2000.0, True),
            (code, seats[1]): (2000.0, False),
            (code, stranger): (2000.0, True),  # not a seat of this class: nothing written
        },
    )
    assert store.presence(engine, code, now=2005.0) == (2, 1)
    assert store.presence(engine, other, now=2005.0) == (0, 0)
    store.mark_seen_many(engine, {})


def test_two_rounds_counted_once_each_and_summed_up(engine, question):
    code, key = store.create_class(engine, "luong", {})
    a, b, c = (store.join(engine, code) for _ in range(3))
    assert store.ask(engine, code, key, question)
    number = store.status(engine, code).question_no
    one, two = store.Ballot(question, number, 1), store.Ballot(question, number, 2)
    assert store.vote(engine, code, a, one, (1, 0))
    assert store.vote(engine, code, b, one, (0, 0))
    assert not store.vote(engine, code, b, one, (1, 2))  # twice
    assert store.reopen(engine, code, key)
    assert not store.vote(engine, code, c, one, (1, 0))  # round 1 closed
    assert store.vote(engine, code, a, two, (1, 2))
    assert store.vote(engine, code, b, two, (1, 1))
    assert store.reveal(engine, code, key)
    assert not store.vote(engine, code, c, two, (1, 0))  # after the reveal
    votes = store.answers(engine, code, question, number)
    assert votes[1] == {a: (1, 0), b: (0, 0)} and votes[2] == {a: (1, 2), b: (1, 1)}
    first, second = tally(question, votes[1]), tally(question, votes[2])
    assert first.counts[0] == {0: 1, 1: 1, 2: 0} and first.right == (1, 2)
    assert (first.all_right, second.all_right, second.right) == (1, 1, (2, 1))
    assert changed(votes[1], votes[2]) == 2
    assert store.my_answer(engine, code, b, two) == (1, 1)


def test_a_new_question_starts_at_round_one_with_no_votes(engine, question):
    code, key = store.create_class(engine, "luong", {})
    seat = store.join(engine, code)
    store.ask(engine, code, key, question)
    store.vote(engine, code, seat, store.Ballot(question, 1, 1), (1, 0))
    store.reopen(engine, code, key)
    store.ask(engine, code, key, question)
    status = store.status(engine, code)
    assert (status.question_no, status.round, status.revealed) == (2, 1, False)
    assert store.answers(engine, code, question, 2) == {1: {}, 2: {}}
    assert store.vote(engine, code, seat, store.Ballot(question, 2, 1), (1, 0))


def test_classes_expire_with_their_seats_and_votes(engine, question):
    code, key = store.create_class(engine, "luong", {}, now=0.0)
    seat = store.join(engine, code, now=0.0)
    store.ask(engine, code, key, question)
    assert store.status(engine, code, now=store.CLASS_HOURS * 3600 - 1) is not None
    assert store.status(engine, code, now=store.CLASS_HOURS * 3600 + 1) is None
    assert store.view(engine, code, now=store.CLASS_HOURS * 3600 + 1) is None
    store.create_class(engine, "home", {}, now=store.CLASS_HOURS * 3600 + 1)  # purges
    with engine.connect() as conn:
        assert conn.scalar(sa.select(sa.func.count()).select_from(store.seats)) == 0
        assert conn.scalar(sa.select(sa.func.count()).where(store.classes.c.code == code)) == 0
    assert store.seat_following(engine, code, seat) is None


def test_ending_a_class_deletes_it(engine):
    code, key = store.create_class(engine, "home", {})
    store.join(engine, code)
    assert store.end_class(engine, code, key)
    assert store.view(engine, code) is None


def test_schema_is_versioned_and_a_newer_one_is_refused(tmp_path):
    eng = sa.create_engine(f"sqlite:///{tmp_path / 'new.sqlite'}")
    store.ensure_schema(eng)
    with eng.connect() as conn:
        assert conn.scalar(sa.select(store.meta.c.value)) == str(store.SCHEMA_VERSION)
    with eng.begin() as conn:
        conn.execute(store.meta.update().values(value="99"))
    store._ready.clear()
    try:
        store.ensure_schema(eng)
    except store.SchemaTooNewError:
        pass
    else:
        raise AssertionError("a newer schema was accepted")
    finally:
        store._ready.clear()


def test_a_database_of_the_first_schema_gets_the_language_columns_in_place(engine):
    """A store made before the class's language was kept (no `lang` columns) goes on: its
    classes and seats stay, the columns are added, and a second process adding them at the
    same time is no error."""
    code, key = store.create_class(engine, "luong", {"n": "3"})
    seat = store.join(engine, code)
    with engine.begin() as conn:
        for table in (store.classes, store.seats):
            conn.execute(sa.text(f"ALTER TABLE {table.name} DROP COLUMN lang"))
    store.forget_schema(engine)
    store.ensure_schema(engine)
    store._add_columns(engine)  # another process, a moment later
    view = store.view(engine, code)
    assert (view.state, view.lang) == ({"n": "3"}, None)
    assert (
        store.seat_following(engine, code, seat) and store.seat_language(engine, code, seat) is None
    )
    assert store.set_language(engine, code, key, "ja") and store.view(engine, code).lang == "ja"
    with engine.connect() as conn:
        assert conn.scalar(sa.select(store.meta.c.value)) == str(store.SCHEMA_VERSION)


def test_the_class_language_and_a_students_pick(engine):
    code, key = store.create_class(engine, "luong", {}, lang="en")
    assert store.view(engine, code).lang == "en"
    assert not store.set_language(engine, code, "wrong key", "ja")
    assert not store.set_language(engine, code, key, "<b>")
    rev = store.view(engine, code).status.rev
    assert store.set_language(engine, code, key, "ja")
    view = store.view(engine, code)
    assert view.lang == "ja" and view.status.rev == rev, "not a change of the page"
    seat = store.join(engine, code)
    assert store.seat_language(engine, code, seat) is None
    store.pick_language(engine, code, seat, "en")
    assert store.seat_language(engine, code, seat) == "en"
    store.pick_language(engine, code, seat, None)
    assert store.seat_language(engine, code, seat) is None
    with engine.begin() as conn:
        conn.execute(store.classes.update().values(lang="<b>x</b>"))
        conn.execute(store.seats.update().values(lang="x" * 8))
    assert store.view(engine, code).lang is None and store.view(engine, code).state == {}
    assert store.seat_language(engine, code, seat) is None


def test_rows_read_back_are_checked_like_an_address(engine, question):
    code, key = store.create_class(engine, "luong", {"n": "3"})
    crafted = {
        "state": [json.dumps({"n": 3}), json.dumps({"bad name!": "1"}), "[1,2]", "{"],
        "page": ["../etc", "Luong", ""],
        "round": [3, -1],
    }
    for column, values in crafted.items():
        for value in values:
            with engine.begin() as conn:
                conn.execute(store.classes.update().values({column: value}))
            assert store.view(engine, code) is None, (column, value)
            with engine.begin() as conn:
                conn.execute(
                    store.classes.update().values(state='{"n": "3"}', page="luong", round=1)
                )
    assert store.view(engine, code) is not None
    for text in (
        '{"page": "luong"}',
        "[]",
        json.dumps({**json.loads(question.to_json()), "winners": [[7], [0]]}),
        json.dumps({**json.loads(question.to_json()), "puzzle": "<b>"}),
        *(
            json.dumps({**json.loads(question.to_json()), "page": page})
            for page in ("train.", ".compare", "train.compare.x", "train.Compare", "train/x")
        ),
    ):
        assert question_from(text) is None, text
    assert question_from(question.to_json()) == question
    # A page with several puzzles names each: the page, then the puzzle after one dot.
    second = Question("train.compare", question.puzzle, question.options, question.winners)
    assert question_from(second.to_json()) == second
    assert second.on_page("train") and not second.on_page("trai") and question.on_page("luong")
    seat = store.join(engine, code)
    store.ask(engine, code, key, question)
    store.vote(engine, code, seat, store.Ballot(question, 1, 1), (1, 0))
    with engine.begin() as conn:
        conn.execute(store.votes.update().values(answer="[1, 9]"))
    assert store.answers(engine, code, question, 1) == {1: {}, 2: {}}


def test_question_answers_must_give_an_option_for_every_part():
    q = Question("database", "0123456789ab", ((0, 1, -1),), ((),))
    assert q.accepts((-1,)) and q.right(0, -1) and not q.right(0, 0)
    assert not q.accepts((2,)) and not q.accepts(()) and not q.accepts((0, 0))
