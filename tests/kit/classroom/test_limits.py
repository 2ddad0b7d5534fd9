"""Limits that cannot be turned on the class: wrong codes are limited per client and per
class, a valid teacher key or seat is never refused, joins, seats and classes are bounded,
old attempts are purged on a schedule, and X-Forwarded-For counts only behind our proxy."""

from __future__ import annotations

import time
from pathlib import Path

import sqlalchemy as sa

from attention_ui.kit.classroom import codes, follow, store
from attention_ui.kit.classroom.follow import Member, admit, client_from

PROXY = "10.0.0.1"  # a school's NAT, or nginx: one address for a whole class


def wrong_codes(engine, client: str, count: int, code: str) -> list[object]:
    guesses = (g for g in iter(codes.new_code, None) if g != code)
    return [admit(engine, client, next(guesses)) for _ in range(count)]


def test_ten_wrong_codes_from_a_shared_address_lock_nobody_out(engine):
    code, key = store.create_class(engine, "luong", {})
    seat = store.join(engine, code)
    assert wrong_codes(engine, PROXY, 10, code) == ["unknown"] * 10
    assert isinstance(admit(engine, PROXY, code), Member)  # a new student joins
    assert admit(engine, PROXY, code, teacher=key) == Member(code, "teacher", key)
    assert admit(engine, PROXY, code, seat=seat) == Member(code, "student", seat)


def test_a_limited_client_still_lets_the_teacher_and_seated_students_in(engine):
    code, key = store.create_class(engine, "luong", {})
    seat = store.join(engine, code)
    wrong_codes(engine, PROXY, store.MAX_FAILURES, code)
    assert store.limited(engine, PROXY)
    assert admit(engine, PROXY, code) == "limited"  # a guess, right or not, teaches nothing
    assert admit(engine, PROXY, code, teacher="z" * 32) == "limited"
    assert admit(engine, PROXY, code, teacher=key) == Member(code, "teacher", key)
    assert admit(engine, PROXY, code, seat=seat) == Member(code, "student", seat)


def test_wrong_keys_naming_a_class_are_limited_per_class(engine):
    code, key = store.create_class(engine, "luong", {})
    clients = (f"203.0.113.{n}" for n in range(1000))  # a new address for every try
    results = [
        admit(engine, next(clients), code, teacher=codes.new_key())
        for _ in range(store.MAX_CLASS_FAILURES + 5)
    ]
    assert results.count("unknown") == store.MAX_CLASS_FAILURES
    assert results[-5:] == ["limited"] * 5
    assert admit(engine, next(clients), code, teacher=key) == Member(code, "teacher", key)
    assert isinstance(admit(engine, next(clients), code), Member)  # joining is not refused


def test_joins_per_client_and_seats_per_class_are_bounded(engine, monkeypatch):
    code, _ = store.create_class(engine, "luong", {})
    monkeypatch.setattr(store, "MAX_JOINS", 4)
    joined = [admit(engine, PROXY, code) for _ in range(6)]
    assert [isinstance(j, Member) for j in joined] == [True] * 4 + [False] * 2
    assert joined[4:] == ["busy", "busy"]
    monkeypatch.setattr(store, "MAX_SEATS", 5)
    assert isinstance(admit(engine, "another", code), Member)
    assert admit(engine, "a third", code) == "full"
    assert store.seat_count(engine, code) == 5
    assert not store.limited(engine, PROXY), "a bound is not a failure"


def test_classes_per_client_are_bounded(engine):
    for _ in range(store.MAX_CLASSES):
        assert not store.too_many(engine, "class", PROXY)
        store.note(engine, "class", PROXY)
    assert store.too_many(engine, "class", PROXY)
    assert not store.too_many(engine, "class", "another")
    later = time.time() + store.CLASS_WINDOW_SECONDS + 1
    assert not store.too_many(engine, "class", PROXY, now=later)


def test_old_attempts_are_purged_on_a_schedule(engine, monkeypatch):
    old = time.time() - store.FAILURE_WINDOW_SECONDS - 5
    store.fail(engine, PROXY, now=old)
    store.note(engine, "join", PROXY, now=old - store.CLASS_WINDOW_SECONDS)
    monkeypatch.setattr(follow, "_purged", [float("-inf")])
    follow.purge_if_due(engine)
    with engine.connect() as conn:
        assert conn.scalar(sa.select(sa.func.count()).select_from(store.failures)) == 0
        assert conn.scalar(sa.select(sa.func.count()).select_from(store.events)) == 0
    store.fail(engine, PROXY, now=old)
    follow.purge_if_due(engine)  # within PURGE_EVERY: not again
    with engine.connect() as conn:
        assert conn.scalar(sa.select(sa.func.count()).select_from(store.failures)) == 1


def test_x_forwarded_for_counts_only_behind_our_proxy():
    forged = "198.51.100.7"
    assert client_from(forged, "192.0.2.9", 0) == "192.0.2.9"  # served directly
    assert client_from(forged, None, 0) == "local"
    assert client_from(f"{forged}, 192.0.2.9", "127.0.0.1", 1) == "192.0.2.9"  # nginx's entry
    assert client_from(f"a, {forged}, 192.0.2.9", "127.0.0.1", 2) == forged
    assert client_from("192.0.2.9", "10.1.1.1", 2) == "10.1.1.1"  # fewer entries than hops


def test_the_proxy_setting_is_read_from_the_environment(monkeypatch):
    monkeypatch.delenv(follow.PROXY_HOPS_ENV, raising=False)
    assert follow.proxy_hops() == 0
    for text, hops in (("1", 1), ("2", 2), ("yes", 0), ("-1", 0), ("99", 0)):
        monkeypatch.setenv(follow.PROXY_HOPS_ENV, text)
        assert follow.proxy_hops() == hops


def test_forged_headers_do_not_give_unlimited_guesses(engine):
    """Served directly, every guess carries a new X-Forwarded-For: all count against the
    peer, which is limited after MAX_FAILURES."""
    code, _ = store.create_class(engine, "luong", {})
    peer = "192.0.2.50"
    results = []
    for n, guess in enumerate(g for g in iter(codes.new_code, None) if g != code):
        if n == 25 + store.MAX_FAILURES:
            break
        results.append(admit(engine, client_from(f"198.51.100.{n}", peer, 0), guess))
    assert results.count("limited") == 25
    assert not store.limited(engine, "198.51.100.1"), "nobody else is locked out"


def test_the_deploy_sets_the_proxy_and_the_docs_state_the_bounds():
    root = Path(__file__).resolve().parents[3]
    docker = (root / "deploy" / "Dockerfile").read_text(encoding="utf-8")
    assert f"ENV {follow.PROXY_HOPS_ENV}=1" in docker
    assert "$proxy_add_x_forwarded_for" in (root / "deploy" / "nginx.conf").read_text("utf-8")
    docs = (root / "docs" / "DEPLOY.md").read_text(encoding="utf-8")
    assert follow.PROXY_HOPS_ENV in docs
    minutes = int(store.FAILURE_WINDOW_SECONDS // 60)
    for bound in (
        f"{store.MAX_FAILURES} in {minutes} minutes",
        f"{store.MAX_CLASS_FAILURES} in {minutes} minutes",
        f"{store.MAX_JOINS} in {int(store.JOIN_WINDOW_SECONDS // 60)} minutes",
        f"| {follow.SESSION_JOINS} |",
        f"| {store.MAX_SEATS} |",
        f"{store.MAX_CLASSES} an hour",
    ):
        assert bound in docs, bound
