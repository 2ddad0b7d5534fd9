"""Watch attention learn in a browser: Train shows the progress and the curves growing while
the run trains (several states before it ends: the rate is the figure of a bench,
bench/train_sessions.py, not a timed assertion); then the step slider scrubs the snapshots."""

from __future__ import annotations

import time

from attention_ui.kit.text.i18n import catalog
from tests.app_server import start_app
from tests.browser.conftest import assert_no_exception, new_context, open_page, wait_idle

EN = catalog("en")
PROGRESS = "[data-testid=stProgress]"
PROGRESS_TEXT = f"() => document.querySelector('{PROGRESS}')?.innerText ?? null"


def test_train_shows_the_curves_growing_then_the_slider_scrubs(page, server):
    seed = int(time.time()) % 1_000_000  # a run no earlier test left in the server's cache
    open_page(page, server, "train", f"task=reverse&steps=2000&seed={seed}")
    page.get_by_role("button", name=EN["train.train"], exact=True).click()
    page.wait_for_selector(PROGRESS, timeout=30_000)
    seen, started = [], time.monotonic()
    while time.monotonic() - started < 120:
        text = page.evaluate(PROGRESS_TEXT)
        if text is None:  # the run has finished: the bar is gone
            break
        if not seen or seen[-1][1] != text:
            seen.append((time.monotonic(), text))
        page.wait_for_timeout(50)
    duration = seen[-1][0] - seen[0][0]
    assert len(seen) >= 4 and duration > 1, seen
    print(f"training progress: {len(seen)} states in {duration:.1f} s")
    wait_idle(page)
    assert_no_exception(page)
    final = EN["train.snapshot.title"].format(step="2000")
    assert page.get_by_role("heading", name=final).count() == 1
    slider = page.get_by_role("slider", name=EN["train.scrub.label"])
    slider.focus()
    slider.press("Home")
    wait_idle(page)
    first = EN["train.snapshot.title"].format(step="0")
    page.get_by_role("heading", name=first).wait_for(timeout=30_000)
    assert "step=0" in page.url


def test_a_server_that_trained_stops_on_sigterm(browser):
    """The training process is forked from the server: with the server's own SIGTERM handler
    inherited it never ended, and the server's exit waited for it forever."""
    process, url = start_app()
    try:
        context = new_context(browser)
        tab = context.new_page()
        open_page(tab, url, "train", "trained=1&task=reverse&steps=20&d_model=8")
        tab.get_by_role("heading", name=EN["train.snapshot.title"].format(step="20")).wait_for()
        context.close()
        process.terminate()
        process.wait(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            raise AssertionError("the server did not stop on SIGTERM")
