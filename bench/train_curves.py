"""Watch attention learn in Chromium: how often the loss curve is redrawn while a run trains.

Starts `streamlit run app.py` on a loopback port, opens the training page in headless Chromium
(Debian's, through Playwright) and presses Train on a run of several seconds (induction, d_model
32, 4 heads, 3,000 steps, a seed no earlier run used). A script added to the page before
Streamlit's own looks at every animation frame for the loss chart and notes the moment its
curve reaches a new step, on the page's clock. Printed per run: the redraws seen while
training, the time between the first and the last, the redraws per second (target: at least
2), the longest wait between two redraws, and the load average beside them.

With `--others N`, N more browser tabs open the same page and press Train with the same
settings first (a class pressing Train together: one shared run, N + 1 sessions following it).

    python bench/train_curves.py                # 3 runs, one learner
    python bench/train_curves.py --others 5     # the learner among five others

Prints, never asserts (the rate depends on the machine). Exit status 1 if a run did not finish.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run from anywhere

from attention_ui.kit.text.i18n import catalog  # noqa: E402
from tests.app_server import start_app, stop_app  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_FLAGS, open_page  # noqa: E402

EN = catalog("en")
SETTINGS = "task=induction&steps=3000&d_model=32&heads=4"
TARGET_PER_SECOND = 2.0

# Every animation frame: the last step the loss chart draws, noted with the time it changed.
RECORDER = """
window.__curve = [];
(function look() {
    const title = %s;
    for (const plot of document.querySelectorAll('.js-plotly-plot')) {
        const text = ((plot._fullLayout || {}).title || {}).text || '';
        if (!text.replace(/<[^>]*>/g, '').includes(title)) continue;
        const points = ((plot._fullData || [])[0] || {}).x;
        const step = points && points.length ? Number(points[points.length - 1]) : 0;
        const last = window.__curve[window.__curve.length - 1];
        if (!last || last[1] !== step) window.__curve.push([performance.now(), step]);
        break;
    }
    requestAnimationFrame(look);
})();
"""


def one_run(browser, url: str, others: int) -> dict | None:
    seed = random.randrange(1_000_000, 9_000_000)  # a run no earlier one left in the cache
    contexts = [browser.new_context(viewport={"width": 1400, "height": 900})]
    contexts += [
        browser.new_context(viewport={"width": 1400, "height": 900}) for _ in range(others)
    ]
    pages = [context.new_page() for context in contexts]
    learner = pages[0]
    learner.add_init_script(RECORDER % repr(EN["train.curves.loss_title"]))
    try:
        for page in pages:  # every tab opened first, then Train pressed in each, the learner last
            open_page(page, url, "train", f"{SETTINGS}&seed={seed}")
        for page in reversed(pages):
            page.get_by_role("button", name=EN["train.train"], exact=True).click()
        final = EN["train.snapshot.title"].format(step="3000")
        learner.get_by_role("heading", name=final).wait_for(timeout=180_000)
        curve = learner.evaluate("window.__curve")
    except Exception as error:  # a bench reports and goes on
        print(f"  run with seed {seed} did not finish: {error}")
        return None
    finally:
        for context in contexts:
            context.close()
    # While training: the curve's last steps from its first drawing to the one before the
    # finished chart (step 3,000) is drawn.
    growing = [(ms, step) for ms, step in curve if 0 < step < 3000]
    if len(growing) < 2:
        print(f"  seed {seed}: {len(growing)} redraws seen while training")
        return None
    times = [ms / 1000 for ms, _ in growing]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    span = times[-1] - times[0]
    return {
        "redraws": len(growing),
        "span": span,
        "rate": (len(growing) - 1) / span,
        "longest": max(gaps),
        "load": os.getloadavg()[0],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--others", type=int, default=0, help="tabs following the same run")
    args = parser.parse_args()
    process, url = start_app()
    failed = 0
    rates = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            print(f"training page, {SETTINGS}, {args.others} other tabs following the same run")
            print(f"server pid {process.pid} (for py-spy)", flush=True)
            print(f"{'redraws':>8} {'span s':>7} {'per s':>6} {'longest gap s':>14} {'load':>5}")
            for _ in range(args.runs):
                result = one_run(browser, url, args.others)
                if result is None:
                    failed += 1
                    continue
                rates.append(result["rate"])
                print(
                    f"{result['redraws']:>8} {result['span']:>7.1f} {result['rate']:>6.2f}"
                    f" {result['longest']:>14.2f} {result['load']:>5.1f}"
                )
            browser.close()
    finally:
        stop_app(process)
    if rates:
        median = statistics.median(rates)
        verdict = "met" if median >= TARGET_PER_SECOND else "not met"
        print(f"median {median:.2f} redraws/s (target ≥ {TARGET_PER_SECOND:g}/s: {verdict})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
