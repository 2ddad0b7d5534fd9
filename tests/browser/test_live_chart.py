"""The kit's charts redraw in place (attention_ui/kit/figures/live_chart.py): an edit keeps each
chart's element and brings the new numbers into it (its data, its hover text, its table); the
camera still saves a PNG; a scrub of a Q cell moves the charts many times a second and ends on
the engine's result for the value it ends on."""

from __future__ import annotations

import time

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_core import attention
from attention_ui.luong.presets import PRESETS
from tests.browser.conftest import (
    grid,
    open_page,
    type_into_cell,
    wait_for_plot,
    wait_idle,
)

FIRST = PRESETS["first"].column_matrices()  # the page opens with it: Q is 2 × 2, K 2 × 3
SCORES = "S: scores"
SCRUB_SECONDS = 3.0
pytestmark = pytest.mark.timeout(400)

# The chart element titled `title` (tags stripped), as the page holds it.
_PLOT = """(title) => Array.from(document.querySelectorAll('.js-plotly-plot')).find(
    p => p._fullLayout && p._fullLayout.title
         && (p._fullLayout.title.text || '').replace(/<[^>]*>/g, '') === title)"""


def scores(q: np.ndarray) -> list:
    return attention(q, FIRST["K"], FIRST["V"]).scores.tolist()


def test_an_edit_redraws_the_chart_in_its_own_element_with_the_new_numbers(page, server):
    open_page(page, server, "luong")
    wait_for_plot(page, SCORES, scores(FIRST["Q"]), timeout=60_000)
    page.evaluate(f"() => {{ ({_PLOT})('{SCORES}').dataset.before = 'yes'; }}")
    type_into_cell(page, grid(page, 0), 0, 0, "3.5")
    q = FIRST["Q"].copy()
    q[0, 0] = 3.5
    wait_for_plot(page, SCORES, scores(q), timeout=60_000)
    # the very element that was drawn before the edit holds the new numbers
    assert page.evaluate(f"() => ({_PLOT})('{SCORES}').dataset.before") == "yes"
    assert int(page.evaluate(f"() => ({_PLOT})('{SCORES}').dataset.revision")) >= 2
    # its hover text is the new arithmetic: hover over the first cell (k1, q1) = 3.5 · 1
    chart = page.locator("[data-testid=stPlotlyChart]").filter(
        has=page.locator(".gtitle", has_text=SCORES)
    )
    chart.scroll_into_view_if_needed()
    box = chart.locator(".nsewdrag").first.bounding_box()  # the plot area
    rows, cols = np.shape(scores(q))
    page.mouse.move(box["x"] + box["width"] / (2 * cols), box["y"] + box["height"] / (2 * rows))
    hover = page.locator(".hoverlayer .hovertext").first
    expect(hover).to_contain_text("3.5")
    # its numbers as a table, on request, under the chart as before
    page.get_by_text("Numbers as a table").first.click()  # S's: the first chart's
    expect(page.locator("[data-testid=stExpander] [data-testid=stDataFrame]").first).to_be_visible()


def test_the_camera_saves_the_chart_as_a_png_named_after_it(page, server):
    open_page(page, server, "luong")
    wait_for_plot(page, SCORES, scores(FIRST["Q"]), timeout=60_000)
    chart = page.locator("[data-testid=stPlotlyChart]").filter(
        has=page.locator(".gtitle", has_text=SCORES)
    )
    chart.hover()
    with page.expect_download(timeout=60_000) as download:
        chart.locator('.modebar-btn[data-title="Download plot as a PNG"]').click()
    name = download.value.suggested_filename
    assert name == "attention-explorer_luong_chart_S_dot_column.png"
    path = download.value.path()
    with open(path, "rb") as file:
        assert file.read(8) == b"\x89PNG\r\n\x1a\n"


# Every distinct state the scores chart shows, with when it was first seen (one look per frame).
_WATCH = f"""(title) => {{
    const states = [];
    window.__states = states;
    let last = null;
    const look = () => {{
        const plot = ({_PLOT})(title);
        if (plot && plot._fullData && plot._fullData[0]) {{
            const z = JSON.stringify(Array.from(plot._fullData[0].z, r => Array.from(r)));
            if (z !== last) {{ last = z; states.push([performance.now(), z]); }}
        }}
        if (!window.__stopWatch) requestAnimationFrame(look);
    }};
    window.__stopWatch = false;
    requestAnimationFrame(look);
}}"""


def test_scrubbing_a_q_cell_moves_the_charts_and_ends_on_the_engines_result(page, server):
    open_page(page, server, "luong")
    wait_for_plot(page, SCORES, scores(FIRST["Q"]), timeout=60_000)
    q_cell = grid(page, 0).locator("tbody tr").first.locator("input").first
    q_cell.evaluate("el => el.scrollIntoView({block: 'center'})")
    box = q_cell.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate(_WATCH, SCORES)
    page.mouse.move(x, y)
    page.mouse.down()
    start = time.monotonic()
    begun = page.evaluate("() => performance.now()")
    moved = 0
    while time.monotonic() - start < SCRUB_SECONDS:  # a hand: 8 px (one step) every 25 ms
        moved += 8
        page.mouse.move(x + moved % 400, y)
        page.wait_for_timeout(25)
    ended = page.evaluate("() => performance.now()")
    page.mouse.up()
    wait_idle(page)
    final = float(q_cell.input_value().replace("\u2212", "-"))
    q = FIRST["Q"].copy()
    q[0, 0] = final
    wait_for_plot(page, SCORES, scores(q), timeout=60_000)
    page.evaluate("() => { window.__stopWatch = true; }")
    states = page.evaluate("() => window.__states")
    during = [s for s in states if begun <= s[0] <= ended]
    rate = len(during) / ((ended - begun) / 1000)
    print(f"scrub: {len(during)} chart states in {(ended - begun) / 1000:.2f} s = {rate:.1f}/s")
    # the charts move while the hand does, not only once it lets go (the rate itself is a
    # figure of bench/browser.py --scrub: no timed assertion in a test)
    assert during, "no chart state drawn during the scrub"
    assert final != FIRST["Q"][0, 0]


def test_after_a_fast_scrub_the_last_value_wins_on_every_chart(page, server):
    """Steps faster than any round trip (Alt+Up pressed back to back, then a drag with no pause
    between its moves): the steps that find one on its way wait and are replaced by newer ones,
    and whatever was skipped, the cell's last value is sent and S, A and O all end on the
    engine's numbers for it (a stale step's numbers drawn last would fail this)."""
    open_page(page, server, "luong")
    wait_for_plot(page, SCORES, scores(FIRST["Q"]), timeout=60_000)
    q_cell = grid(page, 0).locator("tbody tr").first.locator("input").first
    q_cell.focus()
    for _ in range(12):
        page.keyboard.press("Alt+ArrowUp")
    # leave the cell: a drag on the focused cell selects its text instead of scrubbing
    page.get_by_role("heading", level=1).first.click()
    q_cell.evaluate("el => el.scrollIntoView({block: 'center'})")
    box = q_cell.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for dx in range(8, 8 * 15, 8):
        page.mouse.move(x - dx, y)
    page.mouse.up()
    wait_idle(page)
    final = float(q_cell.input_value().replace("\u2212", "-"))
    assert final != FIRST["Q"][0, 0] + 1.2  # the drag moved it after the steps
    q = FIRST["Q"].copy()
    q[0, 0] = final
    result = attention(q, FIRST["K"], FIRST["V"])
    for title, numbers in (
        (SCORES, result.scores),
        ("A: weights", result.weights),
        ("O: output", result.output),
    ):
        wait_for_plot(page, title, numbers.tolist(), timeout=60_000)
    wait_idle(page)  # nothing older drawn over them afterwards
    for title, numbers in ((SCORES, result.scores), ("O: output", result.output)):
        wait_for_plot(page, title, numbers.tolist(), timeout=60_000)
