"""A learner without a mouse, in Chromium: from the page's first Tab stop, Tab alone reaches the
menu (a page link), a setting (Luong's score function), a grid cell and a chart's "Numbers as
a table", which Enter opens; Tab then lands in that table, which holds the chart's numbers.

One page visit; only keyboard presses move the focus (no click, no focus() call).
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.formatting import fmt
from attention_ui.kit.text.i18n import catalog
from tests.browser.conftest import open_page, plot_data, wait_idle

EN = catalog("en")
TIMEOUT = 120_000
pytestmark = pytest.mark.timeout(300)

# The focused element (through the grids' shadow roots): what it is, its name and where it is.
_FOCUSED = """() => {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return null;
    const host = el.getRootNode().host;
    const outer = host || el;
    const box = outer.closest('[data-testid=stExpander]');
    return {
        tag: el.tagName.toLowerCase(),
        name: (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 80),
        role: el.getAttribute('role') || '',
        link: !!el.closest('[data-testid=stSidebar] [data-testid=stPageLink-NavLink]'),
        cell: !!(host && el.tagName === 'INPUT' && el.closest('table[role=grid]')),
        chart_table: !!(box && outer.closest('[data-testid=stDataFrame]')),
        // a summary: the name of the chart just before its expander
        summary_of: el.tagName === 'SUMMARY' && box ? (Array.from(document.querySelectorAll(
            '[data-testid=stPlotlyChart]')).filter(chart => chart.compareDocumentPosition(box)
            & Node.DOCUMENT_POSITION_FOLLOWING).pop()?.getAttribute('aria-label') || '') : '',
    };
}"""


_MODE_BAR_STOPS = """() => Array.from(document.querySelectorAll('[data-testid=stPlotlyChart]'))
    .map(chart => chart.querySelectorAll('.modebar a, .modebar button').length)"""


def focused(page) -> dict | None:
    return page.evaluate(_FOCUSED)


def tab_until(page, wanted, what: str, limit: int = 250) -> dict:
    """Press Tab until the focused element satisfies `wanted`; return it."""
    seen = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = focused(page)
        if now and wanted(now):
            return now
        seen.append(now and now["name"][:30])
    raise AssertionError(f"Tab never reached {what}; last stops: {seen[-8:]}")


def test_menu_setting_cell_and_a_charts_table_by_keyboard_only(page, server):
    page.set_default_timeout(TIMEOUT)
    open_page(page, server, "luong", timeout=TIMEOUT)

    link = tab_until(page, lambda f: f["link"], "a page link of the menu")
    assert link["tag"] == "a" and link["name"], link

    score = tab_until(
        page,
        lambda f: (
            f["name"] == EN["luong.score.label"]
            or (f["role"] == "combobox" and EN["luong.score.label"] in f["name"])
        ),
        "the score select box",
    )
    assert score["role"] == "combobox", score

    cell = tab_until(page, lambda f: f["cell"], "a grid cell")
    assert cell["name"] == "Q, row 1, column q1", cell
    # each chart's mode bar is one Tab stop (the camera), not Plotly's default 8
    stops = page.evaluate(_MODE_BAR_STOPS)
    assert stops and set(stops) == {1}, stops

    summary = tab_until(page, lambda f: bool(f["summary_of"]), "a chart's 'Numbers as a table'")
    assert summary["name"].startswith(EN["figures.table.label"]), summary
    assert summary["summary_of"].startswith("S: scores."), summary
    # Leaving a grid cell by Tab commits it: let that run end, so that it does not redraw the
    # expander closed under the key press.
    wait_idle(page, timeout=TIMEOUT)
    page.keyboard.press("Enter")  # opens it; the page reruns and draws the table
    page.locator("[data-testid=stExpander] [data-testid=stDataFrame]").first.wait_for()
    wait_idle(page, timeout=TIMEOUT)
    table = tab_until(page, lambda f: f["chart_table"], "the chart's table", limit=12)
    assert table["chart_table"], table
    # the table Tab reached is the chart's, named after it, with the numbers the chart prints
    frame = page.locator("[data-testid=stExpander] [data-testid=stDataFrame]").first
    assert frame.locator(
        f"[aria-label='{EN['figures.table.alt'].format(name='S: scores')}']"
    ).count()
    shown = plot_data(page, "S: scores")["z"]
    cells = frame.locator("table[role=grid] tbody td")
    cells.nth(8).wait_for(state="attached")  # 3 rows of a label and 2 numbers
    cells = [text.strip() for text in cells.all_text_contents()]
    assert [fmt(v) for v in np.ravel(shown)] == [c for c in cells if c not in {"k1", "k2", "k3"}]
