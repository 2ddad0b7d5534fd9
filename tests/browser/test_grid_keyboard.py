"""The grid editor without a mouse, in Chromium: a Luong task done with Tab, typing, Enter and
the arrow keys only; every cell of every grid reached by Tab and by the arrows."""

from __future__ import annotations

import pytest

from attention_ui.kit.text.i18n import catalog
from tests.browser.conftest import (
    POLL_MS,
    collect_errors,
    open_page,
    wait_for_editor_text,
    wait_idle,
)

EN = catalog("en")
TIMEOUT = 120_000
pytestmark = pytest.mark.timeout(600)

# The label of the focused element, through the grids' shadow roots.
_FOCUSED = """() => { let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    return el ? (el.getAttribute('aria-label') || el.textContent || el.tagName) : null; }"""
# Every grid cell's label, in page order.
_CELLS = """() => Array.from(document.querySelectorAll('*')).flatMap(host =>
    host.shadowRoot ? Array.from(host.shadowRoot.querySelectorAll('table[role=grid] input'))
                    : []).map(input => input.getAttribute('aria-label'))"""


def focused(page) -> str | None:
    return page.evaluate(_FOCUSED)


def tab_to(page, label: str, limit: int = 300) -> None:
    """Press Tab until the element named `label` has the focus."""
    for _ in range(limit):
        if focused(page) == label:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {label!r}")


def type_and_enter(page, text: str) -> None:
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    wait_for_editor_text(page, text, TIMEOUT)
    page.keyboard.press("Enter")


def test_a_luong_task_is_solved_with_the_keyboard_only(page, server):
    """'Output = mean of the values': every entry of Q set to 0, cell by cell."""
    page.set_default_timeout(TIMEOUT)
    open_page(page, server, "luong", timeout=TIMEOUT)
    page.locator("body").focus()
    tab_to(page, "Q, row 1, column q1")
    type_and_enter(page, "0")  # Enter commits and moves down a row
    assert focused(page) == "Q, row 2, column q1"
    type_and_enter(page, "0")
    page.keyboard.press("ArrowRight")
    assert focused(page) == "Q, row 2, column q2"
    type_and_enter(page, "0")
    page.keyboard.press("ArrowUp")
    assert focused(page) == "Q, row 1, column q2"
    type_and_enter(page, "0")
    wait_idle(page, timeout=TIMEOUT)
    solved = EN["tasks.solved"] + " " + EN["tasks.luong_mean.progress"].split("{")[0]
    page.get_by_text(solved).wait_for(timeout=TIMEOUT)


@pytest.mark.parametrize("path", ["luong", "database", "regression"])
def test_every_cell_of_every_grid_is_reached_by_tab_and_by_the_arrows(page, server, path):
    page.set_default_timeout(TIMEOUT)
    open_page(page, server, path, timeout=TIMEOUT)
    # The grids' script loads as a file of its own, after the run has ended: wait for a cell.
    page.wait_for_function(f"() => ({_CELLS})().length > 0", timeout=TIMEOUT, polling=POLL_MS)
    cells = page.evaluate(_CELLS)
    assert cells, "the page draws its grids with the grid editor"
    page.locator("body").focus()
    tab_to(page, cells[0])
    reached = [cells[0]]
    for _ in range(5 * len(cells)):  # Tab walks every cell (and the grids' buttons) in order
        page.keyboard.press("Tab")
        label = focused(page)
        if label in cells and label not in reached:
            reached.append(label)
        if len(reached) == len(cells):
            break
    assert reached == cells
    # Arrows: from each grid's first cell, right along the first row, then down each column.
    grids = page.locator("table[role=grid]")
    for g in range(grids.count()):
        rows = grids.nth(g).locator("tbody tr")
        labels = [
            rows.nth(i).locator("input").evaluate_all("els => els.map(e => e.ariaLabel)")
            for i in range(rows.count())
        ]
        rows.nth(0).locator("input").first.focus()
        for j in range(len(labels[0])):
            assert focused(page) == labels[0][j]
            for i in range(1, len(labels)):
                page.keyboard.press("ArrowDown")
                assert focused(page) == labels[i][j]
            for _ in range(1, len(labels)):
                page.keyboard.press("ArrowUp")
            page.keyboard.press("ArrowRight")


def test_a_grid_folded_to_fit_a_phone_is_edited_as_any_other(module_context, server):
    """The concat score's W_a at 8 × 16 on a 390 px phone: narrower cells, and its columns
    folded into two blocks, k:1…k:8 under q:1…q:8 (test_first_screen measures the fit). The
    arrows still walk the matrix's columns across the blocks, Alt+Up steps a value by the
    page's 0.1, a drag sideways scrubs one (8 px a step), typed text is kept, and the grid
    still fits its column with the longer number in it."""
    page = module_context.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    errors = collect_errors(page)
    try:
        page.set_default_timeout(TIMEOUT)
        open_page(page, server, "luong", "score=concat&dq=8&dk=8&dv=8&n=8&m=8&h=8", TIMEOUT)

        def cell(row: int, col: str):
            return page.get_by_label(f"W_a, row {row}, column {col}", exact=True)

        def settled_value(row: int, col: str, text: str) -> None:
            wait_idle(page, timeout=TIMEOUT)
            page.wait_for_function(
                """([label, text]) => Array.from(document.querySelectorAll('*'))
                     .filter(h => h.shadowRoot).flatMap(h => Array.from(
                         h.shadowRoot.querySelectorAll(`input[aria-label="${label}"]`)))
                     .some(i => i.value === text)""",
                arg=[f"W_a, row {row}, column {col}", text],
                timeout=TIMEOUT,
                polling=POLL_MS,
            )

        cell(1, "q:8").wait_for()
        table = page.locator("table[role=grid][aria-label=W_a]")
        assert "cg-folded" in table.get_attribute("class")
        assert cell(1, "k:1").bounding_box()["y"] > cell(8, "q:8").bounding_box()["y"]
        cell(1, "q:8").focus()
        page.keyboard.press("ArrowRight")  # into the second block
        assert focused(page) == "W_a, row 1, column k:1"
        page.keyboard.press("ArrowLeft")
        assert focused(page) == "W_a, row 1, column q:8"

        cell(1, "k:8").focus()
        page.keyboard.press("Alt+ArrowUp")
        settled_value(1, "k:8", "0.1")

        box = cell(2, "k:8").bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        for dx in (8, 16, 24):
            page.mouse.move(x - dx, y)
        page.mouse.up()
        settled_value(2, "k:8", "\u22120.3")

        cell(3, "k:8").focus()
        type_and_enter(page, "0.123457")
        assert focused(page) == "W_a, row 4, column k:8"
        settled_value(3, "k:8", "0.123457")
        fit = table.evaluate(
            """t => { const s = t.closest('.cg-scroll');
                     const i = t.querySelector('input[aria-label="W_a, row 3, column k:8"]');
                     return [s.scrollWidth <= s.clientWidth + 1,
                             i.scrollWidth <= i.clientWidth + 1]; }"""
        )
        assert fit == [True, True]
    finally:
        page.close()
    assert not errors, errors
