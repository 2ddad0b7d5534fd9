"""Why no widget of the app is drawn with bind="query-params" (docs/ARCHITECTURE.md says it):
Streamlit's binding, checked here in the browser against the pinned Streamlit, cannot keep
today's address. On a throw-away app (tests/support/bound_widgets) drawing our language switch
and the transformer page's d_model bound to the address:

- the language is written as its label (`lang=日本語`), not today's code (`lang=ja`), and the
  default's parameter is removed (today's address always names its language, so a link made
  on an English screen opens in English in a Japanese browser);
- today's links (`?lang=ja`, `?lang=ja-JP`) are refused and removed, and so is a language the
  app does not have (`?lang=fr`), with nothing said: the one-sentence notice stays ours;
- a setting's parameter is its session key (`transformer.d_model=5`, not today's `d=5`, which
  it does not read), and a bad or out-of-range value vanishes silently;
- the address cannot be rewritten as a whole (kit/share/address.update_address) while a
  parameter is bound.

And the app's own language address, which a bound switch broke when tried (`?lang=ja` lost
from the address, so a reload opened in English), kept as today's in the browser."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from attention_ui.kit.text.i18n import catalog
from tests.app_server import REPO, start_app, stop_app
from tests.browser.conftest import new_context, open_page, wait_idle

APP_DIR = REPO / "tests" / "support" / "bound_widgets"


@pytest.fixture(scope="module")
def bound_app() -> Iterator[str]:
    process, url = start_app(cwd=APP_DIR)
    yield url
    stop_app(process)


def params(page) -> dict[str, str]:
    """The address's query parameters now (the last value of each)."""
    query = parse_qs(urlparse(page.url).query, keep_blank_values=True)
    return {name: values[-1] for name, values in query.items()}


def shown(page, name: str = "one") -> str:
    """The line the throw-away page writes: what its widgets hold."""
    wait_idle(page)
    return page.get_by_text(f"{name}: ").inner_text()


def expect_shown(page, text: str, name: str = "one") -> None:
    """Wait until the line reads `text` (up to 10 s: after a click, wait_idle's moment can pass
    before the click's rerun has begun on a loaded machine), then for the run's end."""
    expect(page.get_by_text(f"{name}: ")).to_have_text(text, timeout=10_000)
    wait_idle(page)


def visit(page, url: str, query: str) -> str:
    page.goto(f"{url}/one?{query}")
    return shown(page)


def test_a_bound_language_switch_writes_its_label_and_drops_todays_links(page, bound_app):
    assert visit(page, bound_app, "") == "one: {'lang': 'en', 'd_model': 8}"
    page.get_by_text("日本語", exact=True).click()
    expect_shown(page, "one: {'lang': 'ja', 'd_model': 8}")
    assert params(page) == {"lang": "日本語"}  # today: lang=ja
    page.get_by_text("English", exact=True).click()
    expect_shown(page, "one: {'lang': 'en', 'd_model': 8}")
    assert params(page) == {}  # today: lang=en
    for old in ("lang=ja", "lang=ja-JP", "lang=en", "lang=fr"):
        assert visit(page, bound_app, old) == "one: {'lang': 'en', 'd_model': 8}", old
        assert params(page) == {}, old
        assert page.get_by_test_id("stAlert").count() == 0  # nothing says what was dropped


def test_a_bound_setting_is_named_by_its_key_and_refuses_silently(page, bound_app):
    visit(page, bound_app, "")
    box = page.get_by_test_id("stNumberInputField")
    box.fill("5")
    box.press("Enter")
    expect_shown(page, "one: {'lang': 'en', 'd_model': 5}")
    assert params(page) == {"transformer.d_model": "5"}  # today: d=5
    assert visit(page, bound_app, "d=5") == "one: {'lang': 'en', 'd_model': 8}"  # an old link
    assert visit(page, bound_app, "transformer.d_model=5") == "one: {'lang': 'en', 'd_model': 5}"
    for bad in ("abc", "500", "8"):  # unreadable, out of range, the default
        assert visit(page, bound_app, f"transformer.d_model={bad}").endswith("'d_model': 8}")
        assert params(page) == {}, bad
        assert page.get_by_test_id("stAlert").count() == 0
    page.get_by_text("日本語", exact=True).click()
    wait_idle(page)
    page.get_by_role("button", name="rewrite the address").click()
    wait_idle(page)
    assert page.get_by_text("refused: StreamlitAPIException").count() == 1
    assert params(page) == {"lang": "日本語"}


def test_todays_language_address_holds_through_a_reload_and_a_page_switch(browser, server):
    """What the bound switch broke: an old link's language is written back as today's code and
    a reload keeps it, in a browser of the other language; a menu link keeps it too."""
    ja, en = catalog("ja"), catalog("en")
    for locale, query, lang, title in (
        ("en-US", "lang=ja-JP", "ja", ja["regression.title"]),
        ("ja-JP", "lang=en", "en", en["regression.title"]),
    ):
        context = new_context(browser, locale=locale, viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            open_page(page, server, "regression", query)
            assert params(page)["lang"] == lang
            assert page.locator("h1").first.inner_text() == title
            page.reload()
            page.wait_for_selector("h1")
            wait_idle(page)
            assert params(page)["lang"] == lang, "reloaded"
            assert page.locator("h1").first.inner_text() == title, "reloaded"
            menu = catalog(lang)["gallery.menu"]
            page.locator("[data-testid=stSidebar] a", has_text=menu).first.click()
            page.wait_for_url("**/gallery?**")
            wait_idle(page)
            assert params(page)["lang"] == lang
            assert page.locator("h1").first.inner_text() == catalog(lang)["gallery.title"]
        finally:
            context.close()
