import re

from tests.browser.conftest import open_page, wait_idle


def test_home_opens_and_lists_every_page(page, server):
    open_page(page, server)
    assert page.get_by_role("heading", name="Attention Explorer").count() >= 1
    for name in ["Luong explorer", "Database lookup", "Weights gallery"]:
        assert page.get_by_text(name).count() >= 1
    wait_idle(page)


def test_language_switch_is_remembered_across_pages_and_in_the_url(page, server):
    open_page(page, server)
    page.get_by_text("日本語").click()
    wait_idle(page)
    assert page.get_by_role("heading", name="アテンション・エクスプローラー").count() >= 1
    assert "lang=ja" in page.url
    page.get_by_role("link", name="データベース検索").first.click()
    page.wait_for_url(re.compile(r"/database\?"))
    wait_idle(page)
    assert page.locator("[data-testid=stSidebar]").get_by_text("日本語").count() >= 1
    page.get_by_role("link", name="はじめに").first.click()
    page.wait_for_url(re.compile(r"/home\?"))
    wait_idle(page)
    assert page.get_by_role("heading", name="アテンション・エクスプローラー").count() >= 1
