"""What a learner waits for: a page's main edit → every chart shows the new numbers, in Chromium.

`--page P` picks the page whose main edit is measured (bench/page_edits.py says, for each,
where the bench types, what, and what the charts then hold): luong (default), database,
transformer, regression, train, several with commas, or `all` (one after another, each with
its own servers). Starts `streamlit run` servers on loopback ports and drives headless Chromium
(Debian's, through Playwright; never a downloaded browser) against, interleaved edit by edit:

- the app's page;
- for Luong, the floor page (bench/floor_app.py: the Luong page's Q, K, V grids and its S, A, O
  heatmaps, built and drawn the app's way, nothing else);
- the plain floor (bench/plain_floor.py for Luong, bench/plain_floor_<page>.py for the others:
  the edit's input as a bare widget, named as the app's, and the charts the edit changes as
  plain go.Heatmap / go.Scatter / go.Bar figures drawn with st.plotly_chart, NumPy for the
  numbers (bench/plain_floor_figures.py), no app code at all);
- the limit page (bench/limit_page.py: a bare HTML page, no Streamlit, that redraws the plain
  floor's figures with Plotly.react after one server round trip);
- with `--baseline DIR`, the same page of another checkout of the app (for example
  `git worktree add /tmp/baseline <commit>`), served from DIR with this Python.

The main edits (Enter commits each): Luong, a new number in Q's first cell (the matrix
editor's `<input aria-label="Q, row 1, column q1">`, or, on a checkout whose grids are
st.data_editor canvases, the canvas, bench/canvas_grid.py); database, a surname of d2l's table
in the query box; transformer, a six-word sentence in the sentence box; regression, a new
bandwidth σ. An edit is done when every chart the edit changes holds the engine's numbers for
the new input (attention_core through the page's compute module; Luong: every chart titled S,
A or O; the others: each expected array in some trace of as many charts as show it). A script
added to the page before Streamlit's own timestamps the WebSocket's frames and that moment on
the page's clock, so the time splits into: before the rerun request leaves, request → the
run's last message, last message → drawn. Per edit also: forward messages and bytes, charts
redrawn (plots whose Plotly layout is new), and the server's CPU time (psutil, in 10 ms clock
ticks: its figure is the mean over the edits, the others' the median). Ratios app / floor,
app / plain floor, app / limit page and app / baseline are of those figures from the same run,
with the load average beside them, and the issue's targets beside the ratios that have one
(database and transformer: ≤ 1.3× the plain floor).

With `--scrub S` (seconds, default 3), for Luong each app's Q cell is then dragged sideways for
S seconds, a step of the pointer every 25 ms, and the distinct states the S chart shows
meanwhile are counted (per second), and the last one is checked against the engine's result
for the value the cell ended on. The training page's main edit is its step scrub (no typed
edit): the app trains its default run (Train), and its step slider, the plain floor's bare
st.select_slider and the limit page's <input type=range> are each moved by the left arrow every
25 ms (a Streamlit slider commits a drag only when the pointer is released), counting the
distinct states of the first head's weights; the last state of the weights and the learned
score matrices is checked against the run's snapshot at the step shown (SCRUB_TARGETS).

Then cold opens: each page of the app in a fresh browser context, against a page that draws the
same chart specs and nothing else (bench/specs_app.py, fed with the specs the page sent when it
opened), from navigation to every chart drawn.

    python bench/browser.py                         # Luong: 15 edits, 3 cold opens per page
    python bench/browser.py --baseline /tmp/baseline --edits 30 --cold 5
    python bench/browser.py --edits 5 --cold 0      # a quick look
    python bench/browser.py --page all --edits 5 --cold 0 --scrub 3

Everything stays on the loopback interface; `--port FIRST` uses FIRST, FIRST+1, … (default:
free ports). Exit status 1 if an edit or an open did not complete.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from playwright.sync_api import expect
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run from anywhere
from bench.canvas_grid import open_cell_editor, select_cell  # noqa: E402
from bench.load import Session, Target  # noqa: E402
from bench.page_edits import (  # noqa: E402
    EDITS,
    EXAMPLE,
    Q_CELL,
    STEP_LABEL,
    TITLES,
    TRAIN_BUTTON,
    PageEdit,
    train_expected,
)
from bench.page_edits import luong_expected as expected_charts  # noqa: E402
from tests.app_server import free_port, start_app, stop_app  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_FLAGS, IDLE, wait_idle  # noqa: E402

PAGES = ("home", "luong", "database", "gallery", "exercises", "regression", "transformer")
FINISHED = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
TIMEOUT_MS = 120_000
BROWSER_TARGET, FLOOR_TARGET = 0.6, 1.15  # issue 37 (× baseline), issue 25 (× floor)
LIMIT_TARGET, SCRUB_TARGET = 2.0, 8.0  # issue 37: × the limit page; chart states per second
MESSAGES_TARGET, BYTES_TARGET = 2.0, 1.3
PLAIN_FLOOR_TARGETS = {page: {"total": 1.3} for page in ("database", "transformer")}  # issue 37

# Runs before the page's own scripts: every WebSocket frame with its time on the page's clock,
# the first Enter after `armed`, and (once `watch` is called) the first animation frame at
# which every chart titled S, A or O holds the expected numbers.
PAGE_SCRIPT = """(() => {
  const bench = window.__bench = {frames: [], enterAt: null, drawnAt: null, watching: null};
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', e => bench.frames.push(['r', performance.now(), e.data]));
    }
    send(data) { bench.frames.push(['s', performance.now(), data]); return super.send(data); }
  };
  document.addEventListener('keydown', e => {
    if (e.key === 'Enter' && bench.enterAt === null) bench.enterAt = performance.now();
  }, true);
  const title = p => ((p._fullLayout && p._fullLayout.title && p._fullLayout.title.text) || '')
                      .replace(/<[^>]*>/g, '');
  const flat = z => Array.from(z || [], row => (row && typeof row !== 'number')
                                              ? Array.from(row) : [row]).flat();
  const close = (got, want) => got.length === want.length && got.every(
    (v, i) => typeof v === 'number' && Math.abs(v - want[i]) <= 1e-9 * Math.max(1, Math.abs(v)));
  // [[name, numbers, charts], …]: at least `charts` charts hold the numbers in some trace
  const held = entries => entries.every(([name, want, count]) => Array.from(
    document.querySelectorAll('.js-plotly-plot')).filter(p => (p._fullData || []).some(
      trace => ['z', 'y', 'x'].some(key => trace[key] && close(flat(trace[key]), want)))
    ).length >= count);
  const titled = expected => Object.entries(expected).every(([name, want]) => {
    const plots = Array.from(document.querySelectorAll('.js-plotly-plot'))
                      .filter(p => p._fullData && p._fullData.length && title(p) === name);
    return plots.length > 0 && plots.every(p => {
      return close(flat(p._fullData[0].z), want);
    });
  });
  const holds = expected => Array.isArray(expected) ? held(expected) : titled(expected);
  bench.watch = expected => {
    bench.drawnAt = null;
    const id = bench.watching = {};
    const loop = () => {
      if (bench.watching !== id) return;
      if (holds(expected)) { bench.drawnAt = performance.now(); return; }
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  };
  bench.mark = () => document.querySelectorAll('.js-plotly-plot').forEach(
    p => { p.__benchLayout = p._fullLayout; });
  bench.redrawn = () => Array.from(document.querySelectorAll('.js-plotly-plot')).filter(
    p => p._fullLayout && p.__benchLayout !== p._fullLayout).length;
  bench.take = async () => {
    const out = [];
    for (const [way, at, data] of bench.frames) {
      let bytes;
      if (data instanceof Blob) bytes = new Uint8Array(await data.arrayBuffer());
      else if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
      else if (ArrayBuffer.isView(data))
        bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      else bytes = new TextEncoder().encode(String(data));
      let text = '';
      for (let i = 0; i < bytes.length; i += 8192)
        text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
      out.push([way, at, btoa(text)]);
    }
    bench.frames = [];
    return out;
  };
})();"""


def load_average() -> float:
    return os.getloadavg()[0]


def cpu_seconds(pid: int) -> float:
    with contextlib.suppress(psutil.NoSuchProcess):
        times = psutil.Process(pid).cpu_times()
        return times.user + times.system
    return float("nan")


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def p90(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=10, method="inclusive")[8]


# -- one edit ---------------------------------------------------------------------------------


@dataclass
class Edit:
    """One edit as the page saw it (milliseconds on the page's clock)."""

    total: float
    before_send: float
    to_last_message: float
    last_to_drawn: float
    messages: int
    bytes: int
    redrawn: int
    cpu_ms: float


def type_without_enter(page, text: str, label: str = Q_CELL) -> None:
    """The input named `label` (Q's first cell by default) holds `text`, not yet committed: the
    page's input if it has one, else the data editor's canvas cell (whose editor opens with an
    Enter of its own)."""
    cell = page.get_by_label(label, exact=True)
    if cell.count():
        cell.click()
        cell.press("Control+A")
        page.keyboard.type(text)
        expect(cell).to_have_value(text)  # (the cells may be in a shadow root)
    else:
        select_cell(page, 0, 0, 0, columns=EXAMPLE["Q"].shape[1])
        open_cell_editor(page, text)


def frames_of(raw: list) -> list[tuple[str, float, bytes]]:
    return [(way, at, base64.b64decode(data)) for way, at, data in raw]


def is_rerun(data: bytes) -> bool:
    message = BackMsg()
    with contextlib.suppress(Exception):
        message.ParseFromString(data)
    return message.WhichOneof("type") == "rerun_script"


def forward(data: bytes) -> ForwardMsg:
    message = ForwardMsg()
    with contextlib.suppress(Exception):
        message.ParseFromString(data)
    return message


def measure_edit(
    page, pid: int, value: float, streamlit: bool = True, edit: PageEdit | None = None
) -> Edit:
    """Type `value` into the edit's input (Q's first cell by default), press Enter, and time it
    until every chart shows the engine's numbers for it. (Not `streamlit`: the limit page,
    whose round trip is a fetch: only the total and the CPU.)"""
    edit = edit or EDITS["luong"]()
    if streamlit:
        wait_idle(page, timeout=TIMEOUT_MS)
    page.evaluate("window.__bench.mark(); window.__bench.take()")
    cpu = cpu_seconds(pid)
    type_without_enter(page, edit.typed(value), edit.label)
    page.evaluate(
        "want => { window.__bench.enterAt = null; window.__bench.watch(want); }",
        edit.expected(value),
    )
    page.keyboard.press("Enter")
    page.wait_for_function("window.__bench.drawnAt !== null", timeout=TIMEOUT_MS)
    if streamlit:
        wait_idle(page, timeout=TIMEOUT_MS)
    cpu = cpu_seconds(pid) - cpu
    enter, drawn, redrawn = page.evaluate(
        "[window.__bench.enterAt, window.__bench.drawnAt, window.__bench.redrawn()]"
    )
    if not streamlit:
        nan = float("nan")
        return Edit(drawn - enter, nan, nan, nan, 0, 0, redrawn, 1000 * cpu)
    return split_edit(frames_of(page.evaluate("window.__bench.take()")), enter, drawn, redrawn, cpu)


def split_edit(frames, enter: float, drawn: float, redrawn: int, cpu: float) -> Edit:
    """The edit's three parts from its frames: the first rerun request after Enter, the last
    run-finished message before the charts were drawn (else the first after the request)."""
    sends = [at for way, at, data in frames if way == "s" and at >= enter and is_rerun(data)]
    if not sends:
        raise RuntimeError("no rerun request left the page after Enter")
    sent = sends[0]
    received = [(at, data, forward(data)) for way, at, data in frames if way == "r" and at >= sent]
    received = [r for r in received if r[2].WhichOneof("type") != "heartbeat_ack"]
    finished = [
        at
        for at, _, msg in received
        if msg.WhichOneof("type") == "script_finished" and msg.script_finished in FINISHED
    ]
    last = max([at for at in finished if at <= drawn], default=min(finished, default=drawn))
    return Edit(
        total=drawn - enter,
        before_send=sent - enter,
        to_last_message=last - sent,
        last_to_drawn=drawn - last,
        messages=len(received),
        bytes=sum(len(data) for _, data, _ in received),
        redrawn=redrawn,
        cpu_ms=1000 * cpu,
    )


# -- the pages --------------------------------------------------------------------------------


@dataclass
class Subject:
    """A page under measurement: its server, the browser page on it, and what it measured."""

    name: str
    url: str  # the page's address
    pid: int
    streamlit: bool = True  # False: the limit page
    app: bool = False  # the app's page (the training page's run is trained first)
    page: object = None
    edits: list[Edit] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)


def open_subject(browser, subject: Subject, edit: PageEdit) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1600})
    context.add_init_script(PAGE_SCRIPT)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(subject.url)
    if subject.streamlit:
        page.wait_for_selector("[data-testid=stApp]")
        wait_idle(page, timeout=TIMEOUT_MS)
    if subject.app and edit.page == "train":  # the run, trained (or taken from the cache)
        page.get_by_role("button", name=TRAIN_BUTTON, exact=True).click()
        page.get_by_label(edit.label, exact=True).wait_for(timeout=TIMEOUT_MS)
        wait_idle(page, timeout=TIMEOUT_MS)
    page.evaluate("want => window.__bench.watch(want)", edit.expected(edit.opening))
    page.wait_for_function("window.__bench.drawnAt !== null", timeout=TIMEOUT_MS)
    subject.page = page


def run_edits(subjects: list[Subject], edits: int, warmup: int, page_edit: PageEdit) -> list[str]:
    errors = []
    for number, value in enumerate(page_edit.values(warmup + edits)):
        for subject in subjects:  # interleaved: each edit of each page in the same minute
            try:
                edit = measure_edit(subject.page, subject.pid, value, subject.streamlit, page_edit)
            except Exception as error:  # reported; the run goes on
                errors.append(f"{subject.name}, edit {number + 1}: {type(error).__name__}: {error}")
                continue
            if number >= warmup:
                subject.edits.append(edit)
                subject.loads.append(load_average())
    return errors


EDIT_FIELDS = (
    ("total", "Enter → all charts drawn"),
    ("before_send", "  before the request leaves"),
    ("to_last_message", "  request → last message"),
    ("last_to_drawn", "  last message → drawn"),
    ("messages", "forward messages"),
    ("bytes", "bytes"),
    ("redrawn", "charts redrawn"),
    ("cpu_ms", "server CPU ms (mean)"),
)
# The server's CPU time comes in clock ticks of 10 ms (psutil reads /proc), about half an
# edit's: a median of such values is a tick count (20 or 30 ms, whichever half the edits
# land on), so this one is the mean over the edits, which the ticks average out of.
MEAN_FIELDS = {"cpu_ms"}


def centre(name: str, values: list[float]) -> float:
    """The figure compared: the median, or the mean for the fields in MEAN_FIELDS."""
    if name in MEAN_FIELDS:
        return statistics.fmean(values) if values else float("nan")
    return median(values)


def edits_report(subjects: list[Subject], edits: int, page: str = "luong") -> None:
    loads = [x for s in subjects for x in s.loads]
    print(
        f"\nper edit, median (CPU: mean) / p90 over {edits} edits each, interleaved "
        "(ms unless said); "
        f"load average {min(loads, default=0):.1f}–{max(loads, default=0):.1f}"
    )
    print(f"  {'':32}" + "".join(f"{s.name:>22}" for s in subjects))
    for name, label in EDIT_FIELDS:
        cells = []
        for subject in subjects:
            values = [getattr(e, name) for e in subject.edits]
            cells.append(f"{centre(name, values):>12.0f} / {p90(values):<7.0f}")
        print(f"  {label:32}" + "".join(cells))
    app, *others = subjects
    targets = {
        "floor page": {
            "total": FLOOR_TARGET,
            "messages": MESSAGES_TARGET,
            "bytes": BYTES_TARGET,
            "cpu_ms": 1.3,
        },
        "baseline": {"total": BROWSER_TARGET, "cpu_ms": 1.0},
        "limit page": {"total": LIMIT_TARGET},
        "plain floor": PLAIN_FLOOR_TARGETS.get(page, {}),
    }
    for other in others:
        print(f"  ratios {app.name} / {other.name} (medians; CPU: means):")
        for name, label in EDIT_FIELDS:
            mine = centre(name, [getattr(e, name) for e in app.edits])
            theirs = centre(name, [getattr(e, name) for e in other.edits])
            ratio = mine / theirs if theirs else float("nan")
            target = targets.get(other.name, {}).get(name)
            verdict = (
                ""
                if target is None
                else (f"  target ≤ {target}×: {'met' if ratio <= target else 'MISSED'}")
            )
            print(f"    {label.strip():30}{ratio:6.2f}×{verdict}")


# -- scrubbing --------------------------------------------------------------------------------

# Every distinct state of the first chart whose title starts with `title` (the training page's
# head titles carry a share that moves with the step), with when it was first seen (one look
# per frame).
SCRUB_WATCH = """(title) => {
  const states = window.__states = [];
  let last = null;
  const look = () => {
    const plot = Array.from(document.querySelectorAll('.js-plotly-plot')).find(
      p => p._fullData && p._fullData[0] && p._fullLayout.title
           && (p._fullLayout.title.text || '').replace(/<[^>]*>/g, '').startsWith(title));
    if (plot) {
      const z = JSON.stringify(Array.from(plot._fullData[0].z, r => Array.from(r)));
      if (z !== last) { last = z; states.push(performance.now()); }
    }
    if (!window.__stopWatch) requestAnimationFrame(look);
  };
  window.__stopWatch = false;
  requestAnimationFrame(look);
}"""


@dataclass(frozen=True)
class ScrubTarget:
    """A page's scrub: the cell moved (its accessible name: a number cell, a Streamlit slider or
    an <input type=range>), the chart whose states are counted (its title's start), what every
    watched chart holds once the cell holds a value (the engine's numbers, as page_edits), and
    whether it is moved by the arrow keys rather than dragged. (A Streamlit slider commits its
    value when the pointer is released, so a drag shows no state but the last: 0 per second
    for the app's step slider and for a bare st.select_slider alike, measured; the arrow keys
    commit each step.)"""

    cell: str
    chart: str
    expected: object  # (float) -> expected numbers (bench/page_edits.py)
    by_keys: bool = False


KEY_TURN = 60  # arrow presses before the keyboard scrub turns back (a run has ~100 snapshots)


# The Luong page's scrub of Q's first cell; the training page's step slider (its first head's
# weights counted; its snapshot's weights and learned scores checked; trained when first asked).
SCRUB_TARGETS = {
    "luong": ScrubTarget(Q_CELL, TITLES["S"], expected_charts),
    "train": ScrubTarget(STEP_LABEL, "Head 1", train_expected, by_keys=True),
}


def slider_input(cell):
    """A slider's <input type=range> inside the named element (Streamlit's slider names its
    group and keeps the input in a 1-pixel box beside its thumb), or None."""
    inner = cell.locator("input[type=range]")
    return inner if inner.count() else None


def scrubbed_value(cell) -> float:
    """The number the dragged cell ended on: an <input>'s value, or a Streamlit slider's (its
    input's aria-valuetext: the input's value is the option's index)."""
    inner = slider_input(cell)
    text = cell.input_value() if inner is None else inner.get_attribute("aria-valuetext")
    return float(text.replace("\u2212", "-").replace(",", ""))


def measure_scrub(
    page, seconds: float, target: ScrubTarget = SCRUB_TARGETS["luong"], streamlit: bool = True
) -> tuple[float, bool]:
    """Drag the target's cell sideways for `seconds` (8 px, one step, every 25 ms), or press
    the left arrow on it every 25 ms (KEY_TURN times, then the right arrow, and so on): the
    distinct states its chart showed per second meanwhile, and whether the last one is the
    engine's result for the value the cell ended on."""
    if streamlit:
        wait_idle(page, timeout=TIMEOUT_MS)
    cell = page.get_by_label(target.cell, exact=True)
    # a drag on the cell that has the focus selects its text: the focus goes elsewhere first
    heading = page.get_by_role("heading", level=1)
    if heading.count():
        heading.first.click()
    else:
        page.evaluate("document.activeElement && document.activeElement.blur()")
    cell.evaluate("el => el.scrollIntoView({block: 'center'})")
    inner = slider_input(cell)  # a Streamlit slider: its input has the keys, its thumb is dragged
    page.evaluate(SCRUB_WATCH, target.chart)
    if target.by_keys:
        (cell if inner is None else inner).focus()
        begun = page.evaluate("performance.now()")
        start, pressed = time.monotonic(), 0
        while time.monotonic() - start < seconds:
            page.keyboard.press("ArrowLeft" if pressed // KEY_TURN % 2 == 0 else "ArrowRight")
            pressed += 1
            page.wait_for_timeout(25)
        ended = page.evaluate("performance.now()")
    else:
        box = (cell if inner is None else inner.locator("xpath=../..")).bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        begun = page.evaluate("performance.now()")
        start, moved = time.monotonic(), 0
        while time.monotonic() - start < seconds:
            moved += 8
            page.mouse.move(x + moved % 400, y)
            page.wait_for_timeout(25)
        ended = page.evaluate("performance.now()")
        page.mouse.up()
    if streamlit:
        wait_idle(page, timeout=TIMEOUT_MS)
    else:
        page.wait_for_timeout(500)  # the last fetch's answer
    final = scrubbed_value(cell)
    page.evaluate("want => window.__bench.watch(want)", target.expected(final))
    try:
        page.wait_for_function("window.__bench.drawnAt !== null", timeout=30_000)
        right = True
    except Exception:  # the last state is not the engine's: reported
        right = False
    states = page.evaluate("window.__stopWatch = true; window.__states")
    during = [at for at in states if begun <= at <= ended]
    return len(during) / ((ended - begun) / 1000), right


def run_scrubs(subjects: list[Subject], seconds: float, rounds: int, page: str = "luong") -> None:
    """Luong: the app's and the baseline's scrub of Q's first cell. Training: the step slider of
    the app, the plain floor and the limit page, with the ratios app / each."""
    target = SCRUB_TARGETS[page]
    kept = ("app", "baseline") if page == "luong" else ("app", "plain floor", "limit page")
    scrubbed = [s for s in subjects if s.name in kept]
    rates = {s.name: [] for s in scrubbed}
    wrong = {s.name: 0 for s in scrubbed}
    loads = []
    for _ in range(rounds):
        for subject in scrubbed:  # interleaved
            rate, right = measure_scrub(subject.page, seconds, target, subject.streamlit)
            rates[subject.name].append(rate)
            wrong[subject.name] += not right
            loads.append(load_average())
    print(
        f"\nscrub of {target.cell!r} ({page}) for {seconds:.0f} s, {rounds} rounds interleaved "
        f"(load {min(loads):.1f}–{max(loads):.1f}): distinct {target.chart!r} chart states per "
        "second"
    )
    for name, values in rates.items():
        verdict = "met" if median(values) >= SCRUB_TARGET else "MISSED"
        print(
            f"  {name:12} median {median(values):5.1f}/s  ({', '.join(f'{v:.1f}' for v in values)})"
            f"  last state ≠ engine's: {wrong[name]}  target ≥ {SCRUB_TARGET}/s: {verdict}"
        )
    for name in rates:
        if name != "app" and median(rates[name]):
            print(f"  ratio app / {name}: {median(rates['app']) / median(rates[name]):.2f}×")


# -- cold opens -------------------------------------------------------------------------------


async def opening_specs(url: str, page: str) -> list[str]:
    """The chart specs a page sends on its first run (a WebSocket client, as bench/load.py)."""
    session = Session(Target(page, url, page, editor_key="\0"))
    run = await session.open()
    await session.close()
    specs = []
    for spec in run.charts:  # st.plotly_chart's spec, or the kit's live chart's document
        if isinstance(spec, bytes):
            specs.append(json.dumps(json.loads(spec)["figure"]))
        elif not spec.startswith("cached:"):
            specs.append(spec)
    return specs


DRAWN = """([count, idle]) => { const plots = Array.from(document.querySelectorAll(
    '.js-plotly-plot')).filter(p => p._fullLayout && p.querySelector('.main-svg'));
    return plots.length >= count && document.querySelector(idle) !== null
           ? performance.now() : null; }"""


def cold_open(browser, url: str, charts: int) -> float:
    """Milliseconds from navigation to `charts` charts drawn with the run over, in a fresh
    browser context (nothing cached)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1600})
    try:
        page = context.new_page()
        page.goto(url)
        handle = page.wait_for_function(DRAWN, arg=[charts, IDLE], timeout=TIMEOUT_MS)
        return handle.json_value()
    finally:
        context.close()


def run_cold(browser, servers: Servers, app_url: str, pages: list[str], opens: int) -> list[str]:
    with ThreadPoolExecutor(1) as pool:  # its own event loop, apart from Playwright's
        specs = {
            page: pool.submit(asyncio.run, opening_specs(app_url, page)).result() for page in pages
        }
    folder = Path(tempfile.mkdtemp(prefix="browser-bench-"))
    (folder / "specs.json").write_text(json.dumps(specs))
    specs_url, _ = servers.start(
        "specs", script="bench/specs_app.py", args=(str(folder / "specs.json"),)
    )
    print(
        f"\ncold open, median over {opens} fresh browser contexts each (ms, navigation → "
        "every chart drawn, run over), against a page drawing the same chart specs"
    )
    errors = []
    for page in pages:
        times = {"app": [], "specs": []}
        for _ in range(opens):
            for kind, url in (("app", f"{app_url}/{page}"), ("specs", f"{specs_url}/?page={page}")):
                try:
                    times[kind].append(cold_open(browser, url, len(specs[page])))
                except Exception as error:  # reported
                    errors.append(f"cold open of {page} ({kind}): {type(error).__name__}: {error}")
        app, base = median(times["app"]), median(times["specs"])
        print(
            f"  {page:12} {len(specs[page]):2d} charts  app {app:7.0f}  specs page {base:7.0f}  "
            f"ratio {app / base:5.2f}×  (target ≤ 1.2×; load {load_average():.1f})"
        )
    return errors


# -- servers and the run ----------------------------------------------------------------------


class Servers:
    """The servers this run starts (stopped at the end whatever happens), on `first`, first+1…
    or on free ports."""

    def __init__(self, first: int | None) -> None:
        self.next_port = first
        self.processes = []
        self.files = []

    def start(
        self, name: str, *, cwd: Path = REPO, script: str = "app.py", args=()
    ) -> tuple[str, int]:
        port = self.next_port
        if port is not None:
            self.next_port += 1
        process, url = start_app(
            cwd=cwd,
            script=script,
            script_args=tuple(args),
            extra_args=("--server.runOnSave", "false"),
            port=port,
        )
        self.processes.append(process)
        print(f"  {name}: {url} (pid {process.pid}, from {cwd})")
        return url, process.pid

    def start_limit(self, edit: PageEdit) -> tuple[str, int]:
        """The limit page's server for the edit's page (Python's standard library, no
        Streamlit)."""
        port = self.next_port or free_port()
        if self.next_port is not None:
            self.next_port += 1
        process = subprocess.Popen(
            [sys.executable, "bench/limit_page.py", str(port), self.start_file(edit), edit.page],
            cwd=REPO,
        )
        self.processes.append(process)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        print(f"  limit page: {url} (pid {process.pid})")
        return url, process.pid

    def start_file(self, edit: PageEdit) -> str:
        """The page's start as a JSON file (a run's snapshots are too long for an argument),
        removed with the servers."""
        handle, path = tempfile.mkstemp(prefix=f"browser-bench-{edit.page}-", suffix=".json")
        with os.fdopen(handle, "w") as file:
            json.dump(edit.start, file)
        self.files.append(Path(path))
        return path

    def stop(self) -> None:
        for process in self.processes:
            stop_app(process)
        self.processes = []
        for path in self.files:
            path.unlink(missing_ok=True)
        self.files = []


def subjects_of(servers: Servers, baseline: Path | None, edit: PageEdit) -> list[Subject]:
    """The app's page, the pages drawn the app's way (Luong's floor page), the plain floor, the
    limit page and, with --baseline, the other checkout's page."""
    app, app_pid = servers.start("app")
    subjects = [Subject("app", f"{app}/{edit.page}", app_pid, app=True)]
    for name, script in edit.extra_floors:
        url, pid = servers.start(name, script=script)
        subjects.append(Subject(name, url, pid))
    start = servers.start_file(edit)
    plain, plain_pid = servers.start("plain floor", script=edit.floor, args=(start,))
    limit, limit_pid = servers.start_limit(edit)
    subjects += [
        Subject("plain floor", plain, plain_pid),
        Subject("limit page", limit, limit_pid, streamlit=False),
    ]
    if baseline is not None:
        base, base_pid = servers.start("baseline", cwd=baseline)
        subjects.append(Subject("baseline", f"{base}/{edit.page}", base_pid, app=True))
    return subjects


def run(args) -> int:
    from playwright.sync_api import sync_playwright

    servers = Servers(args.port)
    errors = []

    def stop(*_) -> None:  # a SIGTERM (a timeout) while Playwright waits: stop the servers
        servers.stop()
        os._exit(1)

    signal.signal(signal.SIGTERM, stop)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            for name in args.page:
                edit = EDITS[name]()
                what = "the step scrub" if name == "train" else f"Enter in {edit.label!r}"
                print(f"\n== {name}: {what}")
                subjects = subjects_of(servers, args.baseline, edit)
                for subject in subjects:
                    open_subject(browser, subject, edit)
                if args.edits and name != "train":
                    errors += run_edits(subjects, args.edits, args.warmup, edit)
                    edits_report(subjects, args.edits, name)
                if args.scrub and name in ("luong", "train"):
                    run_scrubs(subjects, args.scrub, args.scrub_rounds, name)
                for subject in subjects:
                    subject.page.context.close()
                servers.stop()
            if args.cold:
                app_url, _ = servers.start("app")
                errors += run_cold(browser, servers, app_url, args.pages, args.cold)
            browser.close()
    finally:
        servers.stop()
    print(f"\nerrors: {len(errors)}")
    for error in errors[:10]:
        print(f"  - {error}")
    return 1 if errors else 0


def main() -> int:
    sys.stdout.reconfigure(line_buffering=True)  # each line as it comes, even into a file
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=15, help="measured edits per page")
    parser.add_argument("--warmup", type=int, default=2, help="edits per page not counted")
    parser.add_argument("--scrub", type=float, default=3.0, help="seconds per scrub (0: none)")
    parser.add_argument("--scrub-rounds", type=int, default=3, help="scrubs per page")
    parser.add_argument("--cold", type=int, default=3, help="cold opens per page (0: none)")
    parser.add_argument("--pages", default=",".join(PAGES), help="pages for the cold opens")
    parser.add_argument(
        "--page",
        default="luong",
        help=f"whose main edit: {', '.join(EDITS)}, several with commas, or all",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        metavar="DIR",
        help="another checkout of the app, whose Luong page is also measured",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        metavar="FIRST",
        help="serve on FIRST, FIRST+1, … (default: free ports)",
    )
    args = parser.parse_args()
    args.edits = max(0, min(args.edits, 200))
    args.warmup = max(0, min(args.warmup, 20))
    args.cold = max(0, min(args.cold, 20))
    args.pages = [p.strip() for p in args.pages.split(",") if p.strip()]
    args.page = list(EDITS) if args.page == "all" else [p.strip() for p in args.page.split(",")]
    if unknown := set(args.page) - set(EDITS):
        parser.error(f"--page: no main edit for {', '.join(sorted(unknown))}")
    if args.baseline is not None and not (args.baseline / "app.py").is_file():
        parser.error(f"--baseline {args.baseline}: no app.py there")
    loads = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"{os.cpu_count()} CPUs, load average {loads} at the start (compare the ratios, each "
        "from this run)"
    )
    started = time.monotonic()
    status = run(args)
    loads = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average {loads} at the end; {time.monotonic() - started:.0f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
