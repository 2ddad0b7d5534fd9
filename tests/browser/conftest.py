"""Browser tests: `streamlit run app.py` on a free loopback port, driven by Playwright in
Debian's Chromium (never a downloaded browser).

Fixtures
--------
server : the base URL of one app server shared by the whole session.
page : a fresh browser page; console errors and exception boxes fail the test, and a failing
    test leaves a screenshot in test-artifacts/.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.app_server import REPO, start_app, stop_app

ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
# Opened at a page's own address (/luong), Streamlit's frontend first looks for its server under
# that path (/luong/_stcore/health, /luong/_stcore/host-config), gets a 404 and then finds it at
# the root. Chromium logs those probes as console errors; they are not the app's errors.
BASE_PATH_PROBE = re.compile(r"^https?://[^/]+/[^?#]+/_stcore/(health|host-config)$")

pytestmark = pytest.mark.browser


def pytest_collection_modifyitems(config, items):
    """Mark every test of this folder `browser` (a conftest's `pytestmark` marks nothing), so
    that `-m browser` / `-m "not browser"` select them."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)


def console_error(message) -> str | None:
    """The text of a console message that should fail a test, or None (not an error, or
    Streamlit's own base-path probe)."""
    if message.type != "error":
        return None
    url = (message.location or {}).get("url", "")
    if "404" in message.text and BASE_PATH_PROBE.match(url):
        return None
    return message.text


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    process, url = start_app()
    yield url
    stop_app(process)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.failed_call = report.failed


@pytest.fixture
def page(browser, request):
    """A new page at 1280×900. Console errors are collected and fail the test at the end."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.extend(filter(None, [console_error(msg)])))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    if getattr(request.node, "failed_call", False):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert not errors, f"browser console errors: {errors}"


def wait_idle(page, timeout: float = 30_000) -> None:
    """Wait until Streamlit has finished the current run (and give it a moment to start one)."""
    page.wait_for_timeout(150)
    page.wait_for_selector(IDLE, timeout=timeout)
    # One run can follow another at once (the first visit writes the state into the address
    # and goes to its page; a fragment's rerun follows the page's): idle must hold a moment.
    while True:
        page.wait_for_timeout(200)
        if page.locator(IDLE).count():
            return
        page.wait_for_selector(IDLE, timeout=timeout)


def open_page(page, server: str, path: str = "", query: str = "", timeout: float = 60_000) -> None:
    """Go to a page of the app and wait for its first run to finish with no exception box."""
    page.goto(f"{server}/{path}{'?' + query if query else ''}")
    page.wait_for_selector("[data-testid=stApp]", timeout=timeout)
    wait_idle(page, timeout=timeout)
    # The bare address goes on to the home page, and a first visit writes its state into the
    # address: wait for the page's own title, then for the run that drew it to end.
    page.wait_for_selector("h1", timeout=timeout)
    wait_idle(page, timeout=timeout)
    assert_no_exception(page)


def assert_no_exception(page) -> None:
    assert page.locator("[data-testid=stException]").count() == 0, "exception shown on page"


# --- Driving widgets as a user would (used by the tour; any test may use them) ---------------

# Streamlit's grid (Glide Data Grid) draws on a canvas: a cell is reached by clicking it. Rows
# are 35 px high, the header is row 0; column widths depend on the content, so a cell is reached
# from the last column, clicked at the grid's right edge, with the arrow keys. This assumes the
# last column ends at that edge (a grid as wide as its columns, or stretched to its container);
# a grid wider than its container would need scrolling first.
GRID_ROW_PX = 35


def grid(page, index: int):
    """The `index`-th st.data_editor / st.dataframe on the page (0 = first)."""
    locator = page.locator("[data-testid=stDataFrame]").nth(index)
    locator.wait_for()
    return locator


def select_cell(page, grid_locator, row: int, col: int, columns: int) -> None:
    """Select data cell (row, col) of a grid with `columns` data columns (0-based, the index
    column not counted)."""
    # Centred in the window, so that the app's sticky header does not cover it.
    grid_locator.evaluate("el => el.scrollIntoView({block: 'center'})")
    scroller = grid_locator.locator(".dvn-scroller").first  # the grid's event surface
    scroller.wait_for()
    x = scroller.bounding_box()["width"] - 12  # inside the last column
    scroller.click(position={"x": x, "y": GRID_ROW_PX * (row + 1) + GRID_ROW_PX / 2})
    column = wait_for_selected_cell(page, grid_locator, row)
    for _ in range(columns - 1 - col):
        page.keyboard.press("ArrowLeft")
        column = wait_for_selected_cell(page, grid_locator, row, column - 1)


# The grid mirrors its canvas in an accessible table: the selected cell is the focused <td>
# with id glide-cell-<column>-<row>; the columns count the index and any other column drawn
# before the data, so moves are followed relative to the clicked cell.
_SELECTED = """([grid, row, column]) => { const cell = document.activeElement;
    const id = grid.contains(cell) && cell.getAttribute('aria-selected') === 'true'
               && /^glide-cell-(\\d+)-(\\d+)$/.exec(cell.id);
    if (!id || Number(id[2]) !== row) return null;
    return column === null || Number(id[1]) === column ? {column: Number(id[1])} : null; }"""


def wait_for_selected_cell(
    page, grid_locator, row: int, column: int | None = None, timeout: float = 60_000
) -> int:
    """Wait until a cell of data row `row` (in the grid's own `column`, if given) is the grid's
    selected, focused cell, so that keys typed from then on go to it (the grid takes the focus
    a moment after a click); returns its column."""
    handle = page.wait_for_function(
        _SELECTED, arg=[grid_locator.element_handle(), row, column], timeout=timeout
    )
    return handle.json_value()["column"]


def wait_for_editor_text(page, text: str, timeout: float) -> None:
    """Wait until the cell editor (an overlay outside the grid: a textarea for text cells)
    holds exactly `text`, so that Enter commits `text`, no less."""
    page.wait_for_function(
        """(text) => { const box = document.querySelector(
               '[data-testid=portal] textarea, [data-testid=portal] input');
               return box !== null && box.value === text; }""",
        arg=text,
        timeout=timeout,
    )


def open_cell_editor(page, text: str, timeout: float = 60_000) -> None:
    """With a cell selected: open its editor (Enter), replace its text by typing `text` key by
    key, and wait until the editor holds all of it (Enter then commits `text`, no less). The
    editor is an overlay outside the grid (a textarea for text cells). Typing the first
    character into a selected cell also opens it, but only for a character on the keyboard:
    not for '−' or '－'."""
    page.keyboard.press("Enter")
    editor = page.locator("[data-testid=portal] textarea, [data-testid=portal] input").first
    editor.wait_for(timeout=timeout)
    editor.press("Control+A")
    page.keyboard.type(text)
    wait_for_editor_text(page, text, timeout)
    # As in type_into_cell: a moment for the grid to take the last key as its value (Enter at
    # once after the DOM held the text lost typed cells in CI).
    page.wait_for_timeout(100)


def type_into_cell(page, grid_locator, row: int, col: int, text: str, columns: int) -> None:
    """Type `text` into a cell and press Enter, as a learner does; waits for the rerun."""
    select_cell(page, grid_locator, row, col, columns)
    page.keyboard.type(text[:1])
    # The first key opens the cell's editor (an overlay outside the grid) with that key as its
    # text; then the rest. Enter commits what the editor holds, so wait until it holds all of
    # `text`, and give the grid a moment to take the last key as its value (CI lost 4 of 4
    # typed cells in a full browser run when Enter followed the DOM's value at once).
    page.locator("[data-testid=portal] .gdg-clip-region").first.wait_for(timeout=30_000)
    page.keyboard.type(text[1:])
    wait_for_editor_text(page, text, 30_000)
    page.wait_for_timeout(100)
    page.keyboard.press("Enter")
    wait_idle(page)


def clear_cell(page, grid_locator, row: int, col: int, columns: int) -> None:
    """Select a cell and press Delete (the grid sends an empty cell); waits for the rerun."""
    select_cell(page, grid_locator, row, col, columns)
    page.keyboard.press("Delete")
    wait_idle(page)


def move_slider(page, label: str, presses: int) -> None:
    """Move a slider (or select slider) by `presses` steps with the keyboard (negative: left)."""
    slider = page.get_by_role("slider", name=label)
    wait_idle(page)  # a run still drawing could redraw the slider under the keys
    slider.focus()
    for _ in range(abs(presses)):
        before = slider.get_attribute("aria-valuenow")
        slider.press("ArrowRight" if presses > 0 else "ArrowLeft")
        # one step at a time: the next key goes to the slider only once it has taken this one
        expect(slider).not_to_have_attribute("aria-valuenow", before or "")
    wait_idle(page)


def pick_option(page, label: str, option: str) -> None:
    """Open the selectbox labelled `label` and click `option`; waits for the rerun."""
    page.get_by_label(label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()
    wait_idle(page)


# The data of the Plotly chart titled `title` (first trace), as the browser holds it. Streamlit's
# theme wraps titles in <b>…</b>, so tags are stripped before comparing.
_PLOT_DATA = """(title) => {
    const plot = Array.from(document.querySelectorAll('.js-plotly-plot')).find(
        p => p._fullLayout && p._fullLayout.title && p._fullData && p._fullData.length
             && (p._fullLayout.title.text || '').replace(/<[^>]*>/g, '') === title);
    if (!plot) return null;
    const trace = plot._fullData[0];
    const list = a => a ? Array.from(a, v => (v && v.length !== undefined
                                              && typeof v !== 'string') ? Array.from(v) : v)
                        : null;
    return {z: list(trace.z), x: list(trace.x), y: list(trace.y), type: trace.type};
}"""


def plot_data(page, title: str, timeout: float = 15_000) -> dict:
    """{'z', 'x', 'y', 'type'} of the first trace of the chart titled `title` (tags stripped),
    waiting for it to be drawn (Plotly loads lazily after the run)."""
    page.wait_for_function(f"(title) => ({_PLOT_DATA})(title) !== null", arg=title, timeout=timeout)
    return page.evaluate(_PLOT_DATA, title)


def wait_for_plot(page, title: str, expected, field: str = "z", timeout: float = 15_000) -> None:
    """Wait until the chart titled `title` shows `expected` in its first trace's `field`
    ("z" of a heatmap, "y" or "x" of a bar chart), compared flattened within 1e-9."""
    page.wait_for_function(
        f"""([title, expected, field]) => {{
            const data = ({_PLOT_DATA})(title);
            if (!data || !data[field]) return false;
            const got = data[field].flat(), want = expected.flat(Infinity);
            return got.length === want.length && got.every(
                (v, i) => Math.abs(v - want[i]) <= 1e-9 * Math.max(1, Math.abs(v)));
        }}""",
        arg=[title, expected, field],
        timeout=timeout,
    )


# The head grid has no layout title: it is found by its first panel's title (an annotation).
HEAD_GRID = """(first) => {
    const plot = Array.from(document.querySelectorAll('.js-plotly-plot')).find(
        p => p._fullLayout && (p._fullLayout.annotations || []).some(
            a => (a.text || '').replace(/<[^>]*>/g, '') === first));
    if (!plot) return null;
    return plot._fullData.filter(t => t.type === 'heatmap').map(
        t => ({x: Array.from(t.x), z: Array.from(t.z, row => Array.from(row))}));
}"""
