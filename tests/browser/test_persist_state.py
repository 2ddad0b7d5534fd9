"""persist_state="session" in the browser (the real frontend sends each widget's value back):
a keyed widget's value survives a page switch and back and a run that hides it, and a value a
callback sets while the widget is hidden is the one shown when it comes back. The pages rely on
it instead of copies of their own (tests/kit/state/test_persist_state.py checks it in AppTest)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

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
    assert number_box(page).input_value() == "3.50"
    assert page.get_by_test_id("stSliderThumbValue").inner_text() == "7"
    hide = page.get_by_text("hide", exact=True)
    hide.click()
    wait_idle(page)
    assert texts(page) == ["n read: 3.5"]  # read while not drawn
    hide.click()
    wait_idle(page)
    assert number_box(page).input_value() == "3.50"
    hide.click()
    wait_idle(page)
    page.get_by_role("button", name="set").click()  # the callback sets the hidden widget
    wait_idle(page)
    hide.click()
    wait_idle(page)
    assert number_box(page).input_value() == "42.00"
    go(page, "two")
    go(page, "one")
    assert number_box(page).input_value() == "42.00"
    assert page.get_by_test_id("stSliderThumbValue").inner_text() == "7"
