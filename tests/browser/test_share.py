"""The shareable address in Chromium: change the Luong page, copy the link from the Share box,
open it in a new browser context (a new session, no cookies), and see the same charts."""

from __future__ import annotations

from attention_ui.i18n import catalog
from tests.browser.conftest import (
    CHROMIUM,
    assert_no_exception,
    move_slider,
    open_page,
    pick_option,
    plot_data,
    wait_idle,
)

EN = catalog("en")
CHARTS = [EN["luong.results.S"], EN["luong.results.A"], EN["luong.results.O"]]


def test_a_copied_link_opens_the_same_charts_in_a_new_browser(page, server, browser):
    assert CHROMIUM
    open_page(page, server, "luong")
    pick_option(page, EN["luong.preset.label"], EN["luong.preset.rotation.name"])
    move_slider(page, EN["luong.tau.label"], -3)
    before = {title: plot_data(page, title) for title in CHARTS}
    # The address follows the page (no save step) ...
    page.wait_for_function("() => location.search.includes('preset=rotation')")
    # ... and the Share box shows it, as the text its copy button copies.
    page.get_by_text(EN["share.title"]).click()  # opening it reruns the page (drawn lazily)
    wait_idle(page)
    code = page.locator("[data-testid=stSidebar] [data-testid=stCode] code").first
    code.wait_for()
    link = code.inner_text().strip()
    assert link.startswith(f"{server}/luong?") and "preset=rotation" in link
    assert link.split("?", 1)[1] == page.evaluate("() => location.search.slice(1)")

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        other = context.new_page()
        other.goto(link)
        other.wait_for_selector("[data-testid=stApp]", timeout=30_000)
        wait_idle(other)
        assert_no_exception(other)
        after = {title: plot_data(other, title) for title in CHARTS}
        assert after == before
        assert other.locator("[data-testid=stSidebar] [data-testid=stAlert]").count() == 0
    finally:
        context.close()
