"""Training as a shared, bounded service (train/runs.py), with stand-in trainers in the lanes'
threads: a class's run ahead of the line, the line's bounds said in a sentence, the place in
line, runs nobody polls cancelled, kept runs bounded by their bytes with the class's run kept,
and a run that failed never served again."""

from __future__ import annotations

import threading
import time

import pytest

from attention_core import toy_task, train_attention
from attention_ui.train import compute, runs, service_text
from attention_ui.train.snapshots import compact_run, size_in_bytes
from attention_ui.train.state import settings_of

CLASS = runs.Asker("teacher", None, in_class=True)


def settings(seed: int, **more):
    return settings_of({"train.seed": seed, "train.steps": 10, **more})


class Gate:
    """A stand-in trainer that holds every run until released (or told to stop)."""

    def __init__(self, result="run") -> None:
        self.release = threading.Event()
        self.started: list = []
        self.urgent: list[bool] = []
        self.result = result

    def __call__(self, s, report, stopped, urgent):
        self.started.append(s)
        self.urgent.append(urgent)
        while not self.release.wait(0.02):
            if stopped():
                raise compute.TrainingStoppedError("cancelled")
        report([1.0] * s.steps, [(s.steps, 0.5)])
        return self.result


def polled_until(job, check, seconds=10.0):
    """Poll `job` as a page does until `check(seen)`; the last Seen."""
    deadline = time.monotonic() + seconds
    seen = job.seen()
    while not check(seen) and time.monotonic() < deadline:
        time.sleep(0.02)
        seen = job.seen()
    return seen


@pytest.fixture
def service():
    made = runs.Service()
    yield made
    with made.lock:
        for job in made.jobs.values():
            job.polled = -1e9  # nobody polls any more: the lanes let every run go


def test_a_class_run_trains_at_once_while_students_runs_fill_the_line(service):
    students = Gate()
    held = [service.job(settings(seed), students, runs.Asker(f"s{seed}")) for seed in range(6)]
    polled_until(held[0], lambda s: s.place is None)  # the open lane took the first
    teacher = service.job(settings(100), lambda s, report, stopped, urgent: "class run", CLASS)
    assert polled_until(teacher, lambda s: s.finished).result == "class run"
    assert [job.seen().finished for job in held] == [False] * 6
    students.release.set()


def test_the_class_lane_trains_urgently_and_the_open_lane_not(service):
    students = Gate()
    held = service.job(settings(1), students, runs.Asker("s1"))
    polled_until(held, lambda s: s.place is None)  # the open lane took it
    teacher = service.job(settings(100), lambda s, report, stopped, urgent: urgent, CLASS)
    assert polled_until(teacher, lambda s: s.finished).result is True
    students.release.set()
    assert polled_until(held, lambda s: s.finished).result == "run"
    assert students.urgent == [False]


def test_the_line_is_ordered_class_first_and_each_waiting_run_knows_its_place(service):
    gate = Gate()
    busy = [service.job(settings(1), gate, CLASS), service.job(settings(2), gate, CLASS)]
    polled_until(busy[1], lambda s: s.place is None)  # both lanes train
    first, second = (service.job(settings(n), gate, runs.Asker(f"s{n}")) for n in (3, 4))
    late_class = service.job(settings(5), gate, CLASS)
    assert (late_class.seen().place, first.seen().place, second.seen().place) == (1, 2, 3)
    gate.release.set()


@pytest.mark.parametrize(
    ("asker", "code", "limit"),
    [
        (lambda n: runs.Asker("one tab"), "session", runs.PER_SESSION),
        (lambda n: runs.Asker(f"tab {n}", "203.0.113.9"), "client", runs.PER_CLIENT),
    ],
)
def test_one_session_or_one_address_gets_a_bounded_share_of_the_line(service, asker, code, limit):
    gate = Gate()
    accepted = [service.job(settings(n), gate, asker(n)) for n in range(limit)]
    refused = service.job(settings(limit), gate, asker(limit))
    assert refused.finished.is_set() and refused.seen().error.code == code
    assert all(job.seen().error is None for job in accepted)
    assert service.job(settings(limit), gate, runs.Asker("another")).seen().error is None
    gate.release.set()


def test_a_full_line_refuses_in_a_sentence_but_takes_the_class_run(service, monkeypatch):
    monkeypatch.setattr(runs, "MAX_WAITING", 3)
    gate = Gate()
    polled_until(service.job(settings(0), gate, runs.Asker("s0")), lambda s: s.place is None)
    for n in range(1, 4):  # one trains, three wait
        service.job(settings(n), gate, runs.Asker(f"s{n}"))
    refused = service.job(settings(9), gate, runs.Asker("late"))
    error = refused.seen().error
    assert error.code == "busy"
    for lang in ("en", "ja"):
        assert "3" in service_text.unavailable(error, lang)  # the bound, in a sentence
    assert service.job(settings(10), gate, CLASS).seen().error is None
    gate.release.set()


@pytest.mark.parametrize(
    ("place", "en", "ja"),
    [
        (1, "1st", "1番目"),
        (2, "2nd", "2番目"),
        (3, "3rd", "3番目"),
        (12, "12th", "12番目"),
        (23, "23rd", "23番目"),
    ],
)
def test_the_place_in_line_is_said_in_both_languages(place, en, ja):
    assert en in service_text.place(place, "en") and ja in service_text.place(place, "ja")


def test_runs_nobody_polls_are_dropped_from_the_line_or_stopped(service, monkeypatch):
    monkeypatch.setattr(runs, "CANCEL_AFTER", 0.3)
    gate = Gate()
    training = service.job(settings(1), gate, runs.Asker("a"))
    polled_until(training, lambda s: s.place is None)
    polled_until(service.job(settings(2), gate, CLASS), lambda s: s.place is None)
    waiting = service.job(settings(3), gate, runs.Asker("b"))
    assert waiting.seen().place == 1
    # the page of the run in training polls on; the waiting run's page has gone
    assert polled_until(training, lambda s: waiting.finished.is_set()).error is None
    assert waiting.seen().error.code == "cancelled" and len(gate.started) == 2
    assert training.finished.wait(5) and training.seen().error.code == "cancelled"
    assert service.job(settings(1), gate, runs.Asker("a")) is not training  # asked anew
    gate.release.set()


def test_a_run_that_failed_is_never_served_again_and_the_next_ask_retrains_it(service):
    calls = []

    def trainer(s, report, stopped, urgent):
        calls.append(s)
        if len(calls) == 1:
            raise compute.TrainingStoppedError("killed")
        return "run"

    first = service.job(settings(1), trainer, runs.Asker("a"))
    assert first.finished.wait(5) and first.seen().error.code == "killed"
    again = service.job(settings(1), trainer, runs.Asker("b"))
    assert polled_until(again, lambda s: s.finished).result == "run" and len(calls) == 2


@pytest.fixture(scope="module")
def kept_run():
    run = train_attention(toy_task("reverse", size=64, seed=0), d_model=8, steps=20, record_every=1)
    return compact_run(run)


def test_kept_runs_are_bounded_by_bytes_and_the_class_run_stays(service, monkeypatch, kept_run):
    monkeypatch.setattr(runs, "CANCEL_AFTER", 0.3)
    monkeypatch.setattr(runs, "KEPT_BYTES", 3 * size_in_bytes(kept_run))
    done = lambda s, report, stopped, urgent: kept_run  # noqa: E731
    looked_at = service.job(settings(0), done, CLASS)
    assert looked_at.finished.wait(5)
    others = []
    for n in range(1, 8):
        others.append(service.job(settings(n), done, runs.Asker(f"s{n}")))
        assert others[-1].finished.wait(5)
    time.sleep(0.4)  # no page polls the finished runs now
    service.job(settings(50), done, runs.Asker("last")).finished.wait(5)
    assert service.kept_bytes() <= 3 * size_in_bytes(kept_run)
    assert service.jobs.get(settings(0)) is looked_at  # the class's run, asked for lately
