"""Untrusted text in a real DOM: names and addresses with HTML in them are shown as text.

A student types `<img src=x onerror=…>` or `<script>` into the database table, the query box or
the address; the browser must show those characters literally and never create the element
or run the handler (Markdown messages, tab labels and Plotly labels alike).
"""

from __future__ import annotations

from urllib.parse import quote

from attention_ui.kit.text.i18n import catalog
from tests.browser.conftest import assert_no_exception, grid, open_page, type_into_cell, wait_idle

EN = catalog("en")
IMG = "<img src=x onerror=window.__owned=1>"
SCRIPT = "<script>window.__owned=1</script>"

INJECTED = """() => ({
    owned: window.__owned === 1,
    images: document.querySelectorAll('img[src="x"]').length,
    scripts: Array.from(document.querySelectorAll('script'))
                  .filter(s => s.textContent.includes('__owned')).length,
})"""


def assert_not_injected(page) -> None:
    assert page.evaluate(INJECTED) == {"owned": False, "images": 0, "scripts": 0}


def test_html_in_names_and_queries_is_shown_as_text(page, server):
    open_page(page, server, "database")
    type_into_cell(page, grid(page, 0), 1, 0, IMG, columns=3)  # Lipton's key
    box = page.get_by_role("textbox", name=EN["database.query.label"])
    box.fill(f"{IMG}, {SCRIPT}")
    box.press("Enter")
    wait_idle(page)
    page.locator(".js-plotly-plot").first.wait_for()

    # The best-match message and the tab labels show the characters themselves.
    assert page.get_by_text(IMG, exact=False).count() >= 1
    assert page.get_by_text("<script>", exact=False).count() >= 1
    # Plotly's labels (SVG text) too: the raw tag is text, not markup.
    labels = page.evaluate("""() => Array.from(document.querySelectorAll('.js-plotly-plot text'))
                                      .map(t => t.textContent).join(' ')""")
    assert "<img src=x" in labels
    assert_not_injected(page)
    assert_no_exception(page)


def test_html_in_the_address_is_shown_as_text(page, server):
    open_page(page, server, "", query=f"lang={quote(SCRIPT)}")
    sidebar = page.locator("[data-testid=stSidebar]")
    sidebar.get_by_text("<script>window.", exact=False).first.wait_for()
    assert_not_injected(page)
    assert_no_exception(page)
