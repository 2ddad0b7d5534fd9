"""Runs shared by every session: one run per settings, however many ask at once."""

from __future__ import annotations

import threading

from attention_ui.train import runs
from attention_ui.train.state import settings_of


def test_thirty_sessions_asking_at_once_start_one_run():
    settings = settings_of({"train.seed": 987_654, "train.steps": 10})
    calls = []
    release = threading.Event()

    def trainer(s, report, stopped, urgent):
        calls.append(s)
        release.wait(5)
        report([1.0] * s.steps, [(s.steps, 0.5)])
        return "run"

    jobs = []
    start = threading.Barrier(30)

    def ask():
        start.wait()
        jobs.append(runs.job(settings, trainer))

    threads = [threading.Thread(target=ask) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    release.set()
    assert jobs[0].finished.wait(5)
    assert len(calls) == 1 and len({id(job) for job in jobs}) == 1
    seen = jobs[0].seen()
    assert seen.finished and seen.result == "run" and seen.done == 10


def test_a_failing_run_ends_with_its_error_instead_of_leaving_pages_waiting():
    settings = settings_of({"train.seed": 987_655})

    def trainer(s, report, stopped, urgent):
        raise ValueError("broken")

    job = runs.job(settings, trainer)
    assert job.finished.wait(5)
    assert isinstance(job.seen().error, runs.NoRunError) and job.seen().finished
    assert job.seen().error.code == "bug"


def test_progress_is_seen_while_the_run_trains():
    settings = settings_of({"train.seed": 987_656, "train.steps": 20})
    halfway, release = threading.Event(), threading.Event()

    def trainer(s, report, stopped, urgent):
        report([2.0] * 10, [(10, 0.3)])
        halfway.set()
        release.wait(5)
        report([1.0] * 10, [(20, 0.6)])
        return "run"

    job = runs.job(settings, trainer)
    assert halfway.wait(5)
    seen = job.seen()
    assert (seen.done, seen.total, seen.finished, seen.accuracy) == (10, 20, False, ((10, 0.3),))
    release.set()
    assert job.finished.wait(5) and job.seen().done == 20
