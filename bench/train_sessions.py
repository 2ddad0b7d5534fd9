"""Watch attention learn: what a class pressing Train costs, and whether training slows others.

Run from the repository root:

    python bench/train_sessions.py 2>/dev/null

1. Thirty sessions press Train with the same settings within one second. Each is a thread
   asking the page's shared runs (attention_ui/train/runs.py) for the run and waiting for it
   to finish, as the page's follow loop does; the baseline is one session alone with a seed
   no other run used. Printed: how many runs were trained for the 30 (target: one), and the
   p95 time to the finished curve against the lone session's (target ≤ 1.5×).
2. Another session's Luong edit (AppTest, one Q cell typed, the page's whole rerun) while a
   3,000-step run trains, against the same edit with the server idle, interleaved; medians
   (target ≤ 1.5×). Training runs in its own process (attention_ui/train/worker.py), so on a
   machine with a free core the edit should not wait for it.

Prints, never asserts (timings depend on the machine; the load average is printed beside).
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from streamlit.testing.v1 import AppTest  # noqa: E402

from attention_ui.train import compute, runs  # noqa: E402
from attention_ui.train.state import settings_of  # noqa: E402
from tests.support.grids import type_cell  # noqa: E402

SESSIONS = 30
SETTINGS = {"train.task": "reverse", "train.steps": 600}


def counted_trainer(count: list[int]):
    def trainer(settings, report, stopped, urgent):
        count.append(1)
        return compute.train(settings, report, stopped, urgent)

    return trainer


def time_to_finished(settings, trainer, barrier: threading.Barrier | None, out: list[float]):
    if barrier is not None:
        barrier.wait()
    start = time.perf_counter()
    job = runs.job(settings, trainer)
    waited_for(job)
    out.append(time.perf_counter() - start)


def waited_for(job) -> None:
    """Wait for the run as a page does: polling it (a run nobody polls is cancelled)."""
    while not job.finished.wait(0.3):
        job.seen()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def class_presses(seed: int) -> None:
    count: list[int] = []
    alone: list[float] = []
    time_to_finished(
        settings_of({**SETTINGS, "train.seed": seed}), counted_trainer(count), None, alone
    )
    together: list[float] = []
    barrier = threading.Barrier(SESSIONS)
    settings = settings_of({**SETTINGS, "train.seed": seed + 1})
    started = [
        threading.Thread(
            target=time_to_finished, args=(settings, counted_trainer(count), barrier, together)
        )
        for _ in range(SESSIONS)
    ]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join()
    trained = len(count) - 1
    p95 = percentile(together, 95)
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{SESSIONS} sessions pressing Train together: {trained} run(s) trained")
    print(f"one session alone: {alone[0]:.2f} s to the finished curve")
    print(
        f"{SESSIONS} together: p50 {statistics.median(together):.2f} s, p95 {p95:.2f} s "
        f"({p95 / alone[0]:.2f}× one session; target ≤ 1.5×)"
    )


def luong_page() -> AppTest:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120).run()
    at.switch_page("pages/luong.py").run()
    assert not at.exception
    return at


def edit_time(at: AppTest, value: float) -> float:
    start = time.perf_counter()
    type_cell(at, "luong.Q", 0, "q1", str(value))
    at.run()
    return time.perf_counter() - start


def edits_while_training(seed: int, repeats: int = 12) -> None:
    at = luong_page()
    idle, busy = [], []
    for number in range(repeats):
        idle.append(edit_time(at, 0.5 + number))
        job = runs.job(
            settings_of({"train.task": "lookup", "train.steps": 3000, "train.seed": seed + number}),
            compute.train,
        )
        while not job.seen().done:  # the process has started training
            time.sleep(0.05)
        busy.append(edit_time(at, 1.5 + number))
        waited_for(job)
    i, b = statistics.median(idle), statistics.median(busy)
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(
        f"Luong edit (AppTest, whole page): idle {i * 1000:.0f} ms, while a run trains "
        f"{b * 1000:.0f} ms ({b / i:.2f}×; target ≤ 1.5×), medians of {repeats}"
    )


if __name__ == "__main__":
    base = int(time.time()) % 1_000_000 * 100  # runs no earlier bench left in memory
    class_presses(base)
    edits_while_training(base + 10)
