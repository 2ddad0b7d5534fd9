"""The training process (train/worker.py), a one-process pool forked from the server: it holds
none of the files the server had open when it was forked (its listening socket, its sessions'
websockets, a browser driver's pipe), so nothing the server lets go of stays open through it,
and it ends when its pool is shut down."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import psutil

from attention_ui.train import compute, runs, service_text, worker
from attention_ui.train.state import settings_of
from tests.conftest import REPO


def test_the_training_process_holds_none_of_the_servers_files_and_ends_with_its_pool():
    listening = socket.socket()  # stands for the server's socket and a driver's pipe
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    found: list[int] = []
    lane = threading.Thread(target=lambda: found.append(compute._lane(False).pid), name="test-lane")
    try:
        lane.start()
        lane.join(60)
        (pid,) = found
        held = {int(fd) for fd in os.listdir(f"/proc/{pid}/fd")}
        assert listening.fileno() not in held
        sockets = [c for c in psutil.Process(pid).net_connections(kind="all")]
        assert sockets == []
    finally:
        listening.close()
        compute.stop_processes()
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_the_class_lanes_process_comes_before_the_open_lanes_for_the_processor():
    pids: dict[bool, int] = {}
    try:
        for urgent in (True, False):  # each lane's thread its own (a lane is its thread's)
            with ThreadPoolExecutor(1, thread_name_prefix=f"test-nice-{urgent}") as lane:
                pids[urgent] = lane.submit(lambda u=urgent: compute._lane(u).pid).result(300)
        server = os.nice(0)
        assert psutil.Process(pids[True]).nice() == min(19, server + worker.CLASS_NICE)
        assert psutil.Process(pids[False]).nice() == min(19, server + worker.OPEN_NICE)
        assert worker.CLASS_NICE < worker.OPEN_NICE
    finally:
        compute.stop_processes()


LONG = {"train.task": "reverse", "train.d_model": 8, "train.steps": 3000}  # ~1 s unloaded


def training_started(job) -> None:
    deadline = time.monotonic() + 60
    while not job.seen().done and time.monotonic() < deadline:
        time.sleep(0.05)
    assert job.seen().done, "the run did not start"


def test_a_killed_training_process_is_said_not_kept_and_the_next_ask_trains_again():
    service = runs.Service()
    settings = settings_of({**LONG, "train.steps": 400, "train.seed": 424_242})
    job = service.job(settings, compute.train, runs.Asker("a"))
    training_started(job)
    for pid in compute.training_pids():
        os.kill(pid, signal.SIGKILL)
    assert job.finished.wait(30)
    assert isinstance(job.seen().error, runs.NoRunError) and job.seen().error.code == "killed"
    assert "killed" in service_text.unavailable(job.seen().error, "en")
    again = service.job(settings, compute.train, runs.Asker("b"))
    assert again is not job
    while not again.finished.wait(0.2):
        again.seen()  # a page polls it
    assert again.seen().error is None and again.seen().result.steps == 400


def test_a_run_nobody_polls_stops_its_process_and_frees_the_processor(monkeypatch):
    monkeypatch.setattr(runs, "CANCEL_AFTER", 1.0)
    service = runs.Service()
    slow = {"train.task": "induction", "train.d_model": 32, "train.steps": 3000}  # ~40 s
    job = service.job(settings_of({**slow, "train.seed": 434_343}), compute.train)
    training_started(job)  # its last poll
    assert job.finished.wait(30) and job.seen().error.code == "cancelled"
    pids = compute.training_pids()
    before = processor_seconds(pids)
    time.sleep(1.0)
    after = processor_seconds(pids)
    assert after - before < 0.2  # seconds of processor time in that second: idle


def processor_seconds(pids: list[int]) -> float:
    """The processor time the training processes `pids` have used, those that have ended
    left out (another test's lane in this worker, killed or shut down)."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess):
            total += sum(psutil.Process(pid).cpu_times()[:2])
    return total


def test_the_training_process_ends_when_the_server_is_killed():
    script = (
        "import threading, time\n"
        "from attention_ui.train import compute\n"
        "lane = threading.Thread(target=lambda: print(compute._lane(False).pid, flush=True))\n"
        "lane.start(); lane.join(); time.sleep(120)\n"
    )
    server = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=REPO, text=True
    )
    try:
        pid = int(server.stdout.readline())
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and psutil.pid_exists(pid):
        with contextlib.suppress(psutil.NoSuchProcess):
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                break
        time.sleep(0.2)
    alive = psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    assert not alive, "the training process outlived the server"


def test_a_training_process_that_died_while_idle_is_replaced_by_the_next_run():
    """A lane's process killed between runs (another test's kill, the out-of-memory killer)
    leaves a pool that takes no more calls: the lane's next run forks another process."""
    service = runs.Service()
    first = service.job(settings_of({**LONG, "train.steps": 20}), compute.train, runs.Asker("a"))
    while not first.finished.wait(0.2):
        first.seen()
    assert first.seen().error is None
    killed = compute.training_pids()
    for pid in killed:
        with contextlib.suppress(ProcessLookupError):  # one that has just ended on its own
            os.kill(pid, signal.SIGKILL)
    for pid in killed:
        assert_ended(pid)
    settings = settings_of({**LONG, "train.steps": 20, "train.seed": 454_545})
    again = service.job(settings, compute.train, runs.Asker("a"))
    while not again.finished.wait(0.2):
        again.seen()  # a page polls it
    assert again.seen().error is None and again.seen().result.steps == 20


def assert_ended(pid: int) -> None:
    deadline = time.monotonic() + 30
    while psutil.pid_exists(pid) and time.monotonic() < deadline:
        if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
            return
        time.sleep(0.05)
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_a_pipe_of_the_pool_under_a_number_the_server_let_go_of_stays_open():
    """Another thread of the server can close a file between the lane's look at its open files
    and the fork; the pool's pipes, made after, then take that number. The new process keeps
    them (it closes a file only if it is the one seen): its first call is answered."""
    context = compute._FORK
    progress, stop = context.Queue(), context.Event()
    spare = [fd for _ in range(3) for fd in os.pipe()]  # as many as the pool's three pipes
    inherited = worker.open_files()
    for fd in spare:  # let go of by "another thread": the pool's pipes take the numbers
        os.close(fd)
    pool = ProcessPoolExecutor(
        1, mp_context=context, initializer=worker.start, initargs=(inherited, progress, stop, 0)
    )
    try:
        assert set(spare) <= set(worker.open_files())  # reused by the pool
        assert pool.submit(worker.ready).result(timeout=60) > 0
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
