"""Watch attention learn in a browser: the page opens on the model at step 0 with Train and the
attention in one screen at 1400 × 900; Play runs through the snapshots in the browser (frames
advance with no message to the server until it stops, and then the page follows the step);
while a run trains, the attention is redrawn as snapshots arrive. Rates are the figures of a
bench (bench/train_page.py), not timed assertions."""

from __future__ import annotations

import time

import pytest

from attention_ui.kit.text.i18n import catalog
from tests.app_server import start_app
from tests.browser.conftest import assert_no_exception, new_context, open_page, wait_idle

EN = catalog("en")
PROGRESS = "[data-testid=stProgress]"
ROOT = ".tp-root"
OPEN = 180_000  # a server's first page (imports) on a machine shared with other work


@pytest.fixture
def desktop(page):
    page.set_viewport_size({"width": 1400, "height": 900})
    return page


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_page_opens_on_step_0_with_train_and_the_attention_in_one_screen(desktop, server, lang):
    words = catalog(lang)
    open_page(desktop, server, "train", f"lang={lang}", timeout=OPEN)
    desktop.locator(f"{ROOT} .tp-cell").first.wait_for(timeout=30_000)
    heading = desktop.get_by_role("heading", name=words["train.snapshot.title"].format(step="0"))
    assert heading.count() == 1
    train = desktop.get_by_role("button", name=words["train.train"], exact=True).bounding_box()
    cells = desktop.locator(f"{ROOT} .tp-cell")
    last = cells.nth(cells.count() - 1).bounding_box()
    assert train["y"] + train["height"] <= 900, train
    assert last["y"] + last["height"] <= 900, last  # the whole step-0 attention, no scrolling
    assert desktop.locator(f"{ROOT} .tp-ring").count() == 4  # four examples' right positions


def test_play_runs_in_the_browser_then_the_page_follows_the_step(desktop, server):
    seed = int(time.time()) % 1_000_000
    query = f"trained=1&task=reverse&steps=300&d_model=8&seed={seed}"
    open_page(desktop, server, "train", query, timeout=OPEN)
    desktop.get_by_role("heading", name=EN["train.snapshot.title"].format(step="300")).wait_for(
        timeout=120_000
    )
    wait_idle(desktop)
    sent = []
    desktop.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(frame)))
    root = desktop.locator(ROOT)
    slider = desktop.get_by_role("slider", name=EN["train.scrub.label"])
    slider.focus()
    slider.press("Home")  # the first frame, told to the server
    wait_idle(desktop)
    desktop.get_by_role("heading", name=EN["train.snapshot.title"].format(step="0")).wait_for()
    assert "step=0" in desktop.url
    # the page's own socket predates the listener: count the messages through Streamlit's own
    # state instead: no run starts while Play advances
    frames = []
    desktop.locator("[data-testid=train-play]").click()
    for _ in range(6):
        desktop.wait_for_timeout(150)
        frames.append(int(root.get_attribute("data-frame")))
        running = desktop.locator("[data-testid=stApp][data-test-script-state=running]").count()
        assert running == 0, "a frame of Play went to the server"
    assert frames == sorted(frames) and frames[-1] - frames[0] >= 3, frames
    desktop.locator("[data-testid=train-play]").click()  # Pause: the step goes to the server
    wait_idle(desktop)
    step = root.get_attribute("data-step")
    heading = EN["train.snapshot.title"].format(step=step)
    desktop.get_by_role("heading", name=heading).wait_for(timeout=30_000)
    assert f"step={step}" in desktop.url
    assert_no_exception(desktop)


def test_the_attention_is_redrawn_while_the_run_trains(desktop, server):
    seed = int(time.time()) % 1_000_000 + 7
    # reversal at d_model 32 with 4 heads, 3000 steps: several seconds even on an idle machine
    query = f"task=reverse&steps=3000&d_model=32&heads=4&seed={seed}"
    open_page(desktop, server, "train", query, timeout=OPEN)
    desktop.get_by_role("button", name=EN["train.train"], exact=True).click()
    desktop.wait_for_selector(PROGRESS, timeout=60_000)
    steps, started = [], time.monotonic()
    while time.monotonic() - started < 240 and desktop.locator(PROGRESS).count():
        heading = desktop.locator("h2").filter(has_text="The model at step").first
        text = heading.inner_text() if heading.count() else ""
        if text and (not steps or steps[-1] != text):
            steps.append(text)
        desktop.wait_for_timeout(100)
    numbers = [int(text.rsplit(" ", 1)[-1]) for text in steps]
    assert numbers == sorted(numbers), steps
    assert len([n for n in numbers if 0 < n < 3000]) >= 3, steps  # the attention moved on
    wait_idle(desktop)
    assert_no_exception(desktop)


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
