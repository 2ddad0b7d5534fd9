"""Japanese in a real browser, arriving without the app's help: a Japanese browser gets Japanese
unasked, and a shared Japanese link opened first on a fresh server is Japanese with its menu.
(That every page's text is Japanese and drawn with a Japanese font is checked on each page's
visit in test_accessibility.py.)
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from attention_ui.kit.text.i18n import catalog
from tests.app_server import start_app, stop_app
from tests.browser.conftest import IDLE, POLL_MS, new_context, wait_idle

JA = catalog("ja")
PAGE_NAMES = (
    "home",
    "luong",
    "database",
    "gallery",
    "exercises",
    "regression",
    "transformer",
    "train",
)
NAV_LABELS = [JA[f"{name}.menu"] for name in PAGE_NAMES]
WHOLE_NAME = {"ja": "マルチヘッド・セルフアテンション", "en": "Multi-head self-attention"}
# Each menu label's text as drawn, and whether a box in it cuts it (wider than it shows).
MENU_LABELS = """() => Array.from(document.querySelectorAll('[data-testid=stSidebar] a'))
  .filter(a => a.getBoundingClientRect().width > 0)
  .map(a => { const texts = Array.from(a.querySelectorAll('*'))
                  .filter(e => e.children.length === 0 && e.textContent.trim());
              const text = texts.map(e => e.textContent.trim()).pop();
              const cut = Array.from(a.querySelectorAll('*'))
                  .filter(e => e.textContent.includes(text) && e.scrollWidth > e.clientWidth + 1)
                  .map(e => [e.tagName, e.scrollWidth, e.clientWidth]);
              return {text, cut}; })"""


def test_a_japanese_browser_gets_japanese_without_asking(browser, server):
    context = new_context(browser, locale="ja-JP", viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server)
        page.wait_for_selector(IDLE, timeout=30_000)
        wait_idle(page)
        assert page.get_by_role("heading", name=JA["home.title"]).count() >= 1
        assert "lang=ja" in page.url  # and the address is ready to share
        assert errors == []
    finally:
        context.close()


def test_a_shared_japanese_link_opened_first_on_a_fresh_server_is_japanese_with_its_menu(browser):
    """An instructor's `/luong?lang=ja` link, opened before anyone has visited the home page
    since the server started: Streamlit runs pages/luong.py alone (its own `pages/` discovery),
    and the page's frame must still give it Japanese, the translated menu and the language
    switch, and no file-name menu."""
    process, url = start_app()
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{url}/luong?lang=ja")
        page.wait_for_selector(IDLE, timeout=90_000)
        wait_idle(page, timeout=90_000)
        page.get_by_role("heading", name=JA["luong.title"]).first.wait_for(timeout=90_000)
        sidebar = page.locator("[data-testid=stSidebar]")
        sidebar.get_by_text("日本語").first.wait_for()  # the language switch is there
        for label in NAV_LABELS:
            sidebar.get_by_text(label, exact=True).first.wait_for()  # the translated menu
        assert urlparse(page.url).path == "/luong"
        assert parse_qs(urlparse(page.url).query)["lang"] == ["ja"]
        assert page.locator("[data-testid=stSidebarNav]").count() == 0  # Streamlit's own menu
        page.get_by_role("link", name=NAV_LABELS[2]).click()  # the menu keeps the language
        page.get_by_role("heading", name=JA["database.title"]).first.wait_for(timeout=90_000)
        assert urlparse(page.url).path == "/database"
        assert parse_qs(urlparse(page.url).query)["lang"] == ["ja"]
    finally:
        context.close()
        stop_app(process)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_menu_label_is_the_pages_whole_title_uncut_at_1400(page, server, lang):
    """The multi-head page's whole name, マルチヘッド・セルフアテンション (224 px), in its title
    and in the menu, where no label is cut: the sidebar is wide enough (attention_ui/frame.py
    SIDEBAR_WIDTH; Streamlit's own 300 px left the label 200 px)."""
    words = catalog(lang)
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{server}/transformer?lang={lang}")
    page.wait_for_selector(IDLE, timeout=90_000)
    wait_idle(page, timeout=90_000)
    title = words["transformer.title"]
    page.get_by_role("heading", name=title, exact=True).first.wait_for(timeout=90_000)
    # the menu can be drawn after the page's heading (no link read once, with three workers)
    menu = [words[f"{name}.menu"] for name in PAGE_NAMES]
    page.wait_for_function(f"(n) => ({MENU_LABELS})().length >= n", arg=len(menu), polling=POLL_MS)
    labels = page.evaluate(MENU_LABELS)
    assert [label["text"] for label in labels] == menu
    assert title == words["transformer.menu"] == WHOLE_NAME[lang]
    cut = [label for label in labels if label["cut"]]
    assert not cut, cut
