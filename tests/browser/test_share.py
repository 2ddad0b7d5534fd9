"""The shareable address in Chromium: change a page, copy the link from the Share box, open it
in a new browser context (a new session, no cookies), and see the same charts: the Luong page
and the transformer page (whose grids are seeded from the address's seed)."""

from __future__ import annotations

import numpy as np

from attention_core import multi_head
from attention_ui.kit.text.i18n import catalog
from attention_ui.transformer.model import EXAMPLES, embeddings, projections
from tests.browser.conftest import (
    CHROMIUM,
    HEAD_GRID,
    POLL_MS,
    assert_no_exception,
    move_slider,
    new_context,
    open_page,
    pick_option,
    plot_data,
    wait_idle,
)

EN = catalog("en")
CHARTS = [EN["luong.results.S"], EN["luong.results.A"], EN["luong.results.O"]]


def copied_link(page, server: str, path: str) -> str:
    """Open the Share box and read its link, the text its copy button copies; it is the
    address the browser shows (the address follows the page, no save step)."""
    page.get_by_text(EN["share.title"]).click()  # opening it reruns the page (drawn lazily)
    wait_idle(page)
    code = page.locator("[data-testid=stSidebar] [data-testid=stCode] code").first
    code.wait_for()
    link = code.inner_text().strip()
    assert link.startswith(f"{server}/{path}?")
    assert link.split("?", 1)[1] == page.evaluate("() => location.search.slice(1)")
    return link


def in_new_browser(browser, link: str, read):
    """`read(page)` on the link opened in a new browser context, with no warning in the
    sidebar (nothing of the address was ignored) and no exception."""
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    try:
        other = context.new_page()
        other.goto(link)
        other.wait_for_selector("[data-testid=stApp]", timeout=60_000)
        wait_idle(other, timeout=90_000)  # a new browser's first page; a busy CI machine is slow
        assert_no_exception(other)
        seen = read(other)
        assert other.locator("[data-testid=stSidebar] [data-testid=stAlert]").count() == 0
        return seen
    finally:
        context.close()


def test_a_copied_link_opens_the_same_charts_in_a_new_browser(page, server, browser):
    assert CHROMIUM
    open_page(page, server, "luong")
    pick_option(page, EN["luong.preset.label"], EN["luong.preset.rotation.name"])
    move_slider(page, EN["luong.tau.label"], -3)
    before = {title: plot_data(page, title) for title in CHARTS}
    page.wait_for_function("() => location.search.includes('preset=rotation')", polling=POLL_MS)
    link = copied_link(page, server, "luong")
    assert "preset=rotation" in link
    after = in_new_browser(browser, link, lambda other: {t: plot_data(other, t) for t in CHARTS})
    assert after == before


def test_a_copied_transformer_link_shows_the_same_heads_and_output(page, server, browser):
    """Seed 5, positions and causal mask on: the new browser draws the same per-head weights
    and the same Y, and they are the engine's for that seed."""
    open_page(page, server, "transformer")
    seed = page.get_by_role("spinbutton", name=EN["transformer.seed"])
    seed.fill("5")
    seed.press("Enter")
    wait_idle(page)
    for label in (EN["transformer.positions"], EN["transformer.causal"]):
        page.get_by_text(label, exact=True).click()
        wait_idle(page)
    page.wait_for_function(
        "() => ['seed=5', 'pos=1', 'causal=1'].every(p => location.search.includes(p))",
        timeout=30_000,
        polling=POLL_MS,
    )
    first = EN["transformer.heads_grid.head"].format(number=1, d_head=2)
    output = EN["transformer.output.chart"]

    def numbers(shown) -> dict:
        shown.wait_for_function(
            f"(first) => ({HEAD_GRID})(first) !== null", arg=first, polling=POLL_MS
        )
        return {"heads": shown.evaluate(HEAD_GRID, first), "Y": plot_data(shown, output)}

    tokens = EXAMPLES["en"].split()
    X, W = embeddings(tokens, 4, 5), projections(4, 5)
    engine = multi_head(X, *W.values(), 2, causal=True, positions=True)
    before = numbers(page)
    np.testing.assert_allclose([h["z"] for h in before["heads"]], engine.weights, rtol=1e-9)
    link = copied_link(page, server, "transformer")
    after = in_new_browser(browser, link, numbers)
    assert after == before
