"""Nobody where they don't belong, at the store and at the door (follow.admit).

Every teacher action takes the teacher key and is checked in the store's own transaction, so
these tests call the store as any page code could, with everything a student can know.
"""

from __future__ import annotations

import itertools
import time

from attention_ui.kit.classroom import codes, store
from attention_ui.kit.classroom.follow import Member, admit

TEACHER_ACTIONS = {
    "publish": lambda e, c, k, q: store.publish(e, c, k, "database", {"q": "x"}),
    "ask": lambda e, c, k, q: store.ask(e, c, k, q),
    "reopen": lambda e, c, k, q: store.reopen(e, c, k),
    "reveal": lambda e, c, k, q: store.reveal(e, c, k),
    "close": lambda e, c, k, q: store.close_question(e, c, k),
    "end": lambda e, c, k, q: store.end_class(e, c, k),
}


def snapshot(engine, code):
    return store.view(engine, code)


def test_a_student_tries_every_teacher_action_and_none_succeeds(engine, question):
    code, key = store.create_class(engine, "luong", {"n": "3"})
    other_code, other_key = store.create_class(engine, "luong", {})
    seat = store.join(engine, code)
    store.ask(engine, code, key, question)
    before = snapshot(engine, code)
    guesses = [seat, "", None, code, other_key, key[:-2], key + "A", codes.key_hash(key)]
    succeeded = [
        (name, guess)
        for (name, action), guess in itertools.product(TEACHER_ACTIONS.items(), guesses)
        if action(engine, code, guess, question)
    ]
    assert succeeded == []
    assert snapshot(engine, code) == before
    assert store.reveal(engine, code, key)  # the teacher still can
    assert not store.reveal(engine, other_code, key)  # and only in their own class


def test_a_wrong_teacher_key_at_the_door_is_a_failure(engine):
    code, key = store.create_class(engine, "luong", {})
    seat = store.join(engine, code)
    assert admit(engine, "browser", code, teacher="x" * 32) == "unknown"
    assert admit(engine, "browser", code, teacher=seat) == "unknown"
    assert admit(engine, "browser", code, teacher=key) == Member(code, "teacher", key)
    assert not store.limited(engine, "browser")
    for _ in range(store.MAX_FAILURES - 2):
        admit(engine, "browser", code, teacher="y" * 32)
    assert admit(engine, "browser", code, teacher="y" * 32) == "limited"
    assert admit(engine, "browser", code, teacher=key) == Member(code, "teacher", key)


def test_a_thousand_guessed_join_codes_are_rate_limited(engine):
    code, _ = store.create_class(engine, "home", {})
    guesses = (codes.new_code() for _ in range(1000))
    results = [admit(engine, "guesser", guess) for guess in guesses if guess != code]
    assert results.count("unknown") == store.MAX_FAILURES  # looked up, then ...
    assert results.count("limited") == len(results) - store.MAX_FAILURES  # ... refused
    assert admit(engine, "guesser", code) == "limited"  # even the right code, for now
    assert isinstance(admit(engine, "a student", code), Member)  # others still join
    later = store.FAILURE_WINDOW_SECONDS + 1
    assert not store.limited(engine, "guesser", now=time.time() + later)


def test_a_crafted_vote_for_another_class_is_not_counted(engine, question):
    mine, my_key = store.create_class(engine, "luong", {})
    other, other_key = store.create_class(engine, "luong", {})
    seat = store.join(engine, mine)
    for code, key in ((mine, my_key), (other, other_key)):
        store.ask(engine, code, key, question)
    assert not store.vote(engine, other, seat, store.Ballot(question, 1, 1), (1, 0))
    assert store.answers(engine, other, question, 1) == {1: {}, 2: {}}
    assert admit(engine, "browser", other, seat=seat) == "unknown"  # nor can it sit there


def test_a_vote_twice_after_the_reveal_or_for_another_round_is_not_counted(engine, question):
    code, key = store.create_class(engine, "luong", {})
    seat = store.join(engine, code)
    store.ask(engine, code, key, question)
    first, second_round = store.Ballot(question, 1, 1), store.Ballot(question, 1, 2)
    old = store.Ballot(question, 0, 1)
    assert store.vote(engine, code, seat, first, (1, 0))
    assert not store.vote(engine, code, seat, first, (0, 0))  # twice
    assert not store.vote(engine, code, seat, second_round, (0, 0))  # a round not open
    assert not store.vote(engine, code, seat, old, (0, 0))  # an old question
    assert not store.vote(engine, code, seat, first, (5, 0))  # not an option
    store.reveal(engine, code, key)
    second = store.join(engine, code)
    assert not store.vote(engine, code, second, first, (1, 0))  # after the reveal
    assert store.answers(engine, code, question, 1)[1] == {seat: (1, 0)}


def test_seats_and_keys_are_unguessable_tokens():
    drawn = {codes.new_key() for _ in range(1000)}
    assert len(drawn) == 1000 and all(len(k) == 32 for k in drawn)
    for bad in ("", "short", "x" * 65, "a b" * 11, "é" * 30, None, 12345):
        assert not codes.is_token(bad)
