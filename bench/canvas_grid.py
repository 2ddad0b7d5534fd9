"""Typing into an st.data_editor grid (Glide Data Grid, drawn on a canvas), for bench/browser.py
on a baseline checkout whose grids are still data editors (the app's own grids are the matrix
editor's labelled inputs, which Playwright types into directly).

A cell is reached by clicking it: rows are 35 px high, the header is row 0; columns are
reached from the last one (clicked at the grid's right edge) with the arrow keys. The grid
mirrors its canvas in an accessible table whose focused <td id="glide-cell-<column>-<row>">
is the selected cell; its cell editor is an overlay outside the grid.
"""

from __future__ import annotations

GRID_ROW_PX = 35
EDITOR = "[data-testid=portal] textarea, [data-testid=portal] input"
_SELECTED = """([grid, row, column]) => { const cell = document.activeElement;
    const id = grid.contains(cell) && cell.getAttribute('aria-selected') === 'true'
               && /^glide-cell-(\\d+)-(\\d+)$/.exec(cell.id);
    if (!id || Number(id[2]) !== row) return null;
    return column === null || Number(id[1]) === column ? {column: Number(id[1])} : null; }"""


def _selected(page, grid, row: int, column: int | None = None) -> int:
    """Wait until a cell of data row `row` (in the grid's own `column`, if given) is the
    selected, focused cell; returns its column."""
    handle = page.wait_for_function(_SELECTED, arg=[grid.element_handle(), row, column])
    return handle.json_value()["column"]


def select_cell(page, index: int, row: int, col: int, columns: int) -> None:
    """Select data cell (row, col) of the `index`-th data editor, which has `columns` data
    columns (0-based, the index column not counted)."""
    grid = page.locator("[data-testid=stDataFrame]").nth(index)
    grid.evaluate("el => el.scrollIntoView({block: 'center'})")
    scroller = grid.locator(".dvn-scroller").first  # the grid's event surface
    x = scroller.bounding_box()["width"] - 12  # inside the last column
    scroller.click(position={"x": x, "y": GRID_ROW_PX * (row + 1) + GRID_ROW_PX / 2})
    column = _selected(page, grid, row)
    for _ in range(columns - 1 - col):
        page.keyboard.press("ArrowLeft")
        column = _selected(page, grid, row, column - 1)


def open_cell_editor(page, text: str) -> None:
    """With a cell selected: open its editor (Enter), replace its text by `text`, and wait
    until the editor holds all of it (so that the next Enter commits `text`, no less)."""
    page.keyboard.press("Enter")
    editor = page.locator(EDITOR).first
    editor.wait_for()
    editor.press("Control+A")
    page.keyboard.type(text)
    page.wait_for_function(
        "([selector, text]) => { const box = document.querySelector(selector);"
        " return box !== null && box.value === text; }",
        arg=[EDITOR, text],
    )
    page.wait_for_timeout(100)  # a moment for the grid to take the last key as its value
