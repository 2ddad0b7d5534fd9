"""A class at once: many sessions editing the Luong explorer on one server.

Starts `streamlit run app.py` on a free loopback port, then drives sessions as WebSocket clients
speaking Streamlit's own protocol (the protobuf BackMsg/ForwardMsg the browser sends and
receives on /_stcore/stream), so twenty "students" cost a few coroutines, not twenty browsers.
Each session opens the Luong page and makes a series of edits to a cell of Q, the way the grid
sends them (the data editor's JSON state as a widget value), and times each edit from sending
the rerun request to the end of the run (all of the page's elements received).

It measures, in the same run: one session alone (the baseline), then all sessions at once, and
prints p50 / p95 latency per edit for both and their ratio, the error count (an exception on
the page, a run that did not finish, a timeout, or an edit that did not change the charts),
and the server's memory (RSS of the server process and its children) before, with every
session connected, and after they left, with the memory per session and what a class of 30
would need against Community Cloud's smallest container (about 690 MB).

Run (from the repository root, in the dev environment; takes about a minute):

    python bench/load.py                         # 20 sessions × 25 edits
    python bench/load.py --sessions 5 --edits 10 # a quick look

Everything is bounded: at most 50 sessions × 100 edits, 60 s per edit, 10 minutes overall,
and only the loopback interface. Exit status 1 when any error occurred.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run from anywhere
from tests.app_server import start_app, stop_app  # noqa: E402

PAGE = "luong"
EDITOR_KEY = "luong.Q.editor."  # the Q grid's widget key, before its version number
CELL = ("0", "q1")  # row position (as the browser's JSON sends it) and column label
RUN_TIMEOUT = 60.0
OVERALL_TIMEOUT = 600.0
MAX_SESSIONS, MAX_EDITS = 50, 100
CLASS_SIZE, CONTAINER_MB = 30, 690


def memory_mb(pid: int) -> float:
    """Resident memory of the server and its children, in MB."""
    process = psutil.Process(pid)
    total = process.memory_info().rss
    for child in process.children(recursive=True):
        with contextlib.suppress(psutil.NoSuchProcess):
            total += child.memory_info().rss
    return total / 2**20


@dataclass
class Run:
    """What one script run sent back."""

    seconds: float
    status: int | None = None
    exceptions: list[str] = field(default_factory=list)
    editor_id: str | None = None
    charts: list[str] = field(default_factory=list)  # each plotly chart's spec (or its hash)
    page_hash: str = ""


class Session:
    """One student: a WebSocket to the server, speaking BackMsg / ForwardMsg."""

    def __init__(self, port: int) -> None:
        self.url = f"ws://127.0.0.1:{port}/_stcore/stream"
        self.socket = None
        self.page_hash = ""
        self.widgets: dict[str, WidgetState] = {}
        self.editor_id: str | None = None
        self.errors: list[str] = []

    async def open(self) -> Run:
        self.socket = await websockets.connect(self.url, subprotocols=["streamlit"],
                                               max_size=2**26, open_timeout=30)
        run = await self.rerun(first=True)
        self.page_hash, self.editor_id = run.page_hash, run.editor_id
        if not self.page_hash:
            self.errors.append("the server named no page")
        if self.editor_id is None:
            self.errors.append(f"no grid with key {EDITOR_KEY}* on the page")
        return run

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()

    async def rerun(self, first: bool = False) -> Run:
        message = BackMsg()
        state = message.rerun_script
        state.query_string = ""
        if first:
            state.page_name = PAGE
        else:
            state.page_script_hash = self.page_hash
        state.widget_states.widgets.extend(self.widgets.values())
        start = time.perf_counter()
        await self.socket.send(message.SerializeToString())
        run = Run(seconds=0.0)
        while True:
            data = await asyncio.wait_for(self.socket.recv(), RUN_TIMEOUT)
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if kind == "navigation":  # the page that ran (new_session names the router)
                run.page_hash = msg.navigation.page_script_hash
            elif kind == "ref_hash":
                run.charts.append(f"cached:{msg.ref_hash}")
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                self._read_element(msg.delta.new_element, run)
            elif kind == "script_finished":
                run.status = msg.script_finished
                if run.status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # a rerun follows; wait for its end
                break
        run.seconds = time.perf_counter() - start
        if run.status != ForwardMsg.FINISHED_SUCCESSFULLY:
            self.errors.append(f"run finished with status {run.status}")
        self.errors += [f"exception on the page: {text}" for text in run.exceptions]
        return run

    @staticmethod
    def _read_element(element, run: Run) -> None:
        kind = element.WhichOneof("type")
        if kind == "exception":
            run.exceptions.append(f"{element.exception.type}: {element.exception.message}")
        elif kind == "dataframe" and EDITOR_KEY in element.dataframe.id:
            run.editor_id = element.dataframe.id
        elif kind == "plotly_chart":
            run.charts.append(element.plotly_chart.spec)

    async def edit(self, value: float, previous: Run) -> Run:
        """Type `value` into Q's first cell, as the grid reports it, and wait for the run."""
        if self.editor_id is None:
            raise RuntimeError("no editor")
        edited = {"edited_rows": {CELL[0]: {CELL[1]: value}}, "added_rows": [],
                  "deleted_rows": []}
        self.widgets[self.editor_id] = WidgetState(id=self.editor_id,
                                                   string_value=json.dumps(edited))
        run = await self.rerun()
        if run.charts == previous.charts:
            self.errors.append(f"editing the cell to {value} changed no chart")
        return run


async def student(port: int, edits: int, number: int, latencies: list[float],
                  sessions: list[Session], ready: asyncio.Barrier | None) -> None:
    session = Session(port)
    sessions.append(session)
    try:
        previous = await session.open()
        if ready is not None:
            await ready.wait()  # every student has the page open; now they all type at once
        for edit in range(edits):
            # A new value each time, in the grid's range, ending in .37 or .87 so that it never
            # equals a preset's entry: every edit must change the charts.
            value = round(0.5 * ((7 * number + 3 * edit) % 17) - 4 + 0.37, 2)
            previous = await session.edit(value, previous)
            latencies.append(previous.seconds)
    except (TimeoutError, websockets.WebSocketException, OSError, RuntimeError) as error:
        session.errors.append(f"{type(error).__name__}: {error}")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 \
        else values[0]


async def phase(port: int, count: int, edits: int, keep_open: bool
                ) -> tuple[list[float], list[Session], float]:
    """`count` students making `edits` edits each, all at once; (latencies, sessions, wall s)."""
    latencies: list[float] = []
    sessions: list[Session] = []
    ready = asyncio.Barrier(count) if count > 1 else None
    start = time.perf_counter()
    await asyncio.gather(*(student(port, edits, number, latencies, sessions, ready)
                           for number in range(count)))
    wall = time.perf_counter() - start
    if not keep_open:
        await asyncio.gather(*(session.close() for session in sessions))
    return latencies, sessions, wall


async def sample_peak(pid: int, peak: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        peak[0] = max(peak[0], memory_mb(pid))
        await asyncio.sleep(0.2)


async def measure(port: int, pid: int, count: int, edits: int) -> dict:
    figures: dict = {"memory": {}}
    await phase(port, 1, 2, keep_open=False)  # warm up: imports, caches, first page build
    await asyncio.sleep(2)
    figures["memory"]["before"] = memory_mb(pid)
    single, single_sessions, figures["single_wall"] = await phase(port, 1, edits, False)
    peak, stop = [0.0], asyncio.Event()
    sampler = asyncio.create_task(sample_peak(pid, peak, stop))
    loaded, sessions, figures["loaded_wall"] = await phase(port, count, edits, True)
    stop.set()
    await sampler
    figures["memory"]["peak"] = peak[0]
    figures["memory"]["with_sessions"] = memory_mb(pid)
    await asyncio.gather(*(session.close() for session in sessions))
    await asyncio.sleep(5)  # let the server notice the sessions are gone
    figures["memory"]["after"] = memory_mb(pid)
    figures["single"], figures["loaded"] = single, loaded
    figures["errors"] = [error for session in single_sessions + sessions
                         for error in session.errors]
    figures["expected_edits"] = edits * (1 + count)
    return figures


def report(figures: dict, count: int, edits: int) -> int:
    single, loaded, memory = figures["single"], figures["loaded"], figures["memory"]
    rows = [("1 session (baseline)", single), (f"{count} sessions at once", loaded)]
    print(f"\nLuong explorer: {edits} edits of a cell of Q per session (seconds per edit)")
    print(f"{'':26}{'edits':>7}{'p50':>9}{'p95':>9}{'max':>9}")
    for name, values in rows:
        print(f"{name:26}{len(values):>7}{percentile(values, 50):>9.3f}"
              f"{percentile(values, 95):>9.3f}{max(values, default=float('nan')):>9.3f}")
    p50_ratio = percentile(loaded, 50) / percentile(single, 50)
    p95_ratio = percentile(loaded, 95) / percentile(single, 95)
    print(f"{'ratio (load / baseline)':26}{'':7}{p50_ratio:>9.1f}{p95_ratio:>9.1f}")
    print(f"throughput: {len(single) / figures['single_wall']:.1f} edits/s alone, "
          f"{len(loaded) / figures['loaded_wall']:.1f} edits/s with {count} sessions")

    done = len(single) + len(loaded)
    errors = figures["errors"]
    missing = figures["expected_edits"] - done
    print(f"\nerrors: {len(errors)} (edits completed: {done} of {figures['expected_edits']})")
    for error in errors[:10]:
        print(f"  - {error}")

    per_session = (memory["with_sessions"] - memory["before"]) / max(count, 1)
    class_mb = memory["before"] + CLASS_SIZE * per_session
    print("\nserver memory (RSS, server and children, MB)")
    print(f"  before (idle, after a warm-up run)   {memory['before']:8.1f}")
    print(f"  peak while {count} sessions edited{'':<5}{memory['peak']:8.1f}")
    print(f"  with {count} sessions connected{'':<9}{memory['with_sessions']:8.1f}")
    print(f"  after they left (5 s later)          {memory['after']:8.1f}")
    print(f"  per session                          {per_session:8.1f}")
    verdict = "fits" if class_mb < 0.75 * CONTAINER_MB else "TOO TIGHT"
    print(f"  a class of {CLASS_SIZE}: about {class_mb:.0f} MB of ~{CONTAINER_MB} MB "
          f"({100 * class_mb / CONTAINER_MB:.0f}%): {verdict}")
    return 1 if errors or missing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--edits", type=int, default=25)
    args = parser.parse_args()
    count = max(1, min(args.sessions, MAX_SESSIONS))
    edits = max(1, min(args.edits, MAX_EDITS))

    process, url = start_app(extra_args=("--server.runOnSave", "false"))
    port = int(url.rsplit(":", 1)[1])
    try:
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"server pid {process.pid} on 127.0.0.1:{port}; {os.cpu_count()} CPUs, "
              f"load average {load} (a busy machine inflates every latency)")
        figures = asyncio.run(asyncio.wait_for(measure(port, process.pid, count, edits),
                                               OVERALL_TIMEOUT))
    finally:
        stop_app(process)
    return report(figures, count, edits)


if __name__ == "__main__":
    sys.exit(main())
