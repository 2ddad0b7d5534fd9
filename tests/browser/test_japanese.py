"""Japanese in a real browser: every page with ?lang=ja shows its Japanese text, drawn with a
font that has Japanese glyphs (not tofu boxes), and a Japanese browser gets Japanese unasked.

Screenshots of every Japanese page are kept in test-artifacts/ for a person to look at.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from attention_ui.kit.text.i18n import catalog
from tests.app_server import start_app, stop_app
from tests.browser.conftest import ARTIFACTS, IDLE, open_page, wait_idle

PAGES = {
    "home": "",
    "luong": "luong",
    "database": "database",
    "gallery": "gallery",
    "transformer": "transformer",
}
JA = catalog("ja")
NAV_LABELS = [JA[f"nav.{name}"] for name in PAGES]
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def fonts_drawing(page, selector: str) -> dict[str, int]:
    """The fonts Chromium really used for the text of the first `selector` element:
    {family: glyphs drawn}, from the DevTools protocol (what the renderer picked, fallbacks
    included)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    finally:
        cdp.detach()
    return {font["familyName"]: font["glyphCount"] for font in fonts}


def distinct_glyph_images(page, text: str) -> int:
    """How many different pictures the characters of `text` make when drawn in the page's
    font: a missing font draws every character as the same empty box."""
    return page.evaluate(
        """(text) => {
            const font = getComputedStyle(document.querySelector('h1')).font;
            const images = new Set();
            for (const ch of text) {
                const canvas = document.createElement('canvas');
                canvas.width = 40; canvas.height = 40;
                const ctx = canvas.getContext('2d');
                ctx.font = font.replace(/\\d+(\\.\\d+)?px/, '28px');
                ctx.fillText(ch, 4, 32);
                images.add(canvas.toDataURL());
            }
            return images.size;
        }""",
        text,
    )


@pytest.mark.parametrize("name", list(PAGES))
def test_each_page_in_japanese_shows_japanese_drawn_with_a_japanese_font(page, server, name):
    open_page(page, server, PAGES[name], "lang=ja")
    title = JA[f"{name}.title"]
    heading = page.locator("h1").first
    heading.wait_for()
    assert heading.inner_text().strip() == title
    sidebar = page.locator("[data-testid=stSidebar]")
    for label in NAV_LABELS:
        sidebar.get_by_text(label, exact=True).first.wait_for()  # the translated menu
    assert "lang=ja" in page.url
    body = page.locator("[data-testid=stMain]").inner_text()
    assert len(JAPANESE.findall(body)) > 40  # more than a title: the page's text is Japanese
    assert "**" not in body  # Markdown emphasis next to Japanese punctuation still renders

    fonts = fonts_drawing(page, "h1")
    japanese_chars = len(JAPANESE.findall(title))
    cjk = {
        family: count
        for family, count in fonts.items()
        if re.search(r"CJK|Gothic|Mincho|IPA|Takao|Hiragino|Meiryo|Yu |Fallback", family)
    }
    assert sum(cjk.values()) >= japanese_chars, f"title drawn with {fonts}"
    assert distinct_glyph_images(page, "アテンション重み") == 7  # ア テ ン シ ョ 重 み (ン twice)
    # the glyph check can fail: unassigned code points are all drawn as the same box
    assert distinct_glyph_images(page, "\u0378\u0379\u0380\u0381") == 1
    assert distinct_glyph_images(page, "Atn") == 3

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"japanese-{name}.png"), full_page=True)


def test_a_japanese_browser_gets_japanese_without_asking(browser, server):
    context = browser.new_context(locale="ja-JP", viewport={"width": 1280, "height": 900})
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
    context = browser.new_context(viewport={"width": 1280, "height": 900})
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
