"""The training page in Chromium: what a learner waits for, and how fast the attention moves.

    python bench/train_page.py                 # 5 trials of each, interleaved
    python bench/train_page.py --trials 10

Starts the app (`streamlit run app.py`) and the plain floor of the step slider
(bench/plain_floor_train.py: a bare st.select_slider and the curves, weights and learned
matrices as plain Plotly figures, fed the default run's snapshots) on loopback ports and drives
Debian's Chromium through Playwright. A script added before Streamlit's own counts the
WebSocket's messages and bytes received and timestamps the last one on the page's clock.

- Train → the finished page (defaults, a new seed each trial so that each one trains): from the
  click to the last message of the run that draws the finished player, and the messages and
  bytes received meanwhile. Absolute (the target is ≤ 1 s): no floor trains.
- A step of the step slider (the default run): the player's slider (its <input type=range>)
  and the plain floor's st.select_slider, each moved by one ← key press, interleaved trial by
  trial: key press → the last message of the rerun, and the messages received. Ratio app /
  plain floor (target ≤ 1.2×).
- While a run trains (reversal, d_model 32, 4 heads, 3000 steps): Train → the first redraw of
  the attention on a snapshot after step 0, and the redraws per second until it finishes.
- Play: frames per second that the player draws (its data-frame attribute), against a plain
  page that animates the same frames with Plotly.animate (one heatmap per frame, no transition)
  at the same requested rate; ratio player / Plotly.

Prints figures and ratios with the load average; asserts nothing (timings depend on the
machine, which other processes share).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import plotly

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from page_edits import train as train_edit  # noqa: E402  (bench/)

from attention_ui.train import player as train_player  # noqa: E402
from tests.app_server import start_app, stop_app  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_FLAGS  # noqa: E402

IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
COUNTER = """
(() => {
  const Original = window.WebSocket;
  window.__bench = { messages: 0, bytes: 0, last: 0 };
  function Counted(...args) {
    const socket = new Original(...args);
    socket.addEventListener("message", (event) => {
      const data = event.data;
      window.__bench.messages += 1;
      window.__bench.bytes += data.byteLength ?? data.size ?? data.length ?? 0;
      window.__bench.last = performance.now();
    });
    return socket;
  }
  Counted.prototype = Original.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Counted[name] = Original[name];
  window.WebSocket = Counted;
})();
"""
# The player's root, inside its component's shadow root.
FIND_ROOT = """() => {
  for (const host of document.querySelectorAll("*")) {
    const root = host.shadowRoot && host.shadowRoot.querySelector(".tp-root");
    if (root) return root;
  }
  return document.querySelector(".tp-root");
}"""


def load_average() -> float:
    return os.getloadavg()[0]


def counts(page) -> dict:
    return page.evaluate("() => ({...window.__bench})")


def settled(page, before: dict, quiet_ms: int = 150, timeout: float = 60.0) -> dict:
    """Wait until a message has arrived since `before`, the script is idle and no message
    came for `quiet_ms`; the counts then."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        now = counts(page)
        quiet = page.evaluate("() => performance.now()") - now["last"] > quiet_ms
        if now["messages"] > before["messages"] and quiet and page.locator(IDLE).count():
            return now
        page.wait_for_timeout(20)
    raise TimeoutError("the page did not settle")


def press_train(page, url: str, seed: int) -> tuple[float, int, int]:
    page.goto(f"{url}/train?seed={seed}")
    page.wait_for_selector(".tp-root .tp-cell", timeout=600_000)
    page.wait_for_selector(IDLE)
    page.wait_for_timeout(300)
    before = counts(page)
    clicked = page.evaluate("() => performance.now()")
    page.get_by_role("button", name="Train", exact=True).click()
    page.wait_for_selector(".tp-root[data-step]", timeout=600_000)
    after = settled(page, before)
    return (
        after["last"] - clicked,
        after["messages"] - before["messages"],
        after["bytes"] - before["bytes"],
    )


def step_once(page, slider) -> tuple[float, int]:
    before = counts(page)
    pressed = page.evaluate("() => performance.now()")
    slider.press("ArrowLeft")
    after = settled(page, before)
    return after["last"] - pressed, after["messages"] - before["messages"]


def live_redraws(page, url: str, seed: int) -> tuple[float, float, int]:
    page.goto(f"{url}/train?task=reverse&steps=3000&d_model=32&heads=4&seed={seed}")
    page.wait_for_selector(".tp-root .tp-cell", timeout=600_000)
    page.wait_for_selector(IDLE)
    page.evaluate(
        """() => {
        window.__heads = [];
        const seen = () => {
          for (const h of document.querySelectorAll("h2, h3")) {  // st.header: h2
            const m = h.innerText.match(/step (\\d+)$/);
            if (m) {
              const last = window.__heads[window.__heads.length - 1];
              const step = Number(m[1]);
              if (!last || last[1] !== step) window.__heads.push([performance.now(), step]);
              return;
            }
          }
        };
        new MutationObserver(seen).observe(
          document.body, {subtree: true, childList: true, characterData: true});
      }"""
    )
    clicked = page.evaluate("() => performance.now()")
    page.get_by_role("button", name="Train", exact=True).click()
    page.wait_for_selector("[data-testid=stProgress]", timeout=60_000)
    page.wait_for_selector("[data-testid=stProgress]", state="detached", timeout=600_000)
    heads = page.evaluate("() => window.__heads")
    moving = [(at, step) for at, step in heads if 0 < step < 3000]
    if not moving:
        return float("nan"), 0.0, 0
    span = (moving[-1][0] - moving[0][0]) / 1000
    rate = (len(moving) - 1) / span if span > 0 else 0.0
    return moving[0][0] - clicked, rate, len(moving)


def play_fps(page, seconds: float) -> float:
    page.locator("[data-testid=train-play]").click()
    start = page.evaluate(f"() => Number(({FIND_ROOT})().dataset.drawn)")
    page.wait_for_timeout(int(seconds * 1000))
    end = page.evaluate(f"() => Number(({FIND_ROOT})().dataset.drawn)")
    page.locator("[data-testid=train-play]").click()
    return (end - start) / seconds


def plotly_fps(page, frames: list, seconds: float) -> float:
    """The same frames animated by Plotly.animate on a bare page, at the player's rate."""
    page.set_content("<div id=plot style='width:420px;height:300px'></div>")
    page.add_script_tag(path=str(Path(plotly.__file__).parent / "package_data/plotly.min.js"))
    return page.evaluate(
        """async ([frames, fps, seconds]) => {
          const shape = (flat, cols) => {
            const rows = [];
            for (let i = 0; i < flat.length; i += cols) rows.push(flat.slice(i, i + cols));
            return rows;
          };
          const cols = frames.cols;
          const plot = document.getElementById("plot");
          const first = shape(frames.z[0], cols);
          await Plotly.newPlot(plot, [{type: "heatmap", z: first, zmin: 0, zmax: 100,
            colorscale: "Reds", texttemplate: "%{z}"}]);
          const all = frames.z.map((z, i) => ({name: String(i), data: [{z: shape(z, cols)}]}));
          await Plotly.addFrames(plot, all);
          let drawn = 0;
          plot.on("plotly_animatingframe", () => { drawn += 1; });
          const names = frames.z.map((_, i) => String(i));
          Plotly.animate(plot, names, {frame: {duration: 1000 / fps, redraw: true},
            transition: {duration: 0}, mode: "immediate"});
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
          return drawn / seconds;
        }""",
        [frames, train_player.FPS, seconds],
    )


def screens_before_fold(browser, url: str, query: str) -> float:
    """At 390 × 844: the page's height from its title to its first fold (expander) in the
    main area, in screens."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{url}/train?{query}")
    page.wait_for_selector(".tp-root .tp-cell", timeout=600_000)
    page.wait_for_selector(IDLE)
    page.wait_for_timeout(500)
    top = page.evaluate(
        """() => {
        const main = document.querySelector("[data-testid=stMain]");
        const fold = main.querySelector("[data-testid=stExpander]");
        const title = main.querySelector("h1");
        return fold.getBoundingClientRect().top - title.getBoundingClientRect().top;
      }"""
    )
    context.close()
    return top / 844


def report(name: str, values: list[float], unit: str) -> float:
    middle = statistics.median(values)
    print(
        f"  {name}: median {middle:.3g} {unit}"
        f" (n={len(values)}; {min(values):.3g}–{max(values):.3g})"
    )
    return middle


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument(
        "--parts", default="train,height,step,live,play", help="which figures, comma-separated"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    edit = train_edit()
    start_file = Path(tempfile.mkdtemp()) / "START.json"
    start_file.write_text(json.dumps(edit.start))
    app, app_url = start_app()
    floor, floor_url = start_app(
        script="bench/plain_floor_train.py", script_args=(str(start_file),)
    )
    print(f"load average at the start: {load_average():.2f}")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            context = browser.new_context(viewport={"width": 1400, "height": 900})
            context.add_init_script(COUNTER)
            tab = context.new_page()
            parts = set(args.parts.split(","))
            base = int(time.time()) % 100_000 * 10
            if "train" in parts:
                press_train(tab, app_url, base - 1)  # the training process's first start
                trains = [press_train(tab, app_url, base + i) for i in range(args.trials)]
                print(f"Train → the finished page (load average {load_average():.2f}):")
                report("time", [t for t, _, _ in trains], "ms")
                report("messages", [m for _, m, _ in trains], "")
                report("bytes", [b / 1000 for _, _, b in trains], "kB")

            print("Height at 390 × 844 above the first fold (target ≤ 6 screens):")
            for name, query in (("step 0", "seed=1"), ("trained", "trained=1"))[
                : 2 if "height" in parts else 0
            ]:
                screens = screens_before_fold(browser, app_url, query)
                print(f"  {name}: {screens:.2f} screens")

            app_tab, floor_tab = tab, context.new_page()
            app_tab.goto(f"{app_url}/train?trained=1")
            app_tab.wait_for_selector(".tp-root[data-step]", timeout=600_000)
            floor_tab.goto(floor_url)
            floor_tab.wait_for_selector(IDLE, timeout=600_000)
            app_slider = app_tab.get_by_role("slider", name=edit.label)
            floor_slider = floor_tab.get_by_role("slider", name=edit.label)
            app_slider.focus()
            floor_slider.focus()
            app_steps, floor_steps = [], []
            for _ in range(args.trials * 2 if "step" in parts else 0):
                app_steps.append(step_once(app_tab, app_slider))
                floor_steps.append(step_once(floor_tab, floor_slider))
            if app_steps:
                step_report(app_steps, floor_steps)
            if "live" in parts:
                live_report(app_tab, app_url, base + 99)
            if "play" in parts:
                play_report(app_tab, floor_tab, app_url, edit, args.trials)
            browser.close()
    finally:
        stop_app(app)
        stop_app(floor)
    return 0


def step_report(app_steps, floor_steps) -> None:
    print(f"A step of the step slider (load average {load_average():.2f}):")
    app_time = report("app time", [t for t, _ in app_steps], "ms")
    floor_time = report("plain floor time", [t for t, _ in floor_steps], "ms")
    report("app messages", [m for _, m in app_steps], "")
    report("plain floor messages", [m for _, m in floor_steps], "")
    print(f"  ratio app / plain floor: {app_time / floor_time:.2f}× (target ≤ 1.2×)")


def live_report(app_tab, app_url: str, seed: int) -> None:
    first, rate, count = live_redraws(app_tab, app_url, seed)
    print(f"While a run trains (load average {load_average():.2f}):")
    print(f"  Train → first attention redraw after step 0: {first:.0f} ms")
    print(f"  attention redraws: {count}, {rate:.2f} per second (target ≥ 2)")


def play_report(app_tab, floor_tab, app_url: str, edit, trials: int) -> None:
    app_tab.goto(f"{app_url}/train?trained=1")
    app_tab.wait_for_selector(".tp-root[data-step]", timeout=600_000)
    app_tab.wait_for_selector(IDLE)
    data = edit.start
    frames = {
        "cols": len(data["weights"][0][0][0]),
        "z": [[round(100 * w) for row in snapshot[0] for w in row] for snapshot in data["weights"]],
    }
    play, plain = [], []
    for _ in range(max(2, trials // 2)):
        play.append(play_fps(app_tab, 3.0))
        plain.append(plotly_fps(floor_tab, frames, 3.0))
    print(f"Play (load average {load_average():.2f}, {train_player.FPS} frames/s asked):")
    player_fps = report("player", play, "frames/s")
    plotly_rate = report("plain Plotly.animate", plain, "frames/s")
    print(f"  ratio player / Plotly: {player_fps / plotly_rate:.2f}×")


if __name__ == "__main__":
    sys.exit(main())
