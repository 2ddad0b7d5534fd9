"""Where a cold open's time goes: each page of the app and its specs page (bench/specs_app.py,
the same chart specs and nothing else) opened in fresh headless Chromium contexts, interleaved,
with the browser's CPU profile (Chrome DevTools `Profiler`) and its own counters on.

Per page and kind (app, specs page), medians over `--opens`:
- the time line on the page's clock: navigation → the WebSocket's first frame out (Streamlit's
  bundle loaded and started: a cost both pay) → the run's first message → its last
  run-finished message → every chart drawn, run over (bench/browser.py's end point);
- forward messages and bytes; CPU time for the open (psutil) of the server, of Chromium's
  renderer and of its GPU process (software compositing and raster: on a loaded machine the
  wall clock is mostly these processes waiting for a core);
- the renderer's main thread: script, layout and style time (`Performance.getMetrics`);
- the CPU profile's self time by script file (Streamlit's chunks are named for what they
  hold: PlotlyChart, katex, StreamlitMarkdown, …) and by function (top `--top`), so that
  Streamlit's fixed cost and the page's own share can be told apart.

    python bench/cold_open.py --pages luong,regression --opens 3
    python bench/cold_open.py --pages luong --save /tmp/profiles   # .cpuprofile for DevTools
    python bench/cold_open.py --py-spy /tmp/spy.txt                # the app server's stacks
    python bench/cold_open.py --baseline /tmp/baseline --opens 1   # another checkout as well
    python bench/cold_open.py --reduced-motion                    # what the skeletons' pulse costs

With `--reduced-motion`, the app and the specs page are also opened as a browser that prefers
reduced motion (rows app-rm, specs-rm). Until an element's code has loaded, Streamlit draws it
as a skeleton that pulses (an opacity animation without end) unless the browser prefers
reduced motion; headless Chromium composites every frame of that pulse in software, in its GPU
process, over the box of all the skeletons on screen: with a page's dozens of widgets, that is
most of the screen, 60 times a second, on a machine whose cores the renderer needs. The rows
say how much of the app's ratio is that pulse; the target's ratio stays app / specs.

With `--py-spy FILE`, py-spy records the app server while the opens run (raw collapsed stacks
in FILE) and the share of its samples under each line of the page scripts is printed.
Everything stays on the loopback interface; `--port FIRST` uses FIRST, FIRST+1, ….
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run from anywhere
from bench.browser import (  # noqa: E402
    DRAWN,
    FINISHED,
    PAGE_SCRIPT,
    PAGES,
    TIMEOUT_MS,
    Servers,
    cpu_seconds,
    forward,
    frames_of,
    load_average,
    median,
    opening_specs,
)
from tests.browser.conftest import CHROMIUM, CHROMIUM_FLAGS, IDLE  # noqa: E402

METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")


@dataclass
class Open:
    """One cold open as the page saw it (milliseconds on its clock)."""

    first_send: float
    first_message: float
    last_finished: float
    drawn: float
    messages: int
    bytes: int
    server_cpu_ms: float
    browser_cpu_ms: dict[str, float]
    metrics: dict[str, float]
    by_file: Counter
    by_function: Counter


@dataclass
class Kind:
    name: str
    url: str
    pid: int
    opens: list[Open] = field(default_factory=list)
    charts: dict[str, int] = field(default_factory=dict)  # a checkout's own, by page
    motion: str = "no-preference"  # the browser's prefers-reduced-motion


def browser_cpu() -> Counter:
    """Processor seconds so far of this run's Chromium processes by kind: the renderer (the
    page's scripts, style, layout), the GPU process (compositing and rasterising, in software
    here) and the rest. On a shared machine the wall clock of an open mostly measures how long
    these waited for a core; their CPU time is the work itself."""
    used = Counter()
    for child in psutil.Process(os.getpid()).children(recursive=True):
        try:
            command, times = " ".join(child.cmdline()), child.cpu_times()
        except psutil.Error:
            continue
        if "chromium" not in command:
            continue
        kind = re.search(r"--type=([\w-]+)", command)
        kind = kind.group(1) if kind else "browser"
        used["gpu" if kind == "gpu-process" else kind if kind == "renderer" else "other"] += (
            times.user + times.system
        )
    return used


def self_times(profile: dict) -> tuple[Counter, Counter]:
    """Milliseconds of self time by script file and by function (name, file:line) in a
    DevTools CPU profile; '(program)' is the browser's own work (layout, style, paint on the
    main thread), '(idle)' waiting."""
    nodes = {node["id"]: node["callFrame"] for node in profile["nodes"]}
    samples, deltas = profile.get("samples", []), profile.get("timeDeltas", [])
    by_file, by_function = Counter(), Counter()
    for index, node in enumerate(samples):
        # a sample's time is the gap to the next one
        took = (deltas[index + 1] if index + 1 < len(deltas) else 0) / 1000
        frame = nodes[node]
        url = frame.get("url") or ""
        where = url.rsplit("/", 1)[-1] or frame["functionName"] or "(anonymous)"
        by_file[where] += took
        name = frame["functionName"] or "(anonymous)"
        by_function[f"{name} {where}:{frame.get('lineNumber', 0) + 1}"] += took
    return by_file, by_function


def page_times(frames) -> tuple[float, float, float, int, int]:
    """First frame out, first and last-finished forward message, messages and bytes."""
    sent = [at for way, at, _ in frames if way == "s"]
    received = [(at, data, forward(data)) for way, at, data in frames if way == "r"]
    received = [r for r in received if r[2].WhichOneof("type") != "heartbeat_ack"]
    finished = [
        at
        for at, _, msg in received
        if msg.WhichOneof("type") == "script_finished" and msg.script_finished in FINISHED
    ]
    nan = float("nan")
    return (
        min(sent, default=nan),
        min((at for at, _, _ in received), default=nan),
        max(finished, default=nan),
        len(received),
        sum(len(data) for _, data, _ in received),
    )


def open_once(browser, kind: Kind, url: str, charts: int, save: Path | None) -> Open:
    """A fresh context; the profiler starts on a page of the same server (so the renderer
    that opens the page is the profiled one), then the page opens."""
    context = browser.new_context(
        viewport={"width": 1400, "height": 1600}, reduced_motion=kind.motion
    )
    try:
        context.add_init_script(PAGE_SCRIPT)
        page = context.new_page()
        page.goto(f"{kind.url}/_stcore/health")
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})  # microseconds
        cdp.send("Profiler.start")
        cpu, browser = cpu_seconds(kind.pid), browser_cpu()
        page.goto(url)
        drawn = page.wait_for_function(DRAWN, arg=[charts, IDLE], timeout=TIMEOUT_MS).json_value()
        cpu = cpu_seconds(kind.pid) - cpu
        browser = {k: 1000 * (v - browser[k]) for k, v in browser_cpu().items()}
        profile = cdp.send("Profiler.stop")["profile"]
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        frames = frames_of(page.evaluate("window.__bench.take()"))
    finally:
        context.close()
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
        number = len(kind.opens) + 1
        (save / f"{url.rsplit('/', 1)[-1]}-{kind.name}-{number}.cpuprofile").write_text(
            json.dumps(profile)
        )
    by_file, by_function = self_times(profile)
    first_send, first_message, last, messages, size = page_times(frames)
    return Open(
        first_send,
        first_message,
        last,
        drawn,
        messages,
        size,
        1000 * cpu,
        browser,
        {name: 1000 * metrics.get(name, 0.0) for name in METRICS},
        by_file,
        by_function,
    )


def summed(counters: list[Counter]) -> Counter:
    total = Counter()
    for counter in counters:
        total.update(counter)
    return Counter({key: value / max(len(counters), 1) for key, value in total.items()})


def report(page: str, kinds: list[Kind], top: int) -> None:
    print(f"\n{page} (medians over {len(kinds[0].opens)} opens; ms on the page's clock)")
    print(
        f"  {'':10}{'first out':>10}{'1st msg':>9}{'finished':>9}{'drawn':>8}{'msgs':>6}"
        f"{'bytes':>9}{'srv cpu':>9}{'renderer':>9}{'gpu':>7}"
        + "".join(f"{m.removesuffix('Duration'):>12}" for m in METRICS)
    )
    for kind in kinds:
        o = kind.opens
        cells = [
            f"{median([x.first_send for x in o]):10.0f}",
            f"{median([x.first_message for x in o]):9.0f}",
            f"{median([x.last_finished for x in o]):9.0f}",
            f"{median([x.drawn for x in o]):8.0f}",
            f"{median([x.messages for x in o]):6.0f}",
            f"{median([x.bytes for x in o]):9.0f}",
            f"{median([x.server_cpu_ms for x in o]):9.0f}",
            f"{median([x.browser_cpu_ms.get('renderer', 0) for x in o]):9.0f}",
            f"{median([x.browser_cpu_ms.get('gpu', 0) for x in o]):7.0f}",
        ] + [f"{median([x.metrics[m] for x in o]):12.0f}" for m in METRICS]
        print(f"  {kind.name:10}" + "".join(cells))
    specs = next(kind for kind in kinds if kind.name == "specs")
    still = next((kind for kind in kinds if kind.name == "specs-rm"), None)
    for kind in kinds:
        for against in (specs, still) if kind.motion == "reduce" else (specs,):
            if kind is not against and not (kind is specs and against is still):
                ratio = median([x.drawn for x in kind.opens]) / median(
                    [x.drawn for x in against.opens]
                )
                print(
                    f"  ratio {kind.name} / {against.name} page: {ratio:.2f}×"
                    f" (load {load_average():.1f})"
                )
    for kind in kinds:
        files = summed([x.by_file for x in kind.opens])
        shown = ", ".join(f"{name} {ms:.0f}" for name, ms in files.most_common(top))
        print(f"  {kind.name} self time by file (ms): {shown}")
        functions = summed([x.by_function for x in kind.opens])
        for name, ms in functions.most_common(top):
            print(f"    {ms:7.0f}  {name}")


def spy_shares(path: Path, top: int) -> None:
    """py-spy's raw stacks: the share of samples under each line of a page script (the
    outermost frame in pages/), and in a script run at all."""
    lines = path.read_text().splitlines() if path.exists() else []
    total, under = 0, defaultdict(int)
    for line in lines:
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        total += int(count)
        frames = stack.split(";")
        page_frames = [i for i, f in enumerate(frames) if re.search(r"[(/]pages/\w+\.py:", f)]
        if not page_frames:
            key = "run " if any("exec_func_with_error_handling" in f for f in frames) else ""
            under[key + "outside a page script"] += int(count)
            continue
        first = page_frames[0]
        callee = frames[first + 1] if first + 1 < len(frames) else frames[first]
        under[f"{frames[first]} → {callee}"] += int(count)
    print(f"\npy-spy: {total} samples of the app server")
    for name, count in sorted(under.items(), key=lambda item: -item[1])[:top]:
        print(f"  {100 * count / max(total, 1):5.1f} %  {name}")


def run(args) -> int:
    from playwright.sync_api import sync_playwright

    servers = Servers(args.port)
    spy = None

    def stop(*_) -> None:
        servers.stop()
        sys.exit(1)

    signal.signal(signal.SIGTERM, stop)
    try:
        app_url, app_pid = servers.start("app")
        with ThreadPoolExecutor(1) as pool:  # its own event loop, apart from Playwright's
            specs = {
                p: pool.submit(asyncio.run, opening_specs(app_url, p)).result() for p in args.pages
            }
        folder = Path(tempfile.mkdtemp(prefix="cold-open-"))
        (folder / "specs.json").write_text(json.dumps(specs))
        specs_url, specs_pid = servers.start(
            "specs", script="bench/specs_app.py", args=(str(folder / "specs.json"),)
        )
        baseline = []
        if args.baseline is not None:
            baseline = [Kind("baseline", *servers.start("baseline", cwd=args.baseline))]
            with ThreadPoolExecutor(1) as pool:  # each page run once, as the app's server was
                for page in args.pages:  # it may draw more or fewer charts than the app
                    drawn = pool.submit(asyncio.run, opening_specs(baseline[0].url, page)).result()
                    baseline[0].charts[page] = len(drawn)
        if args.py_spy:
            record = ("py-spy", "record", "--pid", str(app_pid), "--format", "raw")
            spy = subprocess.Popen(
                [*record, "--rate", "250", "--nonblocking", "--output", str(args.py_spy)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            for page in args.pages:
                kinds = [
                    Kind("app", app_url, app_pid),
                    *(Kind(k.name, k.url, k.pid, charts=k.charts) for k in baseline),
                    Kind("specs", specs_url, specs_pid),
                ]
                if args.reduced_motion:
                    kinds += [
                        Kind("app-rm", app_url, app_pid, motion="reduce"),
                        Kind("specs-rm", specs_url, specs_pid, motion="reduce"),
                    ]
                for _ in range(args.opens):
                    for kind in kinds:
                        specs_page = kind.url == specs_url
                        address = f"{kind.url}/?page={page}" if specs_page else ""
                        address = address or f"{kind.url}/{page}"
                        kind.opens.append(
                            open_once(
                                browser,
                                kind,
                                address,
                                kind.charts.get(page, len(specs[page])),
                                args.save,
                            )
                        )
                report(page, kinds, args.top)
            browser.close()
    finally:
        if spy is not None:
            spy.send_signal(signal.SIGINT)
            spy.wait(timeout=60)
        servers.stop()
    if args.py_spy:
        spy_shares(args.py_spy, args.top)
    return 0


def main() -> int:
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opens", type=int, default=3, help="cold opens per page and kind")
    parser.add_argument("--pages", default=",".join(PAGES), help="pages to open")
    parser.add_argument("--top", type=int, default=12, help="rows of each profile table")
    parser.add_argument("--save", type=Path, default=None, help="write .cpuprofile files here")
    parser.add_argument("--py-spy", type=Path, default=None, help="record the app server here")
    parser.add_argument("--port", type=int, default=None, metavar="FIRST")
    parser.add_argument(
        "--baseline", type=Path, default=None, metavar="DIR", help="another checkout, opened too"
    )
    parser.add_argument(
        "--reduced-motion",
        action="store_true",
        help="also open the app and the specs page preferring reduced motion (no pulse)",
    )
    args = parser.parse_args()
    args.pages = [p.strip() for p in args.pages.split(",") if p.strip()]
    args.opens = max(1, min(args.opens, 20))
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
