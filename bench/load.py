"""A class at once: many sessions editing the Luong explorer, against the floor of the stack.

Starts `streamlit run app.py` on a free loopback port, then drives sessions as WebSocket clients
speaking Streamlit's own protocol (the protobuf BackMsg/ForwardMsg the browser sends and
receives on /_stcore/stream), so twenty "students" cost a few coroutines, not twenty browsers.
Each session fetches the page's address (as a browser does, keeping any cookie it is given),
opens the Luong page and edits a cell of Q the way the grid sends it (the data editor's JSON
state as a widget value); an edit is timed from sending the rerun request to the end of the run
(all of the page's elements received). An error is an exception on the page, a run that did not
finish, a timeout, or an edit that changed no chart.

The baseline is the floor of this stack for the same job: bench/floor_app.py, a page with the
Luong page's Q, K, V grids (the same editor) and its S, A, O heatmaps (the same builder, one
engine run) and nothing else, on its own server, driven by the same harness in the same run.
The machine may be shared, so baseline and subject phases are interleaved and every figure is
a ratio measured in the same run, printed with the load average (1 min) at the time.
Modes (--modes, comma-separated):

- closed: N sessions (default 20) editing back to back, rounds × (floor, Luong); throughput
  ratio Luong / floor (target ≥ 0.8), p50/p95 latency, the servers' processor time per edit
  (steadier than the wall clock when other jobs share the machine), memory per session.
- open:   a class model: 30 sessions, each editing at random intervals (exponential, mean 3 s)
  for a fixed time; an edit's latency counts from when it was due, so a queue shows. p50, p95,
  max for floor and Luong (target: Luong's p95 ≤ 0.5 s and ≤ 2× the floor's).
- soak:   200 sessions connect, edit and leave in waves on a server that drops a left session
  after 2 s (server.disconnectedSessionTTL; the default keeps it 2 minutes for a reconnect);
  server memory after each wave against after the first (target: the last within 10 %).
- gc:     closed loop on the Luong page with Streamlit's forced full garbage collection after
  every run (runner.postScriptGC true, Streamlit's default) against the repository's setting.
- class:  a classroom (bench/class_load.py): 1 teacher + --class-size followers (30) on the
  SQLite default; follow latency p50/p95 (target 3 s), server CPU of the idle followers
  (target ≤ 10 % of one core), votes sent against counted.
- proxy:  --proxy N app processes behind nginx (deploy/nginx.conf, Debian's nginx run as this
  user with its own prefix) against one process alone: closed-loop throughput ratio, errors,
  and how many sessions each process served.

Run (from the repository root, in the dev environment):

    python bench/load.py                           # closed, open, soak: 5 min on a quiet machine
    python bench/load.py --modes closed --sessions 5 --edits 10   # a quick look
    python bench/load.py --modes proxy --proxy 2   # needs nginx
    python bench/load.py --modes closed,open --baseline /tmp/base   # also another checkout

With `--baseline DIR` (another checkout of the app, served from DIR with this Python), the
closed and open modes also drive that checkout's Luong page, interleaved with the others, and
print its ratios against the same floor.

Everything is bounded (at most 50 sessions × 100 edits in a closed phase, 300 in a soak,
120 s of open loop, 60 s per edit, 30 minutes overall) and stays on the loopback interface.
Exit status 1 when any error occurred.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run from anywhere
from bench.class_load import report, run_class  # noqa: E402
from tests.app_server import start_app, stop_app  # noqa: E402
from tests.proxy_server import start_proxy, stop_proxy, upstream_sessions  # noqa: E402

CELL = ("0", "q1")  # row position (as the browser's JSON sends it) and column label
# The Q grid's widget, by the key its element's id carries: the matrix editor (a custom
# component) or, on an older checkout, st.data_editor (whose key ends in a version number).
GRID_IDS = {"bidi_component": "{}.cells", "dataframe": "{}.editor."}
RUN_TIMEOUT = 60.0
OVERALL_TIMEOUT = 1800.0
MAX_SESSIONS, MAX_EDITS, MAX_SOAK, MAX_OPEN_SECONDS = 50, 100, 300, 120.0
CLASS_SIZE, CONTAINER_MB = 30, 690
SOAK_TTL = 2  # seconds a left session is kept on the soak's server
THROUGHPUT_TARGET, OPEN_P95_TARGET, OPEN_P95_RATIO, SOAK_TARGET = 0.8, 0.5, 2.0, 0.10
SERVER_ARGS = ("--server.runOnSave", "false")
FINISHED = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
PY_SPY = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))


@dataclass(frozen=True)
class Target:
    """A page to drive: where it is served, which page, and its Q grid's widget key prefix."""

    name: str
    url: str  # http://127.0.0.1:port (a server, or nginx in front of several)
    page: str  # the page name to open ("" for a one-page app)
    editor_key: str  # the Q grid's state key (its widget key is this plus GRID_IDS' tail)
    pids: tuple[int, ...] = ()  # the server processes behind it (for memory)


def luong_target(url: str, pids: tuple[int, ...], name: str = "Luong page") -> Target:
    return Target(name, url, "luong", "luong.Q", pids)


def load_average() -> float:
    return os.getloadavg()[0]


def memory_mb(pids: tuple[int, ...]) -> float:
    """Resident memory of the server processes and their children, in MB."""
    total = 0
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess):
            process = psutil.Process(pid)
            total += process.memory_info().rss
            for child in process.children(recursive=True):
                with contextlib.suppress(psutil.NoSuchProcess):
                    total += child.memory_info().rss
    return total / 2**20


def cpu_seconds(pids: tuple[int, ...]) -> float:
    """Processor time (user + system) the server processes have used so far, in seconds: on a
    shared machine a steadier measure of work per edit than the wall clock."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = psutil.Process(pid).cpu_times()
            total += times.user + times.system
    return total


@dataclass
class Run:
    """What one script run sent back."""

    seconds: float
    status: int | None = None
    exceptions: list[str] = field(default_factory=list)
    editor_id: str | None = None
    editor_kind: str = ""  # the grid's element type, a key of GRID_IDS
    editor_data: dict = field(default_factory=dict)  # the matrix editor's data (rows, cols)
    editor_fragment: str = ""  # the st.fragment the grid is drawn in ("" for none)
    charts: list[str] = field(default_factory=list)  # each plotly chart's spec (or its hash)
    page_hash: str = ""
    messages: int = 0  # forward messages received for this run (deltas, chart refs, ...)


def _fetch(url: str, cookie: str) -> str:
    """GET `url` (with `cookie`); returns the cookie to keep (the one set, or the old one)."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=RUN_TIMEOUT) as response:
        response.read()
        cookies = [c.split(";")[0] for c in response.headers.get_all("Set-Cookie") or []]
    kept = dict(c.split("=", 1) for c in [*filter(None, cookie.split("; ")), *cookies])
    return "; ".join(f"{name}={value}" for name, value in kept.items())


LIVE_CHART = "attention_live_chart"  # attention_ui/kit/figures/live_chart.py


class Session:
    """One student: a browser's cookie jar and a WebSocket to the server."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.socket = None
        self.cookie = ""
        self.page_hash = ""
        self.widgets: dict[str, WidgetState] = {}
        self.editor_id: str | None = None
        self.editor_kind = ""
        self.editor_data: dict = {}
        self.editor_fragment = ""
        self.token = f"load{random.getrandbits(40):x}"  # the matrix editor's browser token
        self.entries = 0
        self.errors: list[str] = []

    async def open(self) -> Run:
        base = self.target.url
        self.cookie = await asyncio.to_thread(_fetch, f"{base}/{self.target.page}", "")
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self.socket = await websockets.connect(
            f"ws{base.removeprefix('http')}/_stcore/stream",
            subprotocols=["streamlit"],
            additional_headers=headers,
            max_size=2**26,
            open_timeout=30,
        )
        # The browser's own HTTP requests of a session go with the same cookie.
        await asyncio.to_thread(_fetch, f"{base}/_stcore/host-config", self.cookie)
        run = await self.rerun(first=True)
        self.page_hash, self.editor_id = run.page_hash, run.editor_id
        self.editor_kind, self.editor_data = run.editor_kind, run.editor_data
        self.editor_fragment = run.editor_fragment
        if not self.page_hash:
            self.errors.append("the server named no page")
        if self.editor_id is None:
            self.errors.append(f"no grid with key {self.target.editor_key}* on the page")
        return run

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()

    async def rerun(self, first: bool = False, fragment: str = "") -> Run:
        """A run of the page (or, as the browser asks after a widget in an st.fragment
        changed, of that `fragment` only)."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = ""
        if first:
            state.page_name = self.target.page
        else:
            state.page_script_hash = self.page_hash
        if fragment:
            state.fragment_id = fragment
        state.widget_states.widgets.extend(self.widgets.values())
        start = time.perf_counter()
        await self.socket.send(message.SerializeToString())
        run = Run(seconds=0.0)
        while True:
            data = await asyncio.wait_for(self.socket.recv(), RUN_TIMEOUT)
            msg = ForwardMsg()
            msg.ParseFromString(data)
            run.messages += 1
            kind = msg.WhichOneof("type")
            if kind == "navigation":  # the page that ran (new_session names the router)
                run.page_hash = msg.navigation.page_script_hash
            elif kind == "new_session" and not run.page_hash:  # a one-page app
                run.page_hash = msg.new_session.page_script_hash
            elif kind == "ref_hash":
                run.charts.append(f"cached:{msg.ref_hash}")
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                self._read_element(msg.delta.new_element, run, msg.delta.fragment_id)
            elif kind == "script_finished":
                run.status = msg.script_finished
                if run.status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # a rerun follows; wait for its end
                break
        run.seconds = time.perf_counter() - start
        if run.status not in FINISHED:
            self.errors.append(f"run finished with status {run.status}")
        self.errors += [f"exception on the page: {text}" for text in run.exceptions]
        return run

    def _read_element(self, element, run: Run, fragment: str) -> None:
        kind = element.WhichOneof("type")
        if kind == "exception":
            run.exceptions.append(f"{element.exception.type}: {element.exception.message}")
        elif (
            kind in GRID_IDS
            and GRID_IDS[kind].format(self.target.editor_key) in getattr(element, kind).id
        ):
            run.editor_id, run.editor_kind, run.editor_fragment = (
                getattr(element, kind).id,
                kind,
                fragment,
            )
            if kind == "bidi_component":
                with contextlib.suppress(ValueError):
                    run.editor_data = json.loads(element.bidi_component.json or "{}")
        elif kind == "plotly_chart":
            run.charts.append(element.plotly_chart.spec)
        elif kind == "bidi_component" and element.bidi_component.component_name == LIVE_CHART:
            run.charts.append(element.bidi_component.bytes)  # the kit's chart (figure inside)

    async def edit(self, value: float, previous: Run) -> Run:
        """Type `value` into Q's first cell, as the grid reports it, and wait for the run."""
        if self.editor_id is None:
            raise RuntimeError("no editor")
        self.widgets[self.editor_id] = self._grid_state(value)
        run = await self.rerun(fragment=self.editor_fragment)
        if run.charts == previous.charts:
            self.errors.append(f"editing the cell to {value} changed no chart")
        return run

    def _grid_state(self, value: float) -> WidgetState:
        """The grid's widget state after typing `value` into Q's first cell and pressing Enter,
        as the browser sends it."""
        if self.editor_kind == "dataframe":
            edited = {
                "edited_rows": {CELL[0]: {CELL[1]: value}},
                "added_rows": [],
                "deleted_rows": [],
            }
            return WidgetState(id=self.editor_id, string_value=json.dumps(edited))
        self.entries += 1  # one entry, numbered; the run it rides in acknowledges it
        data = self.editor_data
        entry = {
            "cells": [[0, 0, str(value)]],
            "n": self.entries,
            "rows": data.get("rows", []),
            "cols": [c.get("label") if isinstance(c, dict) else c for c in data.get("cols", [])],
        }
        edit = {"token": self.token, "n": self.entries, "entries": [entry]}
        return WidgetState(id=self.editor_id, json_value=json.dumps({"edit": edit}))


SESSION_ERRORS = (TimeoutError, websockets.WebSocketException, OSError, RuntimeError)


def cell_value(number: int, edit: int) -> float:
    """A new value each time, in the grid's range, ending in .37 or .87 so that it never
    equals a preset's entry: every edit must change the charts."""
    return round(0.5 * ((7 * number + 3 * edit) % 17) - 4 + 0.37, 2)


def percentile(values: list[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


@dataclass
class Phase:
    """What one phase measured."""

    target: str
    load: float  # the 1-minute load average as the phase ended
    latencies: list[float] = field(default_factory=list)
    wall: float = 0.0
    errors: list[str] = field(default_factory=list)
    expected: int = 0
    memory: dict[str, float] = field(default_factory=dict)
    cpu: float = float("nan")  # server processor seconds used during the phase
    messages: int = 0  # forward messages the edits' runs sent back, all sessions together

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.wall if self.wall else float("nan")

    @property
    def cpu_per_edit(self) -> float:
        return self.cpu / len(self.latencies) if self.latencies else float("nan")

    @property
    def messages_per_edit(self) -> float:
        return self.messages / len(self.latencies) if self.latencies else float("nan")


async def closed_phase(target: Target, count: int, edits: int) -> Phase:
    """`count` students editing back to back, all at once (after all have the page open)."""
    sessions = [Session(target) for _ in range(count)]
    latencies: list[float] = []
    ready = asyncio.Barrier(count)
    clock: list[float] = []

    async def student(number: int, session: Session) -> None:
        previous = None
        try:
            previous = await session.open()
        except SESSION_ERRORS as error:
            session.errors.append(f"{type(error).__name__}: {error}")
        await ready.wait()  # every student has the page open; now they all type at once
        if not clock:  # the first through the barrier starts the clocks
            cpu_start.append(cpu_seconds(target.pids))
        clock.append(time.perf_counter())
        if previous is None:
            return
        try:
            for edit in range(edits):
                previous = await session.edit(cell_value(number, edit), previous)
                latencies.append(previous.seconds)
                messages.append(previous.messages)
        except SESSION_ERRORS as error:
            session.errors.append(f"{type(error).__name__}: {error}")

    memory = {"before": memory_mb(target.pids)}
    cpu_start: list[float] = []
    messages: list[int] = []
    await asyncio.gather(*(student(n, s) for n, s in enumerate(sessions)))
    wall = time.perf_counter() - min(clock)
    cpu = cpu_seconds(target.pids) - cpu_start[0]
    memory["with_sessions"] = memory_mb(target.pids)
    await asyncio.gather(*(s.close() for s in sessions))
    return Phase(
        target.name,
        load_average(),
        latencies,
        wall,
        [e for s in sessions for e in s.errors],
        count * edits,
        memory,
        cpu,
        sum(messages),
    )


async def open_phase(target: Target, count: int, seconds: float, mean: float, seed: int) -> Phase:
    """`count` students, each editing at exponential intervals of mean `mean` s for `seconds`:
    an edit is due at its own time whether or not the last one has answered, and its latency
    runs from when it was due (a student waits for the answer before typing again)."""
    sessions = [Session(target) for _ in range(count)]
    opened = await asyncio.gather(*(s.open() for s in sessions), return_exceptions=True)
    latencies: list[float] = []
    start = time.perf_counter()
    end = start + seconds
    due_total = 0

    async def student(number: int, session: Session, previous: Run) -> None:
        nonlocal due_total
        rng = random.Random(seed * 1000 + number)
        due = start + rng.expovariate(1 / mean)
        edit = 0
        while due < end:
            due_total += 1
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            try:
                previous = await session.edit(cell_value(number, edit), previous)
            except SESSION_ERRORS as error:
                session.errors.append(f"{type(error).__name__}: {error}")
                return
            latencies.append(time.perf_counter() - due)
            edit += 1
            due += rng.expovariate(1 / mean)

    await asyncio.gather(
        *(
            student(n, s, run)
            for n, (s, run) in enumerate(zip(sessions, opened, strict=True))
            if isinstance(run, Run)
        )
    )
    wall = time.perf_counter() - start
    await asyncio.gather(*(s.close() for s in sessions))
    errors = [f"{type(r).__name__}: {r}" for r in opened if not isinstance(r, Run)]
    return Phase(
        target.name,
        load_average(),
        latencies,
        wall,
        errors + [e for s in sessions for e in s.errors],
        due_total,
    )


async def soak(target: Target, total: int, waves: int, edits: int) -> tuple[Phase, list[dict]]:
    """`total` students in `waves`: each wave connects, edits and leaves; memory after each
    wave, once the server has dropped the wave's sessions (its TTL, then one more visit, which
    is when the server's session store lets expired sessions go)."""
    per_wave = max(1, total // waves)
    phase = Phase(target.name, 0.0, expected=per_wave * waves * edits)
    rows = []
    for wave in range(waves):
        result = await closed_phase(target, per_wave, edits)
        phase.latencies += result.latencies
        phase.errors += result.errors
        await asyncio.sleep(SOAK_TTL + 1)
        probe = Session(target)
        with contextlib.suppress(*SESSION_ERRORS):
            await probe.open()
        await probe.close()
        await asyncio.sleep(2)
        rows.append(
            {
                "wave": wave + 1,
                "sessions": per_wave * (wave + 1),
                "peak_with_wave": result.memory["with_sessions"],
                "after": memory_mb(target.pids),
                "load": load_average(),
            }
        )
    phase.load = load_average()
    return phase, rows


# -- reports ----------------------------------------------------------------------------------


def latency_row(name: str, phase: Phase) -> str:
    values = phase.latencies
    return (
        f"  {name:30}{len(values):>6}{percentile(values, 50):>8.3f}"
        f"{percentile(values, 95):>8.3f}{max(values, default=float('nan')):>8.3f}"
        f"{phase.throughput:>9.1f}{1000 * phase.cpu_per_edit:>9.0f}"
        f"{phase.messages_per_edit:>7.0f}{phase.load:>7.1f}"
    )


LATENCY_HEADER = (
    f"  {'':30}{'edits':>6}{'p50':>8}{'p95':>8}{'max':>8}{'edits/s':>9}{'cpu ms':>9}"
    f"{'msgs':>7}{'load':>7}"
    "\n  (seconds per edit; edits/s: all sessions together; cpu ms: server processor time per"
    " edit; msgs: forward messages per edit (closed loop); load: 1-min load average)"
)


def verdict(ok: bool) -> str:
    return "target met" if ok else "TARGET MISSED"


def pair_report(title: str, pairs: list[tuple[Phase, Phase]], target: float | None) -> float:
    """Rounds of (baseline, subject); prints each and the overall throughput ratio."""
    print(f"\n{title}")
    print(LATENCY_HEADER)
    for number, (base, subject) in enumerate(pairs, 1):
        print(latency_row(f"round {number}: {base.target}", base))
        print(latency_row(f"round {number}: {subject.target}", subject))
        print(
            f"  {'':30}throughput ratio {subject.throughput / base.throughput:.2f}×, "
            f"processor time per edit {subject.cpu_per_edit / base.cpu_per_edit:.2f}×"
        )
    base_rate = sum(len(b.latencies) for b, _ in pairs) / sum(b.wall for b, _ in pairs)
    subject_rate = sum(len(s.latencies) for _, s in pairs) / sum(s.wall for _, s in pairs)
    ratio = subject_rate / base_rate
    base_cpu = sum(b.cpu for b, _ in pairs) / sum(len(b.latencies) for b, _ in pairs)
    subject_cpu = sum(s.cpu for _, s in pairs) / sum(len(s.latencies) for _, s in pairs)
    loads = [p.load for pair in pairs for p in pair]
    line = (
        f"  overall: {subject_rate:.1f} against {base_rate:.1f} edits/s, ratio {ratio:.2f}× "
        f"(load average {min(loads):.1f}–{max(loads):.1f}); server processor time per edit "
        f"{1000 * subject_cpu:.0f} against {1000 * base_cpu:.0f} ms, "
        f"{subject_cpu / base_cpu:.2f}×"
    )
    if target is not None:
        line += f"; target ≥ {target}×: {verdict(ratio >= target)}"
    print(line)
    return ratio


def memory_report(pairs: list[tuple[Phase, Phase]], count: int) -> None:
    print(f"\nserver memory (RSS, MB) in the closed loop with {count} sessions connected")
    for base, subject in pairs[-1:]:
        for phase in (base, subject):
            m = phase.memory
            per = (m["with_sessions"] - m["before"]) / max(count, 1)
            print(
                f"  {phase.target:30}before {m['before']:7.1f}  with sessions "
                f"{m['with_sessions']:7.1f}  per session {per:5.1f}"
            )
        m = subject.memory
        class_mb = m["before"] + CLASS_SIZE * (m["with_sessions"] - m["before"]) / max(count, 1)
        fits = "fits" if class_mb < 0.75 * CONTAINER_MB else "TOO TIGHT"
        print(
            f"  a class of {CLASS_SIZE} on the Luong page: about {class_mb:.0f} MB of "
            f"~{CONTAINER_MB} MB ({100 * class_mb / CONTAINER_MB:.0f}%): {fits}"
        )


def errors_report(phases: list[Phase]) -> int:
    errors = [e for p in phases for e in p.errors]
    missing = sum(max(0, p.expected - len(p.latencies)) for p in phases)
    done = sum(len(p.latencies) for p in phases)
    print(f"\nerrors: {len(errors)} (edits completed: {done}, missing: {missing})")
    for error in errors[:10]:
        print(f"  - {error}")
    return 1 if errors or missing else 0


# -- modes ------------------------------------------------------------------------------------


class Servers:
    """The servers a run starts, all stopped at the end whatever happens."""

    def __init__(self) -> None:
        self.apps = []
        self.proxies = []

    def app(
        self,
        *args: str,
        script: str = "app.py",
        script_args: tuple[str, ...] = (),
        cwd: Path = REPO,
    ) -> tuple[str, tuple[int, ...]]:
        process, url = start_app(
            cwd=cwd, extra_args=(*SERVER_ARGS, *args), script=script, script_args=script_args
        )
        self.apps.append(process)
        return url, (process.pid,)

    def stop(self) -> None:
        for proxy in self.proxies:
            stop_proxy(proxy)
        for process in self.apps:
            stop_app(process)


@contextlib.contextmanager
def profiled(target: Target, folder: Path | None):
    """With a folder: py-spy samples the target's server while the block runs, then writes
    its stacks (folder/<name>.txt, collapsed) and prints where the time went."""
    if folder is None:
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{target.name.split()[0]}.txt"
    spy = subprocess.Popen(
        [
            PY_SPY,
            "record",
            "-p",
            str(target.pids[0]),
            "-r",
            "50",
            "--gil",
            "-f",
            "raw",
            "-o",
            str(out),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield
    finally:
        spy.send_signal(signal.SIGINT)  # py-spy writes its file when interrupted
        spy.wait(timeout=60)
    profile_report(target.name, out)


def profile_report(name: str, path: Path, top: int = 18) -> None:
    """The functions holding the most samples of the script runner's threads (inclusive)."""
    totals: dict[str, int] = {}
    samples = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        samples += int(count)
        seen = set()
        for frame in stack.split(";"):
            function = re.sub(r":\d+\)$", ")", frame.strip())
            function = re.sub(r"\(.*site-packages/", "(", function)
            function = re.sub(r"\(" + re.escape(str(REPO)) + "/", "(", function)
            if function not in seen:
                seen.add(function)
                totals[function] = totals.get(function, 0) + int(count)
    print(
        f"\nprofile of the {name}'s server ({samples} samples, every thread; py-spy raw "
        f"stacks in {path}): functions by share of samples, callers included"
    )
    for function, count in sorted(totals.items(), key=lambda item: -item[1])[:top]:
        print(f"  {100 * count / max(samples, 1):5.1f}%  {function[:110]}")


async def chart_shapes(target: Target) -> list[tuple[int, int]]:
    """The (rows, columns) of every heatmap the page draws when it opens."""
    session = Session(target)
    run = await session.open()
    await session.close()
    if session.errors:
        raise RuntimeError(f"the {target.name} did not open cleanly: {session.errors}")
    shapes = []
    for spec in run.charts:
        figure = json.loads(spec)
        trace = figure.get("figure", figure)["data"][0]  # (a live chart's document holds it)
        z = trace["z"]
        if isinstance(z, dict):  # a typed array: {"dtype", "bdata", "shape": "rows, cols"}
            shapes.append(tuple(int(s) for s in str(z["shape"]).split(",")))
        else:
            shapes.append((len(z), len(z[0])))
    return shapes


async def floor_target(servers: Servers, luong: Target, *args: str) -> Target:
    """The floor page on its own server; it must draw as many heatmaps of the same shapes as
    the Luong page does when it opens (else the comparison is not of the same job)."""
    url, pids = servers.app(*args, script="bench/floor_app.py")
    floor = Target("floor page", url, "", luong.editor_key, pids)
    shapes, floor_shapes = await chart_shapes(luong), await chart_shapes(floor)
    if shapes[: len(floor_shapes)] != floor_shapes:
        raise RuntimeError(f"the floor draws {floor_shapes}, the Luong page {shapes}")
    print(f"floor page: the Luong page's grids and its {len(floor_shapes)} heatmaps {floor_shapes}")
    return floor


async def warm(*targets: Target) -> None:
    for target in targets:
        phase = await closed_phase(target, 1, 2)
        if phase.errors:
            raise RuntimeError(f"warm-up on the {target.name}: {phase.errors[:3]}")


def baseline_target(servers: Servers, args, gc_args: tuple[str, ...]) -> list[Target]:
    """The Luong page of the `--baseline` checkout, if one was given."""
    if args.baseline is None:
        return []
    return [luong_target(*servers.app(*gc_args, cwd=args.baseline), name="baseline Luong")]


async def run_closed(servers: Servers, args, gc_args: tuple[str, ...]) -> list[Phase]:
    luong = luong_target(*servers.app(*gc_args))
    floor = await floor_target(servers, luong, *gc_args)
    others = baseline_target(servers, args, gc_args)
    await warm(floor, luong, *others)
    single = [await closed_phase(t, 1, args.edits) for t in (floor, luong, *others)]
    print(f"\none session alone ({args.edits} edits)")
    print(LATENCY_HEADER)
    for phase in single:
        print(latency_row(phase.target, phase))
    pairs, baseline_pairs = [], []
    for number in range(args.rounds):
        profiling = args.profile is not None and number == 0
        with profiled(floor, args.profile if profiling else None):
            base = await closed_phase(floor, args.sessions, args.edits)
        with profiled(luong, args.profile if profiling else None):
            subject = await closed_phase(luong, args.sessions, args.edits)
        pairs.append((base, subject))
        for other in others:  # the same round's floor is its baseline too
            baseline_pairs.append((base, await closed_phase(other, args.sessions, args.edits)))
    title = (
        f"closed loop: {args.sessions} sessions editing back to back, "
        f"{args.edits} edits each (seconds per edit)"
    )
    pair_report(title, pairs, THROUGHPUT_TARGET)
    if baseline_pairs:
        pair_report(f"{title}: the baseline checkout", baseline_pairs, THROUGHPUT_TARGET)
    memory_report(pairs, args.sessions)
    return single + [p for pair in pairs + baseline_pairs for p in pair]


async def run_open(servers: Servers, args, gc_args: tuple[str, ...]) -> list[Phase]:
    luong = luong_target(*servers.app(*gc_args))
    floor = await floor_target(servers, luong, *gc_args)
    others = baseline_target(servers, args, gc_args)
    await warm(floor, luong, *others)
    phases = []
    for target in (floor, luong, *others):
        phases.append(
            await open_phase(
                target, args.open_sessions, args.open_seconds, args.mean_interval, seed=1
            )
        )
    print(
        f"\nopen loop (a class): {args.open_sessions} sessions, each editing at random "
        f"intervals of mean {args.mean_interval} s for {args.open_seconds:.0f} s "
        f"(seconds from when an edit was due to its answer)"
    )
    print(LATENCY_HEADER)
    for phase in phases:
        print(latency_row(phase.target, phase))
    floor_phase, *subjects = phases
    for subject in subjects:
        p50, p95 = (percentile(subject.latencies, q) for q in (50, 95))
        p95_ratio = p95 / percentile(floor_phase.latencies, 95)
        print(
            f"  ratio {subject.target} / floor: "
            f"p50 {p50 / percentile(floor_phase.latencies, 50):.2f}×, "
            f"p95 {p95_ratio:.2f}× (target ≤ {OPEN_P95_RATIO}×: "
            f"{verdict(p95_ratio <= OPEN_P95_RATIO)}); p95 {p95:.3f} s, "
            f"target ≤ {OPEN_P95_TARGET} s: {verdict(p95 <= OPEN_P95_TARGET)}"
        )
    return phases


async def run_soak(servers: Servers, args, gc_args: tuple[str, ...]) -> list[Phase]:
    luong = luong_target(*servers.app(*gc_args, "--server.disconnectedSessionTTL", str(SOAK_TTL)))
    await warm(luong)
    phase, rows = await soak(luong, args.soak_sessions, args.soak_waves, args.soak_edits)
    print(
        f"\nsoak: {args.soak_sessions} sessions in {args.soak_waves} waves, each opens the "
        f"Luong page, makes {args.soak_edits} edits and leaves (server memory, RSS MB)"
    )
    first = rows[0]["after"]
    for row in rows:
        print(
            f"  wave {row['wave']} ({row['sessions']:3d} sessions so far): with the wave "
            f"{row['peak_with_wave']:7.1f}, after it left {row['after']:7.1f} "
            f"({row['after'] / first:.3f}× wave 1)  load {row['load']:.1f}"
        )
    growth = rows[-1]["after"] / first - 1
    print(
        f"  after the last wave: {100 * growth:+.1f}% against after the first; "
        f"target within ±{100 * SOAK_TARGET:.0f}%: {verdict(abs(growth) <= SOAK_TARGET)}"
    )
    return [phase]


async def run_gc(servers: Servers, args, _gc_args: tuple[str, ...]) -> list[Phase]:
    forced = luong_target(
        *servers.app("--runner.postScriptGC", "true"), name="Luong, forced full GC"
    )
    configured = luong_target(*servers.app(), name="Luong, as configured")
    await warm(forced, configured)
    pairs = [
        (
            await closed_phase(forced, args.sessions, args.edits),
            await closed_phase(configured, args.sessions, args.edits),
        )
        for _ in range(args.rounds)
    ]
    pair_report(
        f"garbage collection: {args.sessions} sessions, {args.edits} edits each, "
        "forced full collection after every run (baseline) against the repository's "
        ".streamlit/config.toml",
        pairs,
        None,
    )
    memory_report(pairs, args.sessions)
    return [p for pair in pairs for p in pair]


async def run_proxy(servers: Servers, args, gc_args: tuple[str, ...]) -> list[Phase]:
    apps = [servers.app(*gc_args) for _ in range(args.proxy)]
    proxy = start_proxy([url for url, _ in apps])
    servers.proxies.append(proxy)
    alone = luong_target(*apps[0], name="one process")
    behind = luong_target(
        proxy.url,
        tuple(p for _, pids in apps for p in pids),
        name=f"nginx + {args.proxy} processes",
    )
    await warm(alone, behind)
    pairs = [
        (
            await closed_phase(alone, args.sessions, args.edits),
            await closed_phase(behind, args.sessions, args.edits),
        )
        for _ in range(args.rounds)
    ]
    pair_report(
        f"past one process: {args.sessions} sessions, {args.edits} edits each, "
        f"through nginx to {args.proxy} processes against one process alone "
        f"({os.cpu_count()} CPUs, shared with this client)",
        pairs,
        None,
    )
    served = upstream_sessions(proxy)
    print(
        "  sessions (WebSockets) per process through nginx: "
        + ", ".join(f"{upstream} {count}" for upstream, count in sorted(served.items()))
    )
    return [p for pair in pairs for p in pair]


async def run_class_mode(servers, args, gc_args) -> list:
    """--modes class: the app on the SQLite default (a temporary file), a class driven over
    WebSockets (bench/class_load.py)."""
    folder = tempfile.mkdtemp(prefix="classroom-bench-")
    database = os.path.join(folder, "classroom.sqlite")
    env = {**os.environ, "ATTENTION_CLASSROOM_DB": database}
    process, url = start_app(env=env, extra_args=(*SERVER_ARGS, *gc_args))
    servers.apps.append(process)
    result = await run_class(
        url, (process.pid,), args.class_size, args.class_changes, f"sqlite:///{database}"
    )
    print("\n" + "\n".join(report(result, args.class_size, "one process, SQLite")))
    phase = Phase("class", load_average(), latencies=result.follow, errors=result.errors)
    sent = sum(len(v) for v in result.sent.values())
    if sent != sum(result.counted.values()) or not result.votes_match:
        phase.errors.append("votes lost or miscounted")
    return [phase]


MODES = {
    "closed": run_closed,
    "open": run_open,
    "soak": run_soak,
    "gc": run_gc,
    "proxy": run_proxy,
    "class": run_class_mode,
}


async def run(args) -> list[Phase]:
    gc_args = (
        ()
        if args.post_script_gc == "config"
        else ("--runner.postScriptGC", "true" if args.post_script_gc == "on" else "false")
    )
    phases = []
    for mode in args.modes:
        servers = Servers()  # each mode its own servers: no session of another mode lingers
        try:
            phases += await MODES[mode](servers, args, gc_args)
        finally:
            servers.stop()
    return phases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--modes", default="closed,open,soak", help=f"comma-separated, of {', '.join(MODES)}"
    )
    parser.add_argument("--sessions", type=int, default=20, help="closed loop: sessions")
    parser.add_argument("--edits", type=int, default=15, help="closed loop: edits per session")
    parser.add_argument(
        "--rounds", type=int, default=2, help="closed loop: interleaved (baseline, subject) rounds"
    )
    parser.add_argument("--open-sessions", type=int, default=30)
    parser.add_argument("--open-seconds", type=float, default=40.0)
    parser.add_argument("--mean-interval", type=float, default=3.0)
    parser.add_argument("--soak-sessions", type=int, default=200)
    parser.add_argument("--soak-waves", type=int, default=5)
    parser.add_argument("--soak-edits", type=int, default=3)
    parser.add_argument("--proxy", type=int, default=2, help="proxy mode: app processes")
    parser.add_argument("--class-size", type=int, default=30, help="class mode: followers")
    parser.add_argument("--class-changes", type=int, default=5, help="class mode: changes")
    parser.add_argument(
        "--post-script-gc",
        choices=("config", "on", "off"),
        default="config",
        help="override runner.postScriptGC on every server (default: as "
        ".streamlit/config.toml says)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        metavar="DIR",
        help="closed and open modes: also another checkout of the app's Luong page",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="FOLDER",
        help="closed mode: py-spy samples each server in the first round",
    )
    args = parser.parse_args()
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = set(args.modes) - set(MODES)
    if unknown:
        parser.error(f"unknown modes {sorted(unknown)}")
    if args.baseline is not None and not (args.baseline / "app.py").is_file():
        parser.error(f"--baseline {args.baseline}: no app.py there")
    args.sessions = max(1, min(args.sessions, MAX_SESSIONS))
    args.edits = max(1, min(args.edits, MAX_EDITS))
    args.rounds = max(1, min(args.rounds, 5))
    args.open_sessions = max(1, min(args.open_sessions, MAX_SESSIONS))
    args.open_seconds = max(1.0, min(args.open_seconds, MAX_OPEN_SECONDS))
    args.soak_sessions = max(1, min(args.soak_sessions, MAX_SOAK))
    args.soak_waves = max(1, min(args.soak_waves, args.soak_sessions))
    args.proxy = max(1, min(args.proxy, 4))
    args.class_size = max(1, min(args.class_size, MAX_SESSIONS))
    args.class_changes = max(1, min(args.class_changes, 20))

    loads = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"{os.cpu_count()} CPUs, load average {loads} at the start (a busy machine inflates "
        "every latency; compare the ratios, each measured in this run)"
    )
    phases = asyncio.run(asyncio.wait_for(run(args), OVERALL_TIMEOUT))
    loads = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nload average {loads} at the end")
    return errors_report(phases)


if __name__ == "__main__":
    sys.exit(main())
