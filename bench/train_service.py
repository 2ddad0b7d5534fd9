"""Training as a shared service in front of a class: does a crowd of long runs freeze the
teacher, slow the Luong page or outgrow a Community Cloud container?

One `streamlit run app.py` process. Over Streamlit's own websocket (bench/class_load.py's
Browser, bench/load.py's Session): a teacher starts a class on the training page and 30
students follow it there; a 32nd session edits the Luong page. Rounds alternate, interleaved:

- quiet: nobody else trains;
- loaded: 10 more sessions each open the training page with distinct maximum-size settings
  (induction, 4 heads, d_model 32, 3,000 steps; the address trains on open), then leave.

In each phase the teacher presses Train on a new seed with the default settings (timed from
the press to the finished run's step slider), and the Luong session edits a cell of Q 5 times.
Memory is sampled every half second throughout: the server and its training processes, as
PSS (shared pages divided among the processes that share them: the forked training processes
share most of the server's) and as the sum of RSS (which counts those pages twice).

Printed, each against its bound: the teacher's run loaded / quiet (target ≤ 2×), the Luong
edit loaded / quiet (target ≤ 1.5×), the most memory seen (target ≤ 690 MB), with the load
average. With --kept-run, also the bytes of one kept run at the largest settings (the most
snapshots: 100-199 steps), as the engine returns it and as the service keeps it.

    python bench/train_service.py                 # 2 rounds, about 5 minutes
    python bench/train_service.py --rounds 1 --students 10 --kept-run
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import psutil
import websockets
from streamlit.proto.WidgetStates_pb2 import WidgetState

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from bench import load  # noqa: E402
from bench.class_load import Browser, join, start_class  # noqa: E402
from bench.load import SERVER_ARGS, Session, cell_value, luong_target  # noqa: E402
from tests.app_server import start_app, stop_app  # noqa: E402

LARGE = {"task": "induction", "d_model": "32", "heads": "4", "steps": "3000", "trained": "1"}
TEACHER_RATIO, EDIT_RATIO, CONTAINER_MB = 2.0, 1.5, 690
EDITS = 5
LEAVE_SECONDS = 8.0  # the runs of pages that left are cancelled (train/runs.py)


class Memory:
    """The most memory the server and its children used, sampled until stopped."""

    def __init__(self, pid: int) -> None:
        self.pid, self.pss, self.rss, self.running = pid, 0.0, 0.0, True
        self.parts = ""  # each process's PSS at the most
        self.warm = 0.0  # the most before the class came (the app's first run)

    def sample(self) -> None:
        pss = rss = 0
        parts = []
        server = psutil.Process(self.pid)
        for process in (server, *server.children(recursive=True)):
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                info = process.memory_full_info()
                pss, rss = pss + info.pss, rss + info.rss
                parts.append(f"{info.pss / 2**20:.0f}")
        if pss / 2**20 > self.pss:
            self.pss, self.parts = pss / 2**20, " + ".join(parts)
        self.rss = max(self.rss, rss / 2**20)

    async def watch(self) -> None:
        while self.running:
            await asyncio.to_thread(self.sample)
            await asyncio.sleep(0.5)


async def open_class(url: str, students: int) -> tuple[Browser, list[Browser]]:
    """A teacher starts a class on the training page and `students` join it."""
    teacher, code = await start_class(url, "train")
    return teacher, await join(url, code, students, "train")


async def teacher_run(teacher: Browser, seed: int) -> float:
    """The teacher sets a new seed and presses Train; seconds until the finished run shows."""
    await teacher.wait_idle()
    teacher.widgets.pop("train.player", None)
    # a number box is a decimal box (kit/state/number_box.py)
    seeded = WidgetState(id=teacher.widgets["train.seed"].id, double_value=float(seed))
    start = time.perf_counter()
    await teacher.click("train.train", seeded)
    await teacher.wait_for(lambda: "train.player" in teacher.widgets, "the teacher's run", 300)
    return time.perf_counter() - start


async def phase(url, teacher, editor, previous, loaded: bool, number: int) -> dict:
    trainers = []
    if loaded:
        trainers = [
            Browser(url, "train", urlencode({**LARGE, "seed": str(5000 + 10 * number + n)}))
            for n in range(10)
        ]
        await asyncio.gather(*(t.open() for t in trainers))
        await asyncio.sleep(3)  # their runs are in line and training
    seconds = await teacher_run(teacher, 100 + number)
    edits = []
    for edit in range(EDITS):
        previous = await editor.edit(cell_value(number, edit), previous)
        edits.append(previous.seconds)
    errors = [e for t in trainers for e in t.errors]
    for trainer in trainers:
        await trainer.close()
    if loaded:
        await asyncio.sleep(LEAVE_SECONDS)
    return {"loaded": loaded, "teacher": seconds, "edits": edits, "errors": errors}, previous


async def measure(url: str, pid: int, rounds: int, students: int) -> tuple[list[dict], Memory]:
    memory = Memory(pid)
    watcher = asyncio.create_task(memory.watch())
    load.RUN_TIMEOUT = 300  # the first run imports the app (a minute on a loaded machine)
    for attempt in range(3):  # the import may starve the server's pings: a new session then
        editor = Session(luong_target(url, (pid,)))
        try:
            previous = await editor.open()
            break
        except (*load.SESSION_ERRORS, websockets.WebSocketException):
            with contextlib.suppress(Exception):
                await editor.close()
            if attempt == 2:
                raise
    load.RUN_TIMEOUT = 60
    memory.warm = memory.pss  # the app's first run (its imports) peaks before the class
    memory.pss = 0.0
    teacher, followers = await open_class(url, students)
    rows = []
    try:
        for number in range(2 * rounds):
            row, previous = await phase(url, teacher, editor, previous, number % 2 == 1, number)
            row["load"] = os.getloadavg()[0]
            rows.append(row)
            kind = "loaded" if row["loaded"] else "quiet"
            print(
                f"  phase {number + 1} ({kind:6}): teacher's run {row['teacher']:6.2f} s, "
                f"Luong edit p50 {statistics.median(row['edits']):.3f} s, "
                f"memory so far PSS {memory.pss:.0f} MB, load {row['load']:.1f}",
                flush=True,
            )
    finally:
        memory.running = False
        await watcher
        for browser in (teacher, *followers):
            rows and rows[-1].setdefault("errors", []).extend(browser.errors)
            await browser.close()
        await editor.close()
    return rows, memory


def report(rows: list[dict], memory: Memory, students: int) -> int:
    quiet = [r for r in rows if not r["loaded"]]
    loaded = [r for r in rows if r["loaded"]]
    teacher = statistics.median(r["teacher"] for r in loaded) / statistics.median(
        r["teacher"] for r in quiet
    )
    edit = statistics.median(e for r in loaded for e in r["edits"]) / statistics.median(
        e for r in quiet for e in r["edits"]
    )
    ok = [teacher <= TEACHER_RATIO, edit <= EDIT_RATIO, memory.pss <= CONTAINER_MB]
    said = ["target met" if good else "TARGET MISSED" for good in ok]
    print(f"\none process, a class of {students} following the training page, 10 trainers:")
    print(f"  teacher's default run, loaded / quiet: {teacher:.2f}× (target ≤ 2×): {said[0]}")
    print(f"  a Luong edit, loaded / quiet: {edit:.2f}× (target ≤ 1.5×): {said[1]}")
    print(
        f"  most memory with the class: PSS {memory.pss:.0f} MB ({memory.parts}: the server "
        f"first) (target ≤ {CONTAINER_MB} MB): {said[2]}; before, the app's first run: "
        f"{memory.warm:.0f} MB; sum of RSS {memory.rss:.0f} MB (counts shared pages again)"
    )
    errors = [e for r in rows for e in r.get("errors", [])]
    print(f"  errors: {len(errors)} {errors[:3]}")
    return 0 if all(ok) and not errors else 1


def kept_run() -> None:
    """One run at the largest settings with the most snapshots, before and after."""
    from attention_core import toy_task, train_attention
    from attention_ui.train import compute, runs
    from attention_ui.train.snapshots import compact_run, size_in_bytes

    task = toy_task("induction", size=compute.TASK_SIZE, seed=0)
    steps = 199  # record_every 1: the most snapshots the page's settings give
    run = train_attention(
        task, "concat", heads=4, d_model=32, steps=steps, record_every=compute.record_every(steps)
    )
    before, after = size_in_bytes(run), size_in_bytes(compact_run(run))
    budget = runs.KEPT_BYTES
    print(
        f"\na kept run at the largest settings ({steps} steps): {len(run.snapshots)} snapshots, "
        f"{before / 2**20:.1f} MB as trained; kept: {len(compact_run(run).snapshots)} "
        f"snapshots, {after / 2**20:.1f} MB ({before / after:.1f}× less); "
        f"{budget / after:.0f} such runs fit the kept runs' {budget / 2**20:.0f} MB"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--kept-run", action="store_true")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="train-service-bench-")
    env = {**os.environ, "ATTENTION_CLASSROOM_DB": os.path.join(folder, "classroom.sqlite")}
    process, url = start_app(env=env, extra_args=SERVER_ARGS)
    try:
        print(f"load average at the start {os.getloadavg()[0]:.1f}")
        rows, memory = asyncio.run(measure(url, process.pid, args.rounds, args.students))
    finally:
        stop_app(process)
    status = report(rows, memory, args.students)
    if args.kept_run:
        kept_run()
    return status


if __name__ == "__main__":
    sys.exit(main())
