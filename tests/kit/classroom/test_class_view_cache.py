"""A process shares one read of a class among its sessions (follow.class_view); a change this
process writes is seen by its writer's next run even while another session's read is in flight."""

from __future__ import annotations

import threading
import time

from attention_ui.kit.classroom import follow, store

CODE = "ABC234"


def test_a_read_begun_before_a_change_is_not_served_to_the_changes_writer(monkeypatch):
    # A student's poll reads the class; meanwhile the teacher asks a question (store.ask, then
    # forget_view) and the teacher's run asks for the class while the poll's read is in flight.
    in_store = ["before"]
    reading, release = threading.Event(), threading.Event()

    def view(_engine, _code):
        seen = in_store[0]
        if not reading.is_set():  # the poll's read: slow
            reading.set()
            release.wait(10)
        return seen

    monkeypatch.setattr(follow, "engine", lambda: None)
    monkeypatch.setattr(store, "view", view)
    monkeypatch.setattr(follow, "_views", {})
    monkeypatch.setattr(follow, "_written", {})
    poll = []
    thread = threading.Thread(target=lambda: poll.append(follow.class_view(CODE)))
    thread.start()
    assert reading.wait(10)
    in_store[0] = "asked"
    follow.forget_view(CODE)
    release.set()
    thread.join(10)

    assert poll == ["before"], "the poll began before the question: it shows the class as it was"
    assert follow.class_view(CODE) == "asked", "the teacher's run sees the question it asked"
    assert follow.class_view(CODE) == "asked"


def test_reads_within_the_ttl_are_shared(monkeypatch):
    reads = []
    monkeypatch.setattr(follow, "engine", lambda: None)
    monkeypatch.setattr(store, "view", lambda _engine, code: reads.append(code) or len(reads))
    monkeypatch.setattr(follow, "_views", {})
    monkeypatch.setattr(follow, "_written", {})
    assert [follow.class_view(CODE) for _ in range(5)] == [1] * 5
    follow.forget_view(CODE)
    assert follow.class_view(CODE) == 2 and len(reads) == 2


def test_the_periodic_purge_forgets_views_and_write_times_older_than_its_period(monkeypatch):
    monkeypatch.setattr(follow, "engine", lambda: None)
    monkeypatch.setattr(store, "view", lambda _engine, code: f"view of {code}")
    monkeypatch.setattr(store, "purge", lambda _engine, _now: None)
    long_ago = time.monotonic() - follow.PURGE_EVERY - 1
    monkeypatch.setattr(follow, "_views", {"OLD234": (long_ago, "view of OLD234")})
    monkeypatch.setattr(follow, "_written", {"GONE23": long_ago})
    monkeypatch.setattr(follow, "_purged", [float("-inf")])
    follow.class_view("NEW234")
    follow.forget_view("WRIT23")
    follow.purge_if_due(None)
    assert set(follow._views) == {"NEW234"} and set(follow._written) == {"WRIT23"}
