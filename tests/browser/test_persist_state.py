"""persist_state="session" in the browser (the real frontend sends each widget's value back):
a keyed widget's value survives a page switch and back and a run that hides it, and a value a
callback sets while the widget is hidden is the one shown when it comes back. The pages rely on
it instead of copies of their own (tests/kit/state/test_persist_state.py checks it in AppTest)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.app_server import REPO, start_app, stop_app
from tests.browser.conftest import wait_idle

APP_DIR = REPO / "tests" / "support" / "two_pages"


@pytest.fixture(scope="module")
def two_pages() -> Iterator[str]:
    process, url = start_app(cwd=APP_DIR)
    yield url
    stop_app(process)


def number_box(page):
    return page.get_by_test_id("stNumberInputField")


def shows(page, number: str, slider: str | None = None) -> None:
    """The number box (and the slider) show these values. Streamlit's frontend draws a widget
    that comes back (after a page switch or a run that hid it) at its default first, then at
    the kept value some 20-30 ms later (0.00, then 3.50, measured): wait for the value, within
    Playwright's 5 s, instead of reading the first frame. A value that stays wrong still fails."""
    expect(number_box(page)).to_have_value(number)
    if slider is not None:
        expect(page.get_by_test_id("stSliderThumbValue")).to_have_text(slider)


def texts(page) -> list[str]:
    return page.locator("[data-testid=stMarkdown]").all_inner_texts()


def go(page, name: str) -> None:
    """Switch page by the menu. The switch's run can start after `wait_idle`'s first look on a
    loaded machine (CI once read page one's text after the click): wait for the new address,
    which the frontend sets when the new page's run begins, and then for that run's end."""
    page.get_by_role("link", name=name).click()
    page.wait_for_url(re.compile(f"/{name}$"))
    wait_idle(page)


def test_values_survive_page_switches_hiding_and_callbacks(page, two_pages):
    page.goto(f"{two_pages}/one")
    wait_idle(page)
    number_box(page).fill("3.5")
    number_box(page).press("Enter")
    wait_idle(page)
    slider = page.get_by_role("slider")
    slider.focus()
    slider.press("ArrowRight")
    slider.press("ArrowRight")
    wait_idle(page)
    go(page, "two")
    assert texts(page) == ["two: s = 7, n = 3.5"]
    go(page, "one")
    shows(page, "3.50", slider="7")
    hide = page.get_by_text("hide", exact=True)
    hide.click()
    wait_idle(page)
    assert texts(page) == ["n read: 3.5"]  # read while not drawn
    hide.click()
    wait_idle(page)
    shows(page, "3.50")
    hide.click()
    wait_idle(page)
    page.get_by_role("button", name="set").click()  # the callback sets the hidden widget
    page.get_by_text("n read: 42.0", exact=True).wait_for()  # its run over: the value read back
    wait_idle(page)
    hide.click()
    wait_idle(page)
    shows(page, "42.00")
    go(page, "two")
    go(page, "one")
    shows(page, "42.00", slider="7")
